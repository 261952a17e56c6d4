// The jnp composites of composites.h against NumPy's known values and plain loops, jit against
// eager, a derivative and vmap through them, and their errors.
#include <gtest/gtest.h>

#include "test_util.h"

namespace st = strata;
using st::Array;
using namespace st::testing;

namespace {

Array iota_f(st::Shape s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return st::reshape(st::astype(st::arange(n), st::f32), s);
}

// f eagerly and under jit give the same values.
void expect_jit_matches(const std::function<Array(const Array&)>& f, const Array& x) {
  std::vector<double> e = f(x).to_vector<double>(), j = st::jit(f)(x).to_vector<double>();
  ASSERT_EQ(e.size(), j.size());
  for (size_t i = 0; i < e.size(); ++i) EXPECT_TRUE(identical(j[i], e[i])) << i;
}

}  // namespace

TEST(JnpComposites, OuterTensordotStack) {
  expect_exact(st::outer(st::array({1.f, 2.f}, {2}), st::array({3.f, 4.f, 5.f}, {3})), {2, 3}, st::f32, {3, 4, 5, 6, 8, 10});
  // np.tensordot(arange(24).reshape(2,3,4), arange(12).reshape(3,4)) == [ 506, 1298]
  Array a = iota_f({2, 3, 4}), b = iota_f({3, 4});
  expect_exact(st::tensordot(a, b), {2}, st::f32, {506, 1298});
  expect_exact(st::tensordot(a, b, {1}, {0}), {2, 4, 4}, st::f32,
               st::tensordot(st::transpose(a, {0, 2, 1}), b, 1).to_vector<double>());
  expect_exact(st::stack({st::array({1.f, 2.f}, {2}), st::array({3.f, 4.f}, {2})}, 1), {2, 2}, st::f32, {1, 3, 2, 4});
  expect_exact(st::stack({st::array({1.f, 2.f}, {2}), st::array({3.f, 4.f}, {2})}, -1), {2, 2}, st::f32, {1, 3, 2, 4});
  expect_contains(error_message<st::ShapeError>([&] { st::stack({st::ones({2}), st::ones({3})}); }), "stack: expects arrays of one shape");
  expect_contains(error_message<st::ValueError>([&] { st::tensordot(a, b, 4); }), "tensordot: cannot contract 4 axes");
}

TEST(JnpComposites, SplitTileRepeatRoll) {
  Array x = iota_f({6});
  std::vector<Array> p = st::split(x, 3);
  ASSERT_EQ(p.size(), 3u);
  expect_exact(p[1], {2}, st::f32, {2, 3});
  std::vector<Array> q = st::split(x, std::vector<int64_t>{1, 4, 10});
  ASSERT_EQ(q.size(), 4u);
  expect_exact(q[1], {3}, st::f32, {1, 2, 3});
  EXPECT_EQ(q[3].shape(), st::Shape{0});
  expect_contains(error_message<st::ValueError>([&] { st::split(x, 4); }), "split: 4 sections do not divide axis 0 of f32[6]");
  // np.tile([[1,2],[3,4]], (2, 3)); np.tile([1, 2], (2, 1, 2)).
  Array m = st::array({1.f, 2.f, 3.f, 4.f}, {2, 2});
  expect_exact(st::tile(m, {2, 3}), {4, 6}, st::f32,
               {1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4});
  expect_exact(st::tile(st::array({1.f, 2.f}, {2}), {2, 1, 2}), {2, 1, 4}, st::f32, {1, 2, 1, 2, 1, 2, 1, 2});
  expect_exact(st::repeat(m, 2, 1), {2, 4}, st::f32, {1, 1, 2, 2, 3, 3, 4, 4});
  expect_exact(st::repeat(m, 2), {8}, st::f32, {1, 1, 2, 2, 3, 3, 4, 4});
  expect_exact(st::roll(x, 2), {6}, st::f32, {4, 5, 0, 1, 2, 3});
  expect_exact(st::roll(x, -7), {6}, st::f32, {1, 2, 3, 4, 5, 0});
  expect_exact(st::roll(m, 1), {2, 2}, st::f32, {4, 1, 2, 3});
  expect_exact(st::roll(m, 1, 0), {2, 2}, st::f32, {3, 4, 1, 2});
  expect_jit_matches([](const Array& v) { return st::roll(st::tile(st::repeat(v, 3, 0), {2, 1}), 5, 1); }, iota_f({2, 3}));
}

