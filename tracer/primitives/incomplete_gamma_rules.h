// tracer/primitives/incomplete_gamma_rules.h — the partial derivatives of igamma, P(a, x)
// (igammac's, of Q = 1 - P, are their negatives), as JAX defines them.
#pragma once

#include "ad_rules.h"

namespace strata::incomplete_gamma_rules {

// ∂P/∂x = x^(a-1) e^-x / Γ(a), the density of Gamma(a, 1).
inline Array dx(const Array& a, const Array& x, const Array&) {
  Array one = ad::scalar_like(1.0, a);
  return lax::exp(lax::sub(lax::sub(lax::mul(lax::sub(a, one), lax::log(x)), x), lax::bind1(prim::kLgamma, {a})));
}
// ∂P/∂a: the igamma_grad_a primitive.
inline Array da(const Array& a, const Array& x, const Array&) { return lax::bind1(prim::kIgammaGradA, {a, x}); }

}  // namespace strata::incomplete_gamma_rules
