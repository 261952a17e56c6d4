// random:: distributions by their statistics (moments and histograms within stated
// tolerances, from 20k–100k draws: the tolerances are about 5 standard errors), jit ≡ eager for
// every sampler, and gradients through reparameterised samples. Values against JAX are in
// test_random_jax.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
namespace rnd = strata::random;
using st::Array;
using st::testing::values;

namespace {

struct Moments {
  double mean = 0, var = 0, lo = INFINITY, hi = -INFINITY;
};
Moments moments(const std::vector<double>& v) {
  Moments m;
  for (double x : v) {
    m.mean += x;
    m.lo = std::min(m.lo, x);
    m.hi = std::max(m.hi, x);
  }
  m.mean /= static_cast<double>(v.size());
  for (double x : v) m.var += (x - m.mean) * (x - m.mean);
  m.var /= static_cast<double>(v.size());
  return m;
}

constexpr int64_t N = 50000;

TEST(RandomDistributions, NormalHistogram) {
  for (st::DType t : {st::f32, st::f64}) {
    std::vector<double> v = values(rnd::normal(rnd::key(21), {N}, t));
    Moments m = moments(v);
    EXPECT_NEAR(m.mean, 0, 0.025);
    EXPECT_NEAR(m.var, 1, 0.03);
    // Histogram of 8 bins on [-2, 2] against Φ differences (counts within 5 sd).
    for (int b = 0; b < 8; ++b) {
      double a = -2 + 0.5 * b, z = a + 0.5;
      double p = 0.5 * (std::erf(z / M_SQRT2) - std::erf(a / M_SQRT2));
      double count = static_cast<double>(std::count_if(v.begin(), v.end(), [&](double x) { return x >= a && x < z; }));
      EXPECT_NEAR(count / N, p, 5 * std::sqrt(p * (1 - p) / N)) << "bin " << b;
    }
  }
}

TEST(RandomDistributions, RandintUniformOverRange) {
  std::vector<double> v = values(rnd::randint(rnd::key(1), {N}, -3, 4));
  std::vector<int> counts(7, 0);
  for (double x : v) {
    ASSERT_GE(x, -3);
    ASSERT_LT(x, 4);
    counts[static_cast<size_t>(x + 3)]++;
  }
  for (int c : counts) EXPECT_NEAR(c / double(N), 1.0 / 7, 5 * std::sqrt((1.0 / 7) * (6.0 / 7) / N));
  // Array bounds broadcast; an empty range gives minval.
  st::Array r = rnd::randint(rnd::key(2), {4, 3}, st::array({0, 10, 100}, {3}), st::array({5, 20, 100}, {3}));
  std::vector<double> rv = values(r);
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(rv[3 * i] >= 0 && rv[3 * i] < 5);
    EXPECT_TRUE(rv[3 * i + 1] >= 10 && rv[3 * i + 1] < 20);
    EXPECT_EQ(rv[3 * i + 2], 100);
  }
}

TEST(RandomDistributions, BernoulliCategoricalChoice) {
  std::vector<double> b = values(rnd::bernoulli(rnd::key(3), 0.3, st::Shape{N}));
  EXPECT_NEAR(std::accumulate(b.begin(), b.end(), 0.0) / N, 0.3, 5 * std::sqrt(0.21 / N));
  // Categorical: frequencies ∝ exp(logits).
  std::vector<double> lg = {0.0, std::log(2.0), std::log(3.0), std::log(4.0)};
  std::vector<double> c = values(rnd::categorical(rnd::key(4), st::array(lg, {4}, st::f32), -1, st::Shape{N}));
  for (int k = 0; k < 4; ++k) {
    double p = (k + 1) / 10.0;
    double f = static_cast<double>(std::count(c.begin(), c.end(), k)) / N;
    EXPECT_NEAR(f, p, 5 * std::sqrt(p * (1 - p) / N)) << k;
  }
  // Choice with p: the same frequencies; without replacement: distinct.
  std::vector<double> ch = values(rnd::choice(rnd::key(5), 4, {N}, true, st::array({1.0, 2.0, 3.0, 4.0}, {4}, st::f32)));
  for (int k = 0; k < 4; ++k) {
    double p = (k + 1) / 10.0;
    EXPECT_NEAR(static_cast<double>(std::count(ch.begin(), ch.end(), k)) / N, p, 5 * std::sqrt(p * (1 - p) / N));
  }
  std::vector<double> nr = values(rnd::choice(rnd::key(6), 50, {20}, false));
  EXPECT_EQ(std::set<double>(nr.begin(), nr.end()).size(), 20u);
  st::Array rows = rnd::choice(rnd::key(7), st::reshape(st::arange(12, st::i32), {4, 3}), {2, 5}, true, std::nullopt, 1);
  EXPECT_EQ(rows.shape(), (st::Shape{4, 2, 5}));
}

