// conv_general_dilated as im2col + GEMM (the layout-generic path: any dimension numbers,
// strides, padding, dilations and groups). Feature groups and batch groups are both the GEMM's
// batch: group g reads lhs features [g·Cg, (g+1)·Cg) (feature groups) or lhs batch rows
// [g·N', (g+1)·N') (batch groups) and writes output features [g·Og, (g+1)·Og).
#include "conv.h"

#include <algorithm>
#include <vector>

#include "copy.h"
#include "gemm.h"
#include "parallel.h"
#include "types.h"

namespace strata::kernels {
namespace {

using shape_rules::ConvParams;

template <class T>
void conv_impl(DType dtype, const T* x, const T* w, T* y, const Shape& xs, const Shape& ws, const Shape& ys,
               const ConvParams& p) {
  const size_t rank = xs.size(), nsp = rank - 2;
  const IntList xst = contiguous_strides(xs), wst = contiguous_strides(ws), yst = contiguous_strides(ys);
  auto dim = [](const Shape& s, int64_t d) { return s[static_cast<size_t>(d)]; };
  auto str = [](const IntList& s, int64_t d) { return s[static_cast<size_t>(d)]; };
  const int64_t G = p.feature_group_count, B = p.batch_group_count, NG = G * B;
  const int64_t N = dim(xs, p.lhs_spec[0]) / B, C = dim(xs, p.lhs_spec[1]), Cg = C / G;
  const int64_t Og = dim(ws, p.rhs_spec[0]) / NG;
  std::vector<int64_t> os(nsp), ks(nsp);
  int64_t S = 1, K = 1;
  for (size_t i = 0; i < nsp; ++i) {
    os[i] = dim(ys, p.out_spec[i + 2]);
    ks[i] = dim(ws, p.rhs_spec[i + 2]);
    S *= os[i];
    K *= ks[i];
  }
  const int64_t total = NG * N * S * Og;
  if (total == 0) return;
  if (K * Cg == 0) {
    std::fill_n(y, total, T(0));
    return;
  }
  // src[i][s·ks + k]: the lhs offset along spatial dim i read by output s and window tap k, or
  // -1 where that lands in padding or between lhs-dilated elements.
  std::vector<std::vector<int64_t>> src(nsp);
  for (size_t i = 0; i < nsp; ++i) {
    const int64_t in = dim(xs, p.lhs_spec[i + 2]), ld = p.lhs_dilation[i];
    src[i].resize(static_cast<size_t>(os[i] * ks[i]));
    for (int64_t s = 0; s < os[i]; ++s)
      for (int64_t k = 0; k < ks[i]; ++k) {
        int64_t pos = s * p.window_strides[i] + k * p.rhs_dilation[i] - p.padding_low[i];
        bool ok = pos >= 0 && pos % ld == 0 && pos / ld < in;
        src[i][static_cast<size_t>(s * ks[i] + k)] = ok ? (pos / ld) * str(xst, p.lhs_spec[i + 2]) : -1;
      }
  }
  // Each flat output position / window tap as its per-dimension indices (row-major).
  auto unflatten = [&](int64_t count, const std::vector<int64_t>& sizes) {
    std::vector<int64_t> idx(static_cast<size_t>(count) * nsp);
    for (int64_t f = 0; f < count; ++f)
      for (size_t i = nsp, r = static_cast<size_t>(f); i-- > 0;) {
        idx[static_cast<size_t>(f) * nsp + i] = static_cast<int64_t>(r) % sizes[i];
        r /= static_cast<size_t>(sizes[i]);
      }
    return idx;
  };
  const std::vector<int64_t> sidx = unflatten(S, os), kidx = unflatten(K, ks);
  const int64_t xN = str(xst, p.lhs_spec[0]), xC = str(xst, p.lhs_spec[1]);

  // Patches [NG][N·S][K·Cg] and the kernel as [NG][K·Cg][Og].
  const int64_t rows = N * S, cols = K * Cg;
  std::vector<T> patches(static_cast<size_t>(NG * rows * cols));
  parallel_for(NG * rows, 16, [&](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; ++r) {
      const int64_t g = r / rows, n = (r % rows) / S, s = r % S;
      const int64_t batch = (B > 1 ? g * N : 0) + n, f0 = G > 1 ? g * Cg : 0;
      T* dst = patches.data() + r * cols;
      for (int64_t k = 0; k < K; ++k, dst += Cg) {
        int64_t off = batch * xN + f0 * xC;
        bool ok = true;
        for (size_t i = 0; i < nsp && ok; ++i) {
          int64_t o = src[i][static_cast<size_t>(sidx[static_cast<size_t>(s) * nsp + i] * ks[i] +
                                                  kidx[static_cast<size_t>(k) * nsp + i])];
          ok = o >= 0;
          off += o;
        }
        if (!ok) {
          std::fill_n(dst, Cg, T(0));
          continue;
        }
        for (int64_t c = 0; c < Cg; ++c) dst[c] = x[off + c * xC];
      }
    }
  });
  std::vector<T> kernel(static_cast<size_t>(NG * cols * Og));
  const int64_t wO = str(wst, p.rhs_spec[0]), wI = str(wst, p.rhs_spec[1]);
  for (int64_t g = 0; g < NG; ++g)
    for (int64_t k = 0; k < K; ++k) {
      int64_t koff = 0;
      for (size_t i = 0; i < nsp; ++i) koff += kidx[static_cast<size_t>(k) * nsp + i] * str(wst, p.rhs_spec[i + 2]);
      for (int64_t c = 0; c < Cg; ++c)
        for (int64_t o = 0; o < Og; ++o)
          kernel[static_cast<size_t>(((g * K + k) * Cg + c) * Og + o)] = w[koff + c * wI + (g * Og + o) * wO];
    }
  std::vector<T> product(static_cast<size_t>(NG * rows * Og));
  DotGeneralDims dims{{NG, rows, cols}, {NG, cols, Og}, {0}, {0}, {2}, {1}};
  dot_general(dtype, patches.data(), kernel.data(), product.data(), dims, nullptr);
  const int64_t yN = str(yst, p.out_spec[0]), yF = str(yst, p.out_spec[1]);
  parallel_for(NG * rows, 16, [&](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; ++r) {
      const int64_t g = r / rows, n = (r % rows) / S, s = r % S;
      int64_t off = n * yN + g * Og * yF;
      for (size_t i = 0; i < nsp; ++i) off += sidx[static_cast<size_t>(s) * nsp + i] * str(yst, p.out_spec[i + 2]);
      const T* row = product.data() + r * Og;
      for (int64_t o = 0; o < Og; ++o) y[off + o * yF] = row[o];
    }
  });
}

}  // namespace

void conv_general_dilated(DType dtype, const void* lhs, const void* rhs, void* out, const Shape& lhs_shape,
                          const Shape& rhs_shape, const Shape& out_shape, const ConvParams& p) {
  dispatch(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_storage<T>)
      conv_impl<T>(dtype, static_cast<const T*>(lhs), static_cast<const T*>(rhs), static_cast<T*>(out), lhs_shape,
                   rhs_shape, out_shape, p);
    else
      throw DTypeError("conv_general_dilated: expects float operands");
  });
}

}  // namespace strata::kernels
