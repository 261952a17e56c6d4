// api/src/stats_continuous.cpp — the univariate continuous distributions of st::stats
// (jax.scipy.stats): JAX's formulas, over the public ops and st::special.
#include <cmath>
#include <numbers>

#include "stats_common.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/grad.h"
#include "strata/selection.h"
#include "strata/special.h"
#include "strata/statistics.h"

namespace strata::stats {

using detail::full;
using detail::promote;
constexpr double kPi = std::numbers::pi;
constexpr double kInf = INFINITY;

namespace {
// The standardised value (x - loc) / scale.
Array standard(const Array& x, const Array& loc, const Array& scale) { return (x - loc) / scale; }
}  // namespace

// ---- norm ----
namespace norm {
Array logpdf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("norm.logpdf", {x_, loc_, scale_}, src);
  Array s2 = square(v[2]);
  return full("norm.logpdf", (log(2 * kPi * s2) + square(v[0] - v[1]) / s2) / -2.0, v, src);
}
Array pdf(const Array& x, const Array& loc, const Array& scale, Src src) { return exp(logpdf(x, loc, scale, src)); }
Array cdf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("norm.cdf", {x_, loc_, scale_}, src);
  return full("norm.cdf", special::ndtr(standard(v[0], v[1], v[2])), v, src);
}
Array logcdf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("norm.logcdf", {x_, loc_, scale_}, src);
  return full("norm.logcdf", special::log_ndtr(standard(v[0], v[1], v[2])), v, src);
}
Array sf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("norm.sf", {x_, loc_, scale_}, src);
  return cdf(-v[0], -v[1], v[2], src);
}
Array logsf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("norm.logsf", {x_, loc_, scale_}, src);
  return logcdf(-v[0], -v[1], v[2], src);
}
Array ppf(const Array& q_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("norm.ppf", {q_, loc_, scale_}, src);
  return full("norm.ppf", special::ndtri(v[0]) * v[2] + v[1], v, src);
}
Array isf(const Array& q_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("norm.isf", {q_, loc_, scale_}, src);
  return ppf(1.0 - v[0], v[1], v[2], src);
}
}  // namespace norm

// ---- truncnorm ----
namespace {
// log(e^x - e^y) as JAX's logsumexp([x, y], b=[1, -1]): the larger one (0 when neither is
// finite) factored out and not differentiated; nan where y > x.
Array log_diff(const Array& x, const Array& y) {
  Array m = maximum(x, y);
  m = stop_gradient(where(is_finite(m), m, zeros_like(m)));
  Array s = exp(x - m) - exp(y - m);
  return where(s < 0.0, NAN, log(abs(s)) + m);
}
// log of the standard normal's mass on [a, b]: through the tail nearer to the bounds when both
// lie on one side of 0 (log_ndtr keeps its digits there), else log1p of the two tails.
Array log_gauss_mass(const Array& a, const Array& b) {
  Array left = b <= 0.0, right = a > 0.0;
  Array central = ~(left | right);
  Array a_tail = where(right, -b, a), b_tail = where(right, -a, b);
  Array tail = log_diff(special::log_ndtr(b_tail), special::log_ndtr(a_tail));
  Array mid = log1p(-special::ndtr(a) - special::ndtr(-b));
  return where(central, mid, tail);
}
}  // namespace

