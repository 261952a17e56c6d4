// tracer/incomplete_beta.h — the regularized incomplete beta function I_x(a, b)
// (regularized_incomplete_beta, scipy's betainc): the algorithm of JAX
// (jax/_src/lax/special.py): the continued fraction of DLMF 8.17.22 evaluated by the modified
// Lentz method where x < (a+1)/(a+b+2), else by the symmetry I_x(a, b) = 1 - I_(1-x)(b, a);
// at most 200 steps in f32, 600 in f64.
//
// Written once over the arithmetic policy of tracer/scalar_policy.h: the eager kernel and the
// compiled element (dialect/ScalarOps.cpp) evaluate the same expression. JAX iterates the whole
// array until every element has converged, so an element that converged early takes a few more
// steps of factors within eps/2 of 1; here each element stops at its own convergence, which
// moves results by an ulp or two.
#pragma once

#include <array>
#include <utility>

#include "gamma_lanczos.h"

namespace strata::incomplete_beta {

template <class O> typename O::V betainc(O& o, typename O::V a, typename O::V b, typename O::V x) {
  using V = typename O::V;
  const V zero = o.c(0.0), one = o.c(1.0), two = o.c(2.0), inf = o.c(INFINITY);
  auto a_zero = o.or_(o.eq(a, zero), o.eq(b, inf));
  auto b_zero = o.or_(o.eq(b, zero), o.eq(a, inf));
  auto x_zero = o.eq(x, zero), x_one = o.eq(x, one);
  auto is_nan = o.or_(o.or_(o.isnan(a), o.isnan(b)), o.isnan(x));
  auto result_zero = o.or_(o.and_(b_zero, o.not_(x_one)), o.and_(a_zero, x_zero));
  auto result_one = o.or_(o.and_(a_zero, o.not_(x_zero)), o.and_(b_zero, x_one));
  auto result_nan = o.or_(o.or_(o.or_(o.lt(a, zero), o.lt(b, zero)), o.or_(o.lt(x, zero), o.gt(x, one))),
                          o.or_(o.and_(a_zero, b_zero), is_nan));
  // Where the fraction converges quickly; elsewhere the symmetric one.
  auto direct = o.lt(x, o.div(o.add(a, one), o.add(o.add(a, b), two)));
  V p = o.select(direct, a, b), q = o.select(direct, b, a), y = o.select(direct, x, o.sub(one, x));

  // Lentz: h = b0 + a1/(b1 + a2/(b2 + …)) with b0 = 0, b_n = 1, a_1 = 1 and a_n of DLMF 8.17.23.
  const V small = o.mul(o.eps(), o.c(0.5));
  const V max_steps = o.c(o.f64() ? 600.0 : 200.0);
  auto floor_small = [&](V v) { return o.select(o.lt(o.abs(v), small), small, v); };
  // n, c, d, h.
  using S = std::array<V, 4>;
  S s = {one, small, zero, small};
  s = o.loop(o.lt(one, max_steps), s, [&](const S& v) {
    V n = v[0];
    V m = o.floor(o.div(o.sub(n, one), two));
    V two_m = o.mul(two, m);
    V even = o.select(o.eq(m, zero), o.neg(o.div(o.mul(o.add(p, q), y), o.add(p, one))),
                      o.neg(o.div(o.mul(o.mul(o.add(p, m), o.add(o.add(p, q), m)), y),
                                  o.mul(o.add(p, two_m), o.add(o.add(p, two_m), one)))));
    V odd = o.div(o.mul(o.mul(m, o.sub(q, m)), y), o.mul(o.sub(o.add(p, two_m), one), o.add(p, two_m)));
    V numerator = o.select(o.eq(n, one), one, o.select(o.eq(o.rem(n, two), zero), even, odd));
    V c = floor_small(o.add(one, o.div(numerator, v[1])));
    V d = o.div(one, floor_small(o.add(one, o.mul(numerator, v[2]))));
    V delta = o.mul(c, d);
    V h = o.mul(v[3], delta);
    V next = o.add(n, one);
    auto more = o.and_(o.ge(o.abs(o.sub(delta, one)), small), o.lt(next, max_steps));
    return std::pair{more, S{next, c, d, h}};
  });
  V fraction = s[3];

  // x^a (1-x)^b / (a B(a, b)); for a below twice the least normal, a Γ(a) → 1 is used.
  V lbeta_small_a = o.sub(gamma_lanczos::lgamma(o, q), gamma_lanczos::lgamma(o, o.add(p, q)));
  V lbeta = o.add(gamma_lanczos::lgamma(o, p), lbeta_small_a);
  V log1m = o.log1p(o.neg(y));
  V factor = o.select(o.lt(p, o.mul(o.tiny(), two)), o.exp(o.sub(o.mul(log1m, q), lbeta_small_a)),
                      o.div(o.exp(o.sub(o.add(o.mul(o.log(y), p), o.mul(log1m, q)), lbeta)), p));
  V result = o.mul(fraction, factor);
  result = o.select(direct, result, o.sub(one, result));
  result = o.select(result_zero, zero, result);
  result = o.select(result_one, one, result);
  return o.select(result_nan, o.c(NAN), result);
}

template <class T> T betainc(T a, T b, T x) {
  ScalarOps<T> o;
  return betainc(o, a, b, x);
}

}  // namespace strata::incomplete_beta
