// StableHLO module functions inside traces (strata/stablehlo.h, issue 15): called on tracers a
// ModuleFunction binds strata's primitives (lowering/StrataToJaxpr), so jit, grad, vmap and
// make_jaxpr compose with it. References: the direct (compiled) call, finite differences, the
// same program written with the strata API, and JAX's own outputs for the exported programs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
namespace fs = std::filesystem;
using st::testing::error_message;

namespace {

// |a - b| <= atol + rtol * |b| elementwise, same shape and dtype.
::testing::AssertionResult near_all(const st::Array& a, const st::Array& b, double rtol, double atol) {
  if (a.shape() != b.shape() || a.dtype() != b.dtype())
    return ::testing::AssertionFailure() << "shape/dtype " << a << " vs " << b;
  std::vector<double> x = a.to_vector<double>(), y = b.to_vector<double>();
  for (size_t i = 0; i < x.size(); ++i)
    if (!(std::fabs(x[i] - y[i]) <= atol + rtol * std::fabs(y[i])))
      return ::testing::AssertionFailure() << "element " << i << ": " << x[i] << " vs " << y[i];
  return ::testing::AssertionSuccess();
}

// A dense layer with a loss: sum((tanh(x @ w + b) * c)^2) + max(...) through a private helper,
// a non-scalar constant, compare/select and a reduction whose init is not its identity.
const char* kDense = R"(
module {
  func.func @main(%x: tensor<2x3xf64>, %w: tensor<3x4xf64>, %b: tensor<4xf64>) -> tensor<f64> {
    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>
    %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<4xf64>) -> tensor<2x4xf64>
    %2 = stablehlo.add %0, %1 : tensor<2x4xf64>
    %3 = call @act(%2) : (tensor<2x4xf64>) -> tensor<2x4xf64>
    %c = stablehlo.constant dense<[1.0, 2.0, -1.0, 0.5]> : tensor<4xf64>
    %cb = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<4xf64>) -> tensor<2x4xf64>
    %4 = stablehlo.multiply %3, %cb : tensor<2x4xf64>
    %5 = stablehlo.multiply %4, %4 : tensor<2x4xf64>
    %one = stablehlo.constant dense<1.0> : tensor<f64>
    %6 = stablehlo.reduce(%5 init: %one) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x4xf64>, tensor<f64>) -> tensor<f64>
    %ninf = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %7 = stablehlo.reduce(%2 init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<2x4xf64>, tensor<f64>) -> tensor<2xf64>
    %z = stablehlo.constant dense<0.0> : tensor<f64>
    %8 = stablehlo.reduce(%7 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<2xf64>, tensor<f64>) -> tensor<f64>
    %9 = stablehlo.add %6, %8 : tensor<f64>
    return %9 : tensor<f64>
  }
  func.func private @act(%a: tensor<2x4xf64>) -> tensor<2x4xf64> {
    %z = stablehlo.constant dense<0.0> : tensor<f64>
    %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f64>) -> tensor<2x4xf64>
    %p = stablehlo.compare GT, %a, %zb, FLOAT : (tensor<2x4xf64>, tensor<2x4xf64>) -> tensor<2x4xi1>
    %t = stablehlo.tanh %a : tensor<2x4xf64>
    %s = stablehlo.sine %a : tensor<2x4xf64>
    %r = stablehlo.select %p, %t, %s : tensor<2x4xi1>, tensor<2x4xf64>
    return %r : tensor<2x4xf64>
  }
}
)";

// The same program with the strata API.
st::Array dense_api(const st::Array& x, const st::Array& w, const st::Array& b) {
  st::Array h = st::matmul(x, w) + b;
  st::Array a = st::where(h > 0.0, st::tanh(h), st::sin(h));
  st::Array c = st::array(std::vector<double>{1.0, 2.0, -1.0, 0.5}, {4}, st::f64);
  st::Array y = a * c;
  return st::sum(y * y) + 1.0 + st::sum(st::max(h, {1}));
}

// h ← sin(h * w) four times, in a while loop whose body reads w from above.
const char* kLoop = R"(
func.func @main(%x: tensor<3xf64>, %w: tensor<3xf64>) -> tensor<3xf64> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<3xf64>
  cond {
    %n = stablehlo.constant dense<4> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %m = stablehlo.multiply %h, %w : tensor<3xf64>
    %t = stablehlo.sine %m : tensor<3xf64>
    stablehlo.return %i1, %t : tensor<i32>, tensor<3xf64>
  }
  return %r#1 : tensor<3xf64>
}
)";