namespace truncnorm {
Array logpdf(const Array& x_, const Array& a_, const Array& b_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("truncnorm.logpdf", {x_, a_, b_, loc_, scale_}, src);
  const Array &x = v[0], &a = v[1], &b = v[2], &loc = v[3], &scale = v[4];
  Array val = norm::logpdf(x, loc, scale, src) - log_gauss_mass(a, b);
  Array xs = standard(x, loc, scale);
  val = where((xs < a) | (xs > b), -kInf, val);
  return full("truncnorm.logpdf", where(a >= b, NAN, val), v, src);
}
Array pdf(const Array& x, const Array& a, const Array& b, const Array& loc, const Array& scale, Src src) {
  return exp(logpdf(x, a, b, loc, scale, src));
}
Array logcdf(const Array& x_, const Array& a_, const Array& b_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("truncnorm.logcdf", {x_, a_, b_, loc_, scale_}, src);
  Shape shape = detail::common_shape("truncnorm.logcdf", v);
  Array x = broadcast_to(standard(v[0], v[3], v[4]), shape), a = broadcast_to(v[1], shape), b = broadcast_to(v[2], shape);
  Array ab = log_gauss_mass(a, b);
  Array lcdf = log_gauss_mass(a, x) - ab;
  Array lsf = log_gauss_mass(x, b) - ab;
  // Near 1 the cdf is better as 1 - sf.
  Array r = select({x >= b, x <= a, lcdf > -0.1, x > a}, {zeros_like(x), full_like(x, -kInf), log1p(-exp(lsf)), lcdf},
                   zeros_like(x));
  return where(a >= b, NAN, r);
}
Array cdf(const Array& x, const Array& a, const Array& b, const Array& loc, const Array& scale, Src src) {
  return exp(logcdf(x, a, b, loc, scale, src));
}
Array logsf(const Array& x_, const Array& a_, const Array& b_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("truncnorm.logsf", {x_, a_, b_, loc_, scale_}, src);
  return logcdf(-v[0], -v[2], -v[1], -v[3], v[4], src);
}
Array sf(const Array& x, const Array& a, const Array& b, const Array& loc, const Array& scale, Src src) {
  return exp(logsf(x, a, b, loc, scale, src));
}
}  // namespace truncnorm

// ---- t ----
namespace t {
Array logpdf(const Array& x_, const Array& df_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("t.logpdf", {x_, df_, loc_, scale_}, src);
  const Array &df = v[1], &scale = v[3];
  Array z = standard(v[0], v[2], scale);
  Array half_df = df / 2.0, half_df1 = half_df + 0.5;
  Array normalize = lgamma(half_df) + log(scale * scale * kPi * df) / 2.0 - lgamma(half_df1);
  return full("t.logpdf", -(normalize + half_df1 * log1p(z * z / df)), v, src);
}
Array pdf(const Array& x, const Array& df, const Array& loc, const Array& scale, Src src) {
  return exp(logpdf(x, df, loc, scale, src));
}
}  // namespace t

// ---- cauchy ----
namespace cauchy {
Array logpdf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("cauchy.logpdf", {x_, loc_, scale_}, src);
  Array z = standard(v[0], v[1], v[2]);
  return full("cauchy.logpdf", -(log(kPi * v[2]) + log1p(z * z)), v, src);
}
Array pdf(const Array& x, const Array& loc, const Array& scale, Src src) { return exp(logpdf(x, loc, scale, src)); }
Array cdf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("cauchy.cdf", {x_, loc_, scale_}, src);
  return full("cauchy.cdf", 0.5 + (1.0 / kPi) * atan(standard(v[0], v[1], v[2])), v, src);
}
Array logcdf(const Array& x, const Array& loc, const Array& scale, Src src) { return log(cdf(x, loc, scale, src)); }
Array sf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("cauchy.sf", {x_, loc_, scale_}, src);
  return cdf(-v[0], -v[1], v[2], src);
}
Array logsf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("cauchy.logsf", {x_, loc_, scale_}, src);
  return logcdf(-v[0], -v[1], v[2], src);
}
Array ppf(const Array& q_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("cauchy.ppf", {q_, loc_, scale_}, src);
  return full("cauchy.ppf", tan(kPi * v[0] - kPi / 2) * v[2] + v[1], v, src);
}
Array isf(const Array& q_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("cauchy.isf", {q_, loc_, scale_}, src);
  return full("cauchy.isf", tan(kPi / 2 - kPi * v[0]) * v[2] + v[1], v, src);
}
}  // namespace cauchy

// ---- laplace ----
namespace laplace {
Array logpdf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("laplace.logpdf", {x_, loc_, scale_}, src);
  return full("laplace.logpdf", -(abs(v[0] - v[1]) / v[2] + log(2.0 * v[2])), v, src);
}
Array pdf(const Array& x, const Array& loc, const Array& scale, Src src) { return exp(logpdf(x, loc, scale, src)); }
Array cdf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("laplace.cdf", {x_, loc_, scale_}, src);
  Array z = standard(v[0], v[1], v[2]);
  return full("laplace.cdf", where(z <= 0.0, 0.5 * exp(z), 1.0 - 0.5 * exp(-z)), v, src);
}
}  // namespace laplace

