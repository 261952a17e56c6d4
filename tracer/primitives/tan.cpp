// tracer/primitives/tan.cpp — `tan`: the tangent (radians), elementwise.
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

// std::tan per element (tanf for f32 and for bf16/f16, computed in f32).
struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsComplex<S>;
  template <class X> static auto eval(const X& x) {
    return x.unaryExpr([](auto v) { return std::tan(v); });
  }
};

// g times the derivative at x: 1 + tan²(x) = 1 + y².
Array scale(const Array& g, const Array&, const Array& y) {
  return lax::mul(g, lax::add(ad::scalar_like(1, y), lax::mul(y, y)));
}

}  // namespace

const Primitive prim::kTan{
    .name = "tan",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("tan", in, elementwise::Accepts::kInexact, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kTan>,
};

}  // namespace strata
