// tracer/primitives/exp2.cpp — `exp2`: 2 raised to x, elementwise.
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

// std::exp2 per element (exp2f for f32 and for bf16/f16, computed in f32).
struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X> static auto eval(const X& x) {
    return x.unaryExpr([](auto v) { return std::exp2(v); });
  }
};

// g times the derivative at x: ln 2 · 2ˣ = ln 2 · y.
Array scale(const Array& g, const Array&, const Array& y) {
  return lax::mul(g, lax::mul(ad::scalar_like(M_LN2, y), y));
}

}  // namespace

const Primitive prim::kExp2{
    .name = "exp2",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("exp2", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kExp2>,
};

}  // namespace strata
