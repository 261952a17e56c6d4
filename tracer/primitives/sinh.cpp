// tracer/primitives/sinh.cpp — `sinh`: the hyperbolic sine, elementwise.
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

// std::sinh per element (complex too; sinhf for f32 and for bf16/f16, computed in f32).
struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsComplex<S>;
  template <class X> static auto eval(const X& x) {
    return x.unaryExpr([](auto v) { return std::sinh(v); });
  }
};

// g times the derivative at x: cosh(x).
Array scale(const Array& g, const Array& x, const Array&) {
  return lax::mul(g, lax::bind1(prim::kCosh, {x}));
}

}  // namespace

const Primitive prim::kSinh{
    .name = "sinh",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("sinh", in, elementwise::Accepts::kInexact, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kSinh>,
};

}  // namespace strata
