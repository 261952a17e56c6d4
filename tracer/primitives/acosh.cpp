// tracer/primitives/acosh.cpp — `acosh`: the inverse hyperbolic cosine, elementwise (nan below 1).
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

// std::acosh per element (complex too; acoshf for f32 and for bf16/f16, computed in f32).
struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsComplex<S>;
  template <class X> static auto eval(const X& x) {
    return x.unaryExpr([](auto v) { return std::acosh(v); });
  }
};

// g times the derivative at x: 1/√(x² - 1).
Array scale(const Array& g, const Array& x, const Array&) {
  return lax::mul(g, lax::rsqrt(lax::sub(lax::mul(x, x), ad::scalar_like(1, x))));
}

}  // namespace

const Primitive prim::kAcosh{
    .name = "acosh",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("acosh", in, elementwise::Accepts::kInexact, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kAcosh>,
};

}  // namespace strata
