// tracer/primitives/igamma_grad_a.cpp — `igamma_grad_a`: ∂P(a, x)/∂a, the derivative of igamma
// in its first operand, elementwise (jax.lax.igamma_grad_a). The algorithm of
// tracer/incomplete_gamma.h, the one the compiled code evaluates (and JAX's).
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"
#include "../incomplete_gamma.h"

namespace strata {
namespace {

struct Fn {
  template <class O, class V> V operator()(O& o, V a, V x) const { return incomplete_gamma::igamma_grad_a(o, a, x); }
};

// Not differentiable itself (as in JAX).
std::vector<Array> jvp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params&) {
  ad::not_differentiable("igamma_grad_a");
}
std::vector<Array> vjp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params&) {
  ad::not_differentiable("igamma_grad_a");
}

}  // namespace

const Primitive prim::kIgammaGradA{
    .name = "igamma_grad_a",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("igamma_grad_a", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::binary_kernel<elementwise::PolicyBinary<Fn>>,
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kIgammaGradA>,
};

}  // namespace strata
