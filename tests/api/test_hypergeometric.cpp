// hyp1f1 and hyp2f1 of st::special against the values and gradients JAX 0.10.2 prints
// (jax_enable_x64; pasted once; scipy agrees on the values; hyp2f1's from
// tests/api/hyp2f1_jax_values.py, scipy's below x = -1 where JAX's series diverge), jit, finite
// differences.
#include <gtest/gtest.h>

#include <cmath>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
namespace sp = strata::special;
using st::Array;
using st::testing::values;

namespace {

using D = std::vector<double>;

// The label names the check in failures.
void expect_close_(const Array& got, const D& want, double rtol, const char* what) {
  SCOPED_TRACE(what);
  st::testing::expect_relative(got, want, rtol, 1e-300);
}

Array f64(const D& v) { return st::array(v, {static_cast<int64_t>(v.size())}, st::f64); }


TEST(Hypergeometric, Hyp1f1AsJax) {
  Array a = f64({0.5, 1.0, 2.5, 0.0, 3.0, 1.5, 4.0, 2.0, 0.7});
  Array b = f64({1.5, 2.0, 1.0, 2.0, 3.0, 0.0, 6.0, 5.0, 2.2});
  Array x = f64({0.3, -2.0, 5.0, 4.0, 1.1, 1.0, 30.0, 150.0, -0.5});
  // jax.scipy.special.hyp1f1(a, b, x): series, a = 0, a = b, b = 0, the asymptotic form at 150
  expect_close_(sp::hyp1f1(a, b, x), {1.1096822789280743, 0.43233235838169376, 1824.2342029902409, 1.0, 3.0041660239464334, INFINITY, 194520223740.73663, 9.712607211043931e+59, 0.8599615422036212}, 1e-12, "hyp1f1");
  expect_close_(st::jit([](const Array& p, const Array& q, const Array& r) { return sp::hyp1f1(p, q, r); })(a, b, x),
             values(sp::hyp1f1(a, b, x)), 1e-14, "jit");
  // jax.vmap(jax.grad(hyp1f1, i)) at rows 0, 1, 2, 4, 6, 8
  Array idx = st::array(std::vector<int32_t>{0, 1, 2, 4, 6, 8}, {6});
  Array a6 = st::take(a, idx), b6 = st::take(b, idx), x6 = st::take(x, idx);
  auto h = [](const Array& p, const Array& q, const Array& r) { return sp::hyp1f1(p, q, r); };
  expect_close_(st::vmap(st::grad(h, st::argnums<0>))(a6, b6, x6), {0.22610402765517162, -0.410352780941633, 2477.3839462457763, 0.9695713906093372, 425028153058.1587, -0.18956913949354737}, 1e-10, "d/da");
  expect_close_(st::vmap(st::grad(h, st::argnums<1>))(a6, b6, x6), {-0.07719849035868634, 0.18305346123855554, -4401.03062749677, -0.9695713906093372, -349745734580.10754, 0.058160645790943405}, 1e-10, "d/db");
  expect_close_(st::vmap(st::grad(h, st::argnums<2>))(a6, b6, x6), {0.4002942144132145, 0.14849853757254056, 2253.3734412914237, 3.0041660239464334, 182839863045.8685, 0.24577838344549743}, 1e-10, "d/dx");
  using V = std::vector<Array>;
  st::testing::check_grads([](const V& v) { return sp::hyp1f1(v[0], v[1], v[2]); },
                           {f64({0.4, 1.3, 2.2}), f64({1.7, 2.5, 3.1}), f64({0.8, -1.2, 3.5})}, "hyp1f1");
  EXPECT_EQ(sp::hyp1f1(Array(1.0f), Array(2.0f), st::ones({3}, st::f32)).dtype(), st::f32);
  EXPECT_THROW(sp::hyp1f1(Array(1.0f), Array(2.0f), st::complex(st::ones({1}), st::ones({1}))), st::DTypeError);
}

// hyp2f1 at points taking each branch (tests/api/hyp2f1_jax_values.py).
const std::vector<double> kA = {0.5, 1.2, 2.0, 0.3, 1.0, 0.5, -3.0, -4.0, 2.0, 2.5, 3.0, 0.5, 1.0, 1.0, 0.7, 0.7, 1.5, 0.1, 0.5, -2.0};
const std::vector<double> kB = {1.5, -0.7, 3.0, 0.4, 2.0, 0.5, 2.5, 1.5, -5.0, 1.5, 2.0, 0.25, 1.0, 2.0, 1.3, 1.3, 2.5, 0.2, 1.5, 1.5};
const std::vector<double> kC = {2.5, 3.1, 4.5, 1.9, 4.0, 2.0, 1.5, 2.5, 3.3, 2.0, 1.0, 2.0, 2.0, -2.0, 1.3, 0.7, 3.5, 0.3, 2.5, 2.5};
const std::vector<double> kX = {0.3, -0.8, -2.5, 0.95, 0.93, 0.97, 0.6, 1.7, 0.8, 0.5, -0.4, 1.0, 1.5, 0.5, 0.6, 0.6, 0.0, 0.99, -4.0, -3.0};

TEST(Hypergeometric, Hyp2f1AsJax) {
  const Array A = f64(kA), B = f64(kB), C = f64(kC), X = f64(kX);
  const Array B32 = st::astype(B, st::f32), C32 = st::astype(C, st::f32), X32 = st::astype(X, st::f32);
  // The derivatives at the points where each is a series (x < 1, no terminating polynomial).
  const Array idx = st::array(std::vector<int32_t>{0, 1, 3, 9, 10}, {5});
  std::vector<Array> pts;
  for (const Array& v : {A, B, C, X}) pts.push_back(st::take(v, idx));
  const std::vector<Array> grads =
      st::vmap(st::grad([](const std::vector<Array>& v) { return sp::hyp2f1(v[0], v[1], v[2], v[3]); }))(pts);
  st::testing::expect_jax_cases({
    {"sp::hyp2f1(A, B, C, X)", sp::hyp2f1(A, B, C, X), {1.1080625510569322, 1.205151297715897, 0.1613102640345956, 1.1001381887409036, 2.322862590228266, 1.240779303356109, -0.1279999999999998, INFINITY, 0.09848158070461774, 3.7311978701083133, 0.05206164098292378, 1.1128357888987641, INFINITY, INFINITY, 1.8991444823309345, 3.2909555108355932, 1.0, 1.3127119893438628, 0.5678438399663943, 8.457142857142857}, {20}},
    {"sp::hyp2f1(st::astype(A, st::f32), B32, C32, X32)", sp::hyp2f1(st::astype(A, st::f32), B32, C32, X32), {1.108062505722046, 1.205151081085205, 0.16131027042865753, 1.1001365184783936, 2.3228657245635986, 1.2407790422439575, -0.12800000607967377, INFINITY, 0.09848164021968842, 3.731198310852051, 0.052061643451452255, 1.1128343343734741, INFINITY, INFINITY, 1.8991445302963257, 3.2909555435180664, 1.0, 1.3127102851867676, 0.5678438544273376, 8.45714282989502}, {20}},
    {"grads[0]", grads[0], {0.22988108250652228, 0.16627643769813932, 0.385550230473484, 2.088758188044918, -0.12164057874954391}, {5}},
    {"grads[1]", grads[1], {0.08051103957211206, -0.3302645323636032, 0.299251627113014, 3.1379498316147805, -0.2049392043222189}, {5}},
    {"grads[2]", grads[2], {-0.04936366585392217, -0.06371294616073035, -0.08060683192556126, -2.498782791364024, 0.5173090502197659}, {5}},
    {"grads[3]", grads[3], {0.43583029138730817, -0.24418406063632825, 0.23803877979729446, 14.341168541034532, 0.6693639554947346}, {5}},
  }, [](const st::testing::JaxCase& c, double want) {
    // f32 (and the transform near 1, a digamma series) to its own rounding.
    double rtol = std::string(c.expr).find("f32") != std::string::npos ? 2e-5 : 1e-11;
    return rtol * std::fabs(want) + 1e-300;
  });
}

TEST(Hypergeometric, Hyp2f1IdentitiesJitGrads) {
  // Closed forms: 2F1(1, 1; 2; x) = -log(1 - x)/x, 2F1(a, b; b; x) = (1 - x)^-a,
  // 2F1(1/2, 1; 3/2; -x²) = atan(x)/x, also below -1 (Pfaff's transform: x/(x-1) must stay
  // below JAX's 0.9, beyond which a non-integer c - a - b keeps the slow series).
  const Array x = f64({-3.5, -1.2, -0.5, 0.2, 0.7, 0.95});
  st::testing::expect_relative(sp::hyp2f1(1.0, 1.0, 2.0, x), values(-st::log1p(-x) / x), 1e-13, 0);
  st::testing::expect_relative(sp::hyp2f1(0.8, 1.7, 1.7, x), values(st::power(1.0 - x, -0.8)), 1e-13, 0);
  const Array t = f64({0.3, 1.5, 2.5});
  st::testing::expect_relative(sp::hyp2f1(0.5, 1.0, 1.5, -t * t), values(st::atan(t) / t), 1e-12, 0);
  auto f = [](const Array& a, const Array& b, const Array& c, const Array& z) { return sp::hyp2f1(a, b, c, z); };
  const Array a = f64(kA), b = f64(kB), c = f64(kC), z = f64(kX);
  st::testing::expect_relative(st::jit(f)(a, b, c, z), values(f(a, b, c, z)), 1e-14, 0);
  // Derivatives against finite differences, below -1 too (through Pfaff's transform).
  using V = std::vector<Array>;
  st::testing::check_grads([](const V& v) { return sp::hyp2f1(v[0], v[1], v[2], v[3]); },
                           {f64({0.5, 1.2, 0.7}), f64({1.5, -0.7, 1.1}), f64({2.5, 3.1, 2.9}), f64({0.3, -0.8, -2.5})},
                           "hyp2f1");
  EXPECT_EQ(sp::hyp2f1(1, 1, 2, st::astype(x, st::f32)).dtype(), st::f32);
  st::testing::expect_error([] { sp::hyp2f1(1, 1, 2, st::complex(f64({0.1}), f64({0.1}))); }, "hyp2f1: expects real values");
}

}  // namespace
