// tracer/primitives/cosh.cpp — `cosh`: the hyperbolic cosine, elementwise.
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

// std::cosh per element (complex too; coshf for f32 and for bf16/f16, computed in f32).
struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsComplex<S>;
  template <class X> static auto eval(const X& x) {
    return x.unaryExpr([](auto v) { return std::cosh(v); });
  }
};

// g times the derivative at x: sinh(x).
Array scale(const Array& g, const Array& x, const Array&) {
  return lax::mul(g, lax::bind1(prim::kSinh, {x}));
}

}  // namespace

const Primitive prim::kCosh{
    .name = "cosh",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("cosh", in, elementwise::Accepts::kInexact, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kCosh>,
};

}  // namespace strata
