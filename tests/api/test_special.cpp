// st::special (jax.scipy.special): values from jax.scipy.special (jax 0.10, x64), the tails of
// ndtr and log_ndtr in f64 and f32, xlogy's custom derivative at x = 0, under jit.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
namespace sp = strata::special;
using st::Array;
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
  // mpmath's values (JAX's -316.63940800869966 at -25 is its 3-term asymptotic series, 2e-12 off;
  // f64 takes 10 terms).
  std::vector<double> want{-804.6084420137538, -316.63940800802027, -6.607726221510349, -0.6931471805599453,
                           -0.06914345561223398, -7.619853024160525e-24};
  expect_elements(sp::log_ndtr(vec({-40, -25, -3, 0, 1.5, 10})), want, 1e-13);
  expect_elements(st::jit([](const st::Array& x) { return sp::log_ndtr(x); })(vec({-40, -25, -3, 0, 1.5, 10})), want, 1e-13);
  expect_elements(sp::log_ndtr(st::array(std::vector<float>{-40, -12, -3, 7}, {4})),
                  {-804.6084594726562, -75.41067504882812, -6.607725620269775, -1.2798126274027322e-12}, 1e-6);
  // The upper tail (scipy's log_ndtr): -t (1 + t/2) for t = ndtr(-x) above 5 (f32) or 8 (f64),
  // log1p(-t) between 0 and there (JAX's log(ndtr(x)) kept only absolute accuracy: 6% off at 4.9
  // in f32, 5% at 7.9 in f64), -0 where t is subnormal (above 12.9 and 37.5); jit as eager.
  auto upper = [](const st::Array& x) { return sp::log_ndtr(x); };
  const std::vector<double> up{4.9, 5.1, 7.9, 8.1, 12.8, 13.5, 30.0, 37.4, 37.6};
  const std::vector<double> up_want{-4.791833913986615e-07, -1.6982675513532224e-07, -1.394517146659262e-15,
                                    -2.7479593923982217e-16, -8.19756171316276e-38, -7.818807305657779e-42,
                                    -4.906713927147908e-198, -1.953681561648675e-306, -1.074811249586866e-309};
  for (const st::Array& got : {upper(vec(up)), st::jit(upper)(vec(up))}) {
    std::vector<double> g = got.to_vector<double>();
    for (size_t i = 0; i < up.size(); ++i) EXPECT_NEAR(g[i], up_want[i], 1e-13 * std::fabs(up_want[i]) + 1e-306) << up[i];
  }
  st::Array up32 = st::astype(vec(up), st::f32);
  for (const st::Array& got : {upper(up32), st::jit(upper)(up32)}) {
    std::vector<double> g = st::astype(got, st::f64).to_vector<double>();
    // 1e-5: the inputs' f32 rounding moves ndtr(-x) by x·dx.
    for (size_t i = 0; i < up.size(); ++i) EXPECT_NEAR(g[i], up_want[i], 1e-5 * std::fabs(up_want[i]) + 1e-38) << up[i];
  }
  // d/dx log ndtr(x) = φ(x) / Φ(x), finite far in the lower tail (≈ -x).
  double g = st::grad([](const st::Array& x) { return sp::log_ndtr(x); })(st::Array(-30.0)).item<double>();
  EXPECT_NEAR(g, 30.033, 1e-3);
  // At 0, where the middle segment switches between log q and log1p(-q): φ(0)/Φ(0) = √(2/π).
  for (double x : {0.0, 1e-300, -1e-300}) {
    double g0 = st::grad([](const st::Array& v) { return sp::log_ndtr(v); })(st::Array(x)).item<double>();
    EXPECT_NEAR(g0, 0.7978845608028654, 1e-15) << x;
  }
}

