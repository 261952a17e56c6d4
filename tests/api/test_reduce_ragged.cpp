// st::reduce (jax.lax.reduce with a user combiner) and st::ragged_dot (jax.lax.ragged_dot):
// against JAX 0.10.2's values (printed by hand: ragged_dot of arange operands, reduce with a
// non-identity init, which JAX combines once), against the built-in reductions and a
// sequential fold, an order-sensitive combiner, derivatives against finite differences, jit,
// vmap, the errors.
#include <gtest/gtest.h>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::expect_relative;
using st::testing::values;

namespace {

Array f64(const std::vector<double>& v, const st::Shape& s) { return st::array(v, s, st::f64); }

TEST(Reduce, AsJaxAndAsTheBuiltins) {
  Array x = st::reshape(st::arange(0.0, 6.0, 1.0, st::f64), {2, 3});
  auto add = [](const Array& a, const Array& b) { return a + b; };
  auto mul = [](const Array& a, const Array& b) { return a * b; };
  expect_relative(st::reduce(x, Array(10.0), add, {1}), {13, 22}, 0);   // JAX: [13. 22.]
  expect_relative(st::reduce(x, Array(10.0), mul, {1}), {0, 600}, 0);   // JAX: [0. 600.]
  Array y = st::testing::sin_sequence({4, 5, 7}, 0.3, 0.2);
  for (std::vector<int> dims : {std::vector<int>{0}, {1}, {2}, {0, 2}, {0, 1, 2}, {}}) {
    st::Axes axes(dims);
    expect_relative(st::reduce(y, Array(0.0), add, dims), values(st::sum(y, axes)), 1e-14, 1e-15);
    auto mx = [](const Array& a, const Array& b) { return st::maximum(a, b); };
    expect_relative(st::reduce(y, Array(-1e300), mx, dims), values(st::max(y, axes)), 0);
  }
  // An empty reduced dimension gives the init.
  expect_relative(st::reduce(st::zeros({3, 0}, st::f64), Array(2.5), add, {1}), {2.5, 2.5, 2.5}, 0);
}

TEST(Reduce, PairsAndOrder) {
  // (value, index) pairs: the first maximum and where it is, as argmax.
  Array y = f64({0.5, 2.0, -1.0, 2.0, 1.5, 0.0, 3.0, 3.0, -2.0, 1.0, 0.5, 0.25}, {3, 4});
  Array idx = st::broadcast_to(st::arange(4, st::i32), {3, 4});
  using P = std::pair<Array, Array>;
  auto argmax_pair = [](const P& a, const P& b) {
    Array take_b = st::logical_or(b.first > a.first, st::logical_and(b.first == a.first, b.second < a.second));
    return P{st::where(take_b, b.first, a.first), st::where(take_b, b.second, a.second)};
  };
  P r = st::reduce(P{y, idx}, P{Array(-1e300), st::full({}, 1e9, st::i32)}, argmax_pair, {1});
  expect_relative(r.first, {2.0, 3.0, 1.0}, 0);
  st::testing::expect_exact(r.second, {3}, st::i32, {1, 2, 1});
  // 2x2 matrix products (four arrays): associative, not commutative; against a sequential fold.
  using M = std::array<Array, 4>;
  auto matmul2 = [](const M& a, const M& b) {
    return M{a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
  };
  const int n = 11;
  M ms{st::testing::sin_sequence({n}, 0.4, 0.1), st::testing::sin_sequence({n}, 0.7, 0.5),
       st::testing::sin_sequence({n}, 0.9, 0.3), st::testing::sin_sequence({n}, 0.2, 0.8)};
  M eye{Array(1.0), Array(0.0), Array(0.0), Array(1.0)};
  M got = st::reduce(ms, eye, matmul2, {0});
  M want{Array(1.0), Array(0.0), Array(0.0), Array(1.0)};
  for (int i = 0; i < n; ++i) want = matmul2(want, M{ms[0][i], ms[1][i], ms[2][i], ms[3][i]});
  for (int k = 0; k < 4; ++k) expect_relative(got[k], values(want[k]), 1e-13, 1e-14);
}

TEST(Reduce, TracesAndDifferentiates) {
  Array y = st::testing::sin_sequence({3, 6}, 0.3, 0.2);
  auto logsumexp_reduce = [](const Array& v) {
    // (max, Σ exp(x − max)) pairs combined stably.
    using P = std::pair<Array, Array>;
    auto comb = [](const P& a, const P& b) {
      Array m = st::maximum(a.first, b.first);
      return P{m, a.second * st::exp(a.first - m) + b.second * st::exp(b.first - m)};
    };
    P r = st::reduce(P{v, st::ones_like(v)}, P{Array(-1e300), Array(0.0)}, comb, {1});
    return r.first + st::log(r.second);
  };
  expect_relative(logsumexp_reduce(y), values(st::logsumexp(y, {1})), 1e-14, 1e-14);
  expect_relative(st::jit(logsumexp_reduce)(y), values(st::logsumexp(y, {1})), 1e-14, 1e-14);
  Array ys = st::stack({y, y * 2.0});
  expect_relative(st::vmap(logsumexp_reduce)(ys)[1], values(st::logsumexp(y * 2.0, {1})), 1e-14, 1e-14);
  st::testing::check_grads([&](const std::vector<Array>& v) { return logsumexp_reduce(v[0]); }, {y}, "reduce", 1e-6);
}

TEST(Reduce, Errors) {
  Array x = st::zeros({2, 3}, st::f64);
  auto add = [](const Array& a, const Array& b) { return a + b; };
  st::testing::expect_error([&] { st::reduce(x, Array(0.0), add, {2}); }, "reduce: dimension 2 is out of range for operands of rank 2");
  st::testing::expect_error([&] { st::reduce(x, Array(0.0), add, {1, 1}); }, "reduce: dimension 1 appears twice");
  st::testing::expect_error([&] { st::reduce(x, st::zeros({2}, st::f64), add, {1}); }, "reduce: init value 0 must be 0-d, but got f64[2]");
  st::testing::expect_error([&] { st::reduce(x, st::zeros({}, st::i32), add, {1}); }, "reduce: init value 0 is i32[], but operand 0 is f64");
  using P = std::pair<Array, Array>;
  st::testing::expect_error([&] { st::reduce(P{x, st::zeros({3}, st::f64)}, P{Array(0.0), Array(0.0)}, [](const P& a, const P&) { return a; }, {0}); },
                            "reduce: the operands must share a shape, but operand 0 is f64[2,3] and operand 1 is f64[3]");
  st::testing::expect_error([&] { st::reduce(x, Array(0.0), [](const Array& a, const Array&) { return st::astype(a, st::f32); }, {1}); },
                            "reduce: the computation's result");
}

TEST(RaggedDot, AsJax) {
  Array l = st::reshape(st::arange(0.0, 12.0, 1.0, st::f64), {6, 2});
  Array r = st::reshape(st::arange(0.0, 12.0, 1.0, st::f64), {3, 2, 2});
  Array g = st::array<int32_t>({2, 0, 3}, {3});
  // JAX: [[2 3] [6 11] [82 91] [118 131] [154 171] [0 0]].
  expect_relative(st::ragged_dot(l, r, g), {2, 3, 6, 11, 82, 91, 118, 131, 154, 171, 0, 0}, 0);
}

TEST(RaggedDot, AgainstGroupSlicesJitVmapGrad) {
  Array l = st::testing::sin_sequence({9, 4}, 0.3, 0.2), r = st::testing::sin_sequence({3, 4, 5}, 0.7, 0.4);
  Array g = st::array<int32_t>({4, 2, 3}, {3});
  Array out = st::ragged_dot(l, r, g);
  EXPECT_EQ(out.shape(), (st::Shape{9, 5}));
  const int64_t bounds[4] = {0, 4, 6, 9};
  for (int i = 0; i < 3; ++i) {
    Array rows = st::matmul(l[st::Slice(bounds[i], bounds[i + 1])], r[i]);
    expect_relative(out[st::Slice(bounds[i], bounds[i + 1])], values(rows), 1e-14, 1e-15);
  }
  expect_relative(st::jit([](const Array& a, const Array& b, const Array& s) { return st::ragged_dot(a, b, s); })(l, r, g),
                  values(out), 1e-14, 1e-15);
  Array gs = st::array<int32_t>({4, 2, 3, 1, 1, 7}, {2, 3});
  Array bat = st::vmap([&](const Array& s) { return st::ragged_dot(l, r, s); })(gs);
  expect_relative(bat[1], values(st::ragged_dot(l, r, gs[1])), 1e-14, 1e-15);
  st::testing::check_grads([&](const std::vector<Array>& v) { return st::ragged_dot(v[0], v[1], g); }, {l, r}, "ragged_dot", 1e-6);
  // preferred_element_type: computed in that type.
  EXPECT_EQ(st::ragged_dot(st::astype(l, st::f32), st::astype(r, st::f32), g, st::f64).dtype(), st::f64);
}

TEST(RaggedDot, Errors) {
  Array l = st::zeros({6, 2}, st::f64), r = st::zeros({3, 2, 2}, st::f64);
  st::testing::expect_error([&] { st::ragged_dot(st::zeros({6}, st::f64), r, st::zeros({3}, st::i32)); }, "ragged_dot: expects lhs [m, k] and rhs [g, k, n], but got f64[6] and f64[3,2,2]");
  st::testing::expect_error([&] { st::ragged_dot(st::zeros({6, 3}, st::f64), r, st::zeros({3}, st::i32)); }, "differ in the contracted dimension k");
  st::testing::expect_error([&] { st::ragged_dot(l, r, st::zeros({2}, st::i32)); }, "ragged_dot: expects group_sizes [3]");
  st::testing::expect_error([&] { st::ragged_dot(l, r, st::zeros({3}, st::f32)); }, "ragged_dot: expects integer group_sizes, but got f32[3]");
}

}  // namespace
