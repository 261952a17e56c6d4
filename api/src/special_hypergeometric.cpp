// The confluent hypergeometric function 1F1 (strata/special.h), as JAX's hyp1f1 (Pearson, Olver
// and Porter 2014): the Taylor series for |x| < 100, the asymptotic series beyond, each a
// whole-array loop in which an element stops when its next term is below the precision (at
// most 250 terms, as JAX); derivatives in a and b by their series, in x by a/b · 1F1(a+1, b+1, x).
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

// Γ(b)/Γ(a) e^x x^(a-b) Σ_k t_k, t_(k+1) = t_k (b-a+k)(1-a+k)/((k+1) x).
Array asymptotic(const Array& a, const Array& b, const Array& x) {
  Array one = c_like(1, x);
  Array sum = series_sum(x, 1, (b - a) * (one - a) / x, [](const Array& k) { return c_like(1, k); },
                         [a, b, x, one](const Array& t, const Array& k) { return t * (b - a + k) * (one - a + k) / (k + one) / x; });
  return gamma(b) / gamma(a) * exp(x) * power(x, a - b) * sum;
}

Array value(const Array& a, const Array& b, const Array& x) {
  Array small = abs(x) < c_like(100, x);
  // Each form on safe inputs where the other is used (no loop runs there).
  Array xs = where(small, x, c_like(1, x)), xl = where(small, c_like(200, x), x);
  Array r = where(small, series(a, b, xs), asymptotic(a, b, xl));
  Array zero = c_like(0, a);
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

}  // namespace

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
