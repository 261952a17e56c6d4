// tracer/primitives/bessel_i1e.cpp — `bessel_i1e`: e^-|x| I1(x), the exponentially scaled
// modified Bessel function of order 1, elementwise (jax.lax.bessel_i1e). The Chebyshev
// expansions of tracer/bessel_i.h, the ones the compiled code evaluates (and CHLO's).
#include <limits>

#include "ad_rules.h"
#include "elementwise.h"
#include "../array_impl.h"
#include "../bessel_i.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X> static auto eval(const X& x) {
    return x.unaryExpr([](auto v) { return bessel_i::i1e(v); });
  }
};

// d/dx e^-|x| I1(x) = i0e(x) - i1e(x) (sign(x) + 1/x) (I1' = I0 - I1/x), 1/2 within eps of 0
// where the formula is 0·inf (as JAX).
Array scale(const Array& g, const Array& x, const Array& y) {
  const double eps = x.dtype() == f64 ? std::numeric_limits<double>::epsilon() : std::numeric_limits<float>::epsilon();
  Array away = lax::gt(lax::abs(x), ad::scalar_like(eps, x));
  Array safe = lax::select(away, x, lax::full(detail::aval_of(x), eps));
  Array d = lax::sub(lax::bind1(prim::kBesselI0e, {safe}),
                     lax::mul(y, lax::add(lax::sign(safe), lax::div(ad::scalar_like(1.0, x), safe))));
  return lax::mul(g, lax::select(away, d, lax::full(detail::aval_of(x), 0.5)));
}

}  // namespace

const Primitive prim::kBesselI1e{
    .name = "bessel_i1e",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("bessel_i1e", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kBesselI1e>,
};

}  // namespace strata