// ---- logistic ----
namespace logistic {
Array logpdf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("logistic.logpdf", {x_, loc_, scale_}, src);
  Array half = standard(v[0], v[1], v[2]) / 2.0;
  return full("logistic.logpdf", -2.0 * logaddexp(half, -half) - log(v[2]), v, src);
}
Array pdf(const Array& x, const Array& loc, const Array& scale, Src src) { return exp(logpdf(x, loc, scale, src)); }
Array cdf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("logistic.cdf", {x_, loc_, scale_}, src);
  return full("logistic.cdf", special::expit(standard(v[0], v[1], v[2])), v, src);
}
Array sf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("logistic.sf", {x_, loc_, scale_}, src);
  return full("logistic.sf", special::expit(-standard(v[0], v[1], v[2])), v, src);
}
Array ppf(const Array& q_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("logistic.ppf", {q_, loc_, scale_}, src);
  return full("logistic.ppf", special::logit(v[0]) * v[2] + v[1], v, src);
}
Array isf(const Array& q_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("logistic.isf", {q_, loc_, scale_}, src);
  return full("logistic.isf", -special::logit(v[0]) * v[2] + v[1], v, src);
}
}  // namespace logistic

// ---- expon ----
namespace expon {
Array logpdf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("expon.logpdf", {x_, loc_, scale_}, src);
  Array lp = -(standard(v[0], v[1], v[2]) + log(v[2]));
  return full("expon.logpdf", where(v[0] < v[1], -kInf, lp), v, src);
}
Array pdf(const Array& x, const Array& loc, const Array& scale, Src src) { return exp(logpdf(x, loc, scale, src)); }
Array cdf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("expon.cdf", {x_, loc_, scale_}, src);
  Array nz = (v[1] - v[0]) / v[2];
  return full("expon.cdf", where(v[0] < v[1], zeros_like(nz), -expm1(nz)), v, src);
}
Array logsf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("expon.logsf", {x_, loc_, scale_}, src);
  Array nz = (v[1] - v[0]) / v[2];
  return full("expon.logsf", where(v[0] < v[1], zeros_like(nz), nz), v, src);
}
Array sf(const Array& x, const Array& loc, const Array& scale, Src src) { return exp(logsf(x, loc, scale, src)); }
Array logcdf(const Array& x, const Array& loc, const Array& scale, Src src) { return log1p(-sf(x, loc, scale, src)); }
Array ppf(const Array& q_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("expon.ppf", {q_, loc_, scale_}, src);
  const Array& q = v[0];
  return full("expon.ppf", where(isnan(q) | (q < 0.0) | (q > 1.0), NAN, v[1] - v[2] * log1p(-q)), v, src);
}
}  // namespace expon

// ---- gamma ----
namespace gamma {
Array logpdf(const Array& x_, const Array& a_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("gamma.logpdf", {x_, a_, loc_, scale_}, src);
  const Array &x = v[0], &a = v[1], &loc = v[2], &scale = v[3];
  Array ok = x >= loc;
  Array y = where(ok, standard(x, loc, scale), 1.0);
  Array lp = special::xlogy(a - 1.0, y) - y - (special::gammaln(a) + log(scale));
  return full("gamma.logpdf", where(ok, lp, -kInf), v, src);
}
Array pdf(const Array& x, const Array& a, const Array& loc, const Array& scale, Src src) {
  return exp(logpdf(x, a, loc, scale, src));
}
Array cdf(const Array& x_, const Array& a_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("gamma.cdf", {x_, a_, loc_, scale_}, src);
  return full("gamma.cdf", special::gammainc(v[1], clamp(0.0, standard(v[0], v[2], v[3]), kInf)), v, src);
}
Array logcdf(const Array& x, const Array& a, const Array& loc, const Array& scale, Src src) {
  return log(cdf(x, a, loc, scale, src));
}
Array sf(const Array& x_, const Array& a_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("gamma.sf", {x_, a_, loc_, scale_}, src);
  Array y = standard(v[0], v[2], v[3]);
  return full("gamma.sf", where(y < 0.0, 1.0, special::gammaincc(v[1], y)), v, src);
}
Array logsf(const Array& x, const Array& a, const Array& loc, const Array& scale, Src src) {
  return log(sf(x, a, loc, scale, src));
}
}  // namespace gamma

