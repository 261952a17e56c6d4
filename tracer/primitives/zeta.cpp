// tracer/primitives/zeta.cpp — `zeta`: the Hurwitz zeta function ζ(x, q) = Σ_{k>=0} (q+k)^-x,
// elementwise (jax.lax.zeta). The Euler–Maclaurin expression of tracer/zeta.h, the one the
// compiled code evaluates (and CHLO's).
#include "ad_rules.h"
#include "elementwise.h"
#include "../array_impl.h"
#include "../zeta.h"

namespace strata {
namespace {

struct Fn {
  template <class O, class V> V operator()(O& o, V x, V q) const { return zeta_fn::zeta(o, x, q); }
};

// ∂ζ/∂q = -x ζ(x+1, q). ∂ζ/∂x (-Σ log(q+k) (q+k)^-x) is not implemented, as in JAX: it is nan,
// never a silent zero, so a gradient that needs it shows it.
Array dx(const Array& x, const Array&, const Array& y) { return lax::full(detail::aval_of(y), NAN); }
Array dq(const Array& x, const Array& q, const Array&) {
  return lax::neg(lax::mul(x, lax::bind1(prim::kZeta, {lax::add(x, ad::scalar_like(1.0, x)), q})));
}

}  // namespace

const Primitive prim::kZeta{
    .name = "zeta",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("zeta", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::binary_kernel<elementwise::PolicyBinary<Fn>>,
    .jvp = ad::binary_jvp_rule<dx, dq>,
    .vjp = ad::binary_vjp_rule<dx, dq>,
    .batch = elementwise::batch_rule<prim::kZeta>,
};

}  // namespace strata
