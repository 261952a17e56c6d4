// More of jax.random's distributions (random_more.cpp): the draws JAX 0.10.2 makes for key 42
// (pasted once, the call beside each), moments of large samples, jit and vmap, errors.
#include <gtest/gtest.h>

#include <cmath>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
namespace rnd = strata::random;
using st::Array;
using st::testing::values;

namespace {

using D = std::vector<double>;

TEST(RandomMore, DrawsAsJax) {
  Array k = rnd::key(42);
  std::vector<st::testing::JaxCase> cases = {
      {"jax.random.cauchy(k, (4,))", st::random::cauchy(k, {4}), {-0.03548463061451912, 0.6337261199951172, 0.38244056701660156, 0.1940706968307495}, {4}},
      {"jax.random.laplace(k, (4,))", st::random::laplace(k, {4}), {0.022839652374386787, -0.4456535577774048, -0.2646729052066803, -0.1301453858613968}, {4}},
      {"jax.random.logistic(k, (4,))", st::random::logistic(k, {4}), {-0.0451694130897522, 0.7528398036956787, 0.47375231981277466, 0.245286762714386}, {4}},
      {"jax.random.lognormal(k, 0.5, (4,))", st::random::lognormal(k, st::Array(0.5f), st::Shape{4}), {0.9859473705291748, 1.2630960941314697, 1.159340739250183, 1.0797969102859497}, {4}},
      {"jax.random.pareto(k, 3.0, (4,))", st::random::pareto(k, st::Array(3.0f), st::Shape{4}), {1.2505779266357422, 1.461700201034546, 1.3761274814605713, 1.315781593322754}, {4}},
      {"jax.random.rademacher(k, (6,))", st::random::rademacher(k, {6}), {1.0, -1.0, -1.0, -1.0, 1.0, -1.0}, {6}},
      {"jax.random.rayleigh(k, 2.0, (4,))", st::random::rayleigh(k, st::Array(2.0f), st::Shape{4}), {2.3933022022247314, 1.7571814060211182, 1.9678773880004883, 2.1503593921661377}, {4}},
      {"jax.random.triangular(k, 0.0, 0.3, 1.0, (5,))", st::random::triangular(k, st::Array(0.0f), st::Array(0.3f), st::Array(1.0f), st::Shape{5}), {0.40174978971481323, 0.5265636444091797, 0.4817240834236145, 0.4456636905670166, 0.37988007068634033}, {5}},
      {"jax.random.wald(k, 1.5, (4,))", st::random::wald(k, st::Array(1.5f), st::Shape{4}), {1.6461201906204224, 2.6983466148376465, 0.3518810272216797, 0.8019976615905762}, {4}},
      {"jax.random.weibull_min(k, 2.0, 1.5, (4,))", st::random::weibull_min(k, st::Array(2.0f), st::Array(1.5f), st::Shape{4}), {1.5326144695281982, 2.181030750274658, 1.943356990814209, 1.7568422555923462}, {4}},
      {"jax.random.maxwell(k, (4,))", st::random::maxwell(k, {4}), {0.553582489490509, 0.293285071849823, 1.708603024482727, 1.5084577798843384}, {4}},
      {"jax.random.double_sided_maxwell(k, 1.0, 2.0, (4,))", st::random::double_sided_maxwell(k, st::Array(1.0f), st::Array(2.0f), {4}), {-1.7620434761047363, -0.3513779640197754, 5.444042682647705, 2.351099967956543}, {4}},
      {"jax.random.chisquare(k, 3.0, (4,))", st::random::chisquare(k, st::Array(3.0f), st::Shape{4}), {5.87071418762207, 1.3978509902954102, 5.559423446655273, 1.4829895496368408}, {4}},
      {"jax.random.f(k, 4.0, 6.0, (4,))", st::random::f(k, st::Array(4.0f), st::Array(6.0f), st::Shape{4}), {0.7810010313987732, 0.5284653306007385, 0.304612934589386, 0.22061526775360107}, {4}},
      {"jax.random.t(k, 5.0, (4,))", st::random::t(k, st::Array(5.0f), st::Shape{4}), {0.08416180312633514, -1.1023223400115967, 1.9336762428283691, 0.8905109763145447}, {4}},
      {"jax.random.geometric(k, 0.3, (6,))", st::random::geometric(k, st::Array(0.3f), st::Shape{6}), {3.0, 2.0, 2.0, 2.0, 3.0, 2.0}, {6}},
      {"jax.random.generalized_normal(k, 1.5, (4,))", st::random::generalized_normal(k, st::Array(1.5f), st::Shape{4}), {-0.8782375454902649, -0.2061624526977539, 1.160470962524414, 0.10202968865633011}, {4}},
      {"jax.random.ball(k, 3, 2, (2,))", st::random::ball(k, 3, 2.0, {2}), {0.3234022855758667, 0.061338748782873154, 0.01824338734149933, 0.4372413158416748, -0.07705393433570862, 0.3594384789466858}, {2, 3}},
      {"jax.random.triangular(k, [0, 1], 2, 3)", st::random::triangular(k, st::array(std::vector<float>{0, 1}, {2}), st::Array(2.0f), st::Array(3.0f)), {1.712383508682251, 2.199746608734131}, {2}},
  };
  // Through uniform: JAX's bits; through log, tan, erf_inv and the gamma sampler: a few ulps
  // (the gamma rejection loop can amplify one to ~1e-5 relative).
  st::testing::expect_jax_cases(cases, [](const st::testing::JaxCase&, double w) { return 2e-5 * std::max(1.0, std::fabs(w)); });
}

// Sample means (and variances) of 200k draws against the distributions' own.
TEST(RandomMore, Moments) {
  const int64_t n = 200000;
  Array k = rnd::key(3);
  auto mean_of = [](const Array& x) { return st::mean(st::astype(x, st::f64)).item<double>(); };
  auto var_of = [](const Array& x) { return st::var(st::astype(x, st::f64)).item<double>(); };
  EXPECT_NEAR(mean_of(rnd::laplace(k, {n})), 0.0, 0.01);
  EXPECT_NEAR(var_of(rnd::laplace(k, {n})), 2.0, 0.03);
  EXPECT_NEAR(var_of(rnd::logistic(k, {n})), M_PI * M_PI / 3, 0.05);
  EXPECT_NEAR(mean_of(rnd::lognormal(k, Array(0.5f), st::Shape{n})), std::exp(0.125), 0.01);
  EXPECT_NEAR(mean_of(rnd::pareto(k, Array(3.0f), st::Shape{n})), 1.5, 0.02);
  EXPECT_NEAR(mean_of(rnd::rademacher(k, {n})), 0.0, 0.01);
  EXPECT_NEAR(mean_of(rnd::rayleigh(k, Array(2.0f), st::Shape{n})), 2.0 * std::sqrt(M_PI / 2), 0.02);
  EXPECT_NEAR(mean_of(rnd::triangular(k, Array(0.0f), Array(0.3f), Array(1.0f), st::Shape{n})), 1.3 / 3, 0.005);
  EXPECT_NEAR(mean_of(rnd::wald(k, Array(1.5f), st::Shape{n})), 1.5, 0.02);
  EXPECT_NEAR(var_of(rnd::wald(k, Array(1.5f), st::Shape{n})), 1.5 * 1.5 * 1.5, 0.15);
  EXPECT_NEAR(mean_of(rnd::weibull_min(k, Array(2.0f), Array(1.5f), st::Shape{n})), 2.0 * std::tgamma(1 + 1 / 1.5), 0.02);
  EXPECT_NEAR(mean_of(rnd::maxwell(k, {n})), 2 * std::sqrt(2 / M_PI), 0.01);
  EXPECT_NEAR(mean_of(rnd::double_sided_maxwell(k, Array(1.0f), Array(2.0f), {n})), 1.0, 0.03);
  EXPECT_NEAR(mean_of(rnd::chisquare(k, Array(3.0f), st::Shape{n})), 3.0, 0.03);
  EXPECT_NEAR(var_of(rnd::chisquare(k, Array(3.0f), st::Shape{n})), 6.0, 0.15);
  EXPECT_NEAR(mean_of(rnd::f(k, Array(4.0f), Array(6.0f), st::Shape{n})), 1.5, 0.03);
  EXPECT_NEAR(var_of(rnd::t(k, Array(5.0f), st::Shape{n})), 5.0 / 3, 0.06);
  EXPECT_NEAR(mean_of(rnd::geometric(k, Array(0.3f), st::Shape{n})), 1 / 0.3, 0.03);
  // generalized_normal with p = 2 is N(0, 1/2).
  EXPECT_NEAR(var_of(rnd::generalized_normal(k, Array(2.0f), st::Shape{n})), 0.5, 0.01);
  // Points of the unit ball: inside, and the fraction within radius 1/2 is 1/8 in 3-d.
  Array pts = rnd::ball(k, 3, 2.0, {n});
  Array r = st::sqrt(st::sum(pts * pts, -1));
  EXPECT_LE(st::max(r).item<double>(), 1.0);
  EXPECT_NEAR(mean_of(st::less(r, Array(0.5f))), 0.125, 0.005);
}

TEST(RandomMore, ShapesTracingAndErrors) {
  Array k = rnd::key(1);
  // Parameters broadcast; the shape defaults to theirs.
  EXPECT_EQ(rnd::pareto(k, st::ones({3, 1}), st::Shape{3, 4}).shape(), (st::Shape{3, 4}));
  EXPECT_EQ(rnd::weibull_min(k, st::ones({2}), st::ones({3, 1})).shape(), (st::Shape{3, 2}));
  EXPECT_EQ(rnd::double_sided_maxwell(k, st::zeros({2}), Array(1.0f), {4}).shape(), (st::Shape{4, 2}));
  EXPECT_EQ(rnd::geometric(k, Array(0.5f), st::Shape{3}, st::i64).dtype(), st::i64);
  EXPECT_EQ(rnd::rademacher(k, {3}, st::f32).dtype(), st::f32);
  EXPECT_EQ(rnd::t(k, Array(3.0f), st::Shape{2}, st::f64).dtype(), st::f64);
  // jit and vmap over keys draw what the eager calls draw.
  auto f = [](const Array& key) { return rnd::wald(key, Array(2.0f), st::Shape{5}); };
  EXPECT_EQ(values(st::jit(f)(k)), values(f(k)));
  Array keys = rnd::split(k, 3);
  Array rows = st::vmap(f)(keys);
  EXPECT_EQ(values(st::slice(rows, {1, 0}, {2, 5})), values(f(rnd::key_at(keys, 1))));
  EXPECT_THROW(rnd::cauchy(k, {2}, st::i32), st::DTypeError);
  EXPECT_THROW(rnd::geometric(k, Array(0.5f), st::Shape{2}, st::f32), st::DTypeError);
  EXPECT_THROW(rnd::rademacher(k, {2}, st::u8), st::DTypeError);
  EXPECT_THROW(rnd::pareto(k, st::ones({3}), st::Shape{2}), st::ShapeError);
  EXPECT_THROW(rnd::ball(k, 0), st::ValueError);
  EXPECT_THROW(rnd::laplace(st::ones({2}), {2}), st::ValueError);
}

TEST(RandomMore, BinomialMultinomialAsJax) {
  Array k = rnd::key(42);
  std::vector<st::testing::JaxCase> cases = {
      {"jax.random.binomial(k, 10, 0.3, (6,))", rnd::binomial(k, Array(10.0f), Array(0.3f), st::Shape{6}), {2.0, 5.0, 2.0, 2.0, 4.0, 3.0}, {6}},
      {"jax.random.binomial(k, 1000, 0.4, (6,))", rnd::binomial(k, Array(1000.0f), Array(0.4f), st::Shape{6}), {411.0, 414.0, 384.0, 389.0, 378.0, 385.0}, {6}},
      {"jax.random.binomial(k, 50, 0.9, (6,))", rnd::binomial(k, Array(50.0f), Array(0.9f), st::Shape{6}), {47.0, 43.0, 47.0, 45.0, 43.0, 47.0}, {6}},
      {"jax.random.binomial(k, [5, 500, -1, inf, 20], [0.5, 0.02, 0.5, 0.5, nan])", rnd::binomial(k, st::array(std::vector<float>{5, 500, -1, INFINITY, 20}, {5}), st::array(std::vector<float>{0.5, 0.02, 0.5, 0.5, NAN}, {5})), {3.0, 10.0, NAN, INFINITY, NAN}, {5}},
      {"jax.random.multinomial(k, 100, [0.2, 0.5, 0.3])", rnd::multinomial(k, Array(100.0f), st::array(std::vector<float>{0.2, 0.5, 0.3}, {3})), {19.0, 48.0, 33.0}, {3}},
      {"jax.random.multinomial(k, [10, 1000], [[0.1, 0.9], [0.6, 0.4]])", rnd::multinomial(k, st::array(std::vector<float>{10, 1000}, {2}), st::array(std::vector<float>{0.1, 0.9, 0.6, 0.4}, {2, 2})), {0.0, 10.0, 625.0, 375.0}, {2, 2}},
  };
  // Counts: exactly JAX's.
  st::testing::expect_jax_cases(cases, [](const st::testing::JaxCase&, double) { return 0.0; });
  // Moments: n p and n p (1 - p) on both samplers' sides of n·q = 10.
  const int64_t n = 100000;
  for (auto [trials, prob] : {std::pair{8.0, 0.3}, std::pair{400.0, 0.25}, std::pair{60.0, 0.9}}) {
    SCOPED_TRACE(trials);
    Array x = st::astype(rnd::binomial(rnd::key(9), Array(static_cast<float>(trials)), Array(static_cast<float>(prob)), st::Shape{n}), st::f64);
    EXPECT_NEAR(st::mean(x).item<double>(), trials * prob, 0.02 * std::sqrt(trials));
    EXPECT_NEAR(st::var(x).item<double>(), trials * prob * (1 - prob), 0.03 * trials * prob * (1 - prob));
  }
  // Multinomial rows sum to n; their means are n p.
  Array m = rnd::multinomial(rnd::key(10), Array(30.0f), st::array(std::vector<float>{0.1f, 0.2f, 0.7f}, {3}), st::Shape{20000, 3});
  EXPECT_EQ(values(st::sum(m, 1)), D(20000, 30.0));
  D means = values(st::mean(st::astype(m, st::f64), 0));
  EXPECT_NEAR(means[0], 3.0, 0.05);
  EXPECT_NEAR(means[2], 21.0, 0.1);
  EXPECT_EQ(values(st::jit([](const Array& key) { return rnd::binomial(key, Array(40.0f), Array(0.6f), st::Shape{7}); })(k)),
            values(rnd::binomial(k, Array(40.0f), Array(0.6f), st::Shape{7})));
  EXPECT_THROW(rnd::multinomial(k, Array(3.0f), Array(0.5f)), st::ValueError);
}

TEST(RandomMore, KeyDataSpellings) {
  // jax.random.key_data(jax.random.split(jax.random.PRNGKey(7))) (JAX 0.10.2).
  Array data = rnd::key_data(rnd::split(rnd::PRNGKey(7)));
  st::testing::expect_exact(data, {2, 2}, st::u32, {3625411723.0, 1954958720.0, 195045567.0, 4062205631.0});
  Array back = rnd::wrap_key_data(data);
  EXPECT_EQ(back.dtype(), st::i32);
  EXPECT_EQ(values(back), values(rnd::split(rnd::key(7))));
  EXPECT_EQ(values(rnd::wrap_key_data(rnd::key(3))), values(rnd::key(3)));
  st::testing::expect_error([] { rnd::key_data(st::zeros({3}, st::i32)); }, "random::key_data: expects keys (i32[..., 2]), but got i32[3]");
  st::testing::expect_error([] { rnd::wrap_key_data(st::zeros({2}, st::f32)); }, "random::wrap_key_data: expects keys (u32[..., 2]), but got f32[2]");
}

}  // namespace
