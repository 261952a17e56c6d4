// api/src/stats_discrete.cpp — the discrete distributions of st::stats (jax.scipy.stats):
// poisson, bernoulli, binom, nbinom, geom, betabinom and multinomial, with JAX's formulas.
#include <cmath>
#include <numbers>

#include "stats_common.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/selection.h"
#include "strata/special.h"
#include "strata/statistics.h"

namespace strata::stats {

using detail::full;
using detail::promote;
constexpr double kInf = INFINITY;

// ---- poisson ----
namespace poisson {
Array logpmf(const Array& k_, const Array& mu_, const Array& loc_, Src src) {
  auto v = promote("poisson.logpmf", {k_, mu_, loc_}, src);
  const Array &k = v[0], &mu = v[1];
  Array x = k - v[2];
  Array lp = special::xlogy(x, mu) - special::gammaln(x + 1.0) - mu;
  return full("poisson.logpmf", where((x < 0.0) | (round(k) != k), -kInf, lp), v, src);
}
Array pmf(const Array& k, const Array& mu, const Array& loc, Src src) { return exp(logpmf(k, mu, loc, src)); }
Array cdf(const Array& k_, const Array& mu_, const Array& loc_, Src src) {
  auto v = promote("poisson.cdf", {k_, mu_, loc_}, src);
  Array x = v[0] - v[2];
  Array p = special::gammaincc(floor(1.0 + x), v[1]);
  return full("poisson.cdf", where(x < 0.0, zeros_like(p), p), v, src);
}

namespace {
// The entropy as a sum of -p log p over k < kmax (JAX's: 35 terms below mu 10, 250 below 100),
// each mu's terms cut at `upper` (mu + 20, mu + 10 sqrt(mu) + 20).
Array entropy_sum(const Array& mu, int64_t kmax, const Array& upper) {
  Array k = expand_dims(astype(arange(kmax), mu.dtype()), 1);  // [kmax, 1] against mu [m]
  Array probs = pmf(k, mu, 0.0);
  Array kept = where(k < expand_dims(ceil(upper), 0), probs, 0.0);
  return sum(special::entr(kept), 0);
}
}  // namespace

Array entropy(const Array& mu_, const Array& loc_, Src src) {
  auto v = promote("poisson.entropy", {mu_, loc_}, src);
  const Array& mu0 = v[0];
  Array mu = ravel(mu0);
  Array small = entropy_sum(mu, 35, mu + 20.0);
  Array medium = entropy_sum(mu, 250, mu + 10.0 * sqrt(mu) + 20.0);
  Array large = 0.5 * log(2 * std::numbers::pi * std::numbers::e * mu) - 1.0 / (12.0 * mu);
  Array r = where(mu == 0.0, zeros_like(mu), where(mu < 10.0, small, where(mu < 100.0, medium, large)));
  return full("poisson.entropy", reshape(r, mu0.shape()), v, src);
}
}  // namespace poisson

// ---- bernoulli ----
namespace bernoulli {
Array logpmf(const Array& k_, const Array& p_, const Array& loc_, Src src) {
  auto v = promote("bernoulli.logpmf", {k_, p_, loc_}, src);
  const Array& p = v[1];
  Array x = v[0] - v[2];
  Array lp = special::xlogy(x, p) + special::xlog1py(1.0 - x, -p);
  return full("bernoulli.logpmf", where((x < 0.0) | (x > 1.0), -kInf, lp), v, src);
}
Array pmf(const Array& k, const Array& p, const Array& loc, Src src) { return exp(logpmf(k, p, loc, src)); }
Array cdf(const Array& k_, const Array& p_, Src src) {
  auto v = promote("bernoulli.cdf", {k_, p_}, src);
  const Array &k = v[0], &p = v[1];
  Array z = zeros_like(k + p);
  Array r = select({isnan(k) | isnan(p) | (p < 0.0) | (p > 1.0), k < 0.0, (k >= 0.0) & (k < 1.0), k >= 1.0},
                   {z + NAN, z, z + (1.0 - p), z + 1.0}, z);
  return full("bernoulli.cdf", r, v, src);
}
Array ppf(const Array& q_, const Array& p_, Src src) {
  auto v = promote("bernoulli.ppf", {q_, p_}, src);
  const Array &q = v[0], &p = v[1];
  Array z = zeros_like(q + p);
  Array bad = isnan(q) | isnan(p) | (p < 0.0) | (p > 1.0) | (q < 0.0) | (q > 1.0);
  return full("bernoulli.ppf", where(bad, z + NAN, where(q <= 1.0 - p, z, z + 1.0)), v, src);
}
}  // namespace bernoulli

// ---- binom ----
namespace binom {
Array logpmf(const Array& k_, const Array& n_, const Array& p_, const Array& loc_, Src src) {
  auto v = promote("binom.logpmf", {k_, n_, p_, loc_}, src);
  const Array &k = v[0], &n = v[1], &p = v[2], &loc = v[3];
  Array y = k - loc;
  Array comb = special::gammaln(n + 1.0) - (special::gammaln(y + 1.0) + special::gammaln(n - y + 1.0));
  Array linear = special::xlogy(y, p) + special::xlog1py(n - y, -p);
  // A certain outcome (p 0 or 1 at its end, or no trials) has log probability exactly 0.
  Array lp = where(((y == 0.0) & (n == 0.0)) | (linear == 0.0), 0.0, comb + linear);
  return full("binom.logpmf", where((k >= loc) & (k < loc + n + 1.0), lp, -kInf), v, src);
}
Array pmf(const Array& k, const Array& n, const Array& p, const Array& loc, Src src) {
  return exp(logpmf(k, n, p, loc, src));
}
}  // namespace binom

// ---- nbinom ----
namespace nbinom {
Array logpmf(const Array& k_, const Array& n_, const Array& p_, const Array& loc_, Src src) {
  auto v = promote("nbinom.logpmf", {k_, n_, p_, loc_}, src);
  const Array &k = v[0], &n = v[1], &p = v[2], &loc = v[3];
  Array y = k - loc;
  Array comb = special::gammaln(y + n) - special::gammaln(n) - special::gammaln(y + 1.0);
  Array linear = special::xlogy(n, p) + special::xlogy(y, 1.0 - p);
  return full("nbinom.logpmf", where(k < loc, -kInf, comb + linear), v, src);
}
Array pmf(const Array& k, const Array& n, const Array& p, const Array& loc, Src src) {
  return exp(logpmf(k, n, p, loc, src));
}
}  // namespace nbinom

// ---- geom ----
namespace geom {
Array logpmf(const Array& k_, const Array& p_, const Array& loc_, Src src) {
  auto v = promote("geom.logpmf", {k_, p_, loc_}, src);
  const Array& p = v[1];
  Array x = v[0] - v[2];
  Array lp = special::xlog1py(x - 1.0, -p) + log(p);
  return full("geom.logpmf", where(x <= 0.0, -kInf, lp), v, src);
}
Array pmf(const Array& k, const Array& p, const Array& loc, Src src) { return exp(logpmf(k, p, loc, src)); }
}  // namespace geom

// ---- betabinom ----
namespace betabinom {
Array logpmf(const Array& k_, const Array& n_, const Array& a_, const Array& b_, const Array& loc_, Src src) {
  auto v = promote("betabinom.logpmf", {k_, n_, a_, b_, loc_}, src);
  const Array &n = v[1], &a = v[2], &b = v[3], &loc = v[4];
  Array y = floor(v[0]) - loc;
  Array combiln = -(log1p(n) + special::betaln(n - y + 1.0, y + 1.0));
  Array beta_lns = special::betaln(y + a, n - y + b) - special::betaln(a, b);
  Array lp = where((y == 0.0) & (n == 0.0), 0.0, combiln + beta_lns);
  lp = where((y < -loc) | (y > n) | (y + a <= 0.0), -kInf, lp);
  return full("betabinom.logpmf", where((n < 0.0) | (a <= 0.0) | (b <= 0.0), NAN, lp), v, src);
}
Array pmf(const Array& k, const Array& n, const Array& a, const Array& b, const Array& loc, Src src) {
  return exp(logpmf(k, n, a, b, loc, src));
}
}  // namespace betabinom

// ---- multinomial ----
namespace multinomial {
Array logpmf(const Array& x_, const Array& n_, const Array& p_, Src src) {
  const char* op = "multinomial.logpmf";
  Array p = detail::promote(op, {p_}, src)[0];
  if (!is_integer(api::aval(x_, op).dtype) || !is_integer(api::aval(n_, op).dtype))
    throw DTypeError(std::string(op) + ": x and n must be integers, but got x " + api::aval(x_, op).str() + " and n " +
                     api::aval(n_, op).str());
  if (api::aval(x_, op).ndim() == 0) throw ValueError(std::string(op) + ": x must have a last axis of categories");
  Array x = astype(x_, p.dtype()), n = astype(n_, p.dtype());
  Array lp = special::gammaln(n + 1.0) + sum(special::xlogy(x, p) - special::gammaln(x + 1.0), -1);
  // The counts of each draw must add up to n (JAX sums all of x, the same for one draw).
  return where(sum(x, -1) == n, lp, -kInf);
}
Array pmf(const Array& x, const Array& n, const Array& p, Src src) { return exp(logpmf(x, n, p, src)); }
}  // namespace multinomial

}  // namespace strata::stats
