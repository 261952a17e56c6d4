// tracer/primitives/argmin.cpp — `argmin[axes=(k,), index_dtype]`: the index of the smallest
// element along axis k (the first one on ties; the first nan if there is one), as jax.lax.argmin.
#include "batch_rules.h"
#include "../kernels/arg_extremum.h"

namespace strata {

const Primitive prim::kArgmin{
    .name = "argmin",
    .arity = 1,
    .traits = kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) {
      return kernels::arg_extremum_rule("argmin", in, p);
    },
    .eager = kernels::arg_extremum_kernel<false>,
    .batch = batching::axes_rule<prim::kArgmin>,
};

}  // namespace strata
