// st::special (jax.scipy.special): values from jax.scipy.special (jax 0.10, x64), the tails of
// ndtr and log_ndtr in f64 and f32, xlogy's custom derivative at x = 0, under jit.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
namespace sp = strata::special;
using st::testing::expect_elements;

namespace {
st::Array vec(const std::vector<double>& v) { return st::testing::array1d(v); }
}  // namespace

TEST(Special, EntropiesAsJax) {
  expect_elements(sp::xlogy(vec({0, 2, 0, 3}), vec({0, 3, 2, 0})), {0, 2.1972245773362196, 0, -INFINITY});
  expect_elements(sp::xlog1py(vec({0, 2}), vec({-1, 0.5})), {0, 0.8109302162163288});
  expect_elements(sp::entr(vec({0.5, 0, -1, 2})), {0.34657359027997264, 0, -INFINITY, -1.3862943611198906});
  expect_elements(sp::rel_entr(vec({0.5, 0, 0, 1, -1}), vec({0.25, 0.3, 0, 0, 1})), {0.34657359027997264, 0, 0, INFINITY, INFINITY});
  expect_elements(sp::kl_div(vec({0.5, 0, 0, 1}), vec({0.25, 0.3, 0, 0})), {0.09657359027997264, 0.3, 0, INFINITY});
  expect_elements(sp::logit(vec({0.25, 0.5, 0, 1})), {-1.0986122886681098, 0, -INFINITY, INFINITY});
  expect_elements(sp::expit(vec({0, 2})), {0.5, 0.8807970779778823});
  // xlogy's derivative in x is log y even at x = 0 (JAX's custom JVP), in y x / y.
  auto [gx, gy] = st::grad([](const st::Array& x, const st::Array& y) { return sp::xlogy(x, y); }, st::argnums<0, 1>)(
      st::Array(0.0), st::Array(2.0));
  EXPECT_NEAR(gx.item<double>(), std::log(2.0), 1e-15);
  EXPECT_EQ(gy.item<double>(), 0.0);
  auto [hx, hy] = st::grad([](const st::Array& x, const st::Array& y) { return sp::xlogy(x, y); }, st::argnums<0, 1>)(
      st::Array(2.0), st::Array(3.0));
  EXPECT_NEAR(hx.item<double>(), std::log(3.0), 1e-15);
  EXPECT_NEAR(hy.item<double>(), 2.0 / 3.0, 1e-15);
}

TEST(Special, NormalTailsAsJax) {
  expect_elements(sp::ndtr(vec({-40, -3, 0, 1.5, 10})), {0, 0.001349898031630093, 0.5, 0.9331927987311419, 1});
  std::vector<double> want{-804.6084420137697, -316.63940800869966, -6.607726221510351, -0.6931471805599453,
                           -0.069143455612234, -7.619853024160473e-24};
  expect_elements(sp::log_ndtr(vec({-40, -25, -3, 0, 1.5, 10})), want, 1e-13);
  expect_elements(st::jit([](const st::Array& x) { return sp::log_ndtr(x); })(vec({-40, -25, -3, 0, 1.5, 10})), want, 1e-13);
  expect_elements(sp::log_ndtr(st::array(std::vector<float>{-40, -12, -3, 7}, {4})),
                  {-804.6084594726562, -75.41067504882812, -6.607725620269775, -1.2798126274027322e-12}, 1e-6);
  // d/dx log ndtr(x) = φ(x) / Φ(x), finite far in the lower tail (≈ -x).
  double g = st::grad([](const st::Array& x) { return sp::log_ndtr(x); })(st::Array(-30.0)).item<double>();
  EXPECT_NEAR(g, 30.033, 1e-3);
}

TEST(Special, BetalnMultigammalnAsJax) {
  // Exact values: log π, log(1/12), log(9!·19!/29!) (JAX 0.10 gives -19.115327222818202 for the
  // last, 4e-9 off).
  expect_elements(sp::betaln(vec({0.5, 2, 10}), vec({0.5, 3, 20})), {std::log(M_PI), std::log(1.0 / 12), -19.115327299887046},
                  1e-13);
  expect_elements(sp::betaln(vec({30, 1e3}), vec({1e4, 2e5})), {-205.0966294800811, -6303.345572267019}, 1e-13);  // log((a-1)!) - Σ log k, k = b..a+b-1
  expect_elements(sp::multigammaln(vec({2.5, 4}), 3), {1.880995461611775, 5.402975080909174}, 1e-13);
}
