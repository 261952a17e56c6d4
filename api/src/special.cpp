// jax.scipy.special's functions (strata/special.h) over the public ops, with JAX's definitions.
#include "strata/special.h"

#include <cmath>
#include <utility>

#include "op_helpers.h"
#include "special_common.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/grad.h"
#include "strata/statistics.h"

namespace strata::special {

using detail::c_like;
using detail::horner;
using detail::real_inexact;

namespace {


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
  return x_times(a, b, [](const Array& v) { return log(v); }, [](const Array& v) { return c_like(1, v) / v; });
}

Array xlog1py(const Array& x, const Array& y, SourceLocation loc) {
  auto [a, b] = api::promote_inexact_dtypes("xlog1py", x, y, loc);
  return x_times(a, b, [](const Array& v) { return log1p(v); }, [](const Array& v) { return c_like(1, v) / (v + c_like(1, v)); });
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
  // Near 1/2, log(x/(1 - x)) is the log of a value near 1 and kept only its absolute accuracy
  // (1e3 ulps at 0.4999 in f64, as JAX's); there log1p((2x - 1)/(1 - x)) instead, both of
  // whose differences are exact for x in [1/4, 3/4].
  Array one = c_like(1, x), d = one - x;
  Array near = logical_and(greater_equal(x, c_like(0.25, x), loc), less_equal(x, c_like(0.75, x), loc), loc);
  return where(near, log1p((x + x - one) / d, loc), log(x / d, loc), loc);
}
Array expit(const Array& x, SourceLocation loc) { return logistic(real_inexact(x, "expit", loc), loc); }

// erfc(-x/√2)/2: one erfc, accurate (to an ulp or two) over the whole line: its lower tail
// keeps every digit and near 0 and above it is 1 + erf(x/√2) rounded. JAX selects between
// 1 + erf(w), 2 - erfc(|w|) and erfc(|w|), computing both functions per element, because XLA's
// erfc near 0 is 1 - erf; glibc's and libdevice's erfc are accurate there, so strata computes
// one function where JAX computes two (the same values to rounding).
Array ndtr(const Array& x_in, SourceLocation loc) {
  Array x = real_inexact(x_in, "ndtr", loc);
  return c_like(0.5, x) * erfc(x * c_like(-M_SQRT1_2, x), loc);
}

Array log_ndtr(const Array& x_in, SourceLocation loc) {
  Array x = real_inexact(x_in, "log_ndtr", loc);
  const bool wide = x.dtype() == f64;
  const double lower = wide ? -20 : -10, upper = wide ? 8 : 5;
  // Below `lower`: log of the asymptotic series ndtr(x) ≈ φ(x)/(-x) · (1 - 1/x² + 3/x⁴ - 15/x⁶
  // ...), 3 terms in f32, 10 in f64 (JAX's 3 left 4e-9 of ndtr at x = -20: 1e5 ulps of its log).
  Array xl = minimum(x, c_like(lower, x), loc), x2 = xl * xl;
  const int terms = wide ? 10 : 3;
  Array log_scale = c_like(-0.5, x) * x2 - log(negative(xl, loc), loc) - c_like(0.5 * std::log(2 * M_PI), x);
  Array series = c_like(1, x), x2n = x2;
  double double_factorial = 1;  // (2n - 1)!!
  for (int n = 1; n <= terms; ++n) {
    double_factorial *= 2 * n - 1;
    Array term = c_like(double_factorial, x) / x2n;
    series = n % 2 ? series - term : series + term;
    x2n = x2n * x2;
  }
  Array low = log_scale + log(series, loc);
  // Each branch sees only arguments of its own range (clamped elsewhere): the middle one's erfc
  // of a large argument would underflow through slow subnormal paths for elements it never uses.
  // There, from the tail probability q = ndtr(-|x|), which erfc gives accurately: log q for
  // x <= 0, log1p(-q) above (log(ndtr(x)) lost q's digits in 1 - q: f32 log_ndtr(4.9) 6% off,
  // f64 log_ndtr(7.95) 5%, as in JAX).
  // (-|x| as a select: abs's derivative at 0, +1 as JAX's, turned the gradient's sign there.)
  Array xm = clamp(c_like(lower, x), x, c_like(upper, x), loc);
  Array positive = greater(xm, c_like(0, x), loc);
  Array q = ndtr(where(positive, negative(xm, loc), xm, loc), loc);
  Array mid = where(positive, log1p(negative(q, loc), loc), log(q, loc), loc);
  // Above `top`, ndtr(-x) is subnormal (and libm's slow paths take it): log_ndtr(x) is -0, as
  // where XLA flushes subnormals.
  const double top = wide ? 37.5 : 12.9;
  Array xh = clamp(c_like(upper, x), x, c_like(top, x), loc);
  // log1p(-t) for t = ndtr(-x) <= ndtr(-upper) (2.9e-7 in f32, 6.2e-16 in f64) is -t (1 + t/2)
  // to within rounding (the next term is t²/3 of it), without a libm call (libmvec's log1pf
  // took 40% of a compiled log_ndtr).
  // The t/2 term is taken at no less than 2^-60 (below that, 1 + t/2 rounds to 1 either way):
  // t·t/2 of a t near the least normal underflows, and on x86 every product that underflows
  // costs a microcode assist (~50 ns a vector), in each of the many lanes clamped to `top`.
  Array t = ndtr(negative(xh, loc), loc);
  Array half_t = c_like(0.5, x) * maximum(t, c_like(std::ldexp(1.0, -60), x), loc);
  Array high = where(greater(x, c_like(top, x), loc), c_like(-0.0, x), negative(t * (c_like(1, x) + half_t), loc), loc);
  return where(greater(x, c_like(upper, x), loc), high, where(greater(x, c_like(lower, x), loc), mid, low, loc), loc);
}

namespace {
// Σ c[i] w^(n-1-i), highest power first (Horner).
// lgamma(z) - ((z - 1/2) log z - z + log(2π)/2) for z >= 8: the Stirling series
// Σ B_2k / (2k (2k - 1) z^(2k-1)), seven terms (the next is below 1e-15 · corr at z = 8).
Array stirling_correction(const Array& z) {
  const double c[] = {1.0 / 156, -691.0 / 360360, 1.0 / 1188, -1.0 / 1680, 1.0 / 1260, -1.0 / 360, 1.0 / 12};
  return horner(c, 1.0 / (z * z)) / z;
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


// Cephes' ndtri as JAX writes it: a rational function of (p - 1/2)² in the middle, of 1/z with
// z = sqrt(-2 log p) in the tails (one pair of polynomials for z >= 8, another below).
Array ndtri(const Array& p_in, SourceLocation loc) {
  Array p = real_inexact(p_in, "ndtri", loc);
  if (p.dtype() != f32 && p.dtype() != f64)
    throw DTypeError("ndtri: expects f32 or f64 (as JAX), but got " + api::aval(p_in, "ndtri").str());
  const double p0[] = {-5.99633501014107895267E1, 9.80010754185999661536E1, -5.66762857469070293439E1,
                       1.39312609387279679503E1, -1.23916583867381258016E0};
  const double q0[] = {1.0, 1.95448858338141759834E0, 4.67627912898881538453E0, 8.63602421390890590575E1,
                       -2.25462687854119370527E2, 2.00260212380060660359E2, -8.20372256168333339912E1,
                       1.59056225126211695515E1, -1.18331621121330003142E0};
  const double p1[] = {4.05544892305962419923E0, 3.15251094599893866154E1, 5.71628192246421288162E1,
                       4.40805073893200834700E1, 1.46849561928858024014E1, 2.18663306850790267539E0,
                       -1.40256079171354495875E-1, -3.50424626827848203418E-2, -8.57456785154685413611E-4};
  const double q1[] = {1.0, 1.57799883256466749731E1, 4.53907635128879210584E1, 4.13172038254672030440E1,
                       1.50425385692907503408E1, 2.50464946208309415979E0, -1.42182922854787788574E-1,
                       -3.80806407691578277194E-2, -9.33259480895457427372E-4};
  const double p2[] = {3.23774891776946035970E0, 6.91522889068984211695E0, 3.93881025292474443415E0,
                       1.33303460815807542389E0, 2.01485389549179081538E-1, 1.23716634817820021358E-2,
                       3.01581553508235416007E-4, 2.65806974686737550832E-6, 6.23974539184983293730E-9};
  const double q2[] = {1.0, 6.02427039364742014255E0, 3.67983563856160859403E0, 1.37702099489081330271E0,
                       2.16236993594496635890E-1, 1.34204006088543189037E-2, 3.28014464682127739104E-4,
                       2.89247864745380683936E-6, 6.79019408009981274425E-9};
  const double upper = 1.0 - std::exp(-2.0);
  Array mcp = where(greater(p, c_like(upper, p), loc), c_like(1, p) - p, p, loc);
  Array safe = where(equal(mcp, c_like(0, p), loc), c_like(0.5, p), mcp, loc);
  Array w = safe - c_like(0.5, p), ww = w * w;
  Array big = (w + w * ww * (horner(p0, ww) / horner(q0, ww))) * c_like(-std::sqrt(2 * M_PI), p);
  Array z = sqrt(c_like(-2, p) * log(safe, loc), loc);
  Array first = z - log(z, loc) / z, inv = 1.0 / z;
  Array small_p = first - horner(p2, inv) / horner(q2, inv) / z;
  Array otherwise = first - horner(p1, inv) / horner(q1, inv) / z;
  Array x = where(greater(safe, c_like(std::exp(-2.0), p), loc), big,
                  where(greater_equal(z, c_like(8, p), loc), small_p, otherwise, loc), loc);
  x = where(greater(p, c_like(upper, p), loc), x, negative(x, loc), loc);
  return where(equal(p, c_like(0, p), loc), c_like(-INFINITY, p),
               where(equal(p, c_like(1, p), loc), c_like(INFINITY, p), x, loc), loc);
}

Array gammaln(const Array& x, SourceLocation loc) { return lgamma(real_inexact(x, "gammaln", loc), loc); }

Array gammasgn(const Array& x_in, SourceLocation loc) {
  Array x = real_inexact(x_in, "gammasgn", loc);
  Array fl = floor(x, loc), negative_x = less(x, c_like(0, x), loc);
  Array pole = logical_or(logical_and(negative_x, equal(x, fl, loc), loc), isnan(x), loc);
  Array minus = logical_or(logical_and(negative_x, not_equal(fmod(fl, c_like(2, x), loc), c_like(0, x), loc), loc),
                           logical_and(equal(x, c_like(0, x), loc), signbit(x), loc), loc);
  return where(pole, c_like(NAN, x), where(minus, c_like(-1, x), c_like(1, x), loc), loc);
}

Array gamma(const Array& x_in, SourceLocation loc) {
  Array x = real_inexact(x_in, "gamma", loc);
  return gammasgn(x, loc) * exp(lgamma(x, loc), loc);
}

Array factorial(const Array& n_in, SourceLocation loc) {
  Array n = real_inexact(n_in, "factorial", loc);
  return where(less(n, c_like(0, n), loc), c_like(0, n), exp(lgamma(n + c_like(1, n), loc), loc), loc);
}

Array beta(const Array& a, const Array& b, SourceLocation loc) {
  auto [p, q] = api::promote_inexact_dtypes("beta", a, b, loc);
  if (is_complex(p.dtype())) throw DTypeError("beta: expects real values");
  return gammasgn(p, loc) * gammasgn(q, loc) * gammasgn(p + q, loc) * exp(betaln(p, q, loc), loc);
}

Array gammainc(const Array& a, const Array& x, SourceLocation loc) { return igamma(a, x, loc); }
Array gammaincc(const Array& a, const Array& x, SourceLocation loc) { return igammac(a, x, loc); }

Array betainc(const Array& a, const Array& b, const Array& x, SourceLocation loc) { return strata::betainc(a, b, x, loc); }

Array i0e(const Array& x, SourceLocation loc) { return bessel_i0e(real_inexact(x, "i0e", loc), loc); }
Array i1e(const Array& x, SourceLocation loc) { return bessel_i1e(real_inexact(x, "i1e", loc), loc); }
Array i0(const Array& x_in, SourceLocation loc) {
  Array x = real_inexact(x_in, "i0", loc);
  return exp(abs(x, loc), loc) * bessel_i0e(x, loc);
}
Array i1(const Array& x_in, SourceLocation loc) {
  Array x = real_inexact(x_in, "i1", loc);
  return exp(abs(x, loc), loc) * bessel_i1e(x, loc);
}

Array zeta(const Array& x, const Array& q, SourceLocation loc) { return strata::zeta(x, q, loc); }

Array polygamma(const Array& n, const Array& x, SourceLocation loc) {
  if (!is_integer(n.dtype()))
    throw DTypeError("polygamma: expects an integer order n (as JAX), but got " + api::aval(n, "polygamma").str());
  return strata::polygamma(n, x, loc);
}

Array multigammaln(const Array& a_in, int d, SourceLocation loc) {
  if (d < 1) throw ValueError("multigammaln: expects a dimension d >= 1, but got " + std::to_string(d));
  Array a = real_inexact(a_in, "multigammaln", loc);
  Array r = c_like(d * (d - 1) / 4.0 * std::log(M_PI), a) + zeros_like(a);
  for (int j = 0; j < d; ++j) r = r + lgamma(a - c_like(j / 2.0, a), loc);
  return r;
}

}  // namespace strata::special
