// tracer/primitives/cumprod.cpp — `cumprod[axis, reverse]`: the running product along `axis`,
// from the end when `reverse` (jax.lax.cumprod). The rules are shared: cumulative.h.
#include "cumulative.h"

namespace strata {

STRATA_CUMULATIVE_PRIMITIVE(kCumProd, "cumprod", cumulative::Kind::kProd)

}  // namespace strata