st::Array loop_api(st::Array h, const st::Array& w) {
  for (int i = 0; i < 4; ++i) h = st::sin(h * w);
  return h;
}

st::Array f64_range(int64_t n, double scale, double offset, const st::Shape& shape) {
  return st::reshape(st::arange(0, static_cast<double>(n), 1, st::f64) * scale + offset, shape);
}

fs::path corpus() { return fs::path(STRATA_SOURCE_DIR) / ".." / "shared" / "conformance" / "jax"; }

std::vector<st::Array> inputs_of(const std::string& name) {
  std::vector<st::Array> args;
  for (int i = 0; fs::exists(corpus() / (name + ".in" + std::to_string(i) + ".npy")); ++i)
    args.push_back(st::load_npy((corpus() / (name + ".in" + std::to_string(i) + ".npy")).string()));
  return args;
}

}  // namespace

TEST(ModuleTrace, JitEqualsTheDirectCall) {
  st::ModuleFunction f = st::load_stablehlo(kDense)("main");
  st::Array x = f64_range(6, 0.3, -0.8, {2, 3}), w = f64_range(12, -0.15, 0.9, {3, 4}), b = f64_range(4, 0.2, -0.3, {4});
  st::Array direct = f(x, w, b)[0];
  auto jf = st::jit([&](const st::Array& x, const st::Array& w, const st::Array& b) { return f(x, w, b)[0]; });
  EXPECT_TRUE(near_all(jf(x, w, b), direct, 1e-12, 1e-12));
  EXPECT_TRUE(near_all(direct, dense_api(x, w, b), 1e-12, 1e-12));
}

TEST(ModuleTrace, GradMatchesFiniteDifferencesAndTheApiProgram) {
  st::ModuleFunction f = st::load_stablehlo(kDense)("main");
  st::Array x = f64_range(6, 0.3, -0.8, {2, 3}), w = f64_range(12, -0.15, 0.9, {3, 4}), b = f64_range(4, 0.2, -0.3, {4});
  st::testing::check_grads([&](const std::vector<st::Array>& a) { return f(a[0], a[1], a[2])[0]; }, {x, w, b},
                           "dense module");
  auto g = st::grad([&](const st::Array& x, const st::Array& w, const st::Array& b) { return f(x, w, b)[0]; },
                    st::ArgNums<0, 1, 2>{})(x, w, b);
  auto want = st::grad(dense_api, st::ArgNums<0, 1, 2>{})(x, w, b);
  EXPECT_TRUE(near_all(std::get<0>(g), std::get<0>(want), 1e-12, 1e-12));
  EXPECT_TRUE(near_all(std::get<1>(g), std::get<1>(want), 1e-12, 1e-12));
  EXPECT_TRUE(near_all(std::get<2>(g), std::get<2>(want), 1e-12, 1e-12));
  // jit(grad(module)) == grad(module).
  auto jg = st::jit(st::grad([&](const st::Array& w) { return f(x, w, b)[0]; }));
  EXPECT_TRUE(near_all(jg(w), std::get<1>(want), 1e-12, 1e-12));
}

TEST(ModuleTrace, VmapMatchesALoopOfDirectCalls) {
  st::ModuleFunction f = st::load_stablehlo(kDense)("main");
  st::Array xs = f64_range(5 * 6, 0.07, -1.0, {5, 2, 3}), w = f64_range(12, -0.15, 0.9, {3, 4}), b = f64_range(4, 0.2, -0.3, {4});
  st::Array ys = st::vmap([&](const st::Array& x, const st::Array& w, const st::Array& b) { return f(x, w, b)[0]; },
                          {0, std::nullopt, std::nullopt})(xs, w, b);
  ASSERT_EQ(ys.shape(), (st::Shape{5}));
  for (int64_t i = 0; i < 5; ++i) {
    st::Array xi = st::reshape(st::slice(xs, {i, 0, 0}, {i + 1, 2, 3}), {2, 3});
    EXPECT_TRUE(near_all(st::reshape(st::slice(ys, {i}, {i + 1}), {}), f(xi, w, b)[0], 1e-12, 1e-12)) << "example " << i;
  }
}

