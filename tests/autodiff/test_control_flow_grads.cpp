// Derivatives through control flow: jvp against central finite differences and vjp against
// jvp (check_grads) for cond, switch_, scan, fori_loop (static), while_loop (forward only);
// grad through while_loop raises JAX's error.
#include <gtest/gtest.h>

#include "check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::check_grads;
using V = std::vector<Array>;

namespace {

Array f64s(std::vector<double> v, st::Shape s) { return st::array(v, s, st::f64); }

TEST(ControlFlowGrads, Cond) {
  Array x = f64s({0.3, -1.2, 2.0}, {3}), w = f64s({0.5, 1.5, -0.7}, {3});
  for (double sign : {1.0, -1.0}) {
    check_grads([sign](const V& v) {
      return st::cond(st::sum(v[0]) * sign > 0.0,
                      [&](const Array& a, const Array& b) { return st::sin(a) * b; },
                      [&](const Array& a, const Array& b) { return st::exp(a) + b * b; }, v[0], v[1]);
    }, {x, w}, sign > 0 ? "cond true" : "cond false");
  }
  // A branch that reads a value captured from the enclosing function.
  check_grads([](const V& v) {
    return st::cond(st::full({}, 1, st::bool_), [&](const Array& a) { return a * v[1]; }, [&](const Array& a) { return a; }, v[0]);
  }, {x, w}, "cond with a captured value");
}

TEST(ControlFlowGrads, Switch) {
  Array x = f64s({0.3, -1.2}, {2});
  for (int k = 0; k < 3; ++k)
    check_grads([k](const V& v) {
      return st::switch_(st::full({}, k, st::i32),
                         std::tuple{[](const Array& a) { return st::tanh(a); }, [](const Array& a) { return a * a * a; },
                                    [](const Array& a) { return st::sum(a) * a; }},
                         v[0]);
    }, {x}, "switch branch " + std::to_string(k));
}

TEST(ControlFlowGrads, Scan) {
  Array xs = f64s({0.1, 0.4, -0.3, 0.8, 0.5, -0.2}, {3, 2}), c0 = f64s({0.2, -0.1}, {2}), w = f64s({0.9, 1.1}, {2});
  for (bool reverse : {false, true}) {
    auto f = [reverse](const V& v) {
      auto [c, ys] = st::scan([&](const Array& c, const Array& x) {
        Array n = st::tanh(c * v[2] + x);
        return std::make_pair(n, st::sin(n) * c);
      }, v[0], v[1], {.reverse = reverse});
      return st::concatenate({c, st::reshape(ys, {6})}, 0);
    };
    check_grads(f, {c0, xs, w}, reverse ? "scan reverse" : "scan");
  }
  // Remat: the same derivatives, recomputing each step.
  check_grads([](const V& v) {
    auto body = st::checkpoint([&](const Array& c, const Array& x) {
      Array n = st::tanh(c * v[2] + x);
      return std::make_pair(n, st::sin(n) * c);
    });
    auto [c, ys] = st::scan(body, v[0], v[1]);
    return st::concatenate({c, st::reshape(ys, {6})}, 0);
  }, {c0, xs, w}, "scan with checkpoint");
  // Zero steps: the carry passes through.
  check_grads([](const V& v) {
    return st::scan([](const Array& c, const std::tuple<>&) { return std::make_pair(c * 2.0, c); }, v[0], std::tuple<>{},
                    {.length = 0}).first;
  }, {c0}, "scan of length 0");
}

// Reverse mode runs the forward scan once: the scan that keeps each step's residuals also gives
// the outputs (Primitive::vjp_split), so value_and_grad's program holds that scan and the
// backward one — not the primal scan as well. With checkpoint, the carry-saving scan likewise.
TEST(ControlFlowGrads, ScanForwardRunsOnce) {
  for (bool remat : {false, true}) {
    auto f = [remat](const Array& x) {
      auto step = [](const Array& c, const Array& xi) { return std::make_pair(st::sin(c) * xi, c * c); };
      auto [c, ys] = remat ? st::scan(st::checkpoint(step), x, st::full({5}, 1.5, st::f64))
                           : st::scan(step, x, st::full({5}, 1.5, st::f64));
      return c + st::sum(ys);
    };
    st::Jaxpr j = st::make_jaxpr(st::value_and_grad(f))(Array(0.5));
    int scans = 0;
    for (const std::string& name : j.primitive_names()) scans += name == "scan";
    EXPECT_EQ(scans, 2) << j;
    check_grads([&](const V& v) { return f(v[0]); }, {Array(0.5)}, remat ? "scan, checkpoint" : "scan");
    auto [value, g] = st::jit(st::value_and_grad(f))(Array(0.5));
    EXPECT_NEAR(value.item<double>(), f(Array(0.5)).item<double>(), 1e-15);
    EXPECT_NEAR(g.item<double>(), st::grad(f)(Array(0.5)).item<double>(), 1e-14);
  }
}

// cond's reverse mode too: the forward cond also returns each branch's residuals (zeros in the
// other branch's slots), so the backward cond does not recompute the branch: value_and_grad's
// program holds one sin (the forward's) and cos only where the forward computes residuals.
TEST(ControlFlowGrads, CondForwardRunsOnce) {
  auto f = [](const Array& x) {
    return st::cond(st::sum(x) > 0.0, [](const Array& v) { return st::sum(st::sin(v) * v); },
                    [](const Array& v) { return st::sum(st::exp(v)); }, x);
  };
  Array x = f64s({0.3, 0.7}, {2});
  st::Jaxpr j = st::make_jaxpr(st::value_and_grad(f))(x);
  std::string text = j.to_string();
  auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count(" sin "), 1u) << text;
  EXPECT_EQ(count(" exp "), 1u) << text;
  int conds = 0;
  for (const std::string& name : j.primitive_names()) conds += name == "cond";
  EXPECT_EQ(conds, 2) << text;
  for (double sign : {1.0, -1.0}) {
    Array xs = x * sign;
    check_grads([&](const V& v) { return f(v[0]); }, {xs}, sign > 0 ? "cond, sin branch" : "cond, exp branch");
    auto [value, g] = st::jit(st::value_and_grad(f))(xs);
    EXPECT_NEAR(value.item<double>(), f(xs).item<double>(), 1e-15);
    st::testing::expect_relative(g, st::testing::values(st::grad(f)(xs)), 1e-15);
  }
}

