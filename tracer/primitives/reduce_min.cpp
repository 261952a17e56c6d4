// tracer/primitives/reduce_min.cpp — `reduce_min[axes]`: the smallest element over `axes` (nan if any is nan; +inf, or the integer maximum, for none).
#include "batch_rules.h"
#include "ad_rules.h"

#include "../kernels/reduce.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = !std::is_same_v<S, bool> && !kernels::is_complex_storage<S>;
  template <class T, class S> static T init() { return kernels::highest<T, S>(); }
  template <class V> static auto reduce(const V& v) { return v.template minCoeff<Eigen::PropagateNaN>(); }
  template <class A, class R> static void combine(A& acc, const R& row) { acc = acc.binaryExpr(row, Eigen::internal::scalar_min_op<typename A::Scalar, typename A::Scalar, Eigen::PropagateNaN>()); }
};

}  // namespace

const Primitive prim::kReduceMin{
    .name = "reduce_min",
    .arity = 1,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) {
      return kernels::reduce_rule("reduce_min", in, p, false);
    },
    .eager = kernels::reduce_kernel<Op>,
    .jvp = ad::extremum_jvp,
    .vjp = ad::extremum_vjp,
    .batch = batching::axes_rule<prim::kReduceMin>,
};

}  // namespace strata
