// tracer/primitives/igamma.cpp — `igamma`: the regularized lower incomplete gamma function
// P(a, x), elementwise (jax.lax.igamma; the first operand is a). The algorithm of
// tracer/incomplete_gamma.h, the one the compiled code evaluates (and JAX's).
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"
#include "incomplete_gamma_rules.h"
#include "../incomplete_gamma.h"

namespace strata {
namespace {

struct Fn {
  template <class O, class V> V operator()(O& o, V a, V x) const { return incomplete_gamma::igamma(o, a, x); }
};

}  // namespace

const Primitive prim::kIgamma{
    .name = "igamma",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("igamma", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::binary_kernel<elementwise::PolicyBinary<Fn>>,
    // ∂P/∂a = igamma_grad_a, ∂P/∂x the density of Gamma(a, 1) (as JAX).
    .jvp = ad::binary_jvp_rule<incomplete_gamma_rules::da, incomplete_gamma_rules::dx>,
    .vjp = ad::binary_vjp_rule<incomplete_gamma_rules::da, incomplete_gamma_rules::dx>,
    .batch = elementwise::batch_rule<prim::kIgamma>,
};

}  // namespace strata
