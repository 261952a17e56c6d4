// argmin, all/any (reduce_and/reduce_or) and clip/clamp against plain loops, jit against eager,
// derivatives against finite differences, and vmap.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "autodiff/check_grads.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using namespace st::testing;

namespace {

std::vector<double> rand_values(size_t n, int lo, int hi, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<double> v(n);
  for (double& x : v) x = d(g);  // integers: many ties
  return v;
}

// The reference: index of the first smallest value, or of the first nan.
int64_t ref_argmin(const std::vector<double>& v, int64_t start, int64_t n, int64_t stride) {
  int64_t best = 0;
  for (int64_t k = 0; k < n; ++k) {
    double x = v[static_cast<size_t>(start + k * stride)];
    if (std::isnan(x)) return k;
    if (x < v[static_cast<size_t>(start + best * stride)]) best = k;
  }
  return best;
}

}  // namespace

TEST(Argmin, AgainstLoopsOnEveryAxisAndDtype) {
  for (st::DType t : kNumericTypes) {
    SCOPED_TRACE(st::short_name(t));
    std::vector<double> v = rand_values(3 * 4 * 5, -3, 3, 11);
    Array x = st::array(v, {3, 4, 5}, t);
    for (int axis = 0; axis < 3; ++axis) {
      st::Shape s{3, 4, 5};
      int64_t n = s[axis], inner = 1;
      for (int d = axis + 1; d < 3; ++d) inner *= s[d];
      std::vector<double> want;
      for (int64_t o = 0; o < 60 / (n * inner); ++o)
        for (int64_t i = 0; i < inner; ++i) want.push_back(static_cast<double>(ref_argmin(v, o * n * inner + i, n, inner)));
      st::Shape os;
      for (int d = 0; d < 3; ++d)
        if (d != axis) os.push_back(s[d]);
      expect_exact(st::argmin(x, axis), os, st::i32, want);
      expect_exact(st::jit([axis](const Array& a) { return st::argmin(a, axis); })(x), os, st::i32, want);
    }
  }
}

TEST(Argmin, NanTiesZerosAndFlattened) {
  for (st::DType t : kFloatTypes) {
    Array x = st::array(std::vector<double>{3, 1, NAN, 1, NAN}, {5}, t);
    EXPECT_EQ(st::argmin(x).item<int>(), 2);
    EXPECT_EQ(st::argmin(st::array(std::vector<double>{2, 1, 1, 5}, {4}, t)).item<int>(), 1);
    EXPECT_EQ(st::argmin(st::array(std::vector<double>{INFINITY, INFINITY}, {2}, t)).item<int>(), 0);
    EXPECT_EQ(st::argmin(st::array(std::vector<double>{0.0, -0.0}, {2}, t)).item<int>(), 0);  // ±0 tie
  }
  Array m = st::array(std::vector<double>{5, 4, 3, 0, 9, 0}, {2, 3}, st::f32);
  EXPECT_EQ(st::argmin(m).item<int>(), 3);
  EXPECT_EQ(st::argmin(m, 1, true).shape(), (st::Shape{2, 1}));
  EXPECT_EQ(st::argmin(m, -1).to_vector<int>(), (std::vector<int>{2, 0}));
  EXPECT_EQ(st::argmin(st::array({true, false, false}, {3})).item<int>(), 1);
  expect_contains(error_message<st::ValueError>([&] { st::argmin(m, 2); }), "argmin: axis 2 is out of range");
  expect_contains(error_message<st::ValueError>([&] { st::argmin(st::zeros({0, 3}), 0); }), "argmin: axis 0 of f32[0,3] is empty");
  EXPECT_EQ(st::vmap([](const Array& r) { return st::argmin(r); })(m).to_vector<int>(), (std::vector<int>{2, 0}));
}

TEST(AllAny, AgainstLoops) {
  std::vector<double> v = rand_values(24, 0, 2, 5);  // about a third zeros
  for (double& e : v) e = e == 2 ? 1 : e;
  for (st::DType t : {st::bool_, st::i32, st::f32}) {
    SCOPED_TRACE(st::short_name(t));
    Array x = st::array(v, {2, 3, 4}, t);
    for (int axis = 0; axis < 3; ++axis) {
      st::Shape s{2, 3, 4};
      int64_t n = s[axis], inner = 1;
      for (int d = axis + 1; d < 3; ++d) inner *= s[d];
      std::vector<double> all_w, any_w;
      for (int64_t o = 0; o < 24 / (n * inner); ++o)
        for (int64_t i = 0; i < inner; ++i) {
          bool a = true, b = false;
          for (int64_t k = 0; k < n; ++k) {
            bool e = v[static_cast<size_t>(o * n * inner + i + k * inner)] != 0;
            a = a && e;
            b = b || e;
          }
          all_w.push_back(a);
          any_w.push_back(b);
        }
      st::Shape os;
      for (int d = 0; d < 3; ++d)
        if (d != axis) os.push_back(s[d]);
      expect_exact(st::all(x, axis), os, st::bool_, all_w);
      expect_exact(st::any(x, axis), os, st::bool_, any_w);
      expect_exact(st::jit([axis](const Array& a) { return st::all(a, axis); })(x), os, st::bool_, all_w);
      expect_exact(st::jit([axis](const Array& a) { return st::any(a, axis); })(x), os, st::bool_, any_w);
    }
  }
  // Identities over nothing, nan is true, keepdims, all axes.
  expect_exact(st::all(st::zeros({3, 0}), 1), {3}, st::bool_, {1, 1, 1});
  expect_exact(st::any(st::zeros({3, 0}), 1), {3}, st::bool_, {0, 0, 0});
  expect_exact(st::jit([](const Array& a) { return st::all(a, 1); })(st::zeros({3, 0})), {3}, st::bool_, {1, 1, 1});
  EXPECT_TRUE(st::all(st::array(std::vector<double>{NAN, 1}, {2}, st::f32)).item<bool>());
  EXPECT_FALSE(st::any(st::array(std::vector<double>{-0.0, 0}, {2}, st::f32)).item<bool>());
  EXPECT_EQ(st::any(st::ones({2, 3}), {0, 1}, true).shape(), (st::Shape{1, 1}));
  expect_exact(st::vmap([](const Array& r) { return st::any(r); })(st::eye(3)), {3}, st::bool_, {1, 1, 1});
  expect_contains(error_message<st::ValueError>([&] { st::all(st::ones({2}), 3); }), "all");
}