// logit near 1/2 and hyp1f1 below 0, each part's own relative accuracy against mpmath, eager
// and jit: log(x/(1 - x)) kept only absolute accuracy near 1/2 (1e3 ulps at 0.4999 in f64, as
// JAX); the series of 1F1 at x < 0 alternates (f32 1F1(1.985; 0.537; -4.08) was 5% off, JAX's
// 3%), now Kummer's e^x 1F1(b - a; b; -x).
TEST(Special, LogitNearHalfAndHyp1f1BelowZeroAccurate) {
  auto logit = [](const st::Array& x) { return sp::logit(x); };
  const std::vector<double> p{0.4999, 0.5001, 0.3, 0.7};
  const std::vector<double> logit_want{-0.0004000000053332894, 0.0004000000053332894, -0.8472978603872037, 0.8472978603872034};
  for (const st::Array& got : {logit(vec(p)), st::jit(logit)(vec(p))})
    for (size_t i = 0; i < p.size(); ++i) EXPECT_NEAR(got.to_vector<double>()[i], logit_want[i], 4e-16 * std::fabs(logit_want[i])) << p[i];
  auto hyp = [](const st::Array& a, const st::Array& b, const st::Array& x) { return sp::hyp1f1(a, b, x); };
  const st::Array a = vec({1.985, 0.5, 2.0, 1.5}), b = vec({0.537, 1.5, 3.0, 2.5}), x = vec({-4.08, -10.0, -30.0, -150.0});
  const std::vector<double> hyp_want{0.00039896856014664216, 0.2802473905066427, 0.002222222222215776, 0.0007236012545582676};
  for (const st::Array& got : {hyp(a, b, x), st::jit(hyp)(a, b, x)})
    for (size_t i = 0; i < hyp_want.size(); ++i) EXPECT_NEAR(got.to_vector<double>()[i], hyp_want[i], 1e-13 * hyp_want[i]) << i;
  // f32 (inputs rounded: 1F1(1.985f; 0.537f; -4.08f) = 0.0003989670025450726), within 5e-5: the
  // transformed series still alternates in its first terms (b - a < 0), 1.2e-5 off.
  auto f32 = [](const st::Array& v) { return st::astype(v, st::f32); };
  for (const st::Array& got : {hyp(f32(a), f32(b), f32(x)), st::jit(hyp)(f32(a), f32(b), f32(x))})
    EXPECT_NEAR(st::astype(got, st::f64).to_vector<double>()[0], 0.0003989670025450726, 5e-5 * 0.0003989670025450726);
}

TEST(Special, BetalnMultigammalnAsJax) {
  // Exact values: log π, log(1/12), log(9!·19!/29!) (JAX 0.10 gives -19.115327222818202 for the
  // last, 4e-9 off).
  expect_elements(sp::betaln(vec({0.5, 2, 10}), vec({0.5, 3, 20})), {std::log(M_PI), std::log(1.0 / 12), -19.115327299887046},
                  1e-13);
  expect_elements(sp::betaln(vec({30, 1e3}), vec({1e4, 2e5})), {-205.0966294800811, -6303.345572267019}, 1e-13);  // log((a-1)!) - Σ log k, k = b..a+b-1
  expect_elements(sp::multigammaln(vec({2.5, 4}), 3), {1.880995461611775, 5.402975080909174}, 1e-13);
}

TEST(Special, GammaFamilyAsJax) {
  const double nan = NAN, inf = INFINITY;
  std::vector<double> g = {0.5, -0.5, -1.5, 4.0, -2.0, -0.0, 0.0, 171.5, -3.7};
  expect_elements(sp::gammasgn(vec(g)), {1.0, -1.0, 1.0, 1.0, nan, -1.0, 1.0, 1.0, 1.0});
  expect_elements(sp::gamma(vec(g)), {1.7724538509055165, -3.5449077018110313, 2.3632718012073535, 6.0000000000000036, nan,
                                      -inf, inf, 9.483367566823657e+307, 0.2516439959024226},
                  1e-12);
  EXPECT_NEAR(sp::gamma(vec({171.5})).item<double>() / 9.483367566823657e+307, 1.0, 1e-12);
  expect_elements(sp::factorial(vec({0, 1, 5, 10.5, -1})), {1, 1, 120, 11899423.083962262, 0}, 1e-13);
  // B(3, 40) = 2 / (40·41·42) exactly; JAX's 2.903600479702031e-05 is 5e-9 off (its betaln).
  expect_elements(sp::beta(vec({0.5, 2, -0.5, 3}), vec({0.5, 3, 1.2, 40})),
                  {3.1415926535897953, 0.08333333333333318, -2.5074612496344146, 2.0 / (40 * 41 * 42)}, 1e-13);
  expect_elements(sp::gammaln(vec({0.5, 10})), {0.5723649429247001, 12.801827480081469}, 1e-13);
  expect_elements(sp::gammainc(vec({2.5}), vec({4.0})), {0.8437643724222776});
  expect_elements(sp::gammaincc(vec({2.5}), vec({4.0})), {0.1562356275777223});
}

