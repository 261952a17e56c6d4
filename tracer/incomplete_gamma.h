// tracer/incomplete_gamma.h — the regularized incomplete gamma functions P(a, x) (igamma) and
// Q(a, x) = 1 - P (igammac), ∂P/∂a (igamma_grad_a) and the derivative of a Gamma(a, 1) sample x
// with respect to a at fixed P (random_gamma_grad, the implicit reparameterisation gradient):
// the algorithm of XLA and JAX (jax/_src/lax/special.py). P by its power series where x < 1 or
// x <= a, Q by its continued fraction elsewhere, each iterated until the next term no longer
// changes the value (the continued fraction at most 2000 times); the derivative in a is carried
// along in the same iterations (forward-mode, as in JAX). Unlike JAX, the series also stops
// after kMaxSeriesTerms: where a + 1 rounds to a (a >= 2^24 in f32, 2^53 in f64) and x = a, its
// terms stop shrinking and JAX's loop would not end; a series that converges needs about
// sqrt(2 a log(1/eps)) terms, so the cap binds only for a beyond ~1e8.
//
// Written once over the arithmetic policy of tracer/scalar_policy.h: the eager kernels and the
// compiled element (dialect/ScalarOps.cpp) evaluate the same expression. JAX runs one loop over
// the whole array until every element has converged, each element updating only while its own
// test holds; here each element runs its own loop, which gives the same values.
#pragma once

#include <array>
#include <utility>

#include "gamma_lanczos.h"

