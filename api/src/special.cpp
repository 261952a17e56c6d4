// jax.scipy.special's functions (strata/special.h) over the public ops, with JAX's definitions.
#include "strata/special.h"

#include <cmath>
#include <utility>

#include "op_helpers.h"
#include "strata/creation.h"
#include "strata/grad.h"

namespace strata::special {

namespace {

Array c_like(double v, const Array& x) { return astype(Array(v), x.dtype()); }
Array real_inexact(const Array& x, const char* op, const SourceLocation& loc) {
  Array y = api::to_inexact(x, op, loc);
  if (is_complex(y.dtype())) throw DTypeError(std::string(op) + ": expects real values, but got " + api::aval(x, op).str());
  return y;
}

// x · g(y), 0 where x is 0; the derivative x' g(y) + y' x g'(y) (JAX's custom_jvp).
template <class G, class DG>
Array x_times(const Array& x, const Array& y, G g, DG dg) {
  auto f = [g](const Array& a, const Array& b) { return where(a != 0, a * g(b), zeros_like(a * b)); };
  auto rule = strata::custom_jvp(f, [f, g, dg](const Array& a, const Array& b, const Array& ta, const Array& tb) {
    return std::make_pair(f(a, b), ta * g(b) + tb * a * dg(b));
  });
  return rule(x, y);
}

}  // namespace

Array xlogy(const Array& x, const Array& y, SourceLocation loc) {
  auto [a, b] = api::promote_inexact_dtypes("xlogy", x, y, loc);
  return x_times(a, b, [](const Array& v) { return log(v); }, [](const Array& v) { return 1.0 / v; });
}

Array xlog1py(const Array& x, const Array& y, SourceLocation loc) {
  auto [a, b] = api::promote_inexact_dtypes("xlog1py", x, y, loc);
  return x_times(a, b, [](const Array& v) { return log1p(v); }, [](const Array& v) { return 1.0 / (v + 1.0); });
}

Array entr(const Array& x_in, SourceLocation loc) {
  Array x = real_inexact(x_in, "entr", loc);
  Array safe = where(greater(x, c_like(0, x), loc), x, c_like(1, x), loc);
  return where(greater(x, c_like(0, x), loc), negative(safe * log(safe, loc), loc),
               where(equal(x, c_like(0, x), loc), c_like(0, x), c_like(-INFINITY, x), loc), loc);
}

namespace {
// p · log(p / q) where both are positive (safe elsewhere), and the masks of the other cases.
struct Entropy {
  Array p, q, both, zero_p, value;
};
Entropy relative(const char* op, const Array& p_in, const Array& q_in, const SourceLocation& loc) {
  auto [p, q] = api::promote_inexact_dtypes(op, p_in, q_in, loc);
  if (is_complex(p.dtype())) throw DTypeError(std::string(op) + ": expects real values");
  Array both = logical_and(greater(p, c_like(0, p), loc), greater(q, c_like(0, q), loc), loc);
  Array sp = where(both, p, c_like(1, p), loc), sq = where(both, q, c_like(1, q), loc);
  Array zero_p = logical_and(equal(p, c_like(0, p), loc), greater_equal(q, c_like(0, q), loc), loc);
  return {p, q, both, zero_p, sp * log(sp / sq, loc)};
}
}  // namespace

Array rel_entr(const Array& p, const Array& q, SourceLocation loc) {
  Entropy e = relative("rel_entr", p, q, loc);
  Array inf = c_like(INFINITY, e.value);
  return where(e.both, e.value, where(e.zero_p, zeros_like(e.value), inf, loc), loc);
}

Array kl_div(const Array& p_in, const Array& q_in, SourceLocation loc) {
  Entropy e = relative("kl_div", p_in, q_in, loc);
  Array inf = c_like(INFINITY, e.value);
  return where(e.both, e.value - e.p + e.q, where(e.zero_p, e.q + zeros_like(e.value), inf, loc), loc);
}

Array logit(const Array& x_in, SourceLocation loc) {
  Array x = real_inexact(x_in, "logit", loc);
  return log(x / (c_like(1, x) - x), loc);
}
Array expit(const Array& x, SourceLocation loc) { return logistic(real_inexact(x, "expit", loc), loc); }

// JAX's: through erf near 0 and erfc in the tails, so neither side loses digits.
Array ndtr(const Array& x_in, SourceLocation loc) {
  Array x = real_inexact(x_in, "ndtr", loc);
  Array w = x * c_like(M_SQRT1_2, x), z = abs(w, loc);
  Array y = where(less(z, c_like(M_SQRT1_2, x), loc), c_like(1, x) + erf(w, loc),
                  where(greater(w, c_like(0, x), loc), c_like(2, x) - erfc(z, loc), erfc(z, loc), loc), loc);
  return c_like(0.5, x) * y;
}

Array log_ndtr(const Array& x_in, SourceLocation loc) {
  Array x = real_inexact(x_in, "log_ndtr", loc);
  const bool wide = x.dtype() == f64;
  const double lower = wide ? -20 : -10, upper = wide ? 8 : 5;
  // Below `lower`: log of the asymptotic series ndtr(x) ≈ φ(x)/(-x) · (1 - 1/x² + 3/x⁴ - 15/x⁶).
  Array xl = minimum(x, c_like(lower, x), loc), x2 = xl * xl;
  Array log_scale = c_like(-0.5, x) * x2 - log(negative(xl, loc), loc) - c_like(0.5 * std::log(2 * M_PI), x);
  Array series = c_like(1, x), x2n = x2;
  double double_factorial = 1;  // (2n - 1)!!
  for (int n = 1; n <= 3; ++n) {
    double_factorial *= 2 * n - 1;
    Array term = c_like(double_factorial, x) / x2n;
    series = n % 2 ? series - term : series + term;
    x2n = x2n * x2;
  }
  Array low = log_scale + log(series, loc);
  Array mid = log(ndtr(maximum(x, c_like(lower, x), loc), loc), loc);
  Array high = log1p(negative(ndtr(negative(maximum(x, c_like(upper, x), loc), loc), loc), loc), loc);
  return where(greater(x, c_like(upper, x), loc), high, where(greater(x, c_like(lower, x), loc), mid, low, loc), loc);
}

namespace {
// lgamma(z) - ((z - 1/2) log z - z + log(2π)/2) for z >= 8: the Stirling series
// Σ B_2k / (2k (2k - 1) z^(2k-1)), seven terms (the next is below 1e-15 · corr at z = 8).
Array stirling_correction(const Array& z) {
  const double c[] = {1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188, -691.0 / 360360, 1.0 / 156};
  Array w = 1.0 / (z * z), acc = c_like(c[6], z);
  for (int k = 5; k >= 0; --k) acc = acc * w + c_like(c[k], z);
  return acc / z;
}
}  // namespace

// JAX's: for b >= 8, lgamma(b) - lgamma(a + b) from the Stirling series with the large terms
// cancelled by hand, -a log b - (a + b - 1/2) log1p(a / b) + a + corr(b) - corr(a + b), since the
// difference of two large lgammas loses digits.
Array betaln(const Array& a, const Array& b, SourceLocation loc) {
  auto [p, q] = api::promote_inexact_dtypes("betaln", a, b, loc);
  if (is_complex(p.dtype())) throw DTypeError("betaln: expects real values");
  Array x = minimum(p, q, loc), y = maximum(p, q, loc);
  Array small = lgamma(x, loc) + (lgamma(y, loc) - lgamma(x + y, loc));
  Array ys = maximum(y, c_like(8, y), loc);  // the large-b branch at safe values
  Array diff = negative(x * log(ys, loc), loc) - (x + ys - c_like(0.5, x)) * log1p(x / ys, loc) + x +
               stirling_correction(ys) - stirling_correction(x + ys);
  return where(less(y, c_like(8, y), loc), small, lgamma(x, loc) + diff, loc);
}

Array multigammaln(const Array& a_in, int d, SourceLocation loc) {
  if (d < 1) throw ValueError("multigammaln: expects a dimension d >= 1, but got " + std::to_string(d));
  Array a = real_inexact(a_in, "multigammaln", loc);
  Array r = c_like(d * (d - 1) / 4.0 * std::log(M_PI), a) + zeros_like(a);
  for (int j = 0; j < d; ++j) r = r + lgamma(a - c_like(j / 2.0, a), loc);
  return r;
}

}  // namespace strata::special
