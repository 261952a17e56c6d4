// tracer/primitives/sin.cpp — `sin`: sine, elementwise.
#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsComplex<S>;
  template <class X> static auto eval(const X& x) {
    using T = typename X::Scalar;
    if constexpr (elementwise::kIsComplex<T>) return elementwise::each(x, [](T v) { return std::sin(v); });
    else return x.sin();
  }
};

// g times the derivative at x (y is the output).
Array scale(const Array& g, const Array& x, const Array& y) { return lax::mul(g, lax::cos(x)); }

}  // namespace

const Primitive prim::kSin{
    .name = "sin",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("sin", in, elementwise::Accepts::kInexact, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kSin>,
};

}  // namespace strata