TEST(ModuleTrace, MakeJaxprShowsThePrimitives) {
  st::ModuleFunction f = st::load_stablehlo(kDense)("main");
  st::Array x = st::zeros({2, 3}, st::f64), w = st::zeros({3, 4}, st::f64), b = st::zeros({4}, st::f64);
  st::Jaxpr j = st::make_jaxpr([&](const st::Array& x, const st::Array& w, const st::Array& b) { return f(x, w, b)[0]; })(x, w, b);
  std::vector<std::string> names = j.primitive_names();
  auto has = [&](const char* p) { return std::find(names.begin(), names.end(), p) != names.end(); };
  for (const char* p : {"dot_general", "broadcast_in_dim", "tanh", "sin", "gt", "select", "reduce_sum", "reduce_max", "mul", "add"})
    EXPECT_TRUE(has(p)) << p << " in\n" << j;
  EXPECT_FALSE(has("while")) << j;
  EXPECT_EQ(j.num_inputs(), 3);
}

TEST(ModuleTrace, WhileLoopJitJvpAndVmap) {
  st::ModuleFunction f = st::load_stablehlo(kLoop)("main");
  st::Array x = st::array(std::vector<double>{0.3, -0.7, 1.1}, {3}, st::f64);
  st::Array w = st::array(std::vector<double>{1.2, 0.4, -0.9}, {3}, st::f64);
  st::Array direct = f(x, w)[0];
  EXPECT_TRUE(near_all(direct, loop_api(x, w), 1e-12, 1e-12));
  auto call = [&](const st::Array& x, const st::Array& w) { return f(x, w)[0]; };
  EXPECT_TRUE(near_all(st::jit(call)(x, w), direct, 1e-12, 1e-12));
  st::Jaxpr j = st::make_jaxpr(call)(x, w);
  std::vector<std::string> names = j.primitive_names();
  // A counter from a constant, LT a constant bound, + 1: a scan of 4 steps.
  EXPECT_NE(std::find(names.begin(), names.end(), "scan"), names.end()) << j;
  EXPECT_EQ(std::find(names.begin(), names.end(), "while"), names.end()) << j;
  // Forward mode against finite differences and against the unrolled API program.
  st::Array tx = st::array(std::vector<double>{0.5, -1.0, 0.25}, {3}, st::f64);
  st::Array tw = st::array(std::vector<double>{-0.3, 0.8, 0.6}, {3}, st::f64);
  auto [y, dy] = st::jvp(call, std::tuple<st::Array, st::Array>(x, w), std::tuple<st::Array, st::Array>(tx, tw));
  auto [y2, dy2] = st::jvp(loop_api, std::tuple<st::Array, st::Array>(x, w), std::tuple<st::Array, st::Array>(tx, tw));
  const double eps = 1e-6;
  st::Array fd = (f(x + tx * eps, w + tw * eps)[0] - f(x - tx * eps, w - tw * eps)[0]) / (2 * eps);
  EXPECT_TRUE(near_all(y, direct, 1e-12, 1e-12));
  EXPECT_TRUE(near_all(dy, dy2, 1e-12, 1e-12));
  EXPECT_TRUE(near_all(dy, fd, 1e-6, 1e-8));
  // Reverse mode through it (JAX's fori_loop exports so): against the unrolled API program and
  // finite differences; jit(grad) alike.
  auto loss = [&](const st::Array& x, const st::Array& w) { return st::sum(f(x, w)[0] * st::arange(1, 4, 1, st::f64)); };
  auto loss_api = [&](const st::Array& x, const st::Array& w) { return st::sum(loop_api(x, w) * st::arange(1, 4, 1, st::f64)); };
  auto g = st::grad(loss, st::ArgNums<0, 1>{})(x, w);
  auto want = st::grad(loss_api, st::ArgNums<0, 1>{})(x, w);
  EXPECT_TRUE(near_all(std::get<0>(g), std::get<0>(want), 1e-12, 1e-12));
  EXPECT_TRUE(near_all(std::get<1>(g), std::get<1>(want), 1e-12, 1e-12));
  st::testing::check_grads([&](const std::vector<st::Array>& a) { return loss(a[0], a[1]); }, {x, w}, "static while");
  EXPECT_TRUE(near_all(st::jit(st::grad(loss))(x, w), std::get<0>(want), 1e-12, 1e-12));
  // A bound that is an argument: a while, whose reverse mode is refused as JAX refuses it.
  std::string dynamic = kLoop;
  dynamic.replace(dynamic.find("%w: tensor<3xf64>)"), 18, "%w: tensor<3xf64>, %n: tensor<i32>)");
  const std::string bound = "    %n = stablehlo.constant dense<4> : tensor<i32>\n";
  dynamic.replace(dynamic.find(bound), bound.size(), "");
  st::ModuleFunction h = st::load_stablehlo(dynamic)("main");
  st::Array four = st::array(std::vector<int32_t>{4}, {});
  EXPECT_TRUE(near_all(h(x, w, four)[0], direct, 1e-12, 1e-12));
  std::vector<std::string> hn = st::make_jaxpr([&](const st::Array& x) { return h(x, w, four)[0]; })(x).primitive_names();
  EXPECT_NE(std::find(hn.begin(), hn.end(), "while"), hn.end());
  EXPECT_THROW(st::grad([&](const st::Array& x) { return st::sum(h(x, w, four)[0]); })(x), st::Error);
  // vmap over x.
  st::Array xs = st::stack({x, x * 2.0, x - 1.0});
  st::Array ys = st::vmap(call, {0, std::nullopt})(xs, w);
  for (int64_t i = 0; i < 3; ++i)
    EXPECT_TRUE(near_all(st::reshape(st::slice(ys, {i, 0}, {i + 1, 3}), {3}),
                         f(st::reshape(st::slice(xs, {i, 0}, {i + 1, 3}), {3}), w)[0], 1e-12, 1e-12));
}