TEST(RandomDistributions, PermutationIsAPermutation) {
  for (int64_t n : {1, 2, 17, 2000}) {  // 2000 takes two sorting rounds
    std::vector<double> p = values(rnd::permutation(rnd::key(static_cast<uint64_t>(n)), n));
    std::vector<double> s = p;
    std::sort(s.begin(), s.end());
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(s[static_cast<size_t>(i)], i);
    if (n == 2000) EXPECT_NE(p, s);
  }
  // Rows move together; independent permutes each column on its own.
  st::Array x = st::reshape(st::arange(30, st::i32), {10, 3});
  std::vector<double> r = values(rnd::shuffle(rnd::key(1), x));
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(std::fmod(r[3 * i], 3), 0);
    EXPECT_EQ(r[3 * i + 1], r[3 * i] + 1);
  }
  std::vector<double> ind = values(rnd::permutation(rnd::key(1), x, 0, true));
  for (int j = 0; j < 3; ++j) {
    std::set<double> col;
    for (int i = 0; i < 10; ++i) col.insert(ind[static_cast<size_t>(3 * i + j)]);
    EXPECT_EQ(col.size(), 10u);
    for (double v : col) EXPECT_EQ(std::fmod(v, 3), j);
  }
}

TEST(RandomDistributions, ContinuousMoments) {
  for (st::DType t : {st::f32, st::f64}) {
    SCOPED_TRACE(std::string(st::short_name(t)));
    Moments e = moments(values(rnd::exponential(rnd::key(8), {N}, t)));
    EXPECT_NEAR(e.mean, 1, 0.025);
    EXPECT_NEAR(e.var, 1, 0.06);
    EXPECT_GE(e.lo, 0);
    Moments g = moments(values(rnd::gumbel(rnd::key(9), {N}, t)));
    EXPECT_NEAR(g.mean, 0.5772156649, 0.03);
    EXPECT_NEAR(g.var, M_PI * M_PI / 6, 0.08);
    // Truncated to (-1, 2): the mean of the truncated standard normal.
    Moments tn = moments(values(rnd::truncated_normal(rnd::key(10), -1.0, 2.0, st::Shape{N}, t)));
    auto phi = [](double z) { return std::exp(-z * z / 2) / std::sqrt(2 * M_PI); };
    auto Phi = [](double z) { return 0.5 * (1 + std::erf(z / M_SQRT2)); };
    EXPECT_NEAR(tn.mean, (phi(-1) - phi(2)) / (Phi(2) - Phi(-1)), 0.015);
    EXPECT_GT(tn.lo, -1);
    EXPECT_LT(tn.hi, 2);
    for (double a : {0.3, 1.0, 4.5}) {
      SCOPED_TRACE("gamma " + std::to_string(a));
      Moments gm = moments(values(rnd::gamma(rnd::key(11), st::full({20000}, a, t), std::nullopt, t)));
      EXPECT_NEAR(gm.mean, a, 5 * std::sqrt(a / 20000));
      EXPECT_NEAR(gm.var, a, 0.1 * a + 0.02);
      EXPECT_GE(gm.lo, 0);
    }
    Moments bt = moments(values(rnd::beta(rnd::key(12), 2.0, 5.0, st::Shape{20000}, t)));
    EXPECT_NEAR(bt.mean, 2.0 / 7, 0.006);
    EXPECT_NEAR(bt.var, 10.0 / (49 * 8), 0.002);
    std::vector<double> d = values(rnd::dirichlet(rnd::key(13), st::array({1.0, 2.0, 3.0}, {3}, t), st::Shape{20000}, t));
    for (int k = 0; k < 3; ++k) {
      double s = 0;
      for (int i = 0; i < 20000; ++i) s += d[static_cast<size_t>(3 * i + k)];
      EXPECT_NEAR(s / 20000, (k + 1) / 6.0, 0.01);
    }
    for (int i = 0; i < 100; ++i) EXPECT_NEAR(d[3 * i] + d[3 * i + 1] + d[3 * i + 2], 1, 1e-5);
  }
  // Tiny shapes: gamma stays positive and finite in log space.
  std::vector<double> lg = values(rnd::loggamma(rnd::key(14), st::full({1000}, 1e-3)));
  for (double v : lg) ASSERT_TRUE(std::isfinite(v));
}

