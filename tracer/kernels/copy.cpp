#include "copy.h"

#include <cstring>

#include "parallel.h"

namespace strata::kernels {

std::vector<int64_t> contiguous_strides(const Shape& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d)
    s[static_cast<size_t>(d)] = s[static_cast<size_t>(d) + 1] * shape[static_cast<size_t>(d) + 1];
  return s;
}

namespace {

struct Bytes16 {
  uint64_t lo, hi;
};

template <class T>
void inner_loop(const char* src, int64_t stride, char* dst, int64_t n) {
  const T* s = reinterpret_cast<const T*>(src);
  T* d = reinterpret_cast<T*>(dst);
  if (stride == 0) {
    T v = *s;
    for (int64_t i = 0; i < n; ++i) d[i] = v;
  } else {
    for (int64_t i = 0; i < n; ++i) d[i] = s[i * stride];
  }
}

void inner(const char* src, int64_t stride, char* dst, int64_t n, std::size_t itemsize) {
  if (stride == 1) {
    std::memcpy(dst, src, static_cast<size_t>(n) * itemsize);
    return;
  }
  switch (itemsize) {
    case 1: inner_loop<uint8_t>(src, stride, dst, n); break;
    case 2: inner_loop<uint16_t>(src, stride, dst, n); break;
    case 4: inner_loop<uint32_t>(src, stride, dst, n); break;
    case 8: inner_loop<uint64_t>(src, stride, dst, n); break;
    case 16: inner_loop<Bytes16>(src, stride, dst, n); break;  // c128
    default:
      for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * itemsize, src + i * stride * static_cast<int64_t>(itemsize), itemsize);
  }
}

}  // namespace

void strided_copy(const void* src, int64_t offset, const std::vector<int64_t>& src_strides,
                  void* dst, const Shape& out_shape, std::size_t itemsize) {
  // Merge adjacent dims where the source is contiguous across them, drop size-1 dims.
  Shape shape;
  std::vector<int64_t> strides;
  for (size_t d = 0; d < out_shape.size(); ++d) {
    if (out_shape[d] == 0) return;
    if (out_shape[d] == 1) continue;
    if (!shape.empty() && strides.back() == src_strides[d] * out_shape[d]) {
      shape.back() *= out_shape[d];
      strides.back() = src_strides[d];
    } else {
      shape.push_back(out_shape[d]);
      strides.push_back(src_strides[d]);
    }
  }
  const char* s = static_cast<const char*>(src) + offset * static_cast<int64_t>(itemsize);
  char* d = static_cast<char*>(dst);
  if (shape.empty()) {
    std::memcpy(d, s, itemsize);
    return;
  }
  int rank = static_cast<int>(shape.size());
  int64_t inner_n = shape.back(), inner_stride = strides.back();
  int64_t rows = 1;
  for (int i = 0; i + 1 < rank; ++i) rows *= shape[static_cast<size_t>(i)];
  int64_t grain = std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(inner_n, 1));
  parallel_for(rows, grain, [&](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; ++r) {
      // Source offset of row r: decompose r over the outer dims.
      int64_t rem = r, off = 0;
      for (int i = rank - 2; i >= 0; --i) {
        off += (rem % shape[static_cast<size_t>(i)]) * strides[static_cast<size_t>(i)];
        rem /= shape[static_cast<size_t>(i)];
      }
      inner(s + off * static_cast<int64_t>(itemsize), inner_stride,
            d + r * inner_n * static_cast<int64_t>(itemsize), inner_n, itemsize);
    }
  });
}

}  // namespace strata::kernels