TEST(ControlFlowGrads, ForiLoopStatic) {
  Array x = f64s({0.5, -0.4}, {2});
  check_grads([](const V& v) {
    return st::fori_loop(0, 5, [&](const Array& i, const Array& c) { return st::sin(c) * v[1] + st::astype(i, st::f64); }, v[0]);
  }, {x, f64s({1.3, 0.7}, {2})}, "fori_loop");
  Array g = st::grad([](const Array& a) { return st::sum(st::fori_loop(0, 3, [](const Array&, const Array& c) { return c * c; }, a)); })(
      f64s({1.1}, {1}));
  EXPECT_NEAR(g.item<double>(), 8 * std::pow(1.1, 7), 1e-9);  // d/da a^8
}

TEST(ControlFlowGrads, WhileLoopForwardModeAndReverseError) {
  Array x = f64s({0.5, 1.5}, {2});
  auto f = [](const Array& a) {
    return st::while_loop([](const std::pair<Array, Array>& c) { return c.first < 4; },
                          [](const std::pair<Array, Array>& c) { return std::make_pair(c.first + 1, st::sin(c.second) + c.second); },
                          std::make_pair(st::full({}, 0, st::i32), a)).second;
  };
  auto [y, t] = st::jvp(f, x, st::ones_like(x));
  const double eps = 1e-6;
  std::vector<double> fd = ((f(x + eps) - f(x - eps)) / (2 * eps)).to_vector<double>(), tv = t.to_vector<double>();
  for (size_t i = 0; i < fd.size(); ++i) EXPECT_NEAR(tv[i], fd[i], 1e-6);
  std::string m = st::testing::error_message<st::ValueError>([&] { st::grad([&](const Array& a) { return st::sum(f(a)); })(x); });
  st::testing::expect_contains(m, "Reverse-mode differentiation does not work for lax.while_loop");
}

}  // namespace