// ---- beta ----
namespace beta {
Array logpdf(const Array& x_, const Array& a_, const Array& b_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("beta.logpdf", {x_, a_, b_, loc_, scale_}, src);
  const Array &x = v[0], &a = v[1], &b = v[2], &loc = v[3], &scale = v[4];
  Array y = standard(x, loc, scale);
  Array lp = -special::betaln(a, b) + special::xlogy(a - 1.0, y) + special::xlog1py(b - 1.0, -y) - log(scale);
  Array r = where((x > loc + scale) | (x < loc), -kInf, lp);
  return full("beta.logpdf", where((a <= 0.0) | (b <= 0.0) | (scale <= 0.0), NAN, r), v, src);
}
Array pdf(const Array& x, const Array& a, const Array& b, const Array& loc, const Array& scale, Src src) {
  return exp(logpdf(x, a, b, loc, scale, src));
}
Array cdf(const Array& x_, const Array& a_, const Array& b_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("beta.cdf", {x_, a_, b_, loc_, scale_}, src);
  return full("beta.cdf", special::betainc(v[1], v[2], clamp(0.0, standard(v[0], v[3], v[4]), 1.0)), v, src);
}
Array logcdf(const Array& x, const Array& a, const Array& b, const Array& loc, const Array& scale, Src src) {
  return log(cdf(x, a, b, loc, scale, src));
}
Array sf(const Array& x_, const Array& a_, const Array& b_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("beta.sf", {x_, a_, b_, loc_, scale_}, src);
  return full("beta.sf", special::betainc(v[2], v[1], 1.0 - clamp(0.0, standard(v[0], v[3], v[4]), 1.0)), v, src);
}
Array logsf(const Array& x, const Array& a, const Array& b, const Array& loc, const Array& scale, Src src) {
  return log(sf(x, a, b, loc, scale, src));
}
}  // namespace beta

// ---- chi2 ----
namespace chi2 {
Array logpdf(const Array& x_, const Array& df_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("chi2.logpdf", {x_, df_, loc_, scale_}, src);
  const Array &x = v[0], &df = v[1], &loc = v[2], &scale = v[3];
  Array y = standard(x, loc, scale);
  Array half = df / 2.0;
  Array kernel = (half - 1.0) * log(y) - y / 2.0;
  Array normalize = -(lgamma(half) + std::log(2.0) * df / 2.0);
  return full("chi2.logpdf", where(x < loc, -kInf, normalize - log(scale) + kernel), v, src);
}
Array pdf(const Array& x, const Array& df, const Array& loc, const Array& scale, Src src) {
  return exp(logpdf(x, df, loc, scale, src));
}
Array cdf(const Array& x_, const Array& df_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("chi2.cdf", {x_, df_, loc_, scale_}, src);
  return full("chi2.cdf", special::gammainc(v[1] / 2.0, clamp(0.0, (v[0] - v[2]) / (v[3] * 2.0), kInf)), v, src);
}
Array logcdf(const Array& x, const Array& df, const Array& loc, const Array& scale, Src src) {
  return log(cdf(x, df, loc, scale, src));
}
Array sf(const Array& x_, const Array& df_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("chi2.sf", {x_, df_, loc_, scale_}, src);
  return full("chi2.sf", special::gammaincc(v[1] / 2.0, clamp(0.0, (v[0] - v[2]) / (v[3] * 2.0), kInf)), v, src);
}
Array logsf(const Array& x, const Array& df, const Array& loc, const Array& scale, Src src) {
  return log(sf(x, df, loc, scale, src));
}
}  // namespace chi2

// ---- uniform ----
namespace uniform {
Array logpdf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("uniform.logpdf", {x_, loc_, scale_}, src);
  const Array &x = v[0], &loc = v[1], &scale = v[2];
  return full("uniform.logpdf", where((x > loc + scale) | (x < loc), -kInf, -log(scale)), v, src);
}
Array pdf(const Array& x, const Array& loc, const Array& scale, Src src) { return exp(logpdf(x, loc, scale, src)); }
Array cdf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("uniform.cdf", {x_, loc_, scale_}, src);
  const Array &x = v[0], &loc = v[1], &scale = v[2];
  Array z = standard(x, loc, scale);
  Array r = select({x < loc, x > loc + scale, (x >= loc) & (x <= loc + scale)}, {zeros_like(z), ones_like(z), z}, zeros_like(z));
  return full("uniform.cdf", r, v, src);
}
Array ppf(const Array& q_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("uniform.ppf", {q_, loc_, scale_}, src);
  const Array& q = v[0];
  return full("uniform.ppf", where(isnan(q) | (q < 0.0) | (q > 1.0), NAN, v[1] + v[2] * q), v, src);
}
}  // namespace uniform