TEST(Clip, AgainstLoopsWithNansAndBroadcasting) {
  std::vector<double> xv = {-5, -1, -0.0, 0.0, 0.5, 1, 7, NAN, INFINITY, -INFINITY};
  for (st::DType t : kNumericTypes) {
    SCOPED_TRACE(st::short_name(t));
    bool fl = st::is_floating(t);
    std::vector<double> in = xv;
    if (!fl) in = {-5, -1, 0, 0, 0, 1, 7, 3, 100, -100};
    Array x = st::array(in, {10}, t);
    std::vector<double> want;
    for (double e : in) want.push_back(std::isnan(e) ? NAN : std::min(std::max(e, -1.0), 2.0));
    Array lo = st::astype(Array(-1), t), hi = st::astype(Array(2), t);
    std::vector<double> got = st::clip(x, lo, hi).to_vector<double>();
    std::vector<double> jitted = st::jit([&](const Array& a) { return st::clip(a, lo, hi); })(x).to_vector<double>();
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_TRUE(std::isnan(want[i]) ? std::isnan(got[i]) : got[i] == want[i]) << i << ": " << got[i];
      EXPECT_TRUE(std::isnan(want[i]) ? std::isnan(jitted[i]) : jitted[i] == want[i]) << i << ": " << jitted[i];
    }
  }
  // Per-element bounds that broadcast, and a nan bound.
  Array x = st::reshape(st::arange(int64_t{6}), {2, 3});
  Array lo = st::array(std::vector<double>{1, 2, 3}, {3}, st::f32), hi = st::array(std::vector<double>{2, NAN}, {2, 1}, st::f32);
  std::vector<double> got = st::clip(x, lo, hi).to_vector<double>();
  EXPECT_EQ(st::clip(x, lo, hi).dtype(), st::f32);
  std::vector<double> want = {1, 2, 2, NAN, NAN, NAN};
  for (size_t i = 0; i < 6; ++i) EXPECT_TRUE(identical(got[i], want[i])) << i << ": " << got[i];
  std::vector<double> jg = st::jit([](const Array& a, const Array& l, const Array& h) { return st::clip(a, l, h); })(x, lo, hi).to_vector<double>();
  for (size_t i = 0; i < 6; ++i) EXPECT_TRUE(identical(jg[i], want[i])) << i << ": " << jg[i];
  expect_contains(error_message<st::ShapeError>([&] { st::clip(st::ones({3}), st::ones({2}), 1.0f); }), "clip: shapes f32[3], f32[2]");
  expect_contains(error_message<st::ShapeError>([&] { st::clamp(st::ones({2}), st::ones({3}), 1.0f); }),
                  "clamp: expects bounds that are 0-d or of the operand's shape, but got f32[2], f32[3]");
}

TEST(Clamp, DerivativesAndVmap) {
  // Values away from the kinks, so that finite differences see one side only.
  Array lo = st::array(std::vector<double>{-1, 0.2, -3, 0.1, 2}, {5}, st::f64);
  Array x = st::array(std::vector<double>{-2, 0.5, 1.5, 3, 2.5}, {5}, st::f64);
  Array hi = st::array(std::vector<double>{1, 1, 1, 1, 4}, {5}, st::f64);
  check_grads([](const std::vector<Array>& a) { return st::clamp(a[0], a[1], a[2]); }, {lo, x, hi}, "clamp arrays");
  check_grads([](const std::vector<Array>& a) { return st::clamp(a[0], a[1], a[2]); },
              {Array(-0.5), x, Array(1.25)}, "clamp 0-d bounds");
  Array g = st::grad([](const Array& v) { return st::sum(st::clip(v, -1.0, 1.0)); })(x);
  expect_exact(g, {5}, st::f64, {0, 1, 0, 0, 0});
  // vmap: bounds per example, the operand shared.
  Array los = st::array(std::vector<double>{0, 1}, {2}, st::f32);
  Array r = st::vmap([](const Array& l, const Array& v) { return st::clamp(l, v, Array(2.0f)); }, {0, std::nullopt})(
      los, st::array(std::vector<double>{-1, 0.5, 3}, {3}, st::f32));
  expect_exact(r, {2, 3}, st::f32, {0, 0.5, 2, 1, 1, 2});
}
