// tracer/primitives/argmax.cpp — `argmax[axes=(k,), index_dtype]`: the index of the largest
// element along axis k (the first one on ties; the first nan if there is one).
#include "batch_rules.h"
#include "../kernels/arg_extremum.h"

namespace strata {

const Primitive prim::kArgmax{
    .name = "argmax",
    .arity = 1,
    .traits = kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) {
      return kernels::arg_extremum_rule("argmax", in, p);
    },
    .eager = kernels::arg_extremum_kernel<true>,
    .batch = batching::axes_rule<prim::kArgmax>,
};

}  // namespace strata