TEST(ModuleTrace, AnOpWithoutAJaxprFormIsAClearError) {
  const char* text = R"(func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)";
  st::ModuleFunction f = st::load_stablehlo(text)("main");
  st::Array x = st::array({3.f, 1.f, 2.f, 0.f}, {4});
  EXPECT_EQ(f(x)[0].to_vector<float>(), (std::vector<float>{0.f, 1.f, 2.f, 3.f}));  // the direct call still runs
  std::string msg = error_message<st::Error>([&] { st::jit([&](const st::Array& x) { return f(x)[0]; })(x); });
  EXPECT_NE(msg.find("op `strata.sort` has no jaxpr form yet"), std::string::npos) << msg;
  EXPECT_NE(msg.find("<stablehlo>:2:"), std::string::npos) << msg;
  // A tracer of the wrong type is refused naming both types.
  st::ModuleFunction g = st::load_stablehlo(kLoop)("main");
  msg = error_message<st::ShapeError>([&] { st::jit([&](const st::Array& x) { return g(x, x)[0]; })(st::zeros({4}, st::f64)); });
  EXPECT_NE(msg.find("argument 0 must be f64[3], but got f64[4]"), std::string::npos) << msg;
}

// The programs exported from JAX: jit of the module function equals the direct call (which
// tests/api/test_stablehlo_npy and the conformance suite check against JAX's outputs); the
// ones with ops that have no jaxpr form yet give the clear error naming the op (none now).
TEST(ModuleTrace, JaxProgramsUnderJit) {
  if (!fs::exists(corpus() / "mlp_train_step.mlir")) GTEST_SKIP() << "no conformance corpus at " << corpus();
  const std::map<std::string, std::string> unmapped = {};
  for (const char* name : {"mlp_train_step", "transformer_block", "cg_while", "rnn_scan_grad", "cnn_forward",
                           "gather_sort_cumsum"}) {
    SCOPED_TRACE(name);
    st::ModuleFunction f = st::load_stablehlo((corpus() / (std::string(name) + ".mlir")).string())("main");
    std::vector<st::Array> args = inputs_of(name);
    auto jf = st::jit([&](const std::vector<st::Array>& a) { return f(a); });
    auto it = unmapped.find(name);
    if (it != unmapped.end()) {
      std::string msg = error_message<st::Error>([&] { jf(args); });
      EXPECT_NE(msg.find("op `" + it->second + "` has no jaxpr form yet"), std::string::npos) << msg;
      continue;
    }
    std::vector<st::Array> direct = f(args), traced = jf(args);
    ASSERT_EQ(traced.size(), direct.size());
    for (size_t i = 0; i < direct.size(); ++i) {
      st::Array want = st::load_npy((corpus() / (std::string(name) + ".out" + std::to_string(i) + ".npy")).string());
      EXPECT_TRUE(near_all(traced[i], direct[i], 1e-4, 1e-5)) << "output " << i;
      EXPECT_TRUE(near_all(traced[i], want, 1e-4, 1e-5)) << "output " << i << " vs JAX";
    }
  }
}

