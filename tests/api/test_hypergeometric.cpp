// hyp1f1 of st::special against the values and gradients JAX 0.10.2 prints (jax_enable_x64;
// pasted once; scipy agrees on the values), jit, finite differences.
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

}  // namespace
