// tracer/primitives/cumsum.cpp — `cumsum[axis, reverse]`: the running sum along `axis`,
// from the end when `reverse` (jax.lax.cumsum). The rules are shared: cumulative.h.
#include "cumulative.h"

namespace strata {

STRATA_CUMULATIVE_PRIMITIVE(kCumSum, "cumsum", cumulative::Kind::kSum)

}  // namespace strata