// grad through exported programs: the loss of mlp_train_step (its output 4) and a loss on
// transformer_block's, cnn_forward's (convolution, max pooling), gather_sort_cumsum's (gather,
// sort, cumsum) and rnn_scan_grad's (two exported scans: whiles with a static trip count, so
// reverse mode runs through them) outputs, each against central differences along a direction
// (f32).
TEST(ModuleTrace, GradThroughJaxPrograms) {
  if (!fs::exists(corpus() / "mlp_train_step.mlir")) GTEST_SKIP() << "no conformance corpus at " << corpus();
  struct Case {
    const char* name;
    size_t arg;     // differentiated argument
    size_t output;  // output the loss is built on
    float eps;      // finite-difference step (small where relu and max pooling have kinks)
  };
  for (Case c : {Case{"mlp_train_step", 3, 4, 1e-2f}, Case{"transformer_block", 0, 0, 1e-2f}, Case{"cnn_forward", 1, 0, 1e-3f},
                 Case{"gather_sort_cumsum", 0, 0, 1e-3f}, Case{"gather_sort_cumsum", 0, 1, 1e-2f},
                 Case{"rnn_scan_grad", 1, 0, 1e-2f}}) {
    SCOPED_TRACE(c.name);
    st::ModuleFunction f = st::load_stablehlo((corpus() / (std::string(c.name) + ".mlir")).string())("main");
    std::vector<st::Array> args = inputs_of(c.name);
    auto loss = [&](const st::Array& p) {
      std::vector<st::Array> a = args;
      a[c.arg] = p;
      st::Array y = f(a)[c.output];
      return st::sum(y * y);
    };
    st::Array p = args[c.arg];
    st::Array g = st::grad(loss)(p);
    ASSERT_EQ(g.shape(), p.shape());
    st::Array t = st::random::normal(st::random::key(3), p.shape(), st::f32);
    const float eps = c.eps;
    double fd = (loss(p + t * eps).item<double>() - loss(p - t * eps).item<double>()) / (2 * eps);
    double ad = st::sum(g * t).item<double>();
    EXPECT_NEAR(ad, fd, 2e-2 * std::max(1.0, std::fabs(fd))) << "grad . t vs finite differences";
    // Reverse mode against forward mode (the rules' transposes): <grad, t> = jvp along t.
    auto [y, dy] = st::jvp(loss, p, t);
    EXPECT_NEAR(ad, dy.item<double>(), 1e-3 * std::max(1.0, std::fabs(ad))) << "grad . t vs jvp";
    // jit(grad) agrees with grad.
    EXPECT_TRUE(near_all(st::jit(st::grad(loss))(p), g, 1e-4, 1e-5));
  }
}

// cond from a StableHLO case (generic form, as JAX writes lax.switch), gather, and cumsum (a
// padded reduce_window) from the exported program's helper.
const char* kCaseGather = R"(
func.func @main(%k: tensor<i32>, %t: tensor<5x3xf64>, %i: tensor<4xi32>) -> tensor<4x3xf64> {
  %b = stablehlo.broadcast_in_dim %i, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
  %g = "stablehlo.gather"(%t, %b) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<5x3xf64>, tensor<4x1xi32>) -> tensor<4x3xf64>
  %r = "stablehlo.case"(%k) ({
    %a = stablehlo.sine %g : tensor<4x3xf64>
    stablehlo.return %a : tensor<4x3xf64>
  }, {
    %m = stablehlo.multiply %g, %g : tensor<4x3xf64>
    stablehlo.return %m : tensor<4x3xf64>
  }) : (tensor<i32>) -> tensor<4x3xf64>
  return %r : tensor<4x3xf64>
}
)";

TEST(ModuleTrace, CaseAndGatherTraceAndDifferentiate) {
  st::ModuleFunction f = st::load_stablehlo(kCaseGather)("main");
  st::Array t = f64_range(15, 0.13, -0.9, {5, 3});
  st::Array idx = st::array(std::vector<int32_t>{4, 0, 2, 2}, {4});
  // An index outside [0, 2) runs the last branch, as StableHLO's case does.
  for (int32_t k : {0, 1, -1, 2, 7}) {
    SCOPED_TRACE(k);
    st::Array kk = st::array(std::vector<int32_t>{k}, {});
    st::Array rows = st::take(t, idx, 0);
    st::Array want = k == 0 ? st::sin(rows) : rows * rows;
    auto call = [&](const st::Array& t) { return f(kk, t, idx)[0]; };
    EXPECT_TRUE(near_all(f(kk, t, idx)[0], want, 1e-12, 1e-12));
    EXPECT_TRUE(near_all(st::jit(call)(t), want, 1e-12, 1e-12));
    st::testing::check_grads([&](const std::vector<st::Array>& a) { return call(a[0]); }, {t}, "case/gather");
    // The index traced too: jit over (k, t).
    EXPECT_TRUE(near_all(st::jit([&](const st::Array& k, const st::Array& t) { return f(k, t, idx)[0]; })(kk, t), want,
                         1e-12, 1e-12));
  }
}

