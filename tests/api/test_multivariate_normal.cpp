// random::multivariate_normal (issue 14): JAX's values for a fixed key with the Cholesky factor
// (unique, so the draws are JAX's), the sample covariance for every method (svd/eigh vectors
// may differ from LAPACK's by sign, which changes the draws but not the distribution), jit
// against eager, and the errors.
#include <gtest/gtest.h>

#include <cmath>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

Array mean3(st::DType t) { return st::array({1.0, -2.0, 0.5}, {3}, t); }
Array cov3(st::DType t) { return st::array({2.0, 0.5, 0.1, 0.5, 1.0, 0.2, 0.1, 0.2, 0.5}, {3, 3}, t); }

}  // namespace

TEST(MultivariateNormal, MatchesJaxWithCholesky) {
  // jax.random.multivariate_normal(jax.random.key(3), mean, cov, (4,)), f32; and with
  // jax_enable_x64 and dtype=jnp.float64.
  const std::vector<double> f32 = {-1.045316219329834, -1.0713698863983154, 0.9451543688774109, 3.7869932651519775,
                                   -1.852964162826538, 0.6714397668838501,  -0.7611604928970337, -2.722196102142334,
                                   -0.18923240900039673, -0.6066548824310303, -1.8087496757507324, -0.14710110425949097};
  const std::vector<double> f64 = {2.562527762675809,   -1.7193441983243638, 0.0738977861278336,  -0.168961497465409,
                                   -2.7366144247835433, 0.4788314639166649,  2.5399897050244995,  -1.3380513753954402,
                                   1.7804510028708194,  2.146633755427998,   -1.841640674090783,  0.6018912424765942};
  for (auto [t, want, tol] : {std::tuple{st::f32, f32, 2e-5}, std::tuple{st::f64, f64, 1e-12}}) {
    Array got = st::random::multivariate_normal(st::random::key(3), mean3(t), cov3(t), st::Shape{4}, t);
    ASSERT_EQ(got.shape(), (st::Shape{4, 3}));
    ASSERT_EQ(got.dtype(), t);
    std::vector<double> g = got.to_vector<double>();
    for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], want[i], tol) << st::short_name(t) << " " << i;
    auto f = st::jit([t](const Array& k, const Array& m, const Array& c) {
      return st::random::multivariate_normal(k, m, c, st::Shape{4}, t);
    });
    std::vector<double> j = f(st::random::key(3), mean3(t), cov3(t)).to_vector<double>();
    for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(j[i], g[i], 1e-12 + 1e-6 * std::fabs(g[i]));
  }
}

TEST(MultivariateNormal, SampleMeanAndCovarianceForEveryMethod) {
  const int64_t n = 20000;
  std::vector<double> mean = mean3(st::f64).to_vector<double>(), cov = cov3(st::f64).to_vector<double>();
  for (const char* method : {"cholesky", "svd", "eigh"}) {
    SCOPED_TRACE(method);
    std::vector<double> x =
        st::random::multivariate_normal(st::random::key(11), mean3(st::f64), cov3(st::f64), st::Shape{n}, st::f64, method)
            .to_vector<double>();
    double m[3] = {0, 0, 0};
    for (int64_t s = 0; s < n; ++s)
      for (int i = 0; i < 3; ++i) m[i] += x[static_cast<size_t>(s * 3 + i)] / n;
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(m[i], mean[static_cast<size_t>(i)], 5 * std::sqrt(2.0 / n));
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double c = 0;
        for (int64_t s = 0; s < n; ++s)
          c += (x[static_cast<size_t>(s * 3 + i)] - m[i]) * (x[static_cast<size_t>(s * 3 + j)] - m[j]) / (n - 1);
        // The standard error of a sample covariance is about sqrt((σii σjj + σij²) / n) <= 0.02.
        EXPECT_NEAR(c, cov[static_cast<size_t>(i * 3 + j)], 0.1) << i << "," << j;
      }
  }
}

TEST(MultivariateNormal, BatchesAndErrors) {
  // A batch of two covariances broadcast against one mean: shape [2] + [3].
  Array covs = st::stack({cov3(st::f32), st::multiply(cov3(st::f32), 4.0f)}, 0);
  Array r = st::random::multivariate_normal(st::random::key(1), mean3(st::f32), covs);
  EXPECT_EQ(r.shape(), (st::Shape{2, 3}));
  // Not positive definite: nan with cholesky, as in JAX.
  Array bad = st::array({1.0, 2.0, 2.0, 1.0}, {2, 2});
  std::vector<double> v = st::random::multivariate_normal(st::random::key(1), st::zeros({2}), bad).to_vector<double>();
  EXPECT_TRUE(std::isnan(v[0]) || std::isnan(v[1]));
  using st::testing::error_message;
  using st::testing::expect_contains;
  expect_contains(error_message<st::ShapeError>([&] {
                    st::random::multivariate_normal(st::random::key(1), mean3(st::f32), st::zeros({2, 2}));
                  }),
                  "random::multivariate_normal: expects cov of shape [..., 3, 3]");
  expect_contains(error_message<st::ValueError>([&] {
                    st::random::multivariate_normal(st::random::key(1), mean3(st::f32), cov3(st::f32), std::nullopt, st::f32, "qr");
                  }),
                  "expects method");
  expect_contains(error_message<st::ShapeError>([&] {
                    st::random::multivariate_normal(st::random::key(1), mean3(st::f32), covs, st::Shape{5});
                  }),
                  "does not broadcast to the requested shape");
}
