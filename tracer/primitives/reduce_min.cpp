// tracer/primitives/reduce_min.cpp — `reduce_min[axes]`: the smallest element over `axes` (nan if any is nan; +inf, or the integer maximum, for none).
#include "batch_rules.h"
#include "ad_rules.h"

#include "../kernels/complex_math.h"
#include "../kernels/reduce.h"

namespace strata {
namespace {

// Complex numbers in the lexicographic order (kernels::complex_extremum), from the identity
// (the init takes part, as in StableHLO's reduce and JAX).
struct Op {
  template <class S> static constexpr bool supports = !std::is_same_v<S, bool>;
  template <class S> static constexpr bool joins_init = kernels::is_complex_storage<S>;
  template <class T, class S> static T init() {
    if constexpr (kernels::is_complex_storage<T>) return kernels::complex_extremum_identity<false, typename T::value_type>();
    else return kernels::highest<T, S>();
  }
  template <class V> static auto reduce(const V& v) {
    using T = typename V::Scalar;
    if constexpr (kernels::is_complex_storage<T>) return v.redux([](T a, T b) { return kernels::complex_extremum<false>(a, b); });
    else return v.template minCoeff<Eigen::PropagateNaN>();
  }
  template <class A, class R> static void combine(A& acc, const R& row) {
    using T = typename A::Scalar;
    if constexpr (kernels::is_complex_storage<T>) acc = acc.binaryExpr(row, [](T a, T b) { return kernels::complex_extremum<false>(a, b); });
    else acc = acc.binaryExpr(row, Eigen::internal::scalar_min_op<T, T, Eigen::PropagateNaN>());
  }
};

}  // namespace

const Primitive prim::kReduceMin{
    .name = "reduce_min",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) {
      return kernels::reduce_rule("reduce_min", in, p, false);
    },
    .eager = kernels::reduce_kernel<Op>,
    .jvp = ad::extremum_jvp,
    .vjp = ad::extremum_vjp,
    .batch = batching::axes_rule<prim::kReduceMin>,
};

}  // namespace strata
