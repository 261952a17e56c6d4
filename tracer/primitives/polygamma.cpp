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
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y, const Params&) {
  return ad::binary_jvp(x, t, y, nullptr, dx);
}
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct, const Params&) {
  return ad::binary_vjp(x, y, ct, nullptr, dx);
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
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kPolygamma>,
};

}  // namespace strata
