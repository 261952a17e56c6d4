// strata/special.h — functions of jax.scipy.special, in namespace st::special: xlogy, xlog1py,
// entr, rel_entr, kl_div, logit, expit, ndtr, log_ndtr, betaln, multigammaln. Composites of the
// public ops with JAX's definitions (its segments and series where it has them), traced,
// compiled, batched and differentiated like them; xlogy and xlog1py carry JAX's custom
// derivative (x·log y differentiates to log y in x even at x = 0). Integers become floats.
// (gammaln is st::lgamma, digamma st::digamma, erf / erfc / erfinv st::erf, erfc, erf_inv.)
#pragma once

#include "strata/array.h"
#include "strata/ops.h"

namespace strata::special {

// x · log(y), 0 where x is 0 (even for y = 0); x · log1p(y) likewise.
Array xlogy(const Array& x, const Array& y, SourceLocation loc = SourceLocation::current());
Array xlog1py(const Array& x, const Array& y, SourceLocation loc = SourceLocation::current());
// -x · log(x) for x > 0, 0 at 0, -inf below.
Array entr(const Array& x, SourceLocation loc = SourceLocation::current());
// p · log(p / q) for p, q > 0; 0 where p = 0 and q >= 0; inf otherwise. kl_div adds q - p:
// p · log(p / q) - p + q, q where p = 0 and q >= 0.
Array rel_entr(const Array& p, const Array& q, SourceLocation loc = SourceLocation::current());
Array kl_div(const Array& p, const Array& q, SourceLocation loc = SourceLocation::current());
// log(x / (1 - x)) and its inverse, the logistic sigmoid.
Array logit(const Array& x, SourceLocation loc = SourceLocation::current());
Array expit(const Array& x, SourceLocation loc = SourceLocation::current());
// The standard normal CDF, and its logarithm — accurate far into both tails (JAX's segments:
// log1p(-ndtr(-x)) above 8 (5 in f32), the asymptotic series below -20 (-10 in f32)).
Array ndtr(const Array& x, SourceLocation loc = SourceLocation::current());
Array log_ndtr(const Array& x, SourceLocation loc = SourceLocation::current());
// log |B(a, b)| = lgamma(a) + lgamma(b) - lgamma(a + b), without the cancellation of the last
// two when b is large (JAX's Stirling-series difference for max(a, b) >= 8).
Array betaln(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// The log of the multivariate gamma function of dimension d:
// d(d - 1)/4 · log π + Σ_{j<d} lgamma(a - j/2).
Array multigammaln(const Array& a, int d, SourceLocation loc = SourceLocation::current());

}  // namespace strata::special
