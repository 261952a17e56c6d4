// tracer/kernels/ieee_minmax.h — IEEE 754-2019 maximum/minimum (nan wins, +0 > -0), the
// semantics of arith.maximumf/minimumf that compiled code uses; integers compare plainly.
#pragma once

#include <cmath>

namespace strata::kernels {

template <class C> C ieee_max(C a, C b) {
  if (a != a || b != b) return a != a ? a : b;
  if (a == b) return std::signbit(static_cast<double>(a)) ? b : a;
  return a > b ? a : b;
}
template <class C> C ieee_min(C a, C b) {
  if (a != a || b != b) return a != a ? a : b;
  if (a == b) return std::signbit(static_cast<double>(a)) ? a : b;
  return a < b ? a : b;
}

}  // namespace strata::kernels