TEST(ModuleTrace, CumsumHelperOfAJaxProgram) {
  if (!fs::exists(corpus() / "gather_sort_cumsum.mlir")) GTEST_SKIP() << "no conformance corpus at " << corpus();
  st::ModuleFunction f = st::load_stablehlo((corpus() / "gather_sort_cumsum.mlir").string())("cumsum");
  st::Array x = st::reshape(st::arange(0, 320, 1, st::f32) * 0.01f - 1.f, {20, 16});
  // (The direct call cannot compile a helper of a module that has a @main; traced, it runs.)
  EXPECT_TRUE(near_all(st::jit([&](const st::Array& x) { return f(x)[0]; })(x), st::cumsum(x, 0), 1e-5, 1e-5));
  st::Array g = st::grad([&](const st::Array& x) { return st::sum(f(x)[0] * f(x)[0]); })(x);
  st::Array want = st::grad([](const st::Array& x) { st::Array c = st::cumsum(x, 0); return st::sum(c * c); })(x);
  EXPECT_TRUE(near_all(g, want, 1e-4, 1e-4));
}

// The sorted rows of gather_sort_cumsum under vmap (a batch of tables) equal a loop of direct
// calls; its sort traces as the sort primitive.
TEST(ModuleTrace, SortOfAJaxProgramUnderVmap) {
  if (!fs::exists(corpus() / "gather_sort_cumsum.mlir")) GTEST_SKIP() << "no conformance corpus at " << corpus();
  st::ModuleFunction f = st::load_stablehlo((corpus() / "gather_sort_cumsum.mlir").string())("main");
  std::vector<st::Array> args = inputs_of("gather_sort_cumsum");
  auto call = [&](const st::Array& table, const st::Array& ids) { return f(table, ids)[0]; };
  st::Jaxpr j = st::make_jaxpr(call)(args[0], args[1]);
  std::vector<std::string> names = j.primitive_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "sort"), names.end()) << j;
  st::Array tables = st::stack({args[0], args[0] * -1.f, st::sin(args[0])});
  st::Array ys = st::vmap(call, {0, std::nullopt})(tables, args[1]);
  ASSERT_EQ(ys.shape(), (st::Shape{3, 20, 16}));
  for (int64_t i = 0; i < 3; ++i) {
    st::Array ti = st::reshape(st::slice(tables, {i, 0, 0}, {i + 1, 100, 16}), {100, 16});
    EXPECT_TRUE(near_all(st::reshape(st::slice(ys, {i, 0, 0}, {i + 1, 20, 16}), {20, 16}), f(ti, args[1])[0], 0, 0))
        << "table " << i;
  }
}

// Integer keys, descending (GT): unstable traces as sort then rev, differentiable in the values
// carried along; stable is refused. A float key compared without JAX's canonicalisation is
// refused too (its order of -0.0 and nans differs from the sort primitive's).
const char* kSortByKey = R"(
func.func @main(%k: tensor<6xi32>, %v: tensor<6xf64>) -> (tensor<6xi32>, tensor<6xf64>) {
  %0:2 = "stablehlo.sort"(%k, %v) <{dimension = 0 : i64, is_stable = STABLE}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f64>, %d: tensor<f64>):
    %p = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<6xi32>, tensor<6xf64>) -> (tensor<6xi32>, tensor<6xf64>)
  return %0#0, %0#1 : tensor<6xi32>, tensor<6xf64>
}
)";

