// x[i], x[{i, j}], slices with steps and negative indices, integer-array indices, and JAX's
// functional updates x.at(idx).set/add/mul/min/max (strata/indexing.h), against plain loops
// and NumPy's rules; jit ≡ eager; gradients through indexing and .at().
#include <gtest/gtest.h>

#include "autodiff/check_grads.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::Slice;
using namespace st::testing;

namespace {

Array grid() { return st::reshape(st::arange(0.0, 24.0, 1.0, st::f32), {4, 6}); }  // x[r, c] = 6r + c

TEST(IndexApi, IntegersDropAxesAndCountFromTheEnd) {
  Array x = grid();
  expect_exact(x[1], {6}, st::f32, {6, 7, 8, 9, 10, 11});
  expect_exact(x[-1], {6}, st::f32, {18, 19, 20, 21, 22, 23});
  expect_exact(x[{2, -2}], {}, st::f32, {16});
  expect_contains(error_message<st::ValueError>([&] { (void)x[4]; }), "index: index 4 is out of bounds for axis 0 with size 4");
  expect_contains(error_message<st::ValueError>([&] { (void)x[{0, 0, 0}]; }), "index: got 3 indices for f32[4,6]");
}

// NumPy's slice rules, checked against Python's own results for these cases.
TEST(IndexApi, SlicesWithStepsAndNegativeIndices) {
  Array x = grid();
  expect_exact(x[{st::all(), Slice(1, st::none, 2)}], {4, 3}, st::f32, {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23});
  expect_exact(x[{Slice(1, -1), Slice(-2)}], {2, 2}, st::f32, {10, 11, 16, 17});
  expect_exact(x[{0, Slice(st::none, st::none, -1)}], {6}, st::f32, {5, 4, 3, 2, 1, 0});
  expect_exact(x[{0, Slice(4, 0, -2)}], {2}, st::f32, {4, 2});        // x[0, 4:0:-2]
  expect_exact(x[{0, Slice(-1, -7, -3)}], {2}, st::f32, {5, 2});      // x[0, -1:-7:-3]
  expect_exact(x[{Slice(10, 20), 0}], {0}, st::f32, {});              // past the end: empty
  expect_exact(x[{Slice(st::none, st::none, -3), 1}], {2}, st::f32, {19, 1});
}

TEST(IndexApi, IntegerArrayIndicesGather) {
  Array x = grid();
  Array i = st::astype(st::array(std::vector<double>{3, -1, 0, 7}, {2, 2}, st::f64), st::i32);
  // x[i]: rows 3, 3 (-1 wraps), 0, 3 (7 clamps): shape [2, 2, 6].
  std::vector<double> want;
  for (int r : {3, 3, 0, 3})
    for (int c = 0; c < 6; ++c) want.push_back(6 * r + c);
  expect_exact(x[i], {2, 2, 6}, st::f32, want);
  // x[:, i]
  Array cols = x[{st::all(), i}];
  EXPECT_EQ(cols.shape(), (st::Shape{4, 2, 2}));
  // x[1, i] (adjacent advanced entries): shape [2, 2].
  expect_exact(x[{1, i}], {2, 2}, st::f32, {9, 11, 6, 11});
}

TEST(IndexApi, NonAdjacentAdvancedEntriesPutTheArrayFirst) {
  Array x = st::reshape(st::arange(0.0, 24.0, 1.0, st::f32), {2, 3, 4});
  Array i = st::astype(st::array(std::vector<double>{3, 1}, {2}, st::f64), st::i32);
  Array y = x[{1, st::all(), i}];  // NumPy: shape (2, 3)
  std::vector<double> want;
  for (int k : {3, 1})
    for (int b = 0; b < 3; ++b) want.push_back(12 + 4 * b + k);
  expect_exact(y, {2, 3}, st::f32, want);
}

// Several integer arrays, as NumPy: broadcast together, one element per broadcast position;
// their dims replace the indexed axes when adjacent, else come first; reads and .at() updates,
// under jit and grad.
TEST(IndexApi, SeveralIntegerArraysIndexElementwise) {
  Array x = st::reshape(st::arange(0.0, 60.0, 1.0, st::f32), {3, 4, 5});  // x[a, b, c] = 20a + 5b + c
  auto i32 = [](std::vector<double> v, st::Shape s) { return st::astype(st::array(v, s, st::f64), st::i32); };
  Array r = i32({2, 0}, {2, 1}), c = i32({1, -1, 3}, {3});  // broadcast to [2, 3]
  // x[r, c]: [2, 3, 5] — element (p, q, k) = x[r[p], c[q], k] (c on axis 1).
  std::vector<double> want;
  for (int a : {2, 0})
    for (int b : {1, 3, 3})
      for (int k = 0; k < 5; ++k) want.push_back(20 * a + 5 * b + k);
  expect_exact(x[{r, c}], {2, 3, 5}, st::f32, want);
  // x[:, r, c] (adjacent, after a slice): [3, 2, 3].
  want.clear();
  for (int a = 0; a < 3; ++a)
    for (int b : {2, 0})
      for (int k : {1, 4, 3}) want.push_back(20 * a + 5 * b + k);
  expect_exact(x[{st::all(), r, c}], {3, 2, 3}, st::f32, want);
  // x[r, :, c] (separated by a slice): the broadcast dims first, [2, 3, 4].
  want.clear();
  for (int a : {2, 0})
    for (int k : {1, 4, 3})
      for (int b = 0; b < 4; ++b) want.push_back(20 * a + 5 * b + k);
  expect_exact(x[{r, st::all(), c}], {2, 3, 4}, st::f32, want);
  // Three arrays and an int with them: x[r, c2, c] and x[1, c2, c] — elementwise.
  Array c2 = i32({0, 3, 2}, {3});
  want.clear();
  for (int a : {2, 0})
    for (int q = 0; q < 3; ++q) want.push_back(20 * a + 5 * std::vector<int>{0, 3, 2}[q] + std::vector<int>{1, 4, 3}[q]);
  expect_exact(x[{r, c2, c}], {2, 3}, st::f32, want);
  expect_exact(x[{1, c2, c}], {3}, st::f32, {21, 39, 33});
  // .at() with two arrays: set and add (repeated positions add twice).
  Array m = st::zeros({3, 4}, st::f32);
  Array rows = i32({0, 2, 2}, {3}), cols = i32({1, 3, 3}, {3});
  expect_exact(m.at({rows, cols}).add(1.0f), {3, 4}, st::f32, {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
  expect_exact(m.at({rows, cols}).set(5.0f), {3, 4}, st::f32, {0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5});
  // jit as eager; the gradient of sum(x[r, c]) counts each element's uses.
  auto f = [&](const Array& v) { return v[{r, c}]; };
  EXPECT_EQ(values(st::jit(f)(x)), values(f(x)));
  Array g = st::grad([&](const Array& v) { return st::sum(v[{r, c}]); })(x);
  std::vector<double> counts(60, 0);
  for (int a : {2, 0})
    for (int b : {1, 3, 3})
      for (int k = 0; k < 5; ++k) counts[20 * a + 5 * b + k] += 1;
  expect_exact(g, {3, 4, 5}, st::f32, counts);
  // Index arrays that do not broadcast name both shapes.
  expect_contains(error_message<st::ShapeError>([&] { (void)x[{i32({0, 1}, {2}), i32({0, 1, 2}, {3})}]; }),
                  "index: the integer-array indices of shapes [2] and i32[3] cannot be broadcast");
}

TEST(IndexApi, AtUpdatesReturnNewArrays) {
  Array x = grid();
  std::vector<double> base = values(x);
  Array y = x.at({1, Slice(0, 6, 2)}).set(-1.0f);
  std::vector<double> want = base;
  for (int c : {0, 2, 4}) want[static_cast<size_t>(6 + c)] = -1;
  expect_exact(y, {4, 6}, st::f32, want);
  EXPECT_EQ(values(x), base) << "x itself is unchanged";
  // Repeated array indices all add; out-of-range ones are dropped; negative ones wrap.
  Array i = st::astype(st::array(std::vector<double>{0, 0, -1, 9}, {4}, st::f64), st::i32);
  Array z = x.at(i).add(st::ones({4, 6}));
  want = base;
  for (int c = 0; c < 6; ++c) {
    want[static_cast<size_t>(c)] += 2;
    want[static_cast<size_t>(18 + c)] += 1;
  }
  expect_exact(z, {4, 6}, st::f32, want);
  expect_exact(x.at({0, 0}).mul(10.0f)[{0, 0}], {}, st::f32, {0});
  expect_exact(x.at({2, 3}).max(100.0f)[{2, 3}], {}, st::f32, {100});
  expect_exact(x.at({2, 3}).min(-5.0f)[{2, 3}], {}, st::f32, {-5});
  expect_exact(x.at(Slice(st::none, st::none, -1)).get(), {4, 6}, st::f32, values(x[Slice(st::none, st::none, -1)]));
}

TEST(IndexApi, JitMatchesEagerAndGradientsFlow) {
  auto f = [](const Array& x, const Array& i) {
    return x[{Slice(1, st::none, 2), i}] * 2.0f + x.at({i, Slice(st::none, st::none, -1)}).add(1.0f)[{Slice(0, 2), Slice(0, 2)}];
  };
  Array x = st::reshape(st::arange(0.0, 16.0, 1.0, st::f32), {4, 4});
  Array i = st::astype(st::array(std::vector<double>{3, -4}, {2}, st::f64), st::i32);
  EXPECT_EQ(values(st::jit(f)(x, i)), values(f(x, i)));
  Array xd = st::random::normal(st::random::key(8), {4, 4}, st::f64);
  check_grads([&](const std::vector<Array>& v) { return v[0][{Slice(st::none, st::none, -2), i}] * v[0][{1, i}]; }, {xd}, "index");
  check_grads([&](const std::vector<Array>& v) { return st::sin(v[0].at({i, 1}).set(v[0][{0, Slice(0, 2)}])); }, {xd}, "at().set");
  check_grads([&](const std::vector<Array>& v) { return v[0].at({st::all(), i}).add(v[0][{st::all(), Slice(0, 2)}] * 3.0); }, {xd}, "at().add");
}

}  // namespace