// ---- pareto ----
namespace pareto {
Array logpdf(const Array& x_, const Array& b_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("pareto.logpdf", {x_, b_, loc_, scale_}, src);
  const Array &x = v[0], &b = v[1], &loc = v[2], &scale = v[3];
  Array lp = -(log(scale / b) + (b + 1.0) * log(standard(x, loc, scale)));
  return full("pareto.logpdf", where(x < loc + scale, -kInf, lp), v, src);
}
Array pdf(const Array& x, const Array& b, const Array& loc, const Array& scale, Src src) {
  return exp(logpdf(x, b, loc, scale, src));
}
Array cdf(const Array& x_, const Array& b_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("pareto.cdf", {x_, b_, loc_, scale_}, src);
  const Array &x = v[0], &b = v[1], &loc = v[2], &scale = v[3];
  Array r = 1.0 - power(standard(x, loc, scale), -b);
  return full("pareto.cdf", where(x < loc + scale, zeros_like(r), r), v, src);
}
Array logcdf(const Array& x_, const Array& b_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("pareto.logcdf", {x_, b_, loc_, scale_}, src);
  const Array &x = v[0], &b = v[1], &loc = v[2], &scale = v[3];
  Array r = log1p(-power(standard(x, loc, scale), -b));
  return full("pareto.logcdf", where(x < loc + scale, -kInf, r), v, src);
}
Array logsf(const Array& x_, const Array& b_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("pareto.logsf", {x_, b_, loc_, scale_}, src);
  const Array &x = v[0], &b = v[1], &loc = v[2], &scale = v[3];
  Array r = -(b * log(standard(x, loc, scale)));
  return full("pareto.logsf", where(x < loc + scale, zeros_like(r), r), v, src);
}
Array sf(const Array& x, const Array& b, const Array& loc, const Array& scale, Src src) {
  return exp(logsf(x, b, loc, scale, src));
}
Array ppf(const Array& q_, const Array& b_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("pareto.ppf", {q_, b_, loc_, scale_}, src);
  const Array &q = v[0], &b = v[1];
  Array r = v[2] + v[3] * power(1.0 - q, -(1.0 / b));
  return full("pareto.ppf", where(isnan(q) | (q < 0.0) | (q > 1.0), NAN, r), v, src);
}
}  // namespace pareto

// ---- gennorm ----
namespace gennorm {
Array logpdf(const Array& x_, const Array& beta_, Src src) {
  auto v = promote("gennorm.logpdf", {x_, beta_}, src);
  const Array &x = v[0], &b = v[1];
  return full("gennorm.logpdf", log(0.5 * b) - lgamma(1.0 / b) - power(abs(x), b), v, src);
}
Array pdf(const Array& x, const Array& beta, Src src) { return exp(logpdf(x, beta, src)); }
Array cdf(const Array& x_, const Array& beta_, Src src) {
  auto v = promote("gennorm.cdf", {x_, beta_}, src);
  const Array &x = v[0], &b = v[1];
  return full("gennorm.cdf", 0.5 * (1.0 + sign(x) * special::gammainc(1.0 / b, power(abs(x), b))), v, src);
}
}  // namespace gennorm

// ---- gumbel_r, gumbel_l ----
namespace {
// Where scale > 0, else nan (JAX's Gumbel functions).
Array if_scale_ok(const Array& scale, const Array& r) { return where(scale > 0.0, r, NAN); }
}  // namespace