TEST(RandomDistributions, JitEqualsEager) {
  st::Array k = rnd::key(31);
  // Bits, integers and uniforms are identical; samplers through log/erf_inv may differ by an
  // ulp or two (the compiled log is not the eager kernel's libm call): `rtol`.
  auto check = [&](const char* what, auto f, double rtol = 0) {
    SCOPED_TRACE(what);
    std::vector<double> eager = values(f(k)), jitted = values(st::jit(f)(k));
    ASSERT_EQ(eager.size(), jitted.size());
    for (size_t i = 0; i < eager.size(); ++i) {
      if (rtol == 0) EXPECT_TRUE(st::testing::identical(eager[i], jitted[i])) << i << ": " << eager[i] << " vs " << jitted[i];
      else EXPECT_NEAR(eager[i], jitted[i], rtol * std::max(1.0, std::fabs(eager[i]))) << i;
    }
  };
  check("bits64", [](st::Array k) { return rnd::bits(k, {3, 5}, st::u64); });
  check("split", [](st::Array k) { return rnd::split(k, 5); });
  check("fold_in", [](st::Array k) { return rnd::fold_in(k, 99u); });
  check("uniform f32", [](st::Array k) { return rnd::uniform(k, {33}, st::f32, -2.0, 3.0); });
  check("uniform f64", [](st::Array k) { return rnd::uniform(k, {33}, st::f64, -2.0, 3.0); });
  check("normal", [](st::Array k) { return rnd::normal(k, {4, 9}); }, 1e-5);
  check("normal f64", [](st::Array k) { return rnd::normal(k, {4, 9}, st::f64); }, 1e-13);
  check("randint", [](st::Array k) { return rnd::randint(k, {20}, -7, 1000); });
  check("bernoulli", [](st::Array k) { return rnd::bernoulli(k, 0.4, st::Shape{20}); });
  check("categorical", [](st::Array k) { return rnd::categorical(k, st::reshape(st::arange(12.0, 0.0, -1.0), {3, 4})); });
  check("permutation", [](st::Array k) { return rnd::permutation(k, 25); });
  check("truncated_normal", [](st::Array k) { return rnd::truncated_normal(k, -0.5, 1.5, st::Shape{10}); }, 1e-5);
  check("gumbel", [](st::Array k) { return rnd::gumbel(k, {10}); }, 1e-5);
  check("exponential", [](st::Array k) { return rnd::exponential(k, {10}); }, 1e-5);
  check("gamma", [](st::Array k) { return rnd::gamma(k, st::array({0.2, 1.0, 3.0, 9.0}, {4}, st::f32)); }, 1e-5);
  check("beta", [](st::Array k) { return rnd::beta(k, 0.5, 2.0, st::Shape{6}); }, 1e-5);
  check("dirichlet", [](st::Array k) { return rnd::dirichlet(k, st::array({0.5, 1.0, 2.0}, {3}, st::f32), st::Shape{2}); }, 1e-5);
}

