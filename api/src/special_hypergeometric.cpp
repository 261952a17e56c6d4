// The hypergeometric functions of strata/special.h, as JAX's:
// - hyp1f1 (Pearson, Olver and Porter 2014): the Taylor series for |x| < 100, the asymptotic
//   series beyond; derivatives in a and b by their series, in x by a/b · 1F1(a+1, b+1, x).
// - hyp2f1 (Michel and Stoitsov 2008, arXiv:1407.7786, as JAX): the Gauss series, the
//   terminating polynomial when a or b is a non-positive integer, and near x = 1 the transform
//   to 1 − x with its digamma series; Euler's transform for c − a − b ≤ −1; closed forms at the
//   edges; and (not in JAX, whose series diverge there) Pfaff's transform below x = −1.
//   Derivatives in a, b, c by their series, in x by ab/c · 2F1(a+1, b+1; c+1; x).
// Each series is a whole-array loop in which an element stops when its next term is below the
// precision (at most 250 terms, as JAX); each branch runs on safe inputs where another is
// selected, so no element loops on a value it will not use.
#include <cmath>
#include <tuple>

#include "op_helpers.h"
#include "special_common.h"
#include "strata/composites.h"
#include "strata/grad.h"
#include "strata/special.h"

namespace strata::special {

using detail::c_like;
using detail::loop_until;

namespace {

Array precision(const Array& x) { return c_like(finfo(x.dtype()).eps, x); }

// sum0 + Σ_(k>=1) term_k · weight(k) with term_(k+1) = next(term_k, k), each element until its
// |term / sum| falls below the precision or 250 terms (JAX's loops).
template <class Weight, class Next>
Array series_sum(const Array& x, double sum0, const Array& term1, Weight weight, Next next) {
  Array eps = precision(x);
  using C = std::tuple<Array, Array, Array>;  // sum, k, term
  C init{c_like(sum0, x) + zeros_like(x), ones_like(x), term1 + zeros_like(x)};
  C r = loop_until(
      init,
      [eps](const C& c) {
        auto [sum, k, term] = c;
        return logical_and(k < c_like(250, k), abs(term) / abs(sum) > eps);
      },
      [weight, next](const C& c) {
        auto [sum, k, term] = c;
        return C{sum + term * weight(k), k + c_like(1, k), next(term, k)};
      },
      300);
  return std::get<0>(r);
}

// The Taylor series Σ (a)_k/((b)_k k!) x^k, its terms weighted (the a and b derivatives).
template <class Weight>
Array taylor(const Array& a, const Array& b, const Array& x, double sum0, Weight weight) {
  return series_sum(x, sum0, a / b * x, weight,
                    [a, b, x](const Array& t, const Array& k) { return t * (a + k) / (b + k) * x / (k + c_like(1, k)); });
}

Array series(const Array& a, const Array& b, const Array& x) {
  return taylor(a, b, x, 1, [](const Array& k) { return c_like(1, k); });
}

// Γ(b)/Γ(a) x^(a-b) Σ_k t_k, t_(k+1) = t_k (b-a+k)(1-a+k)/((k+1) x): the large-x form without
// its factor e^x.
Array asymptotic_over_exp(const Array& a, const Array& b, const Array& x) {
  Array one = c_like(1, x);
  Array sum = series_sum(x, 1, (b - a) * (one - a) / x, [](const Array& k) { return c_like(1, k); },
                         [a, b, x, one](const Array& t, const Array& k) { return t * (b - a + k) * (one - a + k) / (k + one) / x; });
  return gamma(b) / gamma(a) * power(x, a - b) * sum;
}

Array value(const Array& a, const Array& b, const Array& x) {
  // Below 0, Kummer's transformation 1F1(a; b; x) = e^x 1F1(b - a; b; -x): the series at x < 0
  // alternates and cancels (f32 1F1(1.985; 0.537; -4.08) was 5% off, JAX's 3%), the asymptotic
  // form took a power of a negative x. Not for a non-positive integer a: that series is a
  // polynomial whose terms all have one sign there.
  Array zero = c_like(0, a);
  Array kummer = logical_and(x < zero, logical_not(logical_and(a <= zero, a == floor(a))));
  Array ak = where(kummer, b - a, a), xk = where(kummer, negative(x), x);
  Array small = abs(xk) < c_like(100, x);
  // Each form on safe inputs where the other is used (no loop runs there).
  Array xs = where(small, xk, c_like(1, x)), xl = where(small, c_like(200, x), xk);
  // e^x·series, or the asymptotic form's e^|x| times e^x (= 1) under the transformation.
  Array r = where(small, where(kummer, exp(x), c_like(1, x)) * series(ak, b, xs),
                  where(kummer, c_like(1, x), exp(xl)) * asymptotic_over_exp(ak, b, xl));
  r = where(logical_and(b == zero, a != zero), c_like(INFINITY, x), r);
  r = where(logical_and(a == b, a != zero), exp(x), r);
  return where(a == zero, c_like(1, x), r);
}

Array d_da(const Array& a, const Array& b, const Array& x) {
  return taylor(a, b, x, 0, [a](const Array& k) { return digamma(a + k) - digamma(a); });
}
Array d_db(const Array& a, const Array& b, const Array& x) {
  return taylor(a, b, x, 0, [b](const Array& k) { return digamma(b) - digamma(b + k); });
}

// ---- 2F1 ----

Array eps50(const Array& x) { return c_like(50 * finfo(x.dtype()).eps, x); }

// The Gauss series Σ (a)_k (b)_k / ((c)_k k!) x^k.
Array gauss_series(const Array& a, const Array& b, const Array& c, const Array& x) {
  Array rtol = precision(x), one = c_like(1, x);
  using C = std::tuple<Array, Array, Array>;  // sum, k, term
  C r = loop_until(
      C{zeros_like(x), ones_like(x), ones_like(x)},
      [rtol](const C& s) {
        auto [sum, k, term] = s;
        return logical_and(k < c_like(250, k), abs(term) > rtol * abs(sum));
      },
      [a, b, c, x, one](const C& s) {
        auto [sum, k, term] = s;
        return C{sum + term, k + one, term * (a + k - one) * (b + k - one) / (c + k - one) / k * x};
      },
      300);
  return std::get<0>(r);
}

// The polynomial when a (or b) is a non-positive integer: |a| + 1 terms (the one of a, b of
// larger magnitude that c does not cut short).
Array terminal(const Array& a_in, const Array& b_in, const Array& c, const Array& x) {
  Array eps = eps50(x), one = c_like(1, x), zero = c_like(0, x);
  Array cut = logical_and(c % one == zero, logical_and(c <= zero, c > b_in));
  Array swap = logical_and(b_in < a_in, logical_and(abs(b_in - round(b_in)) < eps, logical_not(cut)));
  Array a = abs(where(swap, b_in, a_in)), b = where(swap, a_in, b_in);
  using C = std::tuple<Array, Array, Array>;  // sum, term, i
  C r = loop_until(
      C{ones_like(x), ones_like(x), ones_like(x)}, [a, one](const C& s) { return std::get<2>(s) < a + one; },
      [a, b, c, x, one](const C& s) {
        auto [sum, term, i] = s;
        Array t = term * (-(a - i + one) / (c + i - one) * (b + i - one) / i * x);
        return C{sum + t, t, i + one};
      },
      int64_t{1} << 30);
  return std::get<0>(r);
}

// Near x = 1 with c − a − b (nearly) an integer: the transform to 1 − x, its digamma series.
Array digamma_transform(const Array& a, const Array& b, const Array& c, const Array& x) {
  Array rtol = precision(x), one = c_like(1, x), zero = c_like(0, x);
  Array d = c - a - b, s = one - x, rd = round(d);
  Array up = rd >= zero;
  Array e = where(up, d, -d), d1 = where(up, d, zero), d2 = where(up, zero, d), ard = where(up, rd, -rd);
  Array ax = log(s);
  Array y = (digamma(one) + digamma(one + e) - digamma(a + d1) - digamma(b + d1) - ax) / gamma(e + one);
  Array p = (a + d1) * (b + d1) * s / gamma(e + c_like(2, x));
  using C = std::tuple<Array, Array, Array, Array>;  // p, q, t, y
  C r = loop_until(
      C{p, y, ones_like(x), y},
      [rtol](const C& st) {
        auto [p, q, t, y] = st;
        return logical_and(t < c_like(250, t), abs(q) >= rtol * abs(y));
      },
      [a, b, d1, e, s, ax, one](const C& st) {
        auto [p, q, t, y] = st;
        Array rr = digamma(one + t) + digamma(one + t + e) - digamma(a + t + d1) - digamma(b + t + d1) - ax;
        Array qn = p * rr;
        Array pn = p * (s * (a + t + d1) / (t + one)) * ((b + t + d1) / (t + one + e));
        return C{pn, qn, t + one, y + qn};
      },
      300);
  y = std::get<3>(r);
  // The finite sum of |round(c − a − b)| − 1 terms.
  using F = std::tuple<Array, Array, Array, Array>;  // p, t, y1, i
  F f = loop_until(
      F{ones_like(x), zeros_like(x), ones_like(x), ones_like(x)},
      [ard](const F& st) { return std::get<3>(st) < ard; },
      [a, b, d2, e, s, one](const F& st) {
        auto [p, t, y1, i] = st;
        Array pn = p * s * (a + t + d2) * (b + t + d2) / (one - e + t) / (t + one);
        return F{pn, t + one, y1 + pn, i + one};
      },
      int64_t{1} << 30);
  Array gc = gamma(c);
  Array y1 = std::get<2>(f) * gamma(e) * gc / (gamma(a + d1) * gamma(b + d1));
  Array ys = y * gc / (gamma(a + d2) * gamma(b + d2));
  ys = where(ard % c_like(2, ard) != zero, -ys, ys);
  Array q = power(s, rd);
  Array summed = where(rd > zero, ys * q + y1, ys + y1 * q);
  return where(rd == zero, y * gc / (gamma(a) * gamma(b)), summed);
}

// JAX's _hyp2f1_terminal_or_serie: the polynomial, the transform near 1, or the series.
Array terminal_or_series(const Array& a, const Array& b, const Array& c, const Array& x) {
  Array eps = eps50(x), zero = c_like(0, x), half = c_like(0.5, x);
  Array d = c - a - b;
  Array neg_int = logical_or(logical_and(a <= zero, abs(a - round(a)) < eps), logical_and(b <= zero, abs(b - round(b)) < eps));
  Array near_one = logical_and(x > c_like(0.9, x), logical_not(neg_int));
  Array use_transform = logical_and(near_one, abs(d - round(d)) < eps);
  Array use_terminal = logical_and(logical_not(near_one), neg_int);
  // Safe inputs where a branch is not used: no iterations (terminal), d = 1/4 (transform).
  Array ta = where(use_terminal, a, zero), tb = where(use_terminal, b, zero);
  Array tc = where(use_transform, c, a + b + c_like(0.25, x)), tx = where(use_transform, x, half);
  Array r = where(use_terminal, terminal(ta, tb, c, x), gauss_series(a, b, c, x));
  return where(use_transform, digamma_transform(a, b, tc, tx), r);
}

Array hyp2f1_value(const Array& a, const Array& b, const Array& c, const Array& x) {
  Array eps = eps50(x), zero = c_like(0, x), one = c_like(1, x);
  Array d = c - a - b, s = one - x, ca = c - a, cb = c - b;
  // JAX's branch index, first match wins: 1; inf; Euler's transform; (1-x)^-a; (1-x)^-b;
  // Gauss's sum at x = 1; the series.
  Array b0 = logical_or(x == zero, logical_and(logical_or(a == zero, b == zero), c != zero));
  Array b1 = logical_or(c == zero, logical_and(c < zero, c % one == zero));
  Array b2 = logical_and(d <= -one, logical_not(logical_and(abs(d - round(d)) >= eps, s < zero)));
  Array b1b = logical_and(d <= zero, x == one);
  Array b3 = logical_and(x < one, b == c);
  Array b4 = logical_and(x < one, a == c);
  Array b1c = x > one;
  Array b5 = x == one;
  Array euler = logical_and(logical_not(logical_or(b0, b1)), b2);
  Array series = logical_not(logical_or(logical_or(logical_or(b0, b1), logical_or(b2, b1b)),
                                        logical_or(logical_or(b3, b4), logical_or(b1c, b5))));
  // Each series on safe inputs (1/2, 1/2; 1; 1/2) where it is not used.
  auto safe = [&](const Array& use, const Array& v, double w) { return where(use, v, c_like(w, x)); };
  Array euler_value = power(s, d) * terminal_or_series(safe(euler, ca, 0.5), safe(euler, cb, 0.5), safe(euler, c, 1),
                                                       safe(euler, x, 0.5));
  Array r = terminal_or_series(safe(series, a, 0.5), safe(series, b, 0.5), safe(series, c, 1), safe(series, x, 0.5));
  r = where(b5, gamma(c) * gamma(d) / (gamma(ca) * gamma(cb)), r);
  r = where(b1c, c_like(INFINITY, x), r);
  r = where(b4, power(s, -b), r);
  r = where(b3, power(s, -a), r);
  r = where(b1b, c_like(INFINITY, x), r);
  r = where(b2, euler_value, r);
  r = where(b1, c_like(INFINITY, x), r);
  return where(b0, one, r);
}

// ∂/∂a, ∂/∂b, ∂/∂c of 2F1 by their series Σ_(k≥1) t_k w(k), t_1 = ab/c x.
Array d_hyp2f1(const Array& a, const Array& b, const Array& c, const Array& x, int which) {
  Array one = c_like(1, x);
  auto next = [a, b, c, x, one](const Array& t, const Array& k) { return t * (a + k) * (b + k) / (c + k) / (k + one) * x; };
  Array t1 = a * b / c * x;
  if (which == 0) return series_sum(x, 0, t1, [a](const Array& k) { return digamma(a + k) - digamma(a); }, next);
  if (which == 1) return series_sum(x, 0, t1, [b](const Array& k) { return digamma(b + k) - digamma(b); }, next);
  return series_sum(x, 0, t1, [c](const Array& k) { return digamma(c) - digamma(c + k); }, next);
}

}  // namespace

Array hyp2f1(const Array& a_in, const Array& b_in, const Array& c_in, const Array& x_in, SourceLocation loc) {
  const char* op = "hyp2f1";
  std::vector<Array> args{api::to_inexact(a_in, op, loc), api::to_inexact(b_in, op, loc), api::to_inexact(c_in, op, loc),
                          api::to_inexact(x_in, op, loc)};
  TypeSpec t = api::spec(args[0], op);
  for (size_t i = 1; i < args.size(); ++i) t = promote_types(t, api::spec(args[i], op));
  if (is_complex(t.dtype)) throw DTypeError("hyp2f1: expects real values, but got " + std::string(short_name(t.dtype)));
  for (Array& v : args) v = api::convert(v, t, loc);
  std::vector<Array> v = broadcast_arrays(args, loc);
  auto f = [](const Array& a, const Array& b, const Array& c, const Array& x) { return hyp2f1_value(a, b, c, x); };
  auto rule = custom_jvp(f, [](const Array& a, const Array& b, const Array& c, const Array& x, const Array& ta,
                               const Array& tb, const Array& tc, const Array& tx) {
    Array one = c_like(1, a);
    Array dx = a * b / c * hyp2f1_value(a + one, b + one, c + one, x);
    return std::make_pair(hyp2f1_value(a, b, c, x), d_hyp2f1(a, b, c, x, 0) * ta + d_hyp2f1(a, b, c, x, 1) * tb +
                                                        d_hyp2f1(a, b, c, x, 2) * tc + dx * tx);
  });
  // Below x = -1 the series diverge (JAX sums them anyway: 1.3e98 for 2F1(2, 3; 4.5; -2.5));
  // Pfaff's transform 2F1(a, b; c; x) = (1 − x)^(−a) 2F1(a, c − b; c; x/(x − 1)) maps x to
  // (1/2, 1), and the derivatives follow through it.
  // Each side on safe values where the other is taken: the series derivatives' digammas have
  // poles, and a NaN there would reach the gradient through where's zero cotangent.
  const Array &a = v[0], &b = v[1], &c = v[2], &x = v[3];
  Array one = c_like(1, x), far = x < -one;
  auto when = [](const Array& use, const Array& value, double safe) { return where(use, value, c_like(safe, value)); };
  Array near = logical_not(far);
  Array direct = rule(when(near, a, 0.5), when(near, b, 0.5), when(near, c, 1), when(near, x, 0.5));
  Array af = when(far, a, 0.5), bf = when(far, b, 0.5), cf = when(far, c, 1), xf = when(far, x, -2);
  Array pfaff = power(one - xf, -af) * rule(af, cf - bf, cf, xf / (xf - one));
  return where(far, pfaff, direct);
}

Array hyp1f1(const Array& a_in, const Array& b_in, const Array& x_in, SourceLocation loc) {
  auto [a0, b0] = api::promote_inexact_dtypes("hyp1f1", a_in, b_in, loc);
  auto [ab, x0] = api::promote_inexact_dtypes("hyp1f1", a0, x_in, loc);
  if (is_complex(x0.dtype())) throw DTypeError("hyp1f1: expects real values, but got " + api::aval(x0, "hyp1f1").str());
  std::vector<Array> v = broadcast_arrays({astype(a0, x0.dtype(), loc), astype(b0, x0.dtype(), loc), x0}, loc);
  auto f = [](const Array& a, const Array& b, const Array& x) { return value(a, b, x); };
  auto rule = custom_jvp(f, [](const Array& a, const Array& b, const Array& x, const Array& ta, const Array& tb, const Array& tx) {
    Array one = c_like(1, a);
    Array dx = a / b * value(a + one, b + one, x);
    return std::make_pair(value(a, b, x), d_da(a, b, x) * ta + d_db(a, b, x) * tb + dx * tx);
  });
  return rule(v[0], v[1], v[2]);
}

}  // namespace strata::special
