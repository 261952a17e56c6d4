// tracer/primitives/cbrt.cpp — `cbrt`: the real cube root, elementwise.
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

// std::cbrt per element (cbrtf for f32 and for bf16/f16, computed in f32).
struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X> static auto eval(const X& x) {
    return x.unaryExpr([](auto v) { return std::cbrt(v); });
  }
};

// g times the derivative at x: 1/(3·y²), y = ∛x the output.
Array scale(const Array& g, const Array&, const Array& y) {
  return lax::div(g, lax::mul(ad::scalar_like(3, y), lax::mul(y, y)));
}

}  // namespace

const Primitive prim::kCbrt{
    .name = "cbrt",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("cbrt", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kCbrt>,
};

}  // namespace strata
