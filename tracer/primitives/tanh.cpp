// tracer/primitives/tanh.cpp — `tanh`: hyperbolic tangent, elementwise.
#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsComplex<S>;
  template <class X> static auto eval(const X& x) {
    using T = typename X::Scalar;
    if constexpr (elementwise::kIsComplex<T>) return elementwise::each(x, [](T v) { return std::tanh(v); });
    else return x.tanh();
  }
};

// g times the derivative at x (y is the output).
Array scale(const Array& g, const Array& x, const Array& y) { return lax::mul(g, lax::sub(ad::scalar_like(1, y), lax::mul(y, y))); }

}  // namespace

const Primitive prim::kTanh{
    .name = "tanh",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("tanh", in, elementwise::Accepts::kInexact, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kTanh>,
};

}  // namespace strata