TEST(RandomDistributions, ReparameterisationGradients) {
  // d/dmu, d/dsigma of mean(mu + sigma * normal) and of uniform's affine bounds.
  st::Array eps = rnd::normal(rnd::key(40), {64}, st::f64);
  st::testing::check_grads([](const std::vector<st::Array>& p) {
        st::Array z = rnd::normal(rnd::key(40), {64}, st::f64);
        return st::sum(st::exp(p[0] + p[1] * z));
      }, {st::astype(st::Array(0.1), st::f64), st::astype(st::Array(0.5), st::f64)}, "lognormal reparameterisation");
  st::testing::check_grads([](const std::vector<st::Array>& p) {
        return st::sum(rnd::uniform(rnd::key(41), {16}, st::f64, p[0], p[1]) * rnd::uniform(rnd::key(41), {16}, st::f64, p[0], p[1]));
      }, {st::full({16}, -1.0, st::f64), st::full({16}, 2.0, st::f64)}, "uniform(minval, maxval)");
  auto g = st::grad([](st::Array s) { return st::sum(s * rnd::normal(rnd::key(40), {64}, st::f64)); })(st::astype(st::Array(2.0), st::f64));
  EXPECT_NEAR(g.item<double>(), st::sum(eps).item<double>(), 1e-12);
}

TEST(RandomDistributions, GammaDerivatives) {
  // As JAX: gamma is differentiated in a implicitly, d sample/da = random_gamma_grad(a, sample)
  // (the sample's change at a fixed CDF value), never through the rejection loops; jvp, grad
  // and jit agree, and gradients with respect to anything else flow as usual.
  Array a = st::astype(st::testing::array1d(std::vector<double>{0.3, 1.0, 2.5, 40.0}), st::f64);
  Array draws = rnd::gamma(rnd::key(3), a, std::nullopt, st::f64);
  std::vector<double> want = values(st::random_gamma_grad(a, draws));
  auto [y, dy] = st::jvp([](const Array& v) { return rnd::gamma(rnd::key(3), v, std::nullopt, st::f64); }, std::make_tuple(a),
                         std::make_tuple(st::ones({4}, st::f64)));
  EXPECT_EQ(values(y), values(draws));
  EXPECT_EQ(values(dy), want);
  auto gamma_sum = [](const Array& v) { return st::sum(rnd::gamma(rnd::key(3), v, std::nullopt, st::f64)); };
  EXPECT_EQ(values(st::grad(gamma_sum)(a)), want);
  std::vector<double> gj = values(st::jit(st::grad(gamma_sum))(a));
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(gj[i], want[i], 1e-12 * (1 + std::fabs(want[i])));
  // Unbiased: E[sample] = a, so the mean gradient is 1; E[log sample] = digamma(a), so that of
  // loggamma is trigamma(a); E[Beta(a, b)] = a/(a+b), whose derivative in a is b/(a+b)².
  const int64_t n = 20000;
  double g1 = st::grad([&](const Array& v) {
                return st::mean(rnd::gamma(rnd::key(11), st::broadcast_to(v, {n}), std::nullopt, st::f64));
              })(st::astype(st::Array(1.7), st::f64)).item<double>();
  EXPECT_NEAR(g1, 1.0, 0.03);
  double g2 = st::grad([&](const Array& v) {
                return st::mean(rnd::loggamma(rnd::key(12), st::broadcast_to(v, {n}), std::nullopt, st::f64));
              })(st::astype(st::Array(0.05), st::f64)).item<double>();
  double trigamma = st::polygamma(st::Array(1.0), st::Array(0.05)).item<double>();
  EXPECT_NEAR(g2 / trigamma, 1.0, 0.05);
  double g3 = st::grad([&](const Array& v) {
                return st::mean(rnd::beta(rnd::key(13), st::broadcast_to(v, {n}), 3.0, std::nullopt, st::f64));
              })(st::astype(st::Array(2.0), st::f64)).item<double>();
  EXPECT_NEAR(g3, 3.0 / 25.0, 0.01);
  std::vector<double> gd = values(st::jit(st::grad([](const Array& v) {
    return st::sum(st::exp(v) * rnd::dirichlet(rnd::key(5), st::full({4}, 1.5, st::f64), std::nullopt, st::f64));
  }))(a));
  std::vector<double> dv = values(rnd::dirichlet(rnd::key(5), st::full({4}, 1.5, st::f64), std::nullopt, st::f64));
  std::vector<double> av = values(a);
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(gd[i], std::exp(av[i]) * dv[i], 1e-12 * std::exp(av[i]));
  Array w = st::full({4}, 1.5, st::f64);
  Array gw = st::grad([&](const Array& v) { return st::sum(v * rnd::gamma(rnd::key(3), a, std::nullopt, st::f64)); })(w);
  EXPECT_EQ(values(gw), values(draws));
}

