// tracer/zeta.h — the Hurwitz zeta function ζ(x, q) = Σ_{k>=0} (q+k)^-x and the polygamma
// function ψ⁽ⁿ⁾(x) = (-1)^(n+1) n! ζ(n+1, x): ten terms of the sum, then the Euler–Maclaurin
// tail with twelve Bernoulli terms (Cephes' zeta, as CHLO's zeta and polygamma decompose it,
// which XLA and JAX use), with the same domain rules.
//
// Written once over the arithmetic policy of tracer/scalar_policy.h: the eager kernels and the
// compiled element (dialect/ScalarOps.cpp) evaluate the same expression.
#pragma once

#include <array>
#include <cmath>
#include <limits>

#include "gamma_lanczos.h"

namespace strata::zeta_fn {

// (2j)! / B_2j for j = 12 down to 1.
inline constexpr std::array<double, 12> kEulerMaclaurin = {
    -7.1661652561756670113e18, 1.8152105401943546773e17, -4.5979787224074726105e15, 1.1646782814350067249e14,
    -2.950130727918164224e12,  7.47242496e10,            -1.8924375803183791606e9,  47900160.0,
    -1209600.0,                30240.0,                  -720.0,                    12.0};

// ζ(x, q): nan for x < 1 and for q <= 0 with x not an integer; at q = 0, -1, -2, …: +inf for
// an even integer x, nan otherwise; +inf at x = 1.
template <class O> typename O::V zeta(O& o, typename O::V x, typename O::V q) {
  using V = typename O::V;
  const V one = o.c(1.0), zero = o.c(0.0);
  V acc = q, negx = o.neg(x);
  V sum = o.pow(q, negx);
  for (int k = 0; k < 9; ++k) {
    acc = o.add(acc, one);
    sum = o.add(sum, o.pow(acc, negx));
  }
  acc = o.add(acc, one);  // a = q + 10
  V a_negx = o.pow(acc, negx);
  V integral = o.div(o.mul(a_negx, acc), o.sub(x, one));
  V inv_a2 = o.div(one, o.mul(acc, acc));
  V horner = zero;
  for (int i = 0; i < 11; ++i) {
    V factor = o.mul(o.add(x, o.c(22.0 - 2 * i)), o.add(x, o.c(21.0 - 2 * i)));
    horner = o.mul(factor, o.mul(inv_a2, o.add(horner, o.c(1.0 / kEulerMaclaurin[i]))));
  }
  V tail = o.mul(a_negx, o.add(o.c(0.5), o.mul(o.div(x, acc), o.add(o.c(1.0 / kEulerMaclaurin[11]), horner))));
  V accurate = o.add(o.add(sum, integral), tail);
  // Where a^-x is negligible against the sum, the sum alone (the tail may be inf·0 there).
  V least = o.c(o.f64() ? std::numeric_limits<double>::denorm_min() : std::numeric_limits<float>::denorm_min());
  V out = o.select(o.lt(o.abs(a_negx), o.mul(o.abs(sum), least)), sum, accurate);
  V nan = o.c(NAN), inf = o.c(INFINITY);
  out = o.select(o.lt(x, one), nan, out);
  auto q_nonpositive = o.le(q, zero);
  auto x_integer = o.eq(x, o.floor(x));
  out = o.select(o.and_(q_nonpositive, o.not_(x_integer)), nan, out);
  auto pole = o.and_(q_nonpositive, o.eq(q, o.floor(q)));
  auto x_even = o.and_(x_integer, o.eq(o.rem(x, o.c(2.0)), zero));
  out = o.select(pole, o.select(x_even, inf, nan), out);
  return o.select(o.eq(x, one), inf, out);
}

// ψ⁽ⁿ⁾(x) for a whole n >= 0 (ψ⁽⁰⁾ = digamma); nan for n negative or not whole.
template <class O> typename O::V polygamma(O& o, typename O::V n, typename O::V x) {
  using V = typename O::V;
  const V one = o.c(1.0);
  V sign = o.sub(o.mul(o.c(2.0), o.rem(n, o.c(2.0))), one);
  V n1 = o.add(n, one);
  V factorial = o.exp(gamma_lanczos::lgamma(o, n1));
  V out = o.mul(o.mul(sign, factorial), zeta(o, n1, x));
  out = o.select(o.eq(n, o.c(0.0)), gamma_lanczos::digamma(o, x), out);
  return o.select(o.or_(o.ne(n, o.floor(n)), o.lt(n, o.c(0.0))), o.c(NAN), out);
}

}  // namespace strata::zeta_fn