TEST(ModuleTrace, SortComparatorsJaxHasAndHasNot) {
  auto load = [](const char* stable) {
    std::string text = kSortByKey;
    text.replace(text.find("STABLE"), 6, stable);
    return st::load_stablehlo(text)("main");
  };
  st::ModuleFunction f = load("false");
  st::Array k = st::array(std::vector<int32_t>{3, -1, 7, 0, 5, -4}, {6});
  st::Array v = f64_range(6, 0.5, -1.0, {6});
  auto call = [&](const st::Array& v) { return f(k, v)[1]; };
  st::Array direct = call(v);
  EXPECT_EQ(f(k, v)[0].to_vector<int32_t>(), (std::vector<int32_t>{7, 5, 3, 0, -1, -4}));
  EXPECT_EQ(direct.to_vector<double>(), (std::vector<double>{0.0, 1.0, -1.0, 0.5, -0.5, 1.5}));
  EXPECT_TRUE(near_all(st::jit(call)(v), direct, 0, 0));
  st::Jaxpr j = st::make_jaxpr(call)(v);
  std::vector<std::string> names = j.primitive_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "rev"), names.end()) << j;
  st::testing::check_grads([&](const std::vector<st::Array>& a) { return call(a[0]) * st::arange(1, 7, 1, st::f64); }, {v},
                           "descending sort");
  st::ModuleFunction stable = load("true");
  std::string msg = error_message<st::Error>([&] { st::jit([&](const st::Array& v) { return stable(k, v)[1]; })(v); });
  EXPECT_NE(msg.find("a stable descending sort"), std::string::npos) << msg;
  const char* raw = R"(func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)";
  st::ModuleFunction g = st::load_stablehlo(raw)("main");
  st::Array x = st::array({3.f, 1.f, 2.f, 0.f}, {4});
  msg = error_message<st::Error>([&] { st::jit([&](const st::Array& x) { return g(x)[0]; })(x); });
  EXPECT_NE(msg.find("without JAX's canonicalisation"), std::string::npos) << msg;
}

// cond from a StableHLO `if` (generic form, as JAX writes lax.cond with two branches) whose
// branches read values from above: jit, grad against finite differences, both predicates.
const char* kIf = R"(
func.func @main(%x: tensor<3xf64>, %w: tensor<3xf64>) -> tensor<f64> {
  %z = stablehlo.constant dense<0.0> : tensor<f64>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3xf64>, tensor<f64>) -> tensor<f64>
  %p = stablehlo.compare GT, %s, %z, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
  %r = "stablehlo.if"(%p) ({
    %m = stablehlo.multiply %x, %w : tensor<3xf64>
    %e = stablehlo.exponential %m : tensor<3xf64>
    %t = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3xf64>, tensor<f64>) -> tensor<f64>
    stablehlo.return %t : tensor<f64>
  }, {
    %c = stablehlo.cosine %x : tensor<3xf64>
    %m = stablehlo.multiply %c, %w : tensor<3xf64>
    %t = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3xf64>, tensor<f64>) -> tensor<f64>
    stablehlo.return %t : tensor<f64>
  }) : (tensor<i1>) -> tensor<f64>
  return %r : tensor<f64>
}
)";

TEST(ModuleTrace, IfTracesAndDifferentiates) {
  st::ModuleFunction f = st::load_stablehlo(kIf)("main");
  st::Array w = st::array(std::vector<double>{0.7, -1.3, 0.4}, {3}, st::f64);
  for (double sign : {1.0, -1.0}) {
    SCOPED_TRACE(sign);
    st::Array x = st::array(std::vector<double>{0.5 * sign, 0.2 * sign, -0.1 * sign}, {3}, st::f64);
    st::Array want = sign > 0 ? st::sum(st::exp(x * w)) : st::sum(st::cos(x) * w);
    auto call = [&](const st::Array& x, const st::Array& w) { return f(x, w)[0]; };
    EXPECT_TRUE(near_all(f(x, w)[0], want, 1e-12, 1e-12));
    EXPECT_TRUE(near_all(st::jit(call)(x, w), want, 1e-12, 1e-12));
    st::Jaxpr j = st::make_jaxpr(call)(x, w);
    std::vector<std::string> names = j.primitive_names();
    EXPECT_NE(std::find(names.begin(), names.end(), "cond"), names.end()) << j;
    st::testing::check_grads([&](const std::vector<st::Array>& a) { return call(a[0], a[1]); }, {x, w}, "if");
    auto g = st::jit(st::grad(call, st::ArgNums<0, 1>{}))(x, w);
    st::Array gx = sign > 0 ? w * st::exp(x * w) : -st::sin(x) * w;
    st::Array gw = sign > 0 ? x * st::exp(x * w) : st::cos(x);
    EXPECT_TRUE(near_all(std::get<0>(g), gx, 1e-12, 1e-12));
    EXPECT_TRUE(near_all(std::get<1>(g), gw, 1e-12, 1e-12));
  }
}

