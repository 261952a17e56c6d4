// strata/lax_utils.h (jax.lax's conveniences): lax.pad, select_n, collapse and reduce_xor /
// reduce_and against JAX 0.10.2's values (printed by hand), map with and without batch_size
// against a direct computation (jit, grad), the *_in_dim helpers against slicing, sort_key_val,
// batch_matmul, approx_max_k / approx_min_k against top_k, the errors.
#include <gtest/gtest.h>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::expect_exact;
using st::testing::expect_relative;
using st::testing::values;

namespace {

TEST(LaxUtils, AsJax) {
  Array x = st::reshape(st::arange(1.0, 7.0, 1.0, st::f64), {2, 3});
  // lax.pad(x, -1., [(1, -1, 1), (0, 2, 2)]).
  expect_exact(st::pad(x, Array(-1.0), {{1, -1, 1}, {0, 2, 2}}), {3, 9}, st::f64,
               {-1, -1, -1, -1, -1, -1, -1, -1, -1, 1, -1, -1, 2, -1, -1, 3, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1});
  Array which = st::array<int32_t>({0, 2, 1, 2}, {4});
  expect_exact(st::select_n(which, {st::zeros({4}, st::f64), st::ones({4}, st::f64), st::full({4}, 2.0, st::f64)}), {4},
               st::f64, {0, 2, 1, 2});
  EXPECT_EQ(st::collapse(st::zeros({2, 3, 4, 5}), 1, 3).shape(), (st::Shape{2, 12, 5}));
  EXPECT_EQ(st::collapse(st::zeros({2, 3, 4, 5}), 1).shape(), (st::Shape{2, 60}));
  Array bits = st::array<int32_t>({5, 3, 1, 7, 7, 2}, {2, 3});
  expect_exact(st::reduce_xor(bits, {1}), {2}, st::i32, {7, 2});
  expect_exact(st::reduce_and(bits, {0}), {3}, st::i32, {5, 3, 0});
  expect_exact(st::reduce_or(bits, {1}), {2}, st::i32, {7, 7});
  Array flags = st::array<bool>({true, false, true, true}, {2, 2});
  expect_exact(st::reduce_and(flags, {1}), {2}, st::bool_, {0, 1});
  expect_exact(st::reduce_xor(flags, {0, 1}), {}, st::bool_, {1});
  // lax.map(lambda v: v * 2 + 1, arange(7.), batch_size=3).
  auto f = [](const Array& v) { return v * 2.0 + 1.0; };
  expect_exact(st::map(f, st::arange(0.0, 7.0, 1.0, st::f64), 3), {7}, st::f64, {1, 3, 5, 7, 9, 11, 13});
}

TEST(LaxUtils, MapTracesAndDifferentiates) {
  Array xs = st::testing::sin_sequence({10, 3}, 0.3, 0.2);
  auto f = [](const Array& row) { return std::make_pair(st::sum(st::sin(row)), row * row); };
  Array want_a = st::sum(st::sin(xs), {1}), want_b = xs * xs;
  for (std::optional<int64_t> bs : {std::optional<int64_t>{}, std::optional<int64_t>{1}, std::optional<int64_t>{4},
                                    std::optional<int64_t>{5}, std::optional<int64_t>{32}}) {
    auto [a, b] = st::map(f, xs, bs);
    expect_relative(a, values(want_a), 1e-15, 1e-15);
    expect_relative(b, values(want_b), 1e-15, 1e-15);
  }
  auto loss = [&](const Array& v) { return st::sum(st::map([](const Array& r) { return st::exp(r) * r; }, v, 4)); };
  expect_relative(st::jit(loss)(xs), {loss(xs).item<double>()}, 1e-14);
  Array g = st::grad(loss)(xs);
  expect_relative(g, values(st::exp(xs) * (xs + 1.0)), 1e-14, 1e-15);
  // A pytree of xs.
  auto [s] = std::make_tuple(st::map([](const std::pair<Array, Array>& p) { return p.first + p.second; },
                                     std::make_pair(xs, xs * 2.0), 3));
  expect_relative(s, values(xs * 3.0), 1e-15, 1e-15);
}

TEST(LaxUtils, SlicingHelpers) {
  Array x = st::reshape(st::arange(0.0, 24.0, 1.0, st::f64), {2, 3, 4});
  expect_exact(st::slice_in_dim(x, 1, 4, 2, 2), {2, 3, 2}, st::f64, values(x[{st::all(), st::all(), st::Slice(1, 4, 2)}]));
  EXPECT_EQ(st::index_in_dim(x, -1, 1).shape(), (st::Shape{2, 1, 4}));
  expect_exact(st::index_in_dim(x, 2, 1, false), {2, 4}, st::f64, values(x[{st::all(), 2}]));
  Array i = st::full({}, 1.0, st::i32);
  expect_exact(st::dynamic_slice_in_dim(x, i, 2, 2), {2, 3, 2}, st::f64, values(x[{st::all(), st::all(), st::Slice(1, 3)}]));
  expect_exact(st::dynamic_index_in_dim(x, i, 0, false), {3, 4}, st::f64, values(x[1]));
  Array up = st::dynamic_update_index_in_dim(x, st::zeros({2, 4}, st::f64), i, 1);
  expect_exact(up[{st::all(), 1}], {2, 4}, st::f64, std::vector<double>(8, 0.0));
  expect_exact(up[{st::all(), 0}], {2, 4}, st::f64, values(x[{st::all(), 0}]));
  Array up2 = st::dynamic_update_slice_in_dim(x, st::ones({2, 3, 2}, st::f64), i, 2);
  expect_exact(up2[{0, 0}], {4}, st::f64, {0, 1, 1, 3});
  expect_exact(st::broadcasted_iota(st::i32, {2, 3}, 1), {2, 3}, st::i32, {0, 1, 2, 0, 1, 2});
  // Under jit with a traced start.
  auto dyn = st::jit([](const Array& v, const Array& s) { return st::dynamic_index_in_dim(v, s, 2, false); });
  expect_exact(dyn(x, i), {2, 3}, st::f64, values(x[{st::all(), st::all(), 1}]));
}

TEST(LaxUtils, SortMatmulTopK) {
  Array keys = st::array(std::vector<double>{3, 1, 2, 1}, {4}, st::f64), vals = st::array<int32_t>({0, 1, 2, 3}, {4});
  auto [k, v] = st::sort_key_val(keys, vals);
  expect_exact(k, {4}, st::f64, {1, 1, 2, 3});
  expect_exact(v, {4}, st::i32, {1, 3, 2, 0});
  Array a = st::testing::sin_sequence({2, 3, 4}, 0.3, 0.1), b = st::testing::sin_sequence({2, 4, 5}, 0.7, 0.2);
  expect_relative(st::batch_matmul(a, b), values(st::matmul(a, b)), 1e-15, 1e-15);
  Array x = st::testing::sin_sequence({3, 6}, 0.9, 0.4);
  auto [mx, mi] = st::approx_max_k(x, 2);
  auto [tx, ti] = st::top_k(x, 2);
  expect_exact(mx, {3, 2}, st::f64, values(tx));
  expect_exact(mi, {3, 2}, st::i32, values(ti));
  auto [nx, ni] = st::approx_min_k(x, 2, 0);
  auto [tn, tni] = st::top_k(-st::transpose(x), 2);
  expect_exact(nx, {2, 6}, st::f64, values(st::transpose(-tn)));
  expect_exact(ni, {2, 6}, st::i32, values(st::transpose(tni)));
}

TEST(LaxUtils, Errors) {
  Array x = st::zeros({2, 3}, st::f64);
  st::testing::expect_error([&] { st::select_n(st::zeros({2}, st::i32), {x, x}); }, "select_n: which must be 0-d or of the cases' shape f64[2,3], but got i32[2]");
  st::testing::expect_error([&] { st::select_n(st::zeros({}, st::bool_), {x, x, x}); }, "select_n: a bool which selects between at most 2 cases");
  st::testing::expect_error([&] { st::select_n(st::zeros({}, st::i32), {x, st::zeros({2, 3}, st::f32)}); }, "select_n: the cases must share a shape and dtype");
  st::testing::expect_error([&] { st::pad(x, Array(0.0), {{1, 1, 0}}); }, "pad: expects one (low, high, interior) per dimension of f64[2,3], but got 1");
  st::testing::expect_error([&] { st::pad(x, Array(0.0), {{1, 1, -1}, {0, 0, 0}}); }, "pad: interior padding must be non-negative");
  st::testing::expect_error([&] { st::collapse(x, 1, 0); }, "collapse: dimensions [1, 0) are not a range of rank 2");
  st::testing::expect_error([&] { st::batch_matmul(x, st::zeros({3, 3, 2}, st::f64)); }, "batch_matmul: expects operands of equal rank >= 2");
  st::testing::expect_error([&] { st::reduce_and(x, {0}); }, "reduce_and: expects a bool or integer array, but got f64[2,3]");
  st::testing::expect_error([&] { st::index_in_dim(x, 3, 1); }, "index_in_dim: index 3 is out of bounds for axis 1 of size 3");
  st::testing::expect_error([&] { st::slice_in_dim(x, 0, 1, 1, 2); }, "slice_in_dim: axis 2 is out of range for f64[2,3] (rank 2)");
  st::testing::expect_error([&] { st::map([](const std::pair<Array, Array>& p) { return p.first; }, std::make_pair(x, st::zeros({3}, st::f64))); }, "map: every leaf of xs needs the same leading axis");
  st::testing::expect_error([&] { st::map([](const Array& v) { return v; }, x, 0); }, "map: batch_size must be at least 1, but got 0");
}

}  // namespace
