// tracer/kernels/copy.h — strided copies: the one loop behind broadcast, transpose and slice.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "strata/shape.h"

namespace strata::kernels {

// Row-major strides (in elements) of a contiguous array of `shape`.
std::vector<int64_t> contiguous_strides(const Shape& shape);

// Writes the contiguous array dst[out_shape] with
//   dst[i_0, ..., i_k] = src[offset + sum_d i_d * src_strides[d]]
// (a stride of 0 repeats an element: broadcasting). Elements are `itemsize` bytes.
void strided_copy(const void* src, int64_t offset, const std::vector<int64_t>& src_strides,
                  void* dst, const Shape& out_shape, std::size_t itemsize);

}  // namespace strata::kernels
