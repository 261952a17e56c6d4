// tracer/primitives/asin.cpp — `asin`: the arcsine, elementwise (nan outside [-1, 1]).
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

// std::asin per element (complex too; asinf for f32 and for bf16/f16, computed in f32).
struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsComplex<S>;
  template <class X> static auto eval(const X& x) {
    return x.unaryExpr([](auto v) { return std::asin(v); });
  }
};

// g times the derivative at x: 1/√(1 - x²).
Array scale(const Array& g, const Array& x, const Array&) {
  return lax::mul(g, lax::rsqrt(lax::sub(ad::scalar_like(1, x), lax::mul(x, x))));
}

}  // namespace

const Primitive prim::kAsin{
    .name = "asin",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("asin", in, elementwise::Accepts::kInexact, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kAsin>,
};

}  // namespace strata
