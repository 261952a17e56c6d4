// api/src/stats_multivariate.cpp — st::stats's multivariate normal, Dirichlet and Gaussian
// kernel density estimate (jax.scipy.stats), with JAX's formulas.
#include <cmath>
#include <numbers>

#include "shape_rules.h"
#include "stats_common.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/linalg.h"
#include "strata/random.h"
#include "strata/selection.h"
#include "strata/special.h"
#include "strata/statistics.h"

namespace strata::stats {

constexpr double kLog2Pi = 1.8378770664093453;  // log(2π)

namespace {
std::string shape_str(const Array& a) { return type_string(a.dtype(), a.shape()); }
}  // namespace

// ---- multivariate_normal ----
namespace multivariate_normal {
Array logpdf(const Array& x_, const Array& mean_, const Array& cov_, Src src) {
  const char* op = "multivariate_normal.logpdf";
  auto v = detail::promote_dtypes(op, {x_, mean_, cov_}, src);
  const Array &x = v[0], &mean = v[1], &cov = v[2];
  if (mean.ndim() == 0) return -0.5 * square(x - mean) / cov - 0.5 * (kLog2Pi + log(cov));
  int64_t n = mean.shape(-1);
  if (x.ndim() == 0 || x.shape(-1) != n)
    throw ShapeError(std::string(op) + ": x " + shape_str(x) + " does not end in mean's dimension " + std::to_string(n));
  Array y = x - mean;
  if (cov.ndim() == 0) return -0.5 * sum(y * y, -1) / cov - 0.5 * n * (kLog2Pi + log(cov));
  if (cov.ndim() < 2 || cov.shape(-1) != n || cov.shape(-2) != n)
    throw ShapeError(std::string(op) + ": cov " + shape_str(cov) + " is not [..., " + std::to_string(n) + ", " +
                     std::to_string(n) + "] for mean " + shape_str(mean));
  Array chol = linalg::cholesky(cov);
  Array half_logdet = sum(log(diagonal(chol, 0, -2, -1)), -1);
  Array quad;
  if (cov.ndim() == 2) {
    // One factor for every point: all of them as the columns of one right-hand side.
    Shape batch(y.shape().begin(), y.shape().end() - 1);
    Array cols = transpose(reshape(y, {-1, n}));
    Array z = linalg::solve_triangular(chol, cols, 0, /*lower=*/true);
    quad = reshape(sum(z * z, 0), batch);
  } else {
    Shape yb(y.shape().begin(), y.shape().end() - 1), cb(cov.shape().begin(), cov.shape().end() - 2);
    shape_rules::Result r = shape_rules::broadcast_shapes(yb, cb);
    if (!r.ok()) throw ShapeError(std::string(op) + ": the batch shapes of x - mean " + shape_str(y) + " and cov " + shape_str(cov) + " cannot be broadcast");
    Shape yshape = r.shape, cshape = r.shape;
    yshape.push_back(n);
    cshape.push_back(n);
    cshape.push_back(n);
    Array z = linalg::solve_triangular(broadcast_to(chol, cshape), broadcast_to(y, yshape), 0, /*lower=*/true);
    quad = sum(z * z, -1);
  }
  return -0.5 * quad - 0.5 * n * kLog2Pi - half_logdet;
}
Array pdf(const Array& x, const Array& mean, const Array& cov, Src src) { return exp(logpdf(x, mean, cov, src)); }
}  // namespace multivariate_normal

// ---- dirichlet ----
namespace dirichlet {
Array logpdf(const Array& x_, const Array& alpha_, Src src) {
  const char* op = "dirichlet.logpdf";
  auto v = detail::promote_dtypes(op, {x_, alpha_}, src);
  Array x = v[0];
  const Array& alpha = v[1];
  if (alpha.ndim() != 1) throw ValueError(std::string(op) + ": alpha must be one-dimensional, but got " + shape_str(alpha));
  int64_t k = alpha.shape(0);
  if (x.ndim() == 0 || (x.shape(0) != k && x.shape(0) != k - 1))
    throw ShapeError(std::string(op) + ": x " + shape_str(x) + " must have as many entries as alpha " + shape_str(alpha) +
                     " or one fewer along its first axis");
  if (x.shape(0) != k) x = concatenate({x, 1.0 - sum(x, 0, true)}, 0);
  Array normalize = sum(special::gammaln(alpha)) - special::gammaln(sum(alpha));
  Shape ashape(static_cast<size_t>(x.ndim()), 1);
  ashape[0] = k;
  Array a = reshape(alpha, ashape);
  Array lp = sum(special::xlogy(a - 1.0, x), 0) - normalize;
  Array simplex = all(x > 0.0, 0) & (abs(sum(x, 0) - 1.0) < 1e-6);
  return where(simplex, lp, -INFINITY);
}
Array pdf(const Array& x, const Array& alpha, Src src) { return exp(logpdf(x, alpha, src)); }
}  // namespace dirichlet

// ---- gaussian_kde ----
gaussian_kde::gaussian_kde(const Array& dataset, const std::string& bw_method, const std::optional<Array>& weights,
                           Src src) {
  if (bw_method != "scott" && bw_method != "silverman")
    throw ValueError("gaussian_kde: bw_method must be \"scott\", \"silverman\" or a scalar, but got \"" + bw_method + "\"");
  init(dataset, weights, bw_method, std::nullopt, src);
}

gaussian_kde::gaussian_kde(const Array& dataset, double bw_factor, const std::optional<Array>& weights, Src src) {
  init(dataset, weights, "", bw_factor, src);
}

void gaussian_kde::init(const Array& dataset_in, const std::optional<Array>& weights_in, const std::string& method,
                        std::optional<double> factor_value, const Src& src) {
  const char* op = "gaussian_kde";
  if (is_complex(api::aval(dataset_in, op).dtype)) throw DTypeError("gaussian_kde: complex data is not supported");
  Array data = atleast_2d(dataset_in);
  if (data.size() <= 1) throw ValueError("gaussian_kde: the dataset " + shape_str(data) + " must have more than one element");
  if (data.ndim() != 2) throw ShapeError("gaussian_kde: the dataset must be [d, n], but got " + shape_str(data));
  d_ = data.shape(0);
  n_ = data.shape(1);
  Array w;
  if (weights_in) {
    auto v = detail::promote_dtypes(op, {data, *weights_in}, src);
    data = v[0];
    w = atleast_1d(v[1]);
    if (w.ndim() != 1) throw ShapeError("gaussian_kde: weights must be one-dimensional, but got " + shape_str(w));
    if (w.shape(0) != n_)
      throw ShapeError("gaussian_kde: " + std::to_string(w.shape(0)) + " weights for " + std::to_string(n_) + " points");
    w = w / sum(w);
  } else {
    data = detail::promote_dtypes(op, {data}, src)[0];
    w = full_like(data, 1.0 / static_cast<double>(n_), std::nullopt, Shape{n_});
  }
  dataset_ = data;
  weights_ = w;
  neff_ = 1.0 / sum(w * w);
  double dd = static_cast<double>(d_);
  Array factor = factor_value ? api::weak_scalar_like(*factor_value, data, op, src)
                 : method == "silverman" ? power(neff_ * (dd + 2) / 4.0, -1.0 / (dd + 4))
                                         : power(neff_, -1.0 / (dd + 4));
  // numpy's cov with aweights (weights summing to 1, ddof 1): the weighted deviations' products
  // over 1 - Σw².
  Array centred = data - sum(data * w, 1, true);
  Array data_cov = matmul(centred, transpose(centred * w)) / (1.0 - sum(w * w));
  covariance_ = data_cov * square(factor);
  inv_cov_ = linalg::inv(data_cov) / square(factor);
}

Array gaussian_kde::reshape_points(const Array& points, const char* op) const {
  if (is_complex(api::aval(points, op).dtype)) throw DTypeError(std::string(op) + ": complex points are not supported");
  Array p = atleast_2d(points);
  if (p.ndim() != 2) throw ShapeError(std::string(op) + ": points must be [d, m], but got " + shape_str(p));
  if (p.shape(0) != d_) {
    if (p.shape(0) == 1 && p.shape(1) == d_) return reshape(p, {d_, 1});
    throw ShapeError(std::string(op) + ": points " + shape_str(p) + " have dimension " + std::to_string(p.shape(0)) +
                     ", the dataset " + std::to_string(d_));
  }
  return p;
}

// Σ_j w_j N(x_i; data_j, covariance) for every point x_i (or its log, by logsumexp), with the
// points whitened by the Cholesky factor of the precision, as JAX's _gaussian_kernel_eval.
Array gaussian_kde::kernel_eval(const Array& points, bool in_log) const {
  Array p = astype(points, promote_types(points.dtype(), dataset_.dtype()));
  Array white = linalg::cholesky(astype(inv_cov_, p.dtype()));  // lower
  Array train = matmul(transpose(astype(dataset_, p.dtype())), white);  // [n, d]
  Array test = matmul(transpose(p), white);                             // [m, d]
  Array log_norm = sum(log(diagonal(white))) - 0.5 * static_cast<double>(d_) * kLog2Pi;
  Array arg = log_norm - 0.5 * sum(square(expand_dims(test, 1) - expand_dims(train, 0)), -1);  // [m, n]
  Array w = astype(weights_, p.dtype());
  if (in_log) return logsumexp(log(w) + arg, -1);
  return sum(w * exp(arg), -1);
}

Array gaussian_kde::evaluate(const Array& points) const { return kernel_eval(reshape_points(points, "gaussian_kde.evaluate"), false); }
Array gaussian_kde::logpdf(const Array& points) const { return kernel_eval(reshape_points(points, "gaussian_kde.logpdf"), true); }

namespace {
// ∫ N(x; μ, Σ_a) N(x; y, Σ_b) dx summed over weighted centres y, given the Cholesky factor of
// Σ_a + Σ_b: JAX's _gaussian_kernel_convolve for every mean (the columns of `means`) at once.
Array kernel_convolve(const linalg::ChoFactor& chol, const Array& norm, const Array& target, const Array& weights,
                      const Array& means) {
  int64_t d = target.shape(0), n = target.shape(1), m = means.shape(1);
  Array diff = expand_dims(target, 2) - expand_dims(means, 1);  // [d, n, m]
  Array flat = reshape(diff, {d, n * m});
  Array alpha = linalg::cho_solve(chol, flat);
  Array arg = reshape(0.5 * sum(flat * alpha, 0), {n, m});
  return norm * sum(exp(-arg) * expand_dims(weights, 1), 0);  // [m]
}
}  // namespace

Array gaussian_kde::integrate_gaussian(const Array& mean_in, const Array& cov_in) const {
  Array mean = atleast_1d(squeeze(mean_in)), cov = atleast_2d(cov_in);
  if (mean.shape() != Shape{d_}) throw ShapeError("gaussian_kde.integrate_gaussian: mean " + shape_str(mean) + " does not have dimension " + std::to_string(d_));
  if (cov.shape() != Shape{d_, d_}) throw ShapeError("gaussian_kde.integrate_gaussian: covariance " + shape_str(cov) + " does not have dimension " + std::to_string(d_));
  linalg::ChoFactor chol = linalg::cho_factor(covariance_ + cov);
  Array norm = 1.0 / (std::pow(std::sqrt(2 * std::numbers::pi), static_cast<double>(d_)) * prod(diagonal(chol.c)));
  return kernel_convolve(chol, norm, dataset_, weights_, expand_dims(mean, 1))[0];
}

Array gaussian_kde::integrate_box_1d(const Array& low, const Array& high) const {
  if (d_ != 1) throw ValueError("gaussian_kde.integrate_box_1d: only for one-dimensional densities (d is " + std::to_string(d_) + ")");
  if (low.ndim() != 0 || high.ndim() != 0) throw ValueError("gaussian_kde.integrate_box_1d: the limits must be scalars");
  Array sigma = squeeze(sqrt(covariance_));
  Array lo = squeeze((low - dataset_) / sigma), hi = squeeze((high - dataset_) / sigma);
  return sum(weights_ * (special::ndtr(hi) - special::ndtr(lo)));
}

Array gaussian_kde::integrate_kde(const gaussian_kde& other) const {
  if (other.d_ != d_) throw ValueError("gaussian_kde.integrate_kde: the densities' dimensions differ (" + std::to_string(d_) + " and " + std::to_string(other.d_) + ")");
  linalg::ChoFactor chol = linalg::cho_factor(covariance_ + other.covariance_);
  Array norm = 1.0 / (std::pow(std::sqrt(2 * std::numbers::pi), static_cast<double>(d_)) * prod(diagonal(chol.c)));
  const gaussian_kde& small = n_ < other.n_ ? *this : other;
  const gaussian_kde& large = n_ < other.n_ ? other : *this;
  return sum(kernel_convolve(chol, norm, large.dataset_, large.weights_, small.dataset_) * small.weights_);
}

Array gaussian_kde::resample(const Array& key, const Shape& shape) const {
  Array keys = random::split(key);
  Array ind = random::choice(random::key_at(keys, 0), n_, shape, true, weights_);
  Array eps = random::multivariate_normal(random::key_at(keys, 1), zeros({d_}, covariance_.dtype()), covariance_, shape,
                                          dataset_.dtype());
  return take(dataset_, ind, 1) + moveaxis(eps, -1, 0);  // [d, shape...]
}

}  // namespace strata::stats
