// st::ode::odeint (jax.experimental.ode) against JAX 0.10.2 (x64; tests/api/ode_jax_values.py):
// the solution of a forced Lotka–Volterra system at two tolerances (the adaptive steps show in
// the loose one) and the adjoint gradients in y0, t and the parameters; closed forms and their
// derivatives (also in what func captures); jit, vmap; the errors.
#include <gtest/gtest.h>

#include <cmath>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::JaxCase;
using st::testing::values;

namespace {

Array f64(const std::vector<double>& v) { return st::array(v, {static_cast<int64_t>(v.size())}, st::f64); }

// Predator and prey, with a forcing in t.
Array lotka(const Array& y, const Array& t, const Array& ab, const Array& cd) {
  Array x = y[0], z = y[1];
  return st::stack({ab[0] * x - ab[1] * x * z + 0.1 * st::sin(t), cd[0] * x * z - cd[1] * z});
}

#define ODE_INPUTS                                                   \
  Array Y0 = f64({1.2, 0.8}), T = f64({0.0, 0.4, 1.1, 2.0, 3.3});    \
  Array AB = f64({1.1, 0.6}), CD = f64({0.5, 0.9})

TEST(Ode, AsJax) {
  ODE_INPUTS;
  auto loss = [](const Array& y0, const Array& t, const Array& ab, const Array& cd) {
    return st::sum(st::sin(st::ode::odeint(lotka, y0, t, {}, ab, cd)));
  };
  auto grads_tuple = st::grad(loss, st::argnums<0, 1, 2, 3>)(Y0, T, AB, CD);
  const std::vector<Array> grads{std::get<0>(grads_tuple), std::get<1>(grads_tuple), std::get<2>(grads_tuple),
                                 std::get<3>(grads_tuple)};
  st::testing::expect_jax_cases({
    {"st::ode::odeint(lotka, Y0, T, {}, AB, CD)", st::ode::odeint(lotka, Y0, T, {}, AB, CD), {1.2, 0.8, 1.5604938983740007, 0.7339914056829485, 2.527242408586296, 0.7893878340538822, 3.9309294952197096, 1.5420279808943416, 1.7407608078926748, 3.8449677737300685}, {5, 2}},
    {"st::ode::odeint(lotka, Y0, T, {.rtol = 1e-4, .atol = 1e-4}, AB, CD)", st::ode::odeint(lotka, Y0, T, {.rtol = 1e-4, .atol = 1e-4}, AB, CD), {1.2, 0.8, 1.5604187412215074, 0.7340204287708094, 2.5267564858495875, 0.7895756645852382, 3.932141420101626, 1.5412771715713514, 1.7392780986026286, 3.8450637438461754}, {5, 2}},
    {"grads[0]", grads[0], {0.6242293979865354, 6.791799635858669}, {2}},
    {"grads[1]", grads[1], {1.2679896910641761, -0.054259249444008485, -1.1642004273424091, -0.5006919518245952, 0.44491472239151775}, {5}},
    {"grads[2]", grads[2], {-7.331681829558492, 11.105319678161923}, {2}},
    {"grads[3]", grads[3], {10.479897669599616, -5.109819079835391}, {2}},
  }, [](const JaxCase& c, double want) {
    // The adjoint integrates backwards to the solver's tolerance: its gradients agree to that.
    double rtol = std::string(c.expr).rfind("grads", 0) == 0 ? 1e-6 : 1e-12;
    return rtol * std::fabs(want) + rtol;
  });
}

TEST(Ode, ClosedFormsJitVmapForwardMode) {
  // y' = -k y: y0 e^(-k t), any shape of y0; y'' = -y as a system: (cos t, -sin t).
  const Array y0 = st::reshape(f64({1.0, 2.0, -0.5, 3.0}), {2, 2}), ts = f64({0.0, 0.5, 1.7, 4.0});
  auto decay = [](const Array& y, const Array&, const Array& k) { return -k * y; };
  Array ys = st::ode::odeint(decay, y0, ts, {}, Array(0.7));
  EXPECT_EQ(ys.shape(), (st::Shape{4, 2, 2}));
  st::testing::expect_relative(ys, values(st::exp(-0.7 * st::reshape(ts, {4, 1, 1})) * y0), 1e-7, 1e-9);
  auto osc = [](const Array& y, const Array&) { return st::stack({y[1], -y[0]}); };
  Array os = st::ode::odeint(osc, f64({1.0, 0.0}), ts);
  st::testing::expect_relative(os, values(st::stack({st::cos(ts), -st::sin(ts)}, 1)), 1e-7, 1e-8);
  // jit equals eager; vmap over initial conditions equals one at a time.
  auto run = [&](const Array& y) { return st::ode::odeint(osc, y, ts); };
  st::testing::expect_relative(st::jit(run)(f64({1.0, 0.0})), values(os), 1e-14, 1e-14);
  Array batch = st::vmap(run)(st::stack({f64({1.0, 0.0}), f64({0.0, 2.0})}));
  st::testing::expect_relative(batch[1], values(run(f64({0.0, 2.0}))), 1e-12, 1e-12);
  // The adjoint: d/dk Σ w y(t) = Σ w (-t) y0 e^(-k t); d/dy0 Σ w y(t) = Σ_t w e^(-k t).
  const Array w = st::reshape(f64({0.3, -1.0, 2.0, 0.5}), {4, 1, 1});
  auto loss = [&](const Array& y, const Array& k) { return st::sum(w * st::ode::odeint(decay, y, ts, {}, k)); };
  auto [gy, gk] = st::grad(loss, st::argnums<0, 1>)(y0, Array(0.7));
  Array e = st::exp(-0.7 * st::reshape(ts, {4, 1, 1}));
  st::testing::expect_relative(gk, values(st::sum(w * -st::reshape(ts, {4, 1, 1}) * e * y0)), 1e-6, 1e-8);
  st::testing::expect_relative(gy, values(st::broadcast_to(st::sum(w * e), {2, 2})), 1e-6, 1e-8);
  // k captured by func instead of passed: closure-converted, so the adjoint reaches it (also jit).
  auto captured = [&](const Array& y, const Array& k) {
    return st::sum(w * st::ode::odeint([&](const Array& v, const Array&) { return -k * v; }, y, ts));
  };
  auto [cy, ck] = st::grad(captured, st::argnums<0, 1>)(y0, Array(0.7));
  st::testing::expect_relative(ck, values(gk), 1e-12, 1e-14);
  st::testing::expect_relative(cy, values(gy), 1e-12, 1e-14);
  auto [jy, jk] = st::jit(st::grad(captured, st::argnums<0, 1>))(y0, Array(0.7));
  st::testing::expect_relative(jk, values(gk), 1e-10, 1e-12);
  // Forward mode is refused, as JAX's odeint (a custom_vjp) refuses it.
  st::testing::expect_error([&] { st::jvp([&](const Array& k) { return st::ode::odeint(decay, y0, ts, {}, k); }, Array(0.7), Array(1.0)); },
                            "forward mode (jvp) of it is not supported");
}

TEST(Ode, Errors) {
  ODE_INPUTS;
  auto f = [](const Array& y, const Array&) { return -y; };
  st::testing::expect_error([&] { st::ode::odeint(f, Y0, st::reshape(T, {5, 1})); }, "odeint: expects t, a 1-d array of float times, but got f64[5,1]");
  st::testing::expect_error([&] { st::ode::odeint(f, Y0, st::array(std::vector<int32_t>{0, 1}, {2})); }, "odeint: expects t, a 1-d array of float times");
}

}  // namespace
