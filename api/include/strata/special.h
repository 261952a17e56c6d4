// strata/special.h — functions of jax.scipy.special, in namespace st::special: xlogy, xlog1py,
// entr, rel_entr, kl_div, logit, expit, ndtr, ndtri, log_ndtr, gammaln, gammasgn, gamma,
// factorial, beta, betaln, betainc, multigammaln, gammainc, gammaincc, i0, i0e, i1, i1e, zeta,
// polygamma, expi, exp1, expn, spence, poch, comb, boxcox, boxcox1p, erfcx, dawsn, bessel_jn,
// bernoulli, sici, owens_t, hyp1f1, hyp2f1, fresnel, wofz, lpmn, lpmn_values, sph_harm_y. Composites of the public ops with JAX's definitions (its segments and series
// where it has them; the incomplete gamma, Bessel, zeta and polygamma functions are jax.lax's
// primitives, st::igamma …), traced, compiled, batched and differentiated like them; xlogy and
// xlog1py carry JAX's custom derivative (x·log y differentiates to log y in x even at x = 0).
// Integers become floats. (digamma is st::digamma, erf / erfc / erfinv st::erf, erfc, erf_inv.)
#pragma once

#include <optional>
#include <utility>

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
// The inverse of ndtr on [0, 1] (-inf at 0, +inf at 1, nan outside): Cephes' rational
// approximations, as JAX (f32 and f64 only, as JAX).
Array ndtri(const Array& p, SourceLocation loc = SourceLocation::current());
// log|Γ(x)| (st::lgamma), the sign of Γ(x) (±1; nan at the poles 0, -1, … below zero and for
// nan; -1 at -0), Γ(x) = gammasgn · exp(gammaln), and n! = Γ(n + 1) (0 for n < 0).
Array gammaln(const Array& x, SourceLocation loc = SourceLocation::current());
Array gammasgn(const Array& x, SourceLocation loc = SourceLocation::current());
Array gamma(const Array& x, SourceLocation loc = SourceLocation::current());
Array factorial(const Array& n, SourceLocation loc = SourceLocation::current());
// B(a, b) = Γ(a)Γ(b)/Γ(a + b), as sign · exp(betaln).
Array beta(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// log |B(a, b)| = lgamma(a) + lgamma(b) - lgamma(a + b), without the cancellation of the last
// two when b is large (JAX's Stirling-series difference for max(a, b) >= 8).
Array betaln(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// The log of the multivariate gamma function of dimension d:
// d(d - 1)/4 · log π + Σ_{j<d} lgamma(a - j/2).
Array multigammaln(const Array& a, int d, SourceLocation loc = SourceLocation::current());
// The regularized incomplete gamma functions P(a, x) and Q(a, x) = 1 - P (st::igamma, igammac).
Array gammainc(const Array& a, const Array& x, SourceLocation loc = SourceLocation::current());
Array gammaincc(const Array& a, const Array& x, SourceLocation loc = SourceLocation::current());
// The regularized incomplete beta function I_x(a, b) (st::betainc).
Array betainc(const Array& a, const Array& b, const Array& x, SourceLocation loc = SourceLocation::current());
// The modified Bessel functions of the first kind of orders 0 and 1, and their exponentially
// scaled forms e^-|x| I(x) (st::bessel_i0e, bessel_i1e; I = e^|x| times those).
Array i0(const Array& x, SourceLocation loc = SourceLocation::current());
Array i0e(const Array& x, SourceLocation loc = SourceLocation::current());
Array i1(const Array& x, SourceLocation loc = SourceLocation::current());
Array i1e(const Array& x, SourceLocation loc = SourceLocation::current());
// The Hurwitz zeta function ζ(x, q) (st::zeta; scipy's zeta with q given, ζ(x, 1) Riemann's).
Array zeta(const Array& x, const Array& q, SourceLocation loc = SourceLocation::current());
// ψ⁽ⁿ⁾(x) for an integer array n >= 0 (st::polygamma; n of a float type is an error, as JAX).
Array polygamma(const Array& n, const Array& x, SourceLocation loc = SourceLocation::current());

// The exponential integrals (special_integrals.cpp; Cephes' algorithms, as JAX): Ei(x) =
// ∫_-∞^x e^t/t dt (-inf at 0), E1(x) = ∫_1^∞ e^-xt/t dt, and E_n(x) = ∫_1^∞ e^-xt/t^n dt for
// an integer order n >= 0 (nan for n < 0 or x < 0; inf at x = 0 for n < 2, 1/(n - 1) for n >= 2
// as scipy — JAX 0.10 gives 1/n there). Derivatives:
// e^x/x, -e^-x/x and -E_{n-1}(x) (in x; the order is not differentiated).
Array expi(const Array& x, SourceLocation loc = SourceLocation::current());
Array exp1(const Array& x, SourceLocation loc = SourceLocation::current());
Array expn(const Array& n, const Array& x, SourceLocation loc = SourceLocation::current());
// Spence's function (scipy's convention: ∫_1^x log t / (1 - t) dt; nan below 0; f32/f64).
Array spence(const Array& x, SourceLocation loc = SourceLocation::current());
// The rising factorial (z)_m = Γ(z + m) / Γ(z) (1 for m = 0).
Array poch(const Array& z, const Array& m, SourceLocation loc = SourceLocation::current());
// The binomial coefficient N choose k through gammaln (0 outside 0 <= k <= N; with
// repetition, N + k - 1 choose k).
Array comb(const Array& n, const Array& k, bool repetition = false, SourceLocation loc = SourceLocation::current());
// The Box-Cox transforms: (x^λ - 1)/λ (log x at λ = 0), and the same of 1 + x.
Array boxcox(const Array& x, const Array& lmbda, SourceLocation loc = SourceLocation::current());
Array boxcox1p(const Array& x, const Array& lmbda, SourceLocation loc = SourceLocation::current());

// erfcx(x) = e^(x²) erfc(x) without the overflow (real x; complex z: wofz(iz)) and Dawson's integral
// D(x) = e^(-x²) ∫_0^x e^(t²) dt (special_error_functions.cpp; JAX's algorithms and JVPs).
Array erfcx(const Array& x, SourceLocation loc = SourceLocation::current());
Array dawsn(const Array& x, SourceLocation loc = SourceLocation::current());
// The Bessel functions of the first kind J_0(z) … J_v(z) of real z, stacked as [v + 1, *z.shape]
// (JAX's bessel_jn: a backward recurrence of n_iter steps; n_iter must exceed the orders and
// grow with |z|, see JAX's rule of thumb; z = 0 gives nan, as JAX's).
Array bessel_jn(const Array& z, int v, int n_iter = 50, SourceLocation loc = SourceLocation::current());
// The Bernoulli numbers B_0 … B_n (B_1 = -1/2), as jax.scipy.special.bernoulli.
Array bernoulli(int n, DType dtype = f32);

// The sine and cosine integrals (Si(x), Ci(x)) = (∫_0^x sin t/t dt, γ + log|x| + ∫_0^|x| (cos t - 1)/t dt)
// (Cephes' approximations as JAX's sici; Ci(0) = -inf, Ci(-inf) = nan; derivatives sin x/x, cos x/x).
std::pair<Array, Array> sici(const Array& x, SourceLocation loc = SourceLocation::current());

// Owen's T function T(h, a) = (1/2π) ∫_0^a e^(-h²(1+x²)/2) / (1 + x²) dx (JAX's 13-point
// quadrature with the reciprocal relation for |a| > 1; JAX's derivatives in both arguments).
Array owens_t(const Array& h, const Array& a, SourceLocation loc = SourceLocation::current());

// The confluent hypergeometric function 1F1(a; b; x) = Σ (a)_k / ((b)_k k!) x^k (JAX's hyp1f1:
// the series for |x| < 100, the asymptotic expansion beyond; 1 for a = 0, e^x for a = b, inf for
// b = 0; real inputs, best for moderate a and b; differentiable in a, b and x).
Array hyp1f1(const Array& a, const Array& b, const Array& x, SourceLocation loc = SourceLocation::current());
// The Gauss hypergeometric function 2F1(a, b; c; x) = Σ (a)_k (b)_k / ((c)_k k!) x^k, real
// arguments, as JAX's hyp2f1 (Michel & Stoitsov's algorithm: the series, the terminating
// polynomial, the transform near x = 1; inf for x > 1 and c a non-positive integer; below
// x = −1, where JAX's series diverge, Pfaff's transform, so the values are scipy's);
// differentiable in all four (a, b, c by their series).
Array hyp2f1(const Array& a, const Array& b, const Array& c, const Array& x,
             SourceLocation loc = SourceLocation::current());
// jax.scipy.special.lpmn: the associated Legendre functions P_l^m(z) (Condon–Shortley phase)
// and their derivatives in z, each [m + 1, n + 1, len(z)] (row m, column l; zero for l < m), for
// a 1-d z of f32 or f64. m must equal n, as in JAX.
struct LpmnResult {
  Array values, derivatives;
};
LpmnResult lpmn(int m, int n, const Array& z, SourceLocation loc = SourceLocation::current());
// jax.scipy.special.lpmn_values: the values alone; is_normalized multiplies each by
// √((2l+1)/(4π) · (l−m)!/(l+m)!), the spherical harmonics' normalization.
Array lpmn_values(int m, int n, const Array& z, bool is_normalized, SourceLocation loc = SourceLocation::current());
// jax.scipy.special.sph_harm_y: the spherical harmonics Y_n^m(θ, φ) (complex; θ the polar
// angle, φ the azimuth; scipy's sph_harm_y convention, Condon–Shortley phase) for integer
// degrees n and orders m (|m| > n clipped, as JAX), arguments broadcast together. n_max (the
// largest degree, sizing the Legendre table) must be given when n is traced.
Array sph_harm_y(const Array& n, const Array& m, const Array& theta, const Array& phi,
                 std::optional<int> n_max = std::nullopt, SourceLocation loc = SourceLocation::current());

// The Fresnel integrals (S(x), C(x)) = (∫_0^x sin(πt²/2) dt, ∫_0^x cos(πt²/2) dt) (Cephes' fresnl
// in f64, fresnlf in f32 — 16-bit floats computed in f32 — as JAX; ±1/2 at ±inf; derivatives
// sin(πx²/2), cos(πx²/2)). Accurate on [-10, 10] as Cephes, then the asymptotic form.
std::pair<Array, Array> fresnel(const Array& x, SourceLocation loc = SourceLocation::current());

// The Faddeeva function w(z) = e^(-z²) erfc(-iz) (complex; real inputs become complex), by
// Weideman's 32-term rational approximation as JAX (~1e-13 relative); w'(z) = -2z w + 2i/√π.
Array wofz(const Array& z, SourceLocation loc = SourceLocation::current());

}  // namespace strata::special
