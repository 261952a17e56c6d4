// tracer/primitives/reduce_window_max.cpp — `reduce_window_max[window_dimensions, window_strides,
// padding_low, padding_high, base_dilation, window_dilation]`: the largest element of each window (nan if any; padding reads -inf). The rules are shared: window.h.
#include "window.h"

namespace strata {

STRATA_REDUCE_WINDOW_PRIMITIVE(kReduceWindowMax, "reduce_window_max", window::Kind::kMax)

}  // namespace strata
