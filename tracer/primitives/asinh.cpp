// tracer/primitives/asinh.cpp — `asinh`: the inverse hyperbolic sine, elementwise.
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

// std::asinh per element (complex too; asinhf for f32 and for bf16/f16, computed in f32).
struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsComplex<S>;
  template <class X> static auto eval(const X& x) {
    return x.unaryExpr([](auto v) { return std::asinh(v); });
  }
};

// g times the derivative at x: 1/√(x² + 1).
Array scale(const Array& g, const Array& x, const Array&) {
  return lax::mul(g, lax::rsqrt(lax::add(lax::mul(x, x), ad::scalar_like(1, x))));
}

}  // namespace

const Primitive prim::kAsinh{
    .name = "asinh",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("asinh", in, elementwise::Accepts::kInexact, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kAsinh>,
};

}  // namespace strata
