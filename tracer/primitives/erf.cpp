// tracer/primitives/erf.cpp — `erf`: the error function 2/√π ∫₀ˣ exp(-t²) dt, elementwise.
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

// std::erf per element (erff for f32 and for bf16/f16, computed in f32).
struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X> static auto eval(const X& x) {
    return x.unaryExpr([](auto v) { return std::erf(v); });
  }
};

// g times the derivative at x: 2/√π · exp(-x²).
Array scale(const Array& g, const Array& x, const Array&) {
  return lax::mul(g, lax::mul(ad::scalar_like(M_2_SQRTPI, x), lax::exp(lax::neg(lax::mul(x, x)))));
}

}  // namespace

const Primitive prim::kErf{
    .name = "erf",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("erf", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kErf>,
};

}  // namespace strata
