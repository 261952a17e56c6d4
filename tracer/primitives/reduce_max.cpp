// tracer/primitives/reduce_max.cpp — `reduce_max[axes]`: the largest element over `axes` (nan if any is nan; -inf, or the integer minimum, for none).
#include "batch_rules.h"
#include "ad_rules.h"

#include "../kernels/reduce.h"

namespace strata {

const Primitive prim::kReduceMax{
    .name = "reduce_max",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) {
      return kernels::reduce_rule("reduce_max", in, p, false);
    },
    .eager = kernels::reduce_kernel<kernels::ExtremumReduce<true>>,
    .jvp = ad::extremum_jvp,
    .vjp = ad::extremum_vjp,
    .batch = batching::axes_rule<prim::kReduceMax>,
};

}  // namespace strata
