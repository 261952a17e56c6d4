// tracer/primitives/reduce_min.cpp — `reduce_min[axes]`: the smallest element over `axes` (nan if any is nan; +inf, or the integer maximum, for none).
#include "batch_rules.h"
#include "ad_rules.h"

#include "../kernels/reduce.h"

namespace strata {

const Primitive prim::kReduceMin{
    .name = "reduce_min",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) {
      return kernels::reduce_rule("reduce_min", in, p, false);
    },
    .eager = kernels::reduce_kernel<kernels::ExtremumReduce<false>>,
    .jvp = ad::extremum_jvp,
    .vjp = ad::extremum_vjp,
    .batch = batching::axes_rule<prim::kReduceMin>,
};

}  // namespace strata
