// tracer/primitives/abs.cpp — `abs`: absolute value, elementwise.
#include "ad_rules.h"
#include "elementwise.h"
#include "../kernels/wrapping.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S>;
  template <class X> static auto eval(const X& x) {
    if constexpr (std::is_integral_v<typename X::Scalar>) return x.unaryExpr(kernels::WrappingAbs{});
    else return x.abs();
  }
};

// g times the derivative at x (y is the output): g where x >= 0, -g elsewhere, so the
// derivative at 0 is 1, as JAX's.
Array scale(const Array& g, const Array& x, const Array&) {
  return lax::select(lax::ge(x, ad::scalar_like(0.0, x)), g, lax::neg(g));
}

}  // namespace

const Primitive prim::kAbs{
    .name = "abs",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("abs", in, elementwise::Accepts::kNumeric, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kAbs>,
};

}  // namespace strata
