// tracer/primitives/igammac.cpp — `igammac`: the regularized upper incomplete gamma function
// Q(a, x) = 1 - P(a, x), elementwise (jax.lax.igammac; the first operand is a). The algorithm
// of tracer/incomplete_gamma.h, the one the compiled code evaluates (and JAX's).
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"
#include "incomplete_gamma_rules.h"
#include "../incomplete_gamma.h"

namespace strata {
namespace {

struct Fn {
  template <class O, class V> V operator()(O& o, V a, V x) const { return incomplete_gamma::igammac(o, a, x); }
};

// The negatives of igamma's (as JAX).
Array da(const Array& a, const Array& x, const Array& y) { return lax::neg(incomplete_gamma_rules::da(a, x, y)); }
Array dx(const Array& a, const Array& x, const Array& y) { return lax::neg(incomplete_gamma_rules::dx(a, x, y)); }

}  // namespace

const Primitive prim::kIgammac{
    .name = "igammac",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("igammac", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::binary_kernel<elementwise::PolicyBinary<Fn>>,
    .jvp = ad::binary_jvp_rule<da, dx>,
    .vjp = ad::binary_vjp_rule<da, dx>,
    .batch = elementwise::batch_rule<prim::kIgammac>,
};

}  // namespace strata
