// strata/conv.h — convolution (jax.lax.conv_general_dilated) and pooling.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata {

// The padding of each spatial dimension: "SAME" (output size ceil(in / stride), the odd extra
// after), "SAME_LOWER" (the odd extra before), "VALID" (none), or explicit (low, high) pairs,
// which may be negative (cropping), as jax.lax takes them.
struct Padding {
  Padding(const char* mode) : mode(mode) {}                   // NOLINT: implicit on purpose
  Padding(std::string mode) : mode(std::move(mode)) {}        // NOLINT
  Padding(std::vector<std::pair<int64_t, int64_t>> p) : pairs(std::move(p)) {}  // NOLINT
  Padding(std::initializer_list<std::pair<int64_t, int64_t>> p) : pairs(p) {}  // NOLINT
  std::string mode;                                  // empty: the explicit pairs
  std::vector<std::pair<int64_t, int64_t>> pairs;
};

// JAX's ConvDimensionNumbers: which array dimension holds lhs (batch, feature, spatial...),
// rhs (out feature, in feature, spatial...) and out (batch, feature, spatial...). Give them as
// explicit lists or as JAX's strings, e.g. {"NCHW", "OIHW", "NCHW"} or {"NHWC", "HWIO",
// "NHWC"} (N/C, O/I name batch/feature; any other letters are spatial, ordered as in the rhs
// string). Empty (the default): every operand in the order (batch or out, feature or in,
// spatial...), JAX's default.
struct ConvDimensionNumbers {
  ConvDimensionNumbers() = default;
  ConvDimensionNumbers(std::vector<int64_t> lhs, std::vector<int64_t> rhs, std::vector<int64_t> out)
      : lhs_spec(std::move(lhs)), rhs_spec(std::move(rhs)), out_spec(std::move(out)) {}
  ConvDimensionNumbers(std::string lhs, std::string rhs, std::string out);
  std::vector<int64_t> lhs_spec, rhs_spec, out_spec;
};

// jax.lax.conv_general_dilated: for each output position, the sum over a window of `lhs`
// (spatial step `window_strides`, after inserting lhs_dilation - 1 zeros between its elements
// and padding) times `rhs` (its taps rhs_dilation apart). Operands of one float dtype.
// `feature_group_count` splits the features into independent groups (depthwise: = features);
// `batch_group_count` splits the batch likewise (what the kernel gradient of a grouped
// convolution is). Empty dilation lists mean 1 in every dimension.
Array conv_general_dilated(const Array& lhs, const Array& rhs, const std::vector<int64_t>& window_strides,
                           const Padding& padding, const std::vector<int64_t>& lhs_dilation = {},
                           const std::vector<int64_t>& rhs_dilation = {},
                           const ConvDimensionNumbers& dimension_numbers = {}, int64_t feature_group_count = 1,
                           int64_t batch_group_count = 1, SourceLocation loc = SourceLocation::current());

// jax.lax.conv: conv_general_dilated with the default dimension numbers (NCHW, OIHW, NCHW),
// no dilation and one feature group.
Array conv(const Array& lhs, const Array& rhs, const std::vector<int64_t>& window_strides, const Padding& padding,
           SourceLocation loc = SourceLocation::current());
// jax.lax.conv_with_general_padding: the same with dilations.
Array conv_with_general_padding(const Array& lhs, const Array& rhs, const std::vector<int64_t>& window_strides,
                                const Padding& padding, const std::vector<int64_t>& lhs_dilation,
                                const std::vector<int64_t>& rhs_dilation,
                                SourceLocation loc = SourceLocation::current());

// jax.lax.conv_transpose: the fractionally strided convolution (lhs dilated by `strides`), as
// flax's ConvTranspose uses it; output sizes follow keras' Conv2DTranspose. Empty dimension
// numbers mean TensorFlow's layout, as JAX: (NC, IO, NC), (NHC, HIO, NHC), (NHWC, HWIO, NHWC),
// (NHWDC, HWDIO, NHWDC). "SAME"/"VALID" are the padding of the forward convolution; explicit
// pairs are the padding of the transposed convolution itself — unless use_consistent_padding,
// when pairs too are the forward convolution's (PyTorch's convention; then conv_transpose is
// the gradient of conv_general_dilated with the same strides and padding). transpose_kernel
// flips the kernel's spatial dimensions and swaps its I and O dimensions (keras' behaviour).
Array conv_transpose(const Array& lhs, const Array& rhs, const std::vector<int64_t>& strides, const Padding& padding,
                     const std::vector<int64_t>& rhs_dilation = {}, const ConvDimensionNumbers& dimension_numbers = {},
                     bool transpose_kernel = false, bool use_consistent_padding = false,
                     SourceLocation loc = SourceLocation::current());

