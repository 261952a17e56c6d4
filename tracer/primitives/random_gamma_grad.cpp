// tracer/primitives/random_gamma_grad.cpp — `random_gamma_grad`: the derivative of a Gamma(a, 1)
// sample x with respect to a at fixed P(a, x), -(∂P/∂a)/(∂P/∂x) (implicit reparameterisation,
// random::gamma's gradient), elementwise (jax.lax.random_gamma_grad; the first operand is a).
// The algorithm of tracer/incomplete_gamma.h, the one the compiled code evaluates (and JAX's).
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"
#include "../incomplete_gamma.h"

namespace strata {
namespace {

struct Fn {
  template <class O, class V> V operator()(O& o, V a, V x) const { return incomplete_gamma::random_gamma_grad(o, a, x); }
};

// Not differentiable itself (as in JAX).
std::vector<Array> jvp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params&) {
  ad::not_differentiable("random_gamma_grad");
}
std::vector<Array> vjp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params&) {
  ad::not_differentiable("random_gamma_grad");
}

}  // namespace

const Primitive prim::kRandomGammaGrad{
    .name = "random_gamma_grad",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("random_gamma_grad", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::binary_kernel<elementwise::PolicyBinary<Fn>>,
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kRandomGammaGrad>,
};

}  // namespace strata
