// strata/stats.h — jax.scipy.stats in namespace st::stats: each distribution a namespace of its
// functions, with JAX's (scipy's) parameters and defaults and JAX's formulas, so values, edge
// cases (-inf outside the support, nan for invalid parameters) and derivatives match it.
//
//   st::Array lp = st::stats::norm::logpdf(x, mu, sigma);     // loc 0, scale 1 by default
//   st::Array c = st::stats::gamma::cdf(x, 2.5);               // shape a, loc 0, scale 1
//   st::Array k = st::stats::poisson::logpmf(counts, rate);
//   st::stats::gaussian_kde kde(samples);                       // d × n, Scott's bandwidth
//   st::Array density = kde(points);
//
// Continuous: norm, truncnorm, t, cauchy, laplace, logistic, expon, gamma, beta, chi2, uniform,
// pareto, gennorm, gumbel_r, gumbel_l, vonmises, wrapcauchy; discrete: poisson, bernoulli,
// binom, nbinom, geom, betabinom; multivariate: multivariate_normal, dirichlet, multinomial;
// gaussian_kde; and mode, rankdata, sem. The arguments broadcast together and promote as JAX's
// promote_args_inexact (integers become floats; a C++ scalar is weak, so an f32 x stays f32).
// All are composites of the public ops: they trace, jit, vmap and differentiate.
#pragma once

#include <optional>
#include <string>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata::stats {

using Src = SourceLocation;

// ---- Continuous distributions (loc and scale shift and stretch the standard one) ----

