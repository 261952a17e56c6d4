// take / take_along_axis (strata/indexing.h) against plain loops: axes, negative and
// out-of-range indices (wrapped, then clamped), index arrays of any rank; jit ≡ eager; gradient.
#include <gtest/gtest.h>

#include "autodiff/check_grads.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using namespace st::testing;

namespace {

int64_t clip_index(int64_t i, int64_t n) {
  if (i < 0) i += n;
  return std::clamp<int64_t>(i, 0, n - 1);
}

TEST(Take, MatchesLoopsOnEachAxis) {
  for (st::DType t : {st::f32, st::f64, st::i32, st::bf16}) {
    Array x = st::astype(st::reshape(st::arange(0.0, 24.0, 1.0, st::f64), {2, 3, 4}), t);
    std::vector<double> xv = values(x);
    std::vector<int64_t> iv = {2, -1, 7, -9, 0, 1};
    Array idx = st::astype(st::array(std::vector<double>(iv.begin(), iv.end()), {2, 3}, st::f64), st::i32);
    // axis 1: result [2, 2, 3, 4]
    Array y = st::take(x, idx, 1);
    std::vector<double> want;
    for (int64_t a = 0; a < 2; ++a)
      for (int64_t k : iv)
        for (int64_t c = 0; c < 4; ++c) want.push_back(xv[static_cast<size_t>(a * 12 + clip_index(k, 3) * 4 + c)]);
    expect_exact(y, {2, 2, 3, 4}, t, want);
    // axis -1 with a scalar index: the axis goes away.
    std::vector<double> want2;
    for (int64_t a = 0; a < 6; ++a) want2.push_back(xv[static_cast<size_t>(a * 4 + 3)]);
    expect_exact(st::take(x, Array(-1), -1), {2, 3}, t, want2);
  }
}

TEST(Take, AlongAxisMatchesLoops) {
  Array x = st::reshape(st::arange(0.0, 12.0, 1.0, st::f32), {3, 4});
  Array idx = st::astype(st::array(std::vector<double>{3, 0, -1, 5, 1, 2}, {3, 2}, st::f64), st::i64);
  Array y = st::take_along_axis(x, idx, 1);
  std::vector<double> iv = values(idx), want;
  for (int64_t r = 0; r < 3; ++r)
    for (int64_t j = 0; j < 2; ++j) want.push_back(static_cast<double>(r * 4 + clip_index(static_cast<int64_t>(iv[static_cast<size_t>(r * 2 + j)]), 4)));
  expect_exact(y, {3, 2}, st::f32, want);
  expect_contains(error_message<st::ShapeError>([&] { st::take_along_axis(x, st::zeros({2, 2}, st::i32), 1); }),
                  "take_along_axis: expects indices of the operand's rank and sizes off the axis");
  expect_contains(error_message<st::DTypeError>([&] { st::take(x, st::zeros({2}), 0); }), "take: expects integer indices");
}

TEST(Take, JitMatchesEagerAndGradientScattersBack) {
  auto f = [](const Array& x, const Array& i) { return st::take(x, i, 0) * 2.0f + st::take_along_axis(x, st::zeros({5, 3}, st::i32) + 1, 0); };
  Array x = st::reshape(st::arange(0.0, 15.0, 1.0, st::f32), {5, 3});
  Array i = st::astype(st::array(std::vector<double>{4, -1, 9, -7, 2}, {5}, st::f64), st::i32);
  EXPECT_EQ(values(st::jit(f)(x, i)), values(f(x, i)));
  // Repeated and clamped indices add up in the gradient.
  Array g = st::grad([&](const Array& v) { return st::sum(st::take(v, i, 0)); })(st::zeros({5, 3}, st::f64));
  std::vector<double> want(15, 0.0);
  for (int64_t k : {4, 4, 4, 0, 2})
    for (int64_t c = 0; c < 3; ++c) want[static_cast<size_t>(k * 3 + c)] += 1;
  EXPECT_EQ(values(g), want);
  Array xd = st::random::normal(st::random::key(5), {5, 3}, st::f64);
  check_grads([&](const std::vector<Array>& v) { return st::take(st::sin(v[0]), i, 1 - 1); }, {xd}, "take");
}

}  // namespace
