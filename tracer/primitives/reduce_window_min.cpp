// tracer/primitives/reduce_window_min.cpp — `reduce_window_min[window_dimensions, window_strides,
// padding_low, padding_high, base_dilation, window_dilation]`: the smallest element of each window (nan if any; padding reads +inf). The rules are shared: window.h.
#include "window.h"

namespace strata {

STRATA_REDUCE_WINDOW_PRIMITIVE(kReduceWindowMin, "reduce_window_min", window::Kind::kMin)

}  // namespace strata
