// tracer/kernels/conv.h — conv_general_dilated on contiguous arrays: an implicit GEMM of the
// [groups, batch × output positions, window × features] patch matrix (never materialised:
// blocks of it are read in place or packed, tile by tile) by the kernel packed as [groups,
// window × features, out features]. Shared by the eager kernel and the compiled code's runtime
// (backends/cpu, strata_rt_conv), so both give the same bits.
#pragma once

#include "../shape_rules.h"
#include "strata/dtype.h"
#include "strata/shape.h"

namespace strata::kernels {

// out (shape from shape_rules::conv_general_dilated) = the convolution of lhs and rhs, all
// contiguous and of `dtype` (a float dtype; bf16/f16 accumulate in f32 and round once).
void conv_general_dilated(DType dtype, const void* lhs, const void* rhs, void* out, const Shape& lhs_shape,
                          const Shape& rhs_shape, const Shape& out_shape, const shape_rules::ConvParams& p);

}  // namespace strata::kernels