TEST(RandomDistributions, PoissonAsJax) {
  // The same draws as jax.random.poisson (jax 0.10) for the same keys: Knuth below lam = 10,
  // the transformed rejection above, lam = 0 exactly 0.
  Array lam = st::astype(st::testing::array1d(std::vector<double>{0.5, 3.0, 9.9, 10.0, 50.0, 1000.0, 0.0, 1e6}), st::f32);
  Array k = rnd::poisson(rnd::key(0), lam);
  EXPECT_EQ(k.dtype(), st::i32);
  EXPECT_EQ(values(k), (std::vector<double>{0, 0, 11, 13, 43, 1012, 0, 999863}));
  EXPECT_EQ(values(rnd::poisson(rnd::key(7), st::Array(4.0), st::Shape{12})),
            (std::vector<double>{4, 1, 1, 4, 2, 8, 7, 4, 4, 2, 1, 7}));
  Array k64 = rnd::poisson(rnd::key(7), st::Array(25.0), st::Shape{6}, st::i64);
  EXPECT_EQ(k64.dtype(), st::i64);
  EXPECT_EQ(values(k64), (std::vector<double>{28, 30, 23, 35, 24, 25}));
  // Under jit the same; mean and variance both lam.
  EXPECT_EQ(values(st::jit([](const Array& l) { return rnd::poisson(rnd::key(0), l); })(lam)), values(k));
  Array many = st::astype(rnd::poisson(rnd::key(3), st::astype(st::testing::array1d(std::vector<double>{2.5, 40.0}), st::f32),
                                       st::Shape{20000, 2}),
                          st::f64);
  std::vector<double> mean = values(st::mean(many, {0})), var = values(st::var(many, {0}));
  EXPECT_NEAR(mean[0], 2.5003998, 1e-4);  // JAX's draws: 2.5003998, 39.947
  EXPECT_NEAR(mean[1], 39.947, 1e-4);
  EXPECT_NEAR(var[1] / 40.0, 1.0, 0.03);
  EXPECT_THROW(rnd::poisson(rnd::key(0), st::Array(1.0), std::nullopt, st::f32), st::DTypeError);
}

TEST(RandomDistributions, Errors) {
  st::Array k = rnd::key(0);
  st::testing::expect_contains(st::testing::error_message<st::ShapeError>([&] { rnd::uniform(k, {3}, st::f32, st::zeros({4}), st::ones({4})); }),
                               "does not broadcast to the requested shape [3]");
  st::testing::expect_contains(st::testing::error_message<st::DTypeError>([&] { rnd::randint(k, {2}, 0, 3, st::f32); }),
                               "random::randint: expects an integer dtype, but got f32");
  st::testing::expect_contains(st::testing::error_message<st::ValueError>([&] { rnd::choice(k, 3, {5}, false); }),
                               "cannot take 5 samples without replacement from 3");
  st::testing::expect_contains(st::testing::error_message<st::ShapeError>([&] { rnd::categorical(k, st::zeros({2, 3}), -1, st::Shape{4}); }),
                               "must end with the logits' batch shape [2]");
  st::testing::expect_contains(st::testing::error_message<st::ValueError>([&] { rnd::fold_in(k, st::zeros({2}, st::i32)); }),
                               "random::fold_in: expects 0-d integer data");
  st::testing::expect_contains(st::testing::error_message<st::DTypeError>([&] { rnd::bits(k, {2}, st::f32); }),
                               "random::bits: expects an integer dtype, but got f32");
}

}  // namespace