// A comparison in the other signedness (UNSIGNED of i32: -1 is the largest) traces as a
// comparison of the bits reinterpreted, equal to the direct (compiled) call.
TEST(ModuleTrace, UnsignedComparisonOfSignedIntegers) {
  const char* text = R"(
func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi1> {
  %r = stablehlo.compare LT, %a, %b, UNSIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %r : tensor<4xi1>
}
)";
  st::ModuleFunction f = st::load_stablehlo(text)("main");
  st::Array a = st::array(std::vector<int32_t>{-1, 0, 5, -7}, {4}), b = st::array(std::vector<int32_t>{2, -1, 3, -6}, {4});
  std::vector<uint8_t> want{0, 1, 0, 1};
  EXPECT_EQ(f(a, b)[0].to_vector<uint8_t>(), want);
  EXPECT_EQ(st::jit([&](const st::Array& x, const st::Array& y) { return f(x, y)[0]; })(a, b).to_vector<uint8_t>(), want);
}

// rng_bit_generator inside a trace: JAX's export of lax.rng_bit_generator (the u32[4] key
// bitcast to u64[2] around the op) becomes the primitive, and a float output of the op is the
// primitive's unsigned bits bitcast; jit equals the direct call, and a loss using the bits
// differentiates (the bits are constants).
TEST(ModuleTrace, RngBitGeneratorTracesAsThePrimitive) {
  const char* text = R"(
func.func @main(%k: tensor<4xui32>, %x: tensor<3xf32>) -> (tensor<4xui32>, tensor<2x3xui8>, tensor<3xf32>) {
  %0 = stablehlo.reshape %k : (tensor<4xui32>) -> tensor<2x2xui32>
  %1 = stablehlo.bitcast_convert %0 : (tensor<2x2xui32>) -> tensor<2xui64>
  %state, %bits = stablehlo.rng_bit_generator %1, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui8>)
  %2 = stablehlo.bitcast_convert %state : (tensor<2xui64>) -> tensor<2x2xui32>
  %3 = stablehlo.reshape %2 : (tensor<2x2xui32>) -> tensor<4xui32>
  %s2, %f = stablehlo.rng_bit_generator %state, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xf32>)
  %c = stablehlo.constant dense<1.0e-38> : tensor<3xf32>
  %4 = stablehlo.abs %f : tensor<3xf32>
  %5 = stablehlo.minimum %4, %c : tensor<3xf32>
  %6 = stablehlo.multiply %x, %x : tensor<3xf32>
  %7 = stablehlo.multiply %6, %5 : tensor<3xf32>
  return %3, %bits, %7 : tensor<4xui32>, tensor<2x3xui8>, tensor<3xf32>
}
)";
  st::ModuleFunction f = st::load_stablehlo(text)("main");
  st::Array key = st::array(std::vector<uint32_t>{0x12345678, 0x9abcdef0, 0x0fedcba9, 0x87654321}, {4});
  st::Array x = st::array({1.f, -2.f, 3.f}, {3});
  std::vector<st::Array> direct = f(key, x);
  // jax.lax.rng_bit_generator(key, (2, 3), uint8) on CPU.
  EXPECT_EQ(direct[0].to_vector<uint32_t>(), (std::vector<uint32_t>{0x12345678, 0x9abcdef0, 0x0fedcbab, 0x87654321}));
  EXPECT_EQ(direct[1].to_vector<uint8_t>(), (std::vector<uint8_t>{0x19, 0x49, 0xe5, 0x90, 0xb9, 0x9c}));
  auto traced = st::jit([&](const st::Array& k, const st::Array& v) {
    std::vector<st::Array> r = f(k, v);
    return std::make_tuple(r[0], r[1], r[2]);
  });
  auto [k2, b2, l2] = traced(key, x);
  EXPECT_EQ(k2.to_vector<uint32_t>(), direct[0].to_vector<uint32_t>());
  EXPECT_EQ(b2.to_vector<uint8_t>(), direct[1].to_vector<uint8_t>());
  EXPECT_EQ(l2.to_vector<float>(), direct[2].to_vector<float>());
  std::string j = st::make_jaxpr([&](const st::Array& k) { return f(k, x)[2]; })(key).to_string();
  EXPECT_EQ(st::testing::count(j, "rng_bit_generator["), 2) << j;
  EXPECT_NE(j.find("bitcast_convert_type[new_dtype=float32]"), std::string::npos) << j;
  // d/dx sum(x² · m) = 2x · m, m the clipped bits as floats.
  st::Array g = st::grad([&](const st::Array& v) { return st::sum(f(key, v)[2]); })(x);
  st::Array m = st::minimum(st::abs(st::bitcast_convert_type(st::rng_bit_generator(st::rng_bit_generator(key, {2, 3}, st::u8).first, {3}).second, st::f32)), 1e-38f);
  EXPECT_EQ(g.to_vector<float>(), (2.0f * x * m).to_vector<float>());
}
