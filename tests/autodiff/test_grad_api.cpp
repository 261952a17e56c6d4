// The autodiff API: grad, value_and_grad, vjp, jvp over pytrees, argnums, has_aux, errors,
// stop_gradient, custom_vjp, composition (grad of grad, grad inside make_jaxpr) and what
// reverse mode keeps for the backward pass.
#include <gtest/gtest.h>

#include "jaxpr.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace mlp {
struct Params {
  Array w1, b1, w2, b2;
};
STRATA_PYTREE(Params, w1, b1, w2, b2);

Array loss(const Params& p, const Array& x, const Array& y) {
  Array h = st::tanh(st::matmul(x, p.w1) + p.b1);
  Array out = st::matmul(h, p.w2) + p.b2;
  return st::mean((out - y) * (out - y));
}
}  // namespace mlp

namespace {

using st::testing::error_message;

Array rnd(std::vector<int64_t> shape, uint64_t seed, st::DType t = st::f64) {
  return st::random::normal(st::random::key(seed), shape, t);
}

void expect_contains(const std::string& m, const std::string& part) {
  EXPECT_NE(m.find(part), std::string::npos) << m;
}

TEST(Grad, SimpleScalarFunction) {
  auto f = [](const Array& x) { return st::sum(x * x * x); };
  Array x = st::array({1.0, 2.0, -3.0}, {3});
  EXPECT_EQ(st::grad(f)(x).to_vector<double>(), (std::vector<double>{3, 12, 27}));
  auto [v, g] = st::value_and_grad(f)(x);
  EXPECT_EQ(v.item<double>(), 1 + 8 - 27);
  EXPECT_EQ(g.to_vector<double>(), (std::vector<double>{3, 12, 27}));
}

TEST(Grad, MlpOverParameterStructMatchesFiniteDifferences) {
  mlp::Params p{rnd({3, 8}, 1) * 0.5, rnd({8}, 2) * 0.1, rnd({8, 2}, 3) * 0.5, rnd({2}, 4) * 0.1};
  Array x = rnd({16, 3}, 5), y = rnd({16, 2}, 6);
  mlp::Params g = st::grad(mlp::loss)(p, x, y);
  // Each parameter's gradient, one element at a time, against central differences.
  auto leaves = st::tree_flatten(p);
  auto grads = st::tree_flatten(g);
  ASSERT_EQ(grads.size(), 4u);
  const double eps = 1e-6;
  for (size_t leaf = 0; leaf < leaves.size(); ++leaf) {
    std::vector<double> base = leaves[leaf].to_vector<double>(), gv = grads[leaf].to_vector<double>();
    ASSERT_EQ(grads[leaf].shape(), leaves[leaf].shape());
    for (size_t i = 0; i < base.size(); i += 3) {
      auto bumped = [&](double d) {
        std::vector<double> v = base;
        v[i] += d;
        std::vector<Array> l = leaves;
        l[leaf] = st::array(v, leaves[leaf].shape());
        return mlp::loss(st::tree_unflatten(p, l), x, y).item<double>();
      };
      double fd = (bumped(eps) - bumped(-eps)) / (2 * eps);
      EXPECT_NEAR(gv[i], fd, 1e-6 * std::max(1.0, std::fabs(fd))) << "leaf " << leaf << " element " << i;
    }
  }
}

TEST(Grad, ArgnumsSelectArguments) {
  auto f = [](const Array& a, const Array& b, double scale) { return st::sum(a * b) * scale; };
  Array a = st::array({1.0, 2.0}, {2}), b = st::array({3.0, 5.0}, {2});
  EXPECT_EQ(st::grad(f)(a, b, 2.0).to_vector<double>(), (std::vector<double>{6, 10}));
  EXPECT_EQ(st::grad(f, st::argnums<1>)(a, b, 2.0).to_vector<double>(), (std::vector<double>{2, 4}));
  auto [ga, gb] = st::grad(f, st::argnums<0, 1>)(a, b, 2.0);
  EXPECT_EQ(ga.to_vector<double>(), (std::vector<double>{6, 10}));
  EXPECT_EQ(gb.to_vector<double>(), (std::vector<double>{2, 4}));
}

TEST(Grad, HasAux) {
  auto f = [](const Array& x) { return std::make_pair(st::sum(x * x), st::max(x)); };
  Array x = st::array({1.0f, -4.0f}, {2});
  auto [g, aux] = st::grad(f, st::has_aux)(x);
  EXPECT_EQ(g.to_vector<float>(), (std::vector<float>{2, -8}));
  EXPECT_EQ(aux.item<float>(), 1.0f);
  auto [value, g2] = st::value_and_grad(f, st::has_aux)(x);
  EXPECT_EQ(value.first.item<float>(), 17.0f);
  EXPECT_EQ(value.second.item<float>(), 1.0f);
  EXPECT_EQ(g2.to_vector<float>(), (std::vector<float>{2, -8}));
}

TEST(Grad, Errors) {
  Array ints = st::array({1, 2}, {2});
  std::string m = error_message<st::DTypeError>([&] { st::grad([](const Array& x) { return st::sum(st::astype(x, st::f32)); })(ints); });
  expect_contains(m, "grad");
  expect_contains(m, "argument 0 has dtype i32 (i32[2])");
  m = error_message<st::DTypeError>([&] {
    st::grad([](const Array& x, const Array& n) { return st::sum(x * st::astype(n, st::f32)); }, st::argnums<1>)(st::ones({2}), ints);
  });
  expect_contains(m, "value_and_grad: argument 1 has dtype i32 (i32[2])");
  m = error_message<st::ValueError>([&] { st::grad([](const Array& x) { return x * 2.0f; })(st::ones({3})); });
  expect_contains(m, "must return a 0-d floating-point loss, but got f32[3]");
  m = error_message<st::ValueError>([&] { st::grad([](const Array& x) { return st::argmax(x); })(st::ones({3})); });
  expect_contains(m, "but got i32[]");
  // A cotangent of the wrong type for vjp.
  auto [y, f_vjp] = st::vjp([](const Array& x) { return x * 2.0f; }, st::ones({3}));
  m = error_message<st::ShapeError>([&] { f_vjp(st::ones({4})); });
  expect_contains(m, "vjp: cotangent 0 expects f32[3] (the output's type), but got f32[4]");
}

TEST(Grad, SecondAndThirdDerivatives) {
  auto f = [](const Array& x) { return st::sum(st::sin(x) * x); };
  auto g = st::grad(f);
  auto gg = st::grad([&](const Array& x) { return st::sum(g(x)); });
  auto ggg = st::grad([&](const Array& x) { return st::sum(gg(x)); });
  Array x = st::array({0.3, 1.7}, {2});
  std::vector<double> xs = {0.3, 1.7};
  for (size_t i = 0; i < 2; ++i) {
    double v = xs[i];
    EXPECT_NEAR(g(x).to_vector<double>()[i], std::cos(v) * v + std::sin(v), 1e-12);
    EXPECT_NEAR(gg(x).to_vector<double>()[i], 2 * std::cos(v) - v * std::sin(v), 1e-12);
    EXPECT_NEAR(ggg(x).to_vector<double>()[i], -3 * std::sin(v) - v * std::cos(v), 1e-12);
  }
}

TEST(Grad, ClosingOverAnOuterTracer) {
  // d/dx [ d/dy (x * y^2) at y = x ] = d/dx [2 x y]_{y=x} = d/dx 2x^2 = 4x.
  auto outer = st::grad([](const Array& x) {
    auto inner = st::grad([&](const Array& y) { return st::sum(x * y * y); });
    return st::sum(inner(x));
  });
  EXPECT_EQ(outer(st::array({1.5}, {1})).to_vector<double>(), (std::vector<double>{6.0}));
}

TEST(Grad, JvpAndVjpOverPytrees) {
  auto f = [](const std::pair<Array, Array>& p) { return std::make_tuple(p.first * p.second, st::sum(p.first)); };
  auto primal = std::make_pair(st::array({1.0, 2.0}, {2}), st::array({3.0, 4.0}, {2}));
  auto tangent = std::make_pair(st::array({1.0, 0.0}, {2}), st::array({0.0, 1.0}, {2}));
  auto [out, tout] = st::jvp(f, primal, tangent);
  EXPECT_EQ(std::get<0>(tout).to_vector<double>(), (std::vector<double>{3, 2}));
  EXPECT_EQ(std::get<1>(tout).item<double>(), 1.0);
  auto [out2, f_vjp] = st::vjp(f, primal);
  auto [ct] = f_vjp(std::make_tuple(st::array({1.0, 1.0}, {2}), st::array({10.0}, {})));
  EXPECT_EQ(ct.first.to_vector<double>(), (std::vector<double>{13, 14}));
  EXPECT_EQ(ct.second.to_vector<double>(), (std::vector<double>{1, 2}));
}

TEST(Grad, StopGradient) {
  auto f = [](const Array& x) { return st::sum(st::stop_gradient(x) * x); };
  Array x = st::array({2.0, -1.0}, {2});
  EXPECT_EQ(st::grad(f)(x).to_vector<double>(), (std::vector<double>{2, -1}));
  EXPECT_EQ(st::stop_gradient(x).to_vector<double>(), x.to_vector<double>());
}

TEST(Grad, CustomVjpStableSoftplus) {
  // log1p(exp(x)) overflows for large x; the custom rule's derivative sigmoid(x) does not.
  auto softplus = st::custom_vjp(
      [](const Array& x) { return st::log1p(st::exp(x)); },
      [](const Array& x) { return std::make_pair(st::log1p(st::exp(x)), x); },
      [](const Array& x, const Array& g) { return g * st::sigmoid(x); });
  Array x = st::array({-2.0f, 0.0f, 100.0f}, {3});
  Array g = st::grad([&](const Array& v) { return st::sum(softplus(v)); })(x);
  std::vector<float> gv = g.to_vector<float>();
  EXPECT_NEAR(gv[0], 1.0 / (1.0 + std::exp(2.0)), 1e-6);
  EXPECT_NEAR(gv[1], 0.5, 1e-6);
  EXPECT_EQ(gv[2], 1.0f);  // plain autodiff gives exp(100)/(1+exp(100)) = inf/inf = nan in f32
  Array plain = st::grad([](const Array& v) { return st::sum(st::log1p(st::exp(v))); })(x);
  EXPECT_TRUE(std::isnan(plain.to_vector<float>()[2]));
  // The forward value is f's, and the function traces (custom_vjp_call in the jaxpr).
  EXPECT_NEAR(softplus(x).to_vector<float>()[1], std::log(2.0), 1e-6);
  st::Jaxpr j = st::make_jaxpr([&](const Array& v) { return softplus(v); })(x);
  EXPECT_EQ(j.primitive_names(), std::vector<std::string>{"custom_vjp_call"});
  // Forward mode is refused with a clear message.
  std::string m = error_message<st::Error>([&] { st::jvp([&](const Array& v) { return softplus(v); }, x, x); });
  expect_contains(m, "custom_vjp");
}

// Under reverse mode only fwd runs (as in JAX): its outputs are the function's value, so fun is
// not computed as well; a plain call runs fun alone.
TEST(Grad, CustomVjpRunsFwdNotFunUnderGrad) {
  int fun_runs = 0, fwd_runs = 0;
  auto f = st::custom_vjp(
      [&](const Array& x) {
        st::debug::callback([&](const Array&) { ++fun_runs; }, x);
        return st::sin(x);
      },
      [&](const Array& x) {
        st::debug::callback([&](const Array&) { ++fwd_runs; }, x);
        return std::make_pair(st::sin(x), st::cos(x));
      },
      [](const Array& c, const Array& g) { return g * c; });
  Array x = st::array({0.3, 1.1}, {2}, st::f64);
  auto loss = [&](const Array& v) { return st::sum(f(v) * v); };
  for (bool jitted : {false, true}) {
    fun_runs = fwd_runs = 0;
    auto [value, g] = jitted ? st::jit(st::value_and_grad(loss))(x) : st::value_and_grad(loss)(x);
    EXPECT_EQ(fun_runs, 0);
    EXPECT_EQ(fwd_runs, 1);
    EXPECT_NEAR(value.item<double>(), std::sin(0.3) * 0.3 + std::sin(1.1) * 1.1, 1e-15);
    std::vector<double> gv = g.to_vector<double>();
    EXPECT_NEAR(gv[0], std::cos(0.3) * 0.3 + std::sin(0.3), 1e-15);
  }
  fun_runs = fwd_runs = 0;
  f(x);
  EXPECT_EQ(fun_runs, 1);
  EXPECT_EQ(fwd_runs, 0);
}

// custom_jvp under reverse mode: the rule's primal part gives the value (fun is not computed),
// its tangent part is transposed (as JAX linearizes the rule).
TEST(Grad, CustomJvpRunsTheRuleNotFunUnderGrad) {
  int fun_runs = 0, rule_runs = 0;
  auto f = st::custom_jvp(
      [&](const Array& x) {
        st::debug::callback([&](const Array&) { ++fun_runs; }, x);
        return st::sin(x);
      },
      [&](const Array& x, const Array& t) {
        st::debug::callback([&](const Array&) { ++rule_runs; }, x);
        return std::make_pair(st::sin(x), st::cos(x) * t);
      });
  Array x = st::array({0.3, 1.1}, {2}, st::f64);
  auto loss = [&](const Array& v) { return st::sum(f(v) * v); };
  for (bool jitted : {false, true}) {
    fun_runs = rule_runs = 0;
    auto [value, g] = jitted ? st::jit(st::value_and_grad(loss))(x) : st::value_and_grad(loss)(x);
    EXPECT_EQ(fun_runs, 0);
    EXPECT_EQ(rule_runs, 1);
    EXPECT_NEAR(value.item<double>(), std::sin(0.3) * 0.3 + std::sin(1.1) * 1.1, 1e-15);
    std::vector<double> gv = g.to_vector<double>();
    EXPECT_NEAR(gv[1], std::cos(1.1) * 1.1 + std::sin(1.1), 1e-15);
  }
  // Second order through the transposed rule: d²/dx² sum(sin x · x) = 2 cos x − x sin x.
  Array h = st::grad([&](const Array& v) { return st::sum(st::grad(loss)(v)); })(x);
  std::vector<double> hv = h.to_vector<double>();
  EXPECT_NEAR(hv[0], 2 * std::cos(0.3) - 0.3 * std::sin(0.3), 1e-12);
}

TEST(Grad, MakeJaxprOfGradPrintsTheBackwardProgram) {
  auto loss = [](const Array& x, const Array& w, const Array& b) { return st::sum(st::relu(st::matmul(x, w) + b)); };
  Array x = st::zeros({4, 8}), w = st::zeros({8, 16}), b = st::zeros({16});
  st::Jaxpr j = st::make_jaxpr(st::grad(loss, st::argnums<1, 2>))(x, w, b);
  std::vector<std::string> names = j.primitive_names();
  // Forward (dot, broadcast, add, max), then the backward: a dot for dW, a reduce_sum for db.
  EXPECT_EQ(names.front(), "dot_general");
  EXPECT_EQ(std::count(names.begin(), names.end(), "dot_general"), 2) << j;
  EXPECT_NE(std::find(names.begin(), names.end(), "reduce_sum"), names.end()) << j;
  EXPECT_EQ(j.num_outputs(), 2);
  // The program evaluates to the same gradients as eager grad.
  Array xr = rnd({4, 8}, 1, st::f32), wr = rnd({8, 16}, 2, st::f32), br = rnd({16}, 3, st::f32);
  auto [gw, gb] = st::grad(loss, st::argnums<1, 2>)(xr, wr, br);
  std::vector<Array> via = st::eval_jaxpr(j, {xr, wr, br});
  EXPECT_EQ(via[0].to_vector<float>(), gw.to_vector<float>());
  EXPECT_EQ(via[1].to_vector<float>(), gb.to_vector<float>());
}

TEST(Grad, ReverseModeKeepsOnlyWhatTheBackwardPassReads) {
  auto residuals = [](auto f, std::vector<Array> args) {
    st::Jaxpr j = st::make_jaxpr(f)(args);
    auto r = st::detail::vjp_jaxpr(j, args, std::vector<bool>(args.size(), true), 1, "test");
    std::vector<std::string> types = st::detail::residual_types(*r.backward);
    std::sort(types.begin(), types.end());
    return types;
  };
  using Strs = std::vector<std::string>;
  Array x = rnd({5}, 9), y = rnd({5}, 10);
  // add's rule reads nothing.
  EXPECT_EQ(residuals([](const std::vector<Array>& v) { return st::sum(v[0] + v[1]); }, {x, y}), Strs{});
  // exp's rule reads its output: exp(x) is kept, x is not.
  EXPECT_EQ(residuals([](const std::vector<Array>& v) { return st::sum(st::exp(v[0]) + 1.0); }, {x}), Strs{"f64[5]"});
  // The seed line: matmul's rule reads both inputs; relu's (clamp(0, x, inf), for its
  // derivative 0 at 0) keeps its pass-through mask and the zeros it selects.
  Array a = rnd({4, 8}, 11), w = rnd({8, 16}, 12), b = rnd({16}, 13);
  EXPECT_EQ(residuals([](const std::vector<Array>& v) { return st::sum(st::relu(st::matmul(v[0], v[1]) + v[2])); }, {a, w, b}),
            (Strs{"bool[4,16]", "f64[4,16]", "f64[4,8]", "f64[8,16]"}));
}

}  // namespace
