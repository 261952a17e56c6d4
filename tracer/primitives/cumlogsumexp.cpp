// tracer/primitives/cumlogsumexp.cpp — `cumlogsumexp[axis, reverse]`: the running log(sum(exp)), computed stably pairwise along `axis`,
// from the end when `reverse` (jax.lax.cumlogsumexp). The rules are shared: cumulative.h.
#include "cumulative.h"

namespace strata {

STRATA_CUMULATIVE_PRIMITIVE(kCumLogSumExp, "cumlogsumexp", cumulative::Kind::kLogSumExp)

}  // namespace strata