namespace strata::incomplete_gamma {

enum class Mode { kValue, kDerivative, kSampleDerivative };

inline constexpr double kMaxFractionIterations = 2000;
inline constexpr double kMaxSeriesTerms = 100000;

// P(a, x) by its series Σ xⁿ / (a+1)…(a+n), times ax / a where ax = xᵃ e⁻ˣ / Γ(a); where not
// `enabled` the sums stay at their first term.
template <class O>
typename O::V series(O& o, typename O::V ax, typename O::V x, typename O::V a, typename O::B enabled, Mode mode) {
  using V = typename O::V;
  const V eps = o.eps();
  // r, term, sum, d term/da, d sum/da, terms so far.
  std::array<V, 6> s = {a, o.c(1.0), o.c(1.0), o.c(0.0), o.c(0.0), o.c(0.0)};
  s = o.loop(enabled, s, [&](const std::array<V, 6>& v) {
    V r = o.add(v[0], o.c(1.0));
    V dterm = o.sub(o.mul(v[3], o.div(x, r)), o.div(o.mul(v[1], x), o.mul(r, r)));
    V dsum = o.add(v[4], dterm);
    V term = o.mul(v[1], o.div(x, r));
    V sum = o.add(v[2], term);
    V n = o.add(v[5], o.c(1.0));
    auto more = mode == Mode::kValue ? o.gt(o.div(term, sum), eps) : o.gt(o.abs(o.div(dterm, dsum)), eps);
    more = o.and_(more, o.lt(n, o.c(kMaxSeriesTerms)));
    return std::pair{more, std::array<V, 6>{r, term, sum, dterm, dsum, n}};
  });
  V sum = s[2], dsum = s[4];
  if (mode == Mode::kValue) return o.div(o.mul(sum, ax), a);
  V dlogax_da = o.sub(o.log(x), gamma_lanczos::digamma(o, o.add(a, o.c(1.0))));
  if (mode == Mode::kDerivative) return o.div(o.mul(ax, o.add(o.mul(sum, dlogax_da), dsum)), a);
  return o.div(o.mul(o.neg(o.add(dsum, o.mul(sum, dlogax_da))), x), a);
}

// Q(a, x) by its continued fraction (Cephes' igamc), times ax; the convergents are rescaled by
// eps when they grow past 1/eps.
template <class O>
typename O::V continued_fraction(O& o, typename O::V ax, typename O::V x, typename O::V a, typename O::B enabled,
                                 Mode mode) {
  using V = typename O::V;
  const V eps = o.eps(), one = o.c(1.0);
  V y = o.sub(one, a);
  V z = o.add(o.add(x, y), one);
  V pkm1 = o.add(x, one), qkm1 = o.mul(z, x);
  V ans = o.div(pkm1, qkm1);
  V dqkm1 = o.neg(x);
  V dans = o.div(o.neg(o.mul(ans, dqkm1)), qkm1);
  // ans, t, y, z, n, pkm1, qkm1, pkm2, qkm2, dpkm2, dqkm2, dpkm1, dqkm1, dans.
  using S = std::array<V, 14>;
  S s = {ans, one, y, z, o.c(0.0), pkm1, qkm1, one, x, o.c(0.0), o.c(0.0), o.c(0.0), dqkm1, dans};
  s = o.loop(enabled, s, [&](const S& v) {
    V n = o.add(v[4], one), yn = o.add(v[2], one), zn = o.add(v[3], o.c(2.0));
    V yc = o.mul(yn, n);
    V pk = o.sub(o.mul(v[5], zn), o.mul(v[7], yc));
    V qk = o.sub(o.mul(v[6], zn), o.mul(v[8], yc));
    auto nonzero = o.ne(qk, o.c(0.0));
    V r = o.div(pk, qk);
    V t = o.select(nonzero, o.abs(o.div(o.sub(v[0], r), r)), one);
    V ans = o.select(nonzero, r, v[0]);
    V dpk = o.add(o.sub(o.sub(o.mul(v[11], zn), v[5]), o.mul(v[9], yc)), o.mul(v[7], n));
    V dqk = o.add(o.sub(o.sub(o.mul(v[12], zn), v[6]), o.mul(v[10], yc)), o.mul(v[8], n));
    V dans = o.select(nonzero, o.div(o.sub(dpk, o.mul(ans, dqk)), qk), v[13]);
    V grad_change = o.select(nonzero, o.abs(o.sub(dans, v[13])), one);
    auto rescale = o.gt(o.abs(pk), o.div(one, eps));
    auto scaled = [&](V w) { return o.select(rescale, o.mul(w, eps), w); };
    auto more = mode == Mode::kValue ? o.gt(t, eps) : o.gt(grad_change, eps);
    more = o.and_(more, o.lt(n, o.c(kMaxFractionIterations)));
    return std::pair{more, S{ans, t, yn, zn, n, scaled(pk), scaled(qk), scaled(v[5]), scaled(v[6]), scaled(v[11]),
                             scaled(v[12]), scaled(dpk), scaled(dqk), dans}};
  });
  ans = s[0];
  dans = s[13];
  if (mode == Mode::kValue) return o.mul(ans, ax);
  V dlogax_da = o.sub(o.log(x), gamma_lanczos::digamma(o, a));
  if (mode == Mode::kDerivative) return o.mul(ax, o.add(o.mul(ans, dlogax_da), dans));
  return o.neg(o.mul(o.add(dans, o.mul(ans, dlogax_da)), x));
}

// xᵃ e⁻ˣ / Γ(a) in log space, and whether it underflows.
template <class O> std::pair<typename O::V, typename O::B> log_ax(O& o, typename O::V a, typename O::V x) {
  auto v = o.sub(o.sub(o.mul(a, o.log(x)), x), gamma_lanczos::lgamma(o, a));
  return {v, o.lt(v, o.neg(o.log(o.largest())))};
}

// P(a, x): 0 at x = 0, 1 at x = inf, nan for x < 0, a < 0, a = x = 0 or a nan operand.
template <class O> typename O::V igamma(O& o, typename O::V a, typename O::V x) {
  using V = typename O::V;
  const V zero = o.c(0.0), one = o.c(1.0);
  auto x_zero = o.eq(x, zero), x_inf = o.eq(x, o.c(INFINITY));
  auto domain_error = o.or_(o.or_(o.lt(x, zero), o.lt(a, zero)),
                            o.or_(o.and_(o.eq(a, zero), x_zero), o.or_(o.isnan(a), o.isnan(x))));
  auto use_fraction = o.and_(o.ge(x, one), o.gt(x, a));
  auto [lax, underflow] = log_ax(o, a, x);
  V ax = o.exp(lax);
  auto enabled = o.not_(o.or_(o.or_(x_zero, domain_error), o.or_(underflow, x_inf)));
  V out = o.select(use_fraction,
                   o.sub(one, continued_fraction(o, ax, x, a, o.and_(enabled, use_fraction), Mode::kValue)),
                   series(o, ax, x, a, o.and_(enabled, o.not_(use_fraction)), Mode::kValue));
  out = o.select(x_zero, zero, out);
  out = o.select(x_inf, one, out);
  return o.select(domain_error, o.c(NAN), out);
}

// Q(a, x) = 1 - P(a, x): 1 at x = 0, 0 at x = inf or a = 0, nan where P is.
template <class O> typename O::V igammac(O& o, typename O::V a, typename O::V x) {
  using V = typename O::V;
  const V zero = o.c(0.0), one = o.c(1.0);
  auto a_zero = o.eq(a, zero), x_inf = o.eq(x, o.c(INFINITY));
  auto domain_error = o.or_(o.or_(o.lt(x, zero), o.lt(a, zero)),
                            o.or_(o.and_(a_zero, o.eq(x, zero)), o.or_(o.isnan(a), o.isnan(x))));
  auto use_series = o.or_(o.lt(x, one), o.lt(x, a));
  auto [lax, underflow] = log_ax(o, a, x);
  auto enabled = o.not_(o.or_(o.or_(domain_error, underflow), o.or_(x_inf, a_zero)));
  V ax = o.exp(lax);
  V out = o.select(use_series, o.sub(one, series(o, ax, x, a, o.and_(enabled, use_series), Mode::kValue)),
                   continued_fraction(o, ax, x, a, o.and_(enabled, o.not_(use_series)), Mode::kValue));
  out = o.select(o.or_(x_inf, a_zero), zero, out);
  return o.select(domain_error, o.c(NAN), out);
}

// ∂P(a, x)/∂a (kDerivative), or -(∂P/∂a)/(∂P/∂x) (kSampleDerivative): 0 at x = 0, nan for
// x < 0, a <= 0 or a nan operand.
template <class O> typename O::V derivative(O& o, typename O::V a, typename O::V x, Mode mode) {
  using V = typename O::V;
  const V zero = o.c(0.0), one = o.c(1.0);
  auto is_nan = o.or_(o.isnan(a), o.isnan(x));
  auto x_zero = o.eq(x, zero);
  auto domain_error = o.or_(o.lt(x, zero), o.le(a, zero));
  auto use_fraction = o.and_(o.gt(x, one), o.gt(x, a));
  auto [lax, underflow] = log_ax(o, a, x);
  V ax = o.exp(lax);
  auto enabled = o.not_(o.or_(o.or_(x_zero, domain_error), o.or_(underflow, is_nan)));
  V out = o.select(use_fraction, o.neg(continued_fraction(o, ax, x, a, o.and_(enabled, use_fraction), mode)),
                   series(o, ax, x, a, o.and_(enabled, o.not_(use_fraction)), mode));
  out = o.select(x_zero, zero, out);
  return o.select(o.or_(domain_error, is_nan), o.c(NAN), out);
}

template <class O> typename O::V igamma_grad_a(O& o, typename O::V a, typename O::V x) {
  return derivative(o, a, x, Mode::kDerivative);
}
template <class O> typename O::V random_gamma_grad(O& o, typename O::V a, typename O::V x) {
  return derivative(o, a, x, Mode::kSampleDerivative);
}

}  // namespace strata::incomplete_gamma
