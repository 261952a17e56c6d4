// tracer/primitives/reduce_and.cpp — `reduce_and[axes]`: whether every bool over `axes` holds
// (true for none), as jax.lax.reduce_and on bools.
#include "batch_rules.h"

#include "../kernels/reduce.h"

namespace strata {
namespace {

// Over 0/1 bytes, `and` is the minimum.
struct Op {
  template <class S> static constexpr bool supports = std::is_same_v<S, bool>;
  template <class T, class S> static T init() { return T(1); }
  template <class V> static auto reduce(const V& v) { return v.minCoeff(); }
  template <class A, class R> static void combine(A& acc, const R& row) { acc = acc.min(row); }
};

}  // namespace

const Primitive prim::kReduceAnd{
    .name = "reduce_and",
    .arity = 1,
    .traits = kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) {
      return kernels::bool_reduce_rule("reduce_and", in, p);
    },
    .eager = kernels::reduce_kernel<Op>,
    .batch = batching::axes_rule<prim::kReduceAnd>,
};

}  // namespace strata
