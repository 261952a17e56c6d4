// tracer/primitives/cummin.cpp — `cummin[axis, reverse]`: the running minimum (nan from the first nan on) along `axis`,
// from the end when `reverse` (jax.lax.cummin). The rules are shared: cumulative.h.
#include "cumulative.h"

namespace strata {

STRATA_CUMULATIVE_PRIMITIVE(kCumMin, "cummin", cumulative::Kind::kMin)

}  // namespace strata
