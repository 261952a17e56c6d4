// st::optimize (jax.scipy.optimize): minimize by BFGS and its line search against JAX 0.10.2
// (x64) with the zoom fix strata carries (tests/api/optimize_jax_values.py prints the values) —
// the same iterates, evaluations and status, since it is JAX's algorithm step for step — plus
// convergence on problems with known minima, jit, vmap over starting points, and the errors.
#include <gtest/gtest.h>

#include <cmath>

#include "strata/optimize.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
namespace opt = strata::optimize;
using st::Array;
using st::testing::values;

namespace {

using D = std::vector<double>;

Array f64(const D& v) { return st::array(v, {static_cast<int64_t>(v.size())}, st::f64); }

// jnp.sum(100 (x[1:] - x[:-1]²)² + (1 - x[:-1])²)
Array rosen(const Array& x) {
  int64_t n = x.shape(0);
  Array head = st::slice(x, {0}, {n - 1}), tail = st::slice(x, {1}, {n});
  return st::sum(100.0 * st::square(tail - st::square(head)) + st::square(1.0 - head));
}

void expect_counts(const opt::OptimizeResults& r, int nit, int nfev, int njev, int status, bool success) {
  EXPECT_EQ(r.nit.item<int>(), nit);
  EXPECT_EQ(r.nfev.item<int>(), nfev);
  EXPECT_EQ(r.njev.item<int>(), njev);
  EXPECT_EQ(r.status.item<int>(), status);
  EXPECT_EQ(r.success.item<bool>(), success);
}

TEST(Optimize, BfgsAsJax) {
  // minimize(rosen, jnp.array([1.3, 0.7, 0.8, 1.9, 1.2]), method="BFGS") with JAX's zoom guard
  // fixed as jax-ml/jax#40228 (tests/api/optimize_jax_values.py; JAX 0.10 itself stops at
  // iteration 19 with status 3): converged in 26 iterations and 32 evaluations.
  opt::OptimizeResults r = opt::minimize(rosen, f64({1.3, 0.7, 0.8, 1.9, 1.2}));
  st::testing::expect_relative(r.x, {1.0000000044444002, 1.0000000064623285, 1.0000000124550021, 1.0000000242565437, 1.0000000490099856}, 1e-12);
  st::testing::expect_relative(r.fun, {1.4832473696182435e-15}, 1e-4);
  st::testing::expect_relative(st::diagonal(r.hess_inv), {0.007742573998568065, 0.025793031816641682, 0.09867399081407914, 0.3924381723366759, 1.5699763083055003}, 1e-6);
  expect_counts(r, 26, 32, 32, 0, true);
  // ... from the classic start (-1.2, 1): 34 iterations, 48 evaluations.
  opt::OptimizeResults r2 = opt::minimize(rosen, f64({-1.2, 1.0}));
  st::testing::expect_relative(r2.x, {1.000000007665596, 1.0000000173490717}, 1e-12);
  expect_counts(r2, 34, 48, 48, 0, true);
  // options=dict(maxiter=3): status 1.
  opt::OptimizeResults r3 = opt::minimize(rosen, f64({1.3, 0.7, 0.8, 1.9, 1.2}), "BFGS", std::nullopt, {.maxiter = 3});
  st::testing::expect_relative(r3.x, {0.8989038389193583, 0.9971038095968582, 1.0114358078935262, 0.9802375790496167, 1.2985749819815324}, 1e-9);
  st::testing::expect_relative(r3.fun, {15.203002343331754}, 1e-9);
  expect_counts(r3, 3, 8, 8, 1, false);
  // f32 (a jnp.float32 start): JAX converges to (1, 1) in 33 iterations, 47 evaluations; f32
  // rounding may move the path by an iteration or two.
  opt::OptimizeResults r4 = opt::minimize(rosen, st::astype(f64({-1.2, 1.0}), st::f32));
  EXPECT_EQ(r4.x.dtype(), st::f32);
  st::testing::expect_relative(r4.x, {1.0, 1.0}, 1e-3);
  EXPECT_TRUE(r4.success.item<bool>());
  EXPECT_NEAR(r4.nit.item<int>(), 33, 3);
}

TEST(Optimize, LbfgsAsJax) {
  // method="l-bfgs-experimental-do-not-rely-on-this" (with the same line-search fix): status 4
  // (f decreased by less than ftol) near (1, ..., 1), as JAX.
  const std::string L = "l-bfgs-experimental-do-not-rely-on-this";
  opt::OptimizeResults r = opt::minimize(rosen, f64({1.3, 0.7, 0.8, 1.9, 1.2}), L);
  st::testing::expect_relative(r.x, {1.0000000074917565, 0.9999999721743824, 0.9999999956013813, 1.0000001401220642, 1.000000266450366}, 1e-9);
  expect_counts(r, 27, 42, 42, 4, false);
  EXPECT_EQ(r.hess_inv.size(), 0);
  opt::OptimizeResults r2 = opt::minimize(rosen, f64({-1.2, 1.0}), "l-bfgs");
  st::testing::expect_relative(r2.x, {0.9999995934391578, 0.99999910766722}, 1e-9);
  expect_counts(r2, 36, 59, 59, 4, false);
  // options=dict(maxiter=4): JAX checks k before counting the step, so 5 iterations, status 1.
  opt::OptimizeResults r3 = opt::minimize(rosen, f64({1.3, 0.7, 0.8, 1.9, 1.2}), L, std::nullopt, {.maxiter = 4});
  st::testing::expect_relative(r3.x, {0.9095906512665773, 0.7984627979400107, 0.6447366130026881, 0.7395253635084827, 0.6621843071653861}, 1e-9);
  expect_counts(r3, 5, 17, 17, 1, false);
}

TEST(Optimize, LineSearchAsJax) {
  // line_search(rosen, jnp.array([-1.2, 1.0]), jnp.array([1.0, 0.5]))
  opt::LineSearchResults ls = opt::line_search(rosen, f64({-1.2, 1.0}), f64({1.0, 0.5}));
  st::testing::expect_relative(ls.a_k, {0.28844444444444445}, 1e-12);
  st::testing::expect_relative(ls.f_k, {13.469025055257687}, 1e-12);
  st::testing::expect_relative(ls.g_k, {110.40890772894382, 62.65773827160498}, 1e-12);
  EXPECT_EQ(ls.nfev.item<int>(), 3);
  EXPECT_EQ(ls.ngev.item<int>(), 3);
  EXPECT_EQ(ls.nit.item<int>(), 1);
  EXPECT_FALSE(ls.failed.item<bool>());
  EXPECT_EQ(ls.status.item<int>(), 0);
  // Uphill (pk = (-1, 0)): no step satisfies the conditions; JAX: a_k 1.0, failed, status 1,
  // 32 evaluations.
  opt::LineSearchResults up = opt::line_search(rosen, f64({-1.2, 1.0}), f64({-1.0, 0.0}));
  EXPECT_TRUE(up.failed.item<bool>());
  EXPECT_EQ(up.status.item<int>(), 1);
  EXPECT_EQ(up.nfev.item<int>(), 32);
  EXPECT_DOUBLE_EQ(up.a_k.item<double>(), 1.0);
}

// 0.5 xᵀAx - bᵀx + c·Σx⁴ with A symmetric positive definite: for c = 0 the minimum is A⁻¹b.
Array quadratic(const Array& x, const Array& b, double c) {
  Array a = st::array(D{4, 1, 0, 0.5, 1, 3, 0.2, 0, 0, 0.2, 2, 0.1, 0.5, 0, 0.1, 1.5}, {4, 4}, x.dtype());
  return 0.5 * st::sum(x * st::matmul(a, x)) - st::sum(b * x) + c * st::sum(st::square(st::square(x)));
}

TEST(Optimize, ConvergesJitsAndVmaps) {
  Array b = f64({1.0, -2.0, 0.5, 3.0});
  // minimize(quartic, jnp.zeros(4), method="BFGS") (c = 0.05): 7 iterations, 12 evaluations, as
  // scipy's BFGS (JAX 0.10: status 3 after 5).
  opt::OptimizeResults q = opt::minimize([b](const Array& x) { return quadratic(x, b, 0.05); }, st::zeros({4}, st::f64));
  st::testing::expect_relative(q.x, {0.249928799120512, -0.7395915723180563, 0.24874334840694992, 1.4735199191164596}, 1e-10);
  st::testing::expect_relative(q.fun, {-3.388085202815247}, 1e-13);
  expect_counts(q, 7, 12, 12, 0, true);
  // options=dict(maxcor=3) with L-BFGS: converged in 8 iterations, 10 evaluations.
  opt::OptimizeResults ql = opt::minimize([b](const Array& x) { return quadratic(x, b, 0.05); }, st::zeros({4}, st::f64),
                                          "l-bfgs", std::nullopt, {.maxcor = 3});
  st::testing::expect_relative(ql.x, {0.249925761802086, -0.7395862297249739, 0.24874449459760573, 1.4735200605903669}, 1e-10);
  expect_counts(ql, 8, 10, 10, 0, true);
  auto lj = st::jit([](const Array& bb, const Array& x0) {
    return opt::minimize([bb](const Array& x) { return quadratic(x, bb, 0.05); }, x0, "l-bfgs", std::nullopt, {.maxcor = 3});
  })(b, st::zeros({4}, st::f64));
  st::testing::expect_relative(lj.x, values(ql.x), 1e-12, 1e-14);
  EXPECT_EQ(lj.nit.item<int>(), 8);
  auto f = [b](const Array& x) { return quadratic(x, b, 0.0); };
  opt::OptimizeResults r = opt::minimize(f, st::zeros({4}, st::f64));
  EXPECT_TRUE(r.success.item<bool>());
  EXPECT_EQ(r.status.item<int>(), 0);
  Array a = st::array(D{4, 1, 0, 0.5, 1, 3, 0.2, 0, 0, 0.2, 2, 0.1, 0.5, 0, 0.1, 1.5}, {4, 4}, st::f64);
  st::testing::expect_relative(r.x, values(st::linalg::solve(a, b)), 2e-5, 2e-5);  // |g| < gtol = 1e-5
  // BFGS's inverse Hessian estimate approaches A⁻¹ on a quadratic.
  st::testing::expect_relative(r.hess_inv, values(st::linalg::inv(a)), 2e-2, 2e-2);
  // Under jit, with b a traced argument closed over by the objective: the same result.
  auto solve = st::jit([](const Array& bb, const Array& x0) {
    return opt::minimize([bb](const Array& x) { return quadratic(x, bb, 0.05); }, x0);
  });
  opt::OptimizeResults j = solve(b, st::zeros({4}, st::f64));
  opt::OptimizeResults e = opt::minimize([b](const Array& x) { return quadratic(x, b, 0.05); }, st::zeros({4}, st::f64));
  st::testing::expect_relative(j.x, values(e.x), 1e-12, 1e-14);
  EXPECT_EQ(j.nit.item<int>(), e.nit.item<int>());
  EXPECT_EQ(j.nfev.item<int>(), e.nfev.item<int>());
  // vmap over starting points: each row runs its own iterations, as minimize from that start.
  Array starts = st::array(D{0, 0, 0, 0, 2, -1, 1, 0.5, -3, 3, -3, 3}, {3, 4}, st::f64);
  opt::OptimizeResults v = st::vmap([b](const Array& x0) {
    return opt::minimize([b](const Array& x) { return quadratic(x, b, 0.05); }, x0);
  })(starts);
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    opt::OptimizeResults one = opt::minimize([b](const Array& x) { return quadratic(x, b, 0.05); }, starts[i]);
    st::testing::expect_relative(v.x[i], values(one.x), 1e-12, 1e-14);
    EXPECT_EQ(v.nit[i].item<int>(), one.nit.item<int>());
    EXPECT_TRUE(v.success[i].item<bool>());
  }
  // At the minimum the gradient is below gtol in the inf-norm.
  Array g = st::grad([b](const Array& x) { return quadratic(x, b, 0.05); })(e.x);
  EXPECT_LT(st::max(st::abs(g)).item<double>(), 1e-5);
}

TEST(Optimize, Errors) {
  using st::testing::expect_error;
  expect_error([] { opt::minimize(rosen, f64({1, 2}), "Nelder-Mead"); }, "minimize: method \"Nelder-Mead\" is not supported");
  expect_error([] { opt::minimize(rosen, f64({1, 2}), "l-bfgs", std::nullopt, {.maxcor = 0}); }, "maxcor must be positive");
  expect_error([] { opt::minimize(rosen, st::zeros({2, 2}, st::f64)); }, "minimize: x0 must be one-dimensional, but got f64[2,2]");
  expect_error([] { opt::minimize(rosen, st::array(std::vector<int32_t>{1, 2}, {2})); }, "x0 must be a real float array");
  expect_error([] { opt::line_search(rosen, f64({1, 2}), st::zeros({2}, st::f32)); }, "line_search: xk and pk must be real floats of one dtype");
}

}  // namespace