// jax.lax.conv_general_dilated_patches: the receptive field of each output position of a
// convolution with a kernel of spatial shape `filter_shape` (in the order of the rhs spec's
// spatial dimensions), flattened into the output's feature dimension in the order (input
// feature, filter spatial...): a convolution with an identity kernel, so it is exact and
// differentiable. Dimension numbers as conv_general_dilated's (the rhs spec only orders
// filter_shape).
Array conv_general_dilated_patches(const Array& lhs, const std::vector<int64_t>& filter_shape,
                                   const std::vector<int64_t>& window_strides, const Padding& padding,
                                   const std::vector<int64_t>& lhs_dilation = {},
                                   const std::vector<int64_t>& rhs_dilation = {},
                                   const ConvDimensionNumbers& dimension_numbers = {},
                                   SourceLocation loc = SourceLocation::current());

// jax.lax.conv_general_dilated_local: an unshared ("locally connected") convolution — a
// separate kernel at each output position. rhs's spatial dimensions are the output's; its I
// dimension holds (input feature, filter spatial...) flattened, as the patches above.
Array conv_general_dilated_local(const Array& lhs, const Array& rhs, const std::vector<int64_t>& window_strides,
                                 const Padding& padding, const std::vector<int64_t>& filter_shape,
                                 const std::vector<int64_t>& lhs_dilation = {},
                                 const std::vector<int64_t>& rhs_dilation = {},
                                 const ConvDimensionNumbers& dimension_numbers = {},
                                 SourceLocation loc = SourceLocation::current());

// jax.lax.reduce_window with lax.add, lax.max or lax.min and its identity (0, -inf, +inf; the
// integer extremes for integers): each result element combines one window of `x`, after x is
// dilated by `base_dilation` (holes between elements) and padded (padding and holes read the
// identity); the window has one size per dimension of x, its taps `window_dilation` apart, and
// steps by `window_strides`. Empty lists mean 1 in every dimension; padding is "VALID", "SAME",
// "SAME_LOWER" or (low, high) pairs. Gradients as JAX's (max/min through select_and_scatter_add,
// which has no dilations).
Array reduce_window_sum(const Array& x, const std::vector<int64_t>& window_dimensions,
                        const std::vector<int64_t>& window_strides = {}, const Padding& padding = "VALID",
                        const std::vector<int64_t>& base_dilation = {}, const std::vector<int64_t>& window_dilation = {},
                        SourceLocation loc = SourceLocation::current());
Array reduce_window_max(const Array& x, const std::vector<int64_t>& window_dimensions,
                        const std::vector<int64_t>& window_strides = {}, const Padding& padding = "VALID",
                        const std::vector<int64_t>& base_dilation = {}, const std::vector<int64_t>& window_dilation = {},
                        SourceLocation loc = SourceLocation::current());
Array reduce_window_min(const Array& x, const std::vector<int64_t>& window_dimensions,
                        const std::vector<int64_t>& window_strides = {}, const Padding& padding = "VALID",
                        const std::vector<int64_t>& base_dilation = {}, const std::vector<int64_t>& window_dilation = {},
                        SourceLocation loc = SourceLocation::current());

namespace nn {

// Pooling as flax.linen: `x` is (batch, spatial..., features); `window` and `strides` (default:
// 1 in each dimension) run over the spatial dimensions; padding as for convolutions.
// max_pool: the largest element of each window (padding never wins). avg_pool: the window's
// sum divided by the window's size (padded positions count, flax's count_include_pad=True).
// Both are reduce_window (max; sum divided by the size), so their gradients are JAX's
// (select_and_scatter_add for max_pool).
Array max_pool(const Array& x, const std::vector<int64_t>& window, const std::vector<int64_t>& strides = {},
               const Padding& padding = "VALID", SourceLocation loc = SourceLocation::current());
Array avg_pool(const Array& x, const std::vector<int64_t>& window, const std::vector<int64_t>& strides = {},
               const Padding& padding = "VALID", SourceLocation loc = SourceLocation::current());

}  // namespace nn
}  // namespace strata
