// tracer/primitives/polygamma.cpp — `polygamma`: ψ⁽ⁿ⁾(x), the n-th derivative of digamma,
// elementwise (jax.lax.polygamma; n a whole number held in a float). The expression of
// tracer/zeta.h, the one the compiled code evaluates (and CHLO's).
#include "ad_rules.h"
#include "elementwise.h"
#include "../zeta.h"

namespace strata {
namespace {

struct Fn {
  template <class O, class V> V operator()(O& o, V n, V x) const { return zeta_fn::polygamma(o, n, x); }
};

// ∂ψ⁽ⁿ⁾/∂x = ψ⁽ⁿ⁺¹⁾. The order n takes whole values only: it has no derivative (zero, as for
// the other piecewise-constant operands).
Array dx(const Array& n, const Array& x, const Array&) {
  return lax::bind1(prim::kPolygamma, {lax::add(n, ad::scalar_like(1.0, n)), x});
}

}  // namespace

const Primitive prim::kPolygamma{
    .name = "polygamma",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("polygamma", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::binary_kernel<elementwise::PolicyBinary<Fn>>,
    .jvp = ad::binary_jvp_rule<nullptr, dx>,
    .vjp = ad::binary_vjp_rule<nullptr, dx>,
    .batch = elementwise::batch_rule<prim::kPolygamma>,
};

}  // namespace strata