namespace norm {
Array logpdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array pdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array cdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array logcdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array sf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array logsf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array ppf(const Array& q, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array isf(const Array& q, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
}  // namespace norm

// The normal distribution truncated to [a, b] (in standard units: the bounds of (x - loc) / scale).
namespace truncnorm {
Array logpdf(const Array& x, const Array& a, const Array& b, const Array& loc = 0, const Array& scale = 1,
             Src src = Src::current());
Array pdf(const Array& x, const Array& a, const Array& b, const Array& loc = 0, const Array& scale = 1,
          Src src = Src::current());
Array cdf(const Array& x, const Array& a, const Array& b, const Array& loc = 0, const Array& scale = 1,
          Src src = Src::current());
Array logcdf(const Array& x, const Array& a, const Array& b, const Array& loc = 0, const Array& scale = 1,
             Src src = Src::current());
Array sf(const Array& x, const Array& a, const Array& b, const Array& loc = 0, const Array& scale = 1,
         Src src = Src::current());
Array logsf(const Array& x, const Array& a, const Array& b, const Array& loc = 0, const Array& scale = 1,
            Src src = Src::current());
}  // namespace truncnorm

// Student's t with df degrees of freedom.
namespace t {
Array logpdf(const Array& x, const Array& df, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array pdf(const Array& x, const Array& df, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
}  // namespace t

namespace cauchy {
Array logpdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array pdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array cdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array logcdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array sf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array logsf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array ppf(const Array& q, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array isf(const Array& q, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
}  // namespace cauchy

namespace laplace {
Array logpdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array pdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array cdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
}  // namespace laplace

namespace logistic {
Array logpdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array pdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array cdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array sf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array ppf(const Array& q, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array isf(const Array& q, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
}  // namespace logistic

namespace expon {
Array logpdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array pdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array cdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array logcdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array sf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array logsf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array ppf(const Array& q, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
}  // namespace expon

// Shape a (the cdf and sf are the regularised incomplete gamma functions).
namespace gamma {
Array logpdf(const Array& x, const Array& a, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array pdf(const Array& x, const Array& a, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array cdf(const Array& x, const Array& a, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array logcdf(const Array& x, const Array& a, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array sf(const Array& x, const Array& a, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array logsf(const Array& x, const Array& a, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
}  // namespace gamma

// Shapes a and b on [loc, loc + scale] (nan for a, b or scale <= 0).
namespace beta {
Array logpdf(const Array& x, const Array& a, const Array& b, const Array& loc = 0, const Array& scale = 1,
             Src src = Src::current());
Array pdf(const Array& x, const Array& a, const Array& b, const Array& loc = 0, const Array& scale = 1,
          Src src = Src::current());
Array cdf(const Array& x, const Array& a, const Array& b, const Array& loc = 0, const Array& scale = 1,
          Src src = Src::current());
Array logcdf(const Array& x, const Array& a, const Array& b, const Array& loc = 0, const Array& scale = 1,
             Src src = Src::current());
Array sf(const Array& x, const Array& a, const Array& b, const Array& loc = 0, const Array& scale = 1,
         Src src = Src::current());
Array logsf(const Array& x, const Array& a, const Array& b, const Array& loc = 0, const Array& scale = 1,
            Src src = Src::current());
}  // namespace beta

namespace chi2 {
Array logpdf(const Array& x, const Array& df, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array pdf(const Array& x, const Array& df, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array cdf(const Array& x, const Array& df, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array logcdf(const Array& x, const Array& df, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array sf(const Array& x, const Array& df, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array logsf(const Array& x, const Array& df, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
}  // namespace chi2

// Uniform on [loc, loc + scale].
namespace uniform {
Array logpdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array pdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array cdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array ppf(const Array& q, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
}  // namespace uniform

// Shape b, support x >= loc + scale.
namespace pareto {
Array logpdf(const Array& x, const Array& b, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array pdf(const Array& x, const Array& b, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array cdf(const Array& x, const Array& b, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array logcdf(const Array& x, const Array& b, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array sf(const Array& x, const Array& b, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array logsf(const Array& x, const Array& b, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array ppf(const Array& q, const Array& b, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
}  // namespace pareto

// The generalised normal distribution of shape beta (2: a normal of variance 1/2; 1: Laplace).
namespace gennorm {
Array logpdf(const Array& x, const Array& beta, Src src = Src::current());
Array pdf(const Array& x, const Array& beta, Src src = Src::current());
Array cdf(const Array& x, const Array& beta, Src src = Src::current());
}  // namespace gennorm

// The right- and left-skewed Gumbel (extreme value) distributions (nan for scale <= 0).
namespace gumbel_r {
Array logpdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array pdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array cdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array logcdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array sf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array logsf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array ppf(const Array& p, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
}  // namespace gumbel_r
namespace gumbel_l {
Array logpdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array pdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array cdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array logcdf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array sf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array logsf(const Array& x, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
Array ppf(const Array& p, const Array& loc = 0, const Array& scale = 1, Src src = Src::current());
}  // namespace gumbel_l

// Circular distributions: von Mises of concentration kappa > 0 (no bound on x, as JAX), the
// wrapped Cauchy of 0 < c < 1 on [0, 2π].
namespace vonmises {
Array logpdf(const Array& x, const Array& kappa, Src src = Src::current());
Array pdf(const Array& x, const Array& kappa, Src src = Src::current());
}  // namespace vonmises
namespace wrapcauchy {
Array logpdf(const Array& x, const Array& c, Src src = Src::current());
Array pdf(const Array& x, const Array& c, Src src = Src::current());
}  // namespace wrapcauchy

// ---- Discrete distributions (k a count, shifted by loc) ----

namespace poisson {
Array logpmf(const Array& k, const Array& mu, const Array& loc = 0, Src src = Src::current());
Array pmf(const Array& k, const Array& mu, const Array& loc = 0, Src src = Src::current());
Array cdf(const Array& k, const Array& mu, const Array& loc = 0, Src src = Src::current());
// The entropy of Poisson(mu) in nats (sums of the pmf below mu 100, the asymptotic series above;
// broadcast against loc, which does not change it).
Array entropy(const Array& mu, const Array& loc = 0, Src src = Src::current());
}  // namespace poisson

namespace bernoulli {
Array logpmf(const Array& k, const Array& p, const Array& loc = 0, Src src = Src::current());
Array pmf(const Array& k, const Array& p, const Array& loc = 0, Src src = Src::current());
Array cdf(const Array& k, const Array& p, Src src = Src::current());
Array ppf(const Array& q, const Array& p, Src src = Src::current());
}  // namespace bernoulli

namespace binom {
Array logpmf(const Array& k, const Array& n, const Array& p, const Array& loc = 0, Src src = Src::current());
Array pmf(const Array& k, const Array& n, const Array& p, const Array& loc = 0, Src src = Src::current());
}  // namespace binom

// Failures k before the n-th success of probability p.
namespace nbinom {
Array logpmf(const Array& k, const Array& n, const Array& p, const Array& loc = 0, Src src = Src::current());
Array pmf(const Array& k, const Array& n, const Array& p, const Array& loc = 0, Src src = Src::current());
}  // namespace nbinom

// Trials k up to and including the first success (k >= 1).
namespace geom {
Array logpmf(const Array& k, const Array& p, const Array& loc = 0, Src src = Src::current());
Array pmf(const Array& k, const Array& p, const Array& loc = 0, Src src = Src::current());
}  // namespace geom

namespace betabinom {
Array logpmf(const Array& k, const Array& n, const Array& a, const Array& b, const Array& loc = 0,
             Src src = Src::current());
Array pmf(const Array& k, const Array& n, const Array& a, const Array& b, const Array& loc = 0,
          Src src = Src::current());
}  // namespace betabinom

// ---- Multivariate distributions ----

// x [..., n] against mean [..., n] and cov: a 0-d variance (isotropic), or [..., n, n] (batch
// dimensions broadcast); a 0-d mean makes x univariate. Through the Cholesky factor of cov.
namespace multivariate_normal {
Array logpdf(const Array& x, const Array& mean, const Array& cov, Src src = Src::current());
Array pdf(const Array& x, const Array& mean, const Array& cov, Src src = Src::current());
}  // namespace multivariate_normal

// x [K, ...] (or [K - 1, ...], the last component implied) on the simplex, alpha [K] (1-d);
// -inf off the simplex (a component <= 0 or a sum off 1 by 1e-6).
namespace dirichlet {
Array logpdf(const Array& x, const Array& alpha, Src src = Src::current());
Array pdf(const Array& x, const Array& alpha, Src src = Src::current());
}  // namespace dirichlet

// Counts x [..., K] (integers) of n trials with probabilities p [..., K]; -inf where the
// counts do not sum to n.
namespace multinomial {
Array logpmf(const Array& x, const Array& n, const Array& p, Src src = Src::current());
Array pmf(const Array& x, const Array& n, const Array& p, Src src = Src::current());
}  // namespace multinomial

// ---- Kernel density estimation ----

// scipy.stats.gaussian_kde as JAX's: `dataset` [d, n] (a 1-d array is d = 1), optional weights
// [n]; bandwidth by Scott's rule ("scott", the default), "silverman", or a scalar factor.
// Its members are arrays, so a kde can be built inside a traced function.
class gaussian_kde {
 public:
  explicit gaussian_kde(const Array& dataset, const std::string& bw_method = "scott",
                        const std::optional<Array>& weights = std::nullopt, Src src = Src::current());
  gaussian_kde(const Array& dataset, double bw_factor, const std::optional<Array>& weights = std::nullopt,
               Src src = Src::current());

  // The density at points [d, m] (or [m] when d = 1, or one point [d]): [m].
  Array evaluate(const Array& points) const;
  Array operator()(const Array& points) const { return evaluate(points); }
  Array pdf(const Array& points) const { return evaluate(points); }
  Array logpdf(const Array& points) const;
  // The integral of the density times the normal N(mean, cov) (mean [d], cov [d, d]).
  Array integrate_gaussian(const Array& mean, const Array& cov) const;
  // The mass in [low, high] (d = 1 only).
  Array integrate_box_1d(const Array& low, const Array& high) const;
  // The integral of the product of two densities of the same d.
  Array integrate_kde(const gaussian_kde& other) const;
  // `shape` draws (columns of [d, shape...]): a data point chosen by weight plus normal noise of
  // the kernel's covariance, as JAX's resample for the same key.
  Array resample(const Array& key, const Shape& shape = {}) const;

  int64_t d() const { return d_; }
  int64_t n() const { return n_; }
  const Array& dataset() const { return dataset_; }
  const Array& weights() const { return weights_; }
  const Array& neff() const { return neff_; }
  const Array& covariance() const { return covariance_; }
  const Array& inv_cov() const { return inv_cov_; }

 private:
  void init(const Array& dataset, const std::optional<Array>& weights, const std::string& method,
            std::optional<double> factor, const Src& src);
  Array reshape_points(const Array& points, const char* op) const;
  Array kernel_eval(const Array& points, bool in_log) const;
  int64_t d_ = 0, n_ = 0;
  Array dataset_, weights_, neff_, covariance_, inv_cov_;
};

// ---- Descriptive statistics ----

// The most common value along `axis` (all when unset) and its count; ties go to the smallest
// value. NaNs propagate (nan_policy "propagate", the only one JAX's mode offers).
struct ModeResult {
  Array mode, count;
};
ModeResult mode(const Array& a, std::optional<int> axis = 0, bool keepdims = false, Src src = Src::current());

// Ranks (from 1, as floats) of the elements of `a` (flattened when axis is unset), ties by
// `method`: "average" (default), "min", "max", "dense" or "ordinal"; all nan if a holds a NaN.
Array rankdata(const Array& a, const std::string& method = "average", std::optional<int> axis = std::nullopt,
               Src src = Src::current());

// The standard error of the mean along `axis` (all when unset): std(ddof) / sqrt(count);
// nan_policy "propagate" (default) or "omit" (NaNs are left out of both).
Array sem(const Array& a, std::optional<int> axis = 0, int ddof = 1, const std::string& nan_policy = "propagate",
          bool keepdims = false, Src src = Src::current());

}  // namespace strata::stats
