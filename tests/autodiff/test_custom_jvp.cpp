// st::custom_jvp (jax.custom_jvp): the user's forward rule is what jvp/jacfwd use, and what
// grad/vjp/jacrev transpose; values are f's; composes with jit, vmap and second derivatives.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "check_grads.h"
#include "strata/strata.h"

namespace st = strata;
using st::Array;

namespace {

Array vec(std::vector<double> v) {
  int64_t n = static_cast<int64_t>(v.size());
  return st::array(std::move(v), {n});
}

void expect_values(const Array& got, const std::vector<double>& want, double tol, const std::string& what) {
  std::vector<double> g = st::astype(got, st::f64).to_vector<double>();
  ASSERT_EQ(g.size(), want.size()) << what;
  for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], want[i], tol * std::max(1.0, std::fabs(want[i]))) << what << " " << i;
}

}  // namespace

// A rule that is deliberately not f's derivative shows which one each transform uses.
TEST(CustomJvp, EveryModeUsesTheRule) {
  auto f = st::custom_jvp([](const Array& x) { return st::sin(x); },
                          [](const Array& x, const Array& t) { return std::make_pair(st::sin(x), t * 3.0); });
  Array x = vec({0.1, 0.7, -1.2});
  expect_values(f(x), {std::sin(0.1), std::sin(0.7), std::sin(-1.2)}, 1e-15, "value");
  auto [y, ty] = st::jvp(f, x, vec({1, 2, 3}));
  expect_values(ty, {3, 6, 9}, 1e-15, "jvp");
  auto loss = [&](const Array& a) { return st::sum(f(a)); };
  expect_values(st::grad(loss)(x), {3, 3, 3}, 1e-15, "grad (the rule transposed)");
  expect_values(st::jit(st::grad(loss))(x), {3, 3, 3}, 1e-15, "jit(grad)");
  expect_values(st::grad(st::jit(loss))(x), {3, 3, 3}, 1e-15, "grad(jit)");
  expect_values(st::reshape(st::jacfwd(f)(x), {9}), {3, 0, 0, 0, 3, 0, 0, 0, 3}, 1e-15, "jacfwd");
  expect_values(st::reshape(st::jacrev(f)(x), {9}), {3, 0, 0, 0, 3, 0, 0, 0, 3}, 1e-15, "jacrev");
  Array xs = st::reshape(vec({0.1, 0.2, 0.3, 0.4, 0.5, 0.6}), {2, 3});
  expect_values(st::reshape(st::vmap(st::grad(loss))(xs), {6}), {3, 3, 3, 3, 3, 3}, 1e-15, "vmap(grad)");
  expect_values(st::vmap(f)(xs)[1], {std::sin(0.4), std::sin(0.5), std::sin(0.6)}, 1e-15, "vmap value");
  st::Jaxpr j = st::make_jaxpr(f)(x);
  EXPECT_EQ(j.primitive_names(), std::vector<std::string>{"custom_jvp_call"}) << j;
  expect_values(st::jit(f)(x), {std::sin(0.1), std::sin(0.7), std::sin(-1.2)}, 1e-15, "jit value");
}

// The reason to write one: log(1 + eˣ) differentiated naively is inf/inf = nan in f32 at x = 100.
TEST(CustomJvp, StableRuleWhereTheNaiveDerivativeFails) {
  auto naive = [](const Array& x) { return st::log1p(st::exp(x)); };
  auto stable = st::custom_jvp(naive, [](const Array& x, const Array& t) {
    return std::make_pair(st::log1p(st::exp(x)), t * st::sigmoid(x));
  });
  Array x = st::array(std::vector<float>{100.0f, 0.0f, -5.0f}, {3});
  auto g_naive = st::grad([&](const Array& a) { return st::sum(naive(a)); })(x);
  EXPECT_TRUE(std::isnan(g_naive.to_vector<float>()[0]));
  auto g = st::grad([&](const Array& a) { return st::sum(stable(a)); })(x);
  EXPECT_EQ(g.dtype(), st::f32);
  expect_values(g, {1.0, 0.5, 1.0 / (1.0 + std::exp(5.0))}, 1e-6, "stable grad");
}

