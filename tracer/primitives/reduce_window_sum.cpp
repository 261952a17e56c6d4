// tracer/primitives/reduce_window_sum.cpp — `reduce_window_sum[window_dimensions, window_strides,
// padding_low, padding_high, base_dilation, window_dilation]`: the sum over each window (jax.lax.reduce_window with lax.add and 0). The rules are shared: window.h.
#include "window.h"

namespace strata {

STRATA_REDUCE_WINDOW_PRIMITIVE(kReduceWindowSum, "reduce_window_sum", window::Kind::kSum)

}  // namespace strata
