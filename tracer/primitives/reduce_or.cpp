// tracer/primitives/reduce_or.cpp — `reduce_or[axes]`: whether any bool over `axes` holds
// (false for none), as jax.lax.reduce_or on bools.
#include "batch_rules.h"

#include "../kernels/reduce.h"

namespace strata {
namespace {

// Over 0/1 bytes, `or` is the maximum.
struct Op {
  template <class S> static constexpr bool supports = std::is_same_v<S, bool>;
  template <class T, class S> static T init() { return T(0); }
  template <class V> static auto reduce(const V& v) { return v.maxCoeff(); }
  template <class A, class R> static void combine(A& acc, const R& row) { acc = acc.max(row); }
};

}  // namespace

const Primitive prim::kReduceOr{
    .name = "reduce_or",
    .arity = 1,
    .traits = kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) {
      return kernels::bool_reduce_rule("reduce_or", in, p);
    },
    .eager = kernels::reduce_kernel<Op>,
    .batch = batching::axes_rule<prim::kReduceOr>,
};

}  // namespace strata