namespace gumbel_r {
Array logpdf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("gumbel_r.logpdf", {x_, loc_, scale_}, src);
  Array z = standard(v[0], v[1], v[2]);
  return full("gumbel_r.logpdf", if_scale_ok(v[2], -log(v[2]) - (z + exp(-z))), v, src);
}
Array pdf(const Array& x, const Array& loc, const Array& scale, Src src) { return exp(logpdf(x, loc, scale, src)); }
Array logcdf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("gumbel_r.logcdf", {x_, loc_, scale_}, src);
  return full("gumbel_r.logcdf", if_scale_ok(v[2], -exp(-standard(v[0], v[1], v[2]))), v, src);
}
Array cdf(const Array& x, const Array& loc, const Array& scale, Src src) { return exp(logcdf(x, loc, scale, src)); }
Array sf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("gumbel_r.sf", {x_, loc_, scale_}, src);
  Array nz = (v[1] - v[0]) / v[2];
  return full("gumbel_r.sf", if_scale_ok(v[2], 1.0 - exp(-exp(nz))), v, src);
}
Array logsf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("gumbel_r.logsf", {x_, loc_, scale_}, src);
  Array nz = (v[1] - v[0]) / v[2];
  return full("gumbel_r.logsf", if_scale_ok(v[2], log1mexp(exp(nz))), v, src);
}
Array ppf(const Array& p_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("gumbel_r.ppf", {p_, loc_, scale_}, src);
  const Array& p = v[0];
  Array q = v[1] - v[2] * log(-log(p));
  return full("gumbel_r.ppf", where((p > 0.0) & (p < 1.0), q, NAN), v, src);
}
}  // namespace gumbel_r

namespace gumbel_l {
Array logpdf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("gumbel_l.logpdf", {x_, loc_, scale_}, src);
  Array z = standard(v[0], v[1], v[2]);
  return full("gumbel_l.logpdf", if_scale_ok(v[2], -log(v[2]) + (z - exp(z))), v, src);
}
Array pdf(const Array& x, const Array& loc, const Array& scale, Src src) { return exp(logpdf(x, loc, scale, src)); }
Array logcdf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("gumbel_l.logcdf", {x_, loc_, scale_}, src);
  Array z = standard(v[0], v[1], v[2]);
  return full("gumbel_l.logcdf", if_scale_ok(v[2], log(-expm1(-exp(z)))), v, src);
}
Array cdf(const Array& x, const Array& loc, const Array& scale, Src src) { return exp(logcdf(x, loc, scale, src)); }
Array logsf(const Array& x_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("gumbel_l.logsf", {x_, loc_, scale_}, src);
  return full("gumbel_l.logsf", if_scale_ok(v[2], -exp(standard(v[0], v[1], v[2]))), v, src);
}
Array sf(const Array& x, const Array& loc, const Array& scale, Src src) { return exp(logsf(x, loc, scale, src)); }
Array ppf(const Array& p_, const Array& loc_, const Array& scale_, Src src) {
  auto v = promote("gumbel_l.ppf", {p_, loc_, scale_}, src);
  const Array& p = v[0];
  Array q = v[1] + v[2] * log(-log1p(-p));
  return full("gumbel_l.ppf", where((p > 0.0) & (p < 1.0), q, NAN), v, src);
}
}  // namespace gumbel_l

// ---- vonmises, wrapcauchy ----
namespace vonmises {
Array logpdf(const Array& x_, const Array& kappa_, Src src) {
  auto v = promote("vonmises.logpdf", {x_, kappa_}, src);
  const Array &x = v[0], &k = v[1];
  return full("vonmises.logpdf", where(k > 0.0, k * (cos(x) - 1.0) - log(2 * kPi * bessel_i0e(k)), NAN), v, src);
}
Array pdf(const Array& x, const Array& kappa, Src src) { return exp(logpdf(x, kappa, src)); }
}  // namespace vonmises

namespace wrapcauchy {
Array logpdf(const Array& x_, const Array& c_, Src src) {
  auto v = promote("wrapcauchy.logpdf", {x_, c_}, src);
  const Array &x = v[0], &c = v[1];
  Array lp = log(1.0 - c * c) - std::log(2 * kPi) - log(1.0 + c * c - 2.0 * c * cos(x));
  Array in_support = where((x >= 0.0) & (x <= 2 * kPi), lp, -kInf);
  return full("wrapcauchy.logpdf", where((c > 0.0) & (c < 1.0), in_support, NAN), v, src);
}
Array pdf(const Array& x, const Array& c, Src src) { return exp(logpdf(x, c, src)); }
}  // namespace wrapcauchy

}  // namespace strata::stats