TEST(JnpComposites, TrianglesDiagTrace) {
  Array m = iota_f({3, 4});
  // Against loops: tril keeps j - i <= k, triu j - i >= k.
  for (int64_t k : {-2, -1, 0, 1, 3}) {
    std::vector<double> lo, up;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j) {
        lo.push_back(j - i <= k ? i * 4 + j : 0);
        up.push_back(j - i >= k ? i * 4 + j : 0);
      }
    expect_exact(st::tril(m, k), {3, 4}, st::f32, lo);
    expect_exact(st::triu(m, k), {3, 4}, st::f32, up);
  }
  expect_exact(st::tril(st::ones({2, 2, 2}, st::i32)), {2, 2, 2}, st::i32, {1, 0, 1, 1, 1, 0, 1, 1});
  // np.diag(arange(12).reshape(3,4), k) for k = 0, 1, -1, 5.
  expect_exact(st::diag(m), {3}, st::f32, {0, 5, 10});
  expect_exact(st::diag(m, 1), {3}, st::f32, {1, 6, 11});
  expect_exact(st::diag(m, -1), {2}, st::f32, {4, 9});
  EXPECT_EQ(st::diag(m, 5).shape(), st::Shape{0});
  expect_exact(st::diag(st::array({1.f, 2.f}, {2}), 1), {3, 3}, st::f32, {0, 1, 0, 0, 0, 2, 0, 0, 0});
  expect_exact(st::diag(st::array({1.f, 2.f}, {2}), -1), {3, 3}, st::f32, {0, 0, 0, 1, 0, 0, 0, 2, 0});
  // No nan leaks from an infinite diagonal into the zeros.
  expect_exact(st::diag(st::array(std::vector<double>{INFINITY}, {1}, st::f32)), {1, 1}, st::f32, {INFINITY});
  expect_exact(st::trace(m), {}, st::f32, {15});
  expect_exact(st::trace(m, -1), {}, st::f32, {13});
  expect_jit_matches([](const Array& v) { return st::diag(st::triu(v, 1), 1) + st::trace(v); }, iota_f({4, 4}));
  // d/dx sum(tril(x) * x) = 2x on the lower triangle.
  Array g = st::grad([](const Array& v) { return st::sum(st::tril(v) * v); })(iota_f({2, 2}));
  expect_exact(g, {2, 2}, st::f32, {0, 0, 4, 6});
  expect_contains(error_message<st::ValueError>([&] { st::tril(st::ones({3})); }), "tril: expects an array of rank 2 or more");
  expect_contains(error_message<st::ValueError>([&] { st::diag(st::ones({2, 2, 2})); }), "diag: expects a 1-d or 2-d array");
}

TEST(JnpComposites, MeshgridOneHotPad) {
  Array a = st::array({1.f, 2.f, 3.f}, {3}), b = st::array({4.f, 5.f}, {2});
  std::vector<Array> xy = st::meshgrid({a, b});
  expect_exact(xy[0], {2, 3}, st::f32, {1, 2, 3, 1, 2, 3});
  expect_exact(xy[1], {2, 3}, st::f32, {4, 4, 4, 5, 5, 5});
  std::vector<Array> ij = st::meshgrid({a, b}, "ij");
  expect_exact(ij[0], {3, 2}, st::f32, {1, 1, 2, 2, 3, 3});
  expect_exact(ij[1], {3, 2}, st::f32, {4, 5, 4, 5, 4, 5});
  expect_exact(st::one_hot(st::array({0, 2, 5, -1}, {4}), 3), {4, 3}, st::f32, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0});
  expect_jit_matches([](const Array& v) { return st::one_hot(v, 4); }, st::array({1.f, 3.f}, {2}));
  // np.pad([1, 2, 3], (2, 3), mode): constant 9, edge, wrap.
  Array x = st::array({1.f, 2.f, 3.f}, {3});
  expect_exact(st::pad(x, {{2, 3}}, "constant", 9), {8}, st::f32, {9, 9, 1, 2, 3, 9, 9, 9});
  expect_exact(st::pad(x, {{2, 3}}, "edge"), {8}, st::f32, {1, 1, 1, 2, 3, 3, 3, 3});
  expect_exact(st::pad(x, {{2, 3}}, "wrap"), {8}, st::f32, {2, 3, 1, 2, 3, 1, 2, 3});
  expect_exact(st::pad(x, {{7, 0}}, "wrap"), {10}, st::f32, {3, 1, 2, 3, 1, 2, 3, 1, 2, 3});
  expect_exact(st::pad(st::array({1.f, 2.f, 3.f, 4.f}, {2, 2}), {{1, 0}, {0, 1}}, "edge"), {3, 3}, st::f32,
               {1, 2, 2, 1, 2, 2, 3, 4, 4});
  expect_jit_matches([](const Array& v) { return st::pad(v, {{1, 2}, {2, 1}}, "wrap"); }, iota_f({2, 3}));
  expect_contains(error_message<st::ValueError>([&] { st::pad(x, {{1, 1}}, "median"); }), "pad: expects mode");
  expect_contains(error_message<st::ValueError>([&] { st::pad(x, {{1, 1}, {0, 0}}); }), "pad: expects 1 (before, after) widths");
}

TEST(JnpComposites, NonzeroNeedsAConcreteArray) {
  Array m = st::array({0.f, 1.f, 0.f, 2.f, 3.f, 0.f}, {2, 3});
  std::vector<Array> nz = st::where(m);
  ASSERT_EQ(nz.size(), 2u);
  expect_exact(nz[0], {3}, st::i32, {0, 1, 1});
  expect_exact(nz[1], {3}, st::i32, {1, 0, 1});
  expect_exact(st::nonzero(st::array({false, true}, {2}))[0], {1}, st::i32, {1});
  std::string msg = error_message<st::ConcretizationError>([&] { st::jit([](const Array& v) { return st::nonzero(v)[0]; })(m); });
  expect_contains(msg, "nonzero: the number of non-zero elements of f32[2,3] depends on its values");
}
