// tracer/primitives/bessel_i0e.cpp — `bessel_i0e`: e^-|x| I0(x), the exponentially scaled
// modified Bessel function of order 0, elementwise (jax.lax.bessel_i0e). The Chebyshev
// expansions of tracer/bessel_i.h, the ones the compiled code evaluates (and JAX's).
#include "ad_rules.h"
#include "elementwise.h"
#include "../bessel_i.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X> static auto eval(const X& x) {
    return x.unaryExpr([](auto v) { return bessel_i::i0e(v); });
  }
};

// d/dx e^-|x| I0(x) = i1e(x) - sign(x) i0e(x) (I0' = I1; as JAX).
Array scale(const Array& g, const Array& x, const Array& y) {
  return lax::mul(g, lax::sub(lax::bind1(prim::kBesselI1e, {x}), lax::mul(lax::sign(x), y)));
}

}  // namespace

const Primitive prim::kBesselI0e{
    .name = "bessel_i0e",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("bessel_i0e", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kBesselI0e>,
};

}  // namespace strata
