// tracer/primitives/cummax.cpp — `cummax[axis, reverse]`: the running maximum (nan from the first nan on) along `axis`,
// from the end when `reverse` (jax.lax.cummax). The rules are shared: cumulative.h.
#include "cumulative.h"

namespace strata {

STRATA_CUMULATIVE_PRIMITIVE(kCumMax, "cummax", cumulative::Kind::kMax)

}  // namespace strata
