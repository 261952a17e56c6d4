// tracer/primitives/max.cpp — `max`: the larger of x and y, elementwise; nan if either
// is nan; complex numbers lexicographically, real parts first (as jax.lax).
#include "ad_rules.h"
#include "elementwise.h"
#include "../kernels/complex_math.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S> || elementwise::kIsComplex<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) {
    using T = typename X::Scalar;
    if constexpr (elementwise::kIsComplex<T>) return x.binaryExpr(y, [](T a, T b) { return kernels::complex_extremum<true>(a, b); });
    else return x.binaryExpr(y, Eigen::internal::scalar_max_op<T, T, Eigen::PropagateNaN>());
  }
};

}  // namespace

const Primitive prim::kMax{
    .name = "max",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("max", in, elementwise::Accepts::kNumeric, false);
    },
    .eager = elementwise::binary_kernel<Op>,
    .jvp = ad::binary_extremum_jvp,
    .vjp = ad::binary_extremum_vjp,
    .batch = elementwise::batch_rule<prim::kMax>,
};

}  // namespace strata
