// st::optimization_barrier (jax.lax.optimization_barrier): the values unchanged, eagerly and
// compiled; what it stops (CSE merging a recomputation behind it with the value before it);
// derivatives and vmap through it; a JAX program with jax.checkpoint's barrier run from its
// StableHLO and differentiated.
#include <gtest/gtest.h>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

int count(const std::string& text, const std::string& what) { return st::testing::count(text, what); }

}  // namespace

TEST(OptimizationBarrier, ReturnsItsOperands) {
  Array x = st::random::normal(st::random::key(1), {3, 4});
  Array n = st::array(std::vector<int32_t>{1, -2, 3}, {3});
  Array z = st::complex(st::ones({2}), st::zeros({2}));
  auto f = [](const Array& a, const Array& b, const Array& c) {
    std::vector<Array> r = st::optimization_barrier({a, b, c});
    return std::make_tuple(r[0] * 2.0f, r[1] + 1, r[2]);
  };
  for (bool compiled : {false, true}) {
    auto [a, b, c] = compiled ? st::jit(f)(x, n, z) : f(x, n, z);
    EXPECT_EQ(a.to_vector<float>(), (x * 2.0f).to_vector<float>());
    EXPECT_EQ(b.to_vector<int32_t>(), (std::vector<int32_t>{2, -1, 4}));
    EXPECT_EQ(c.dtype(), st::c64);
    EXPECT_EQ(c.to_vector<std::complex<float>>(), z.to_vector<std::complex<float>>());
  }
  EXPECT_TRUE(st::optimization_barrier(std::vector<Array>{}).empty());
  // Eagerly the operand itself comes back (arrays are immutable: nothing to copy).
  EXPECT_EQ(st::optimization_barrier(x).to_vector<float>(), x.to_vector<float>());
}

TEST(OptimizationBarrier, KeepsCseFromMergingARecomputation) {
  // sin(x) twice: CSE merges them; with one behind a barrier both stay (jax.checkpoint's use).
  Array x = st::ones({8});
  auto plain = [](const Array& v) { return st::sin(v) + st::sin(v) * 2.0f; };
  auto barred = [](const Array& v) { return st::sin(v) + st::sin(st::optimization_barrier(v)) * 2.0f; };
  std::string p = st::jit(plain).lower(x).as_text("cse"), b = st::jit(barred).lower(x).as_text("cse");
  EXPECT_EQ(count(p, "strata.sine"), 1) << p;
  EXPECT_EQ(count(b, "strata.sine"), 2) << b;
  EXPECT_EQ(count(b, "strata.optimization_barrier"), 1) << b;
  st::testing::expect_relative(st::jit(barred)(x), barred(x).to_vector<double>(), 1e-6);
  // The jaxpr names it as JAX's does.
  st::testing::expect_contains(st::make_jaxpr(barred)(x).to_string(), "c:f32[8] = optimization_barrier a");
}

TEST(OptimizationBarrier, DerivativesAndVmapPassThrough) {
  Array x = st::array(std::vector<double>{0.5, -1.25, 2.0}, {3}, st::f64);
  auto f = [](const Array& v) {
    std::vector<Array> r = st::optimization_barrier({st::sin(v), v});
    return st::sum(r[0] * r[1]);
  };
  std::vector<double> g = st::grad(f)(x).to_vector<double>(), gj = st::jit(st::grad(f))(x).to_vector<double>();
  std::vector<double> xv = x.to_vector<double>();
  for (size_t i = 0; i < xv.size(); ++i) {
    EXPECT_NEAR(g[i], std::cos(xv[i]) * xv[i] + std::sin(xv[i]), 1e-12);
    EXPECT_NEAR(gj[i], g[i], 1e-12);
  }
  auto [out, tangent] = st::jvp(f, x, st::ones({3}, st::f64));
  EXPECT_NEAR(tangent.item<double>(), g[0] + g[1] + g[2], 1e-12);
  EXPECT_NEAR(out.item<double>(), f(x).item<double>(), 1e-12);
  Array rows = st::reshape(st::arange(0, 6, 1, st::f32), {2, 3});
  Array v = st::vmap([](const Array& r) { return st::optimization_barrier(r) * 3.0f; })(rows);
  EXPECT_EQ(v.to_vector<float>(), (rows * 3.0f).to_vector<float>());
}

TEST(OptimizationBarrier, RunsJaxCheckpointedGradientFromStableHlo) {
  // jax.jit(jax.grad(lambda x: jax.checkpoint(lambda y: sin(sin(y)))(x).sum())).lower(ones(3))
  // .as_text() from JAX 0.10.2: the backward pass recomputes sin behind the barrier.
  const char* text = R"(
module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3xf32>) -> (tensor<3xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %1:2 = stablehlo.optimization_barrier %arg0, %0 : tensor<3xf32>, tensor<3xf32>
    %2 = stablehlo.sine %1#0 : tensor<3xf32>
    %3 = stablehlo.cosine %1#0 : tensor<3xf32>
    %4 = stablehlo.cosine %2 : tensor<3xf32>
    %5 = stablehlo.multiply %1#1, %4 : tensor<3xf32>
    %6 = stablehlo.multiply %5, %3 : tensor<3xf32>
    return %6 : tensor<3xf32>
  }
}
)";
  auto m = st::load_stablehlo(text);
  Array x = st::array(std::vector<float>{0.25f, -1.0f, 2.0f}, {3});
  std::vector<float> got = m("main")(x)[0].to_vector<float>(), xv = x.to_vector<float>();
  for (size_t i = 0; i < xv.size(); ++i) EXPECT_NEAR(got[i], std::cos(std::sin(xv[i])) * std::cos(xv[i]), 1e-6);
  // and strata differentiates the loaded program through the barrier (the second derivative).
  auto d2 = st::grad([&](const Array& v) { return st::sum(m("main")(v)[0]); })(x).to_vector<float>();
  for (size_t i = 0; i < xv.size(); ++i) {
    double s = std::sin(xv[i]), c = std::cos(xv[i]);
    EXPECT_NEAR(d2[i], -std::sin(s) * c * c - std::cos(s) * s, 1e-5);
  }
}