TEST(Special, NdtriAsJax) {
  const double nan = NAN, inf = INFINITY;
  std::vector<double> p = {0.0, 1e-300, 1e-20, 0.02, 0.1, 0.5, 0.8, 0.9, 0.999, 1.0, -0.1, 1.1};
  expect_elements(sp::ndtri(vec(p)), {-inf, -37.0470962993612, -9.262340089798409, -2.053748910631823, -1.2815515655446004,
                                      0.0, 0.8416212335729142, 1.2815515655446004, 3.090232306167813, inf, nan, nan},
                  1e-13);
  // f32 as JAX's f32 (1e-300 underflows to 0 there).
  expect_elements(sp::ndtri(st::astype(vec(p), st::f32)),
                  {-inf, -inf, -9.262340545654297, -2.0537490844726562, -1.2815515995025635, 0.0, 0.8416212201118469,
                   1.2815512418746948, 3.090236186981201, inf, nan, nan},
                  1e-6);
  // The inverse of ndtr, and its derivative sqrt(2π) exp(x²/2) (jax.grad(ndtri)(0.3)).
  Array q = vec({0.001, 0.3, 0.7, 0.95});
  expect_elements(sp::ndtr(sp::ndtri(q)), st::testing::values(q), 1e-15);
  EXPECT_NEAR(st::grad([](const Array& v) { return sp::ndtri(v); })(Array(0.3)).item<double>(), 2.876103659264292, 1e-12);
  EXPECT_THROW(sp::ndtri(st::astype(vec({0.5}), st::bf16)), st::DTypeError);
}

TEST(Special, BesselZetaPolygammaAsJax) {
  Array x = vec({-3.0, 0.0, 1.0, 9.0, 50.0});
  expect_elements(sp::i0(x), {4.880792585865024, 1.0, 1.2660658777520084, 1093.5883545113745, 2.9325537838493355e+20}, 1e-13);
  expect_elements(sp::i1(x), {-3.9533702174026093, 0.0, 0.5651591039924853, 1030.9147225169565, 2.9030785901035566e+20},
                  1e-13);
  expect_elements(sp::i0e(x), st::testing::values(sp::i0(x) * st::exp(-st::abs(x))), 1e-15);
  expect_elements(sp::i1e(x), st::testing::values(st::bessel_i1e(x)), 0);
  expect_elements(sp::zeta(vec({2.0}), vec({1.0})), {1.6449340668482264});
  expect_elements(sp::polygamma(st::astype(st::testing::array1d(std::vector<double>{1, 2}), st::i32), vec({0.5, 3.0})),
                  {4.93480220054468, -0.1541138063191884}, 1e-13);
  EXPECT_THROW(sp::polygamma(vec({1.0}), vec({0.5})), st::DTypeError);
  // Under jit and vmap like the rest.
  Array j = st::jit([](const Array& v) { return sp::i0(v) + sp::gamma(v); })(vec({0.5, 2.5}));
  expect_elements(j, st::testing::values(sp::i0(vec({0.5, 2.5})) + sp::gamma(vec({0.5, 2.5}))), 1e-14);
}