// A correct rule over two arguments and a pair of outputs passes check_grads; second
// derivatives differentiate the rule itself (grad of grad).
TEST(CustomJvp, SeveralArgumentsOutputsAndSecondOrder) {
  auto f = st::custom_jvp(
      [](const Array& x, const Array& y) { return std::make_pair(x * y, st::sin(x)); },
      [](const Array& x, const Array& y, const Array& tx, const Array& ty) {
        return std::make_pair(std::make_pair(x * y, st::sin(x)), std::make_pair(tx * y + x * ty, tx * st::cos(x)));
      });
  st::testing::check_grads([&](const std::vector<Array>& v) {
    auto [a, b] = f(v[0], v[1]);
    return st::concatenate({a, b * a});
  }, {vec({0.3, -0.8, 1.4}), vec({1.1, 0.2, -0.6})}, "pair");
  auto g = [&](const Array& x) { return st::sum(f(x, x).second); };  // Σ sin x
  Array x = vec({0.4, -1.0});
  expect_values(st::grad(st::grad(g))(st::full({}, 0.4, st::f64)), {-std::sin(0.4)}, 1e-14, "grad(grad)");
  expect_values(st::grad(g)(x), {std::cos(0.4), std::cos(-1.0)}, 1e-14, "grad");
}

// Non-float arguments get zero tangents (no cotangent); a rule of the wrong type is named.
TEST(CustomJvp, IntegerArgumentsAndBadRules) {
  auto scale = st::custom_jvp(
      [](const Array& x, const Array& n) { return x * st::astype(n, st::f64); },
      [](const Array& x, const Array& n, const Array& tx, const Array&) {
        return std::make_pair(x * st::astype(n, st::f64), tx * st::astype(n, st::f64));
      });
  Array n = st::full({}, 4, st::i32);
  expect_values(st::grad([&](const Array& x) { return st::sum(scale(x, n)); })(vec({1, 2})), {4, 4}, 1e-15, "int arg");
  auto bad = st::custom_jvp([](const Array& x) { return x * 2.0; },
                            [](const Array& x, const Array& t) { return std::make_pair(x * 2.0, st::sum(t)); });
  std::string m;
  try {
    (void)bad(vec({1, 2}));
  } catch (const st::ShapeError& e) {
    m = e.what();
  }
  EXPECT_NE(m.find("custom_jvp: the jvp rule's tangent 0 is f64[]"), std::string::npos) << m;
  EXPECT_NE(m.find("f64[2]"), std::string::npos) << m;
}

// linearize (jax.linearize): the JVP's linear part, run per tangent; linear_transpose
// (jax.linear_transpose): the transpose of a linear function, complex ones included.
TEST(Linearize, EqualsJvpAndTransposeEqualsVjp) {
  auto f = [](const Array& x, const Array& w) { return std::make_pair(st::tanh(st::matmul(w, x)), st::sum(x * x)); };
  Array x = vec({0.3, -0.5, 0.9}), w = st::reshape(vec({0.1, 0.2, 0.3, -0.4, 0.5, -0.6}), {2, 3});
  auto [y, f_jvp] = st::linearize(f, x, w);
  expect_values(y.first, st::testing::flat_parts(f(x, w).first), 1e-15, "value");
  for (uint64_t seed : {1, 2}) {
    Array tx = st::testing::random_normal_like(x, seed), tw = st::testing::random_normal_like(w, seed + 10);
    auto lin = f_jvp(tx, tw);
    auto want = st::jvp([&](const Array& a, const Array& b) { return f(a, b); }, std::make_tuple(x, w), std::make_tuple(tx, tw)).second;
    expect_values(lin.first, st::testing::flat_parts(want.first), 1e-14, "linearized tangent");
    expect_values(lin.second, {want.second.item<double>()}, 1e-14, "linearized tangent (sum)");
  }
  // linear_transpose of a linear map (complex): <c, A t> = <Aᵀ c, t> with the bilinear pairing.
  Array a = st::complex(st::reshape(vec({1, 2, 3, 4, 5, 6}), {2, 3}), st::reshape(vec({0.5, -1, 0, 2, 1, -0.5}), {2, 3}));
  auto lin_map = [&](const Array& v) { return st::matmul(a, v) + st::conj(v)[{st::Slice(0, 2)}]; };
  Array v = st::testing::random_normal_like(st::astype(vec({0, 0, 0}), st::c128), 3);
  Array c = st::testing::random_normal_like(st::astype(vec({0, 0}), st::c128), 4);
  auto f_t = st::linear_transpose(lin_map, v);
  Array g = std::get<0>(f_t(c));
  EXPECT_EQ(g.dtype(), st::c128);
  EXPECT_NEAR(st::testing::pairing(c, lin_map(v)), st::testing::pairing(g, v), 1e-12);
  // Equal to the VJP (the map is linear).
  auto [unused, pullback] = st::vjp(lin_map, v);
  expect_values(st::real(g), st::testing::flat_parts(st::real(std::get<0>(pullback(c)))), 1e-14, "transpose = vjp");
  expect_values(st::imag(g), st::testing::flat_parts(st::imag(std::get<0>(pullback(c)))), 1e-14, "transpose = vjp (imag)");
}
