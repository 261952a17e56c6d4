// Neural-network composites against formulas evaluated here in double: relu, sigmoid, gelu
// (tanh form), softmax (rows sum to 1, stable for large inputs, any axes) and logsumexp
// (stable, -inf rows, keepdims).
#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::testing::error_message;
using st::testing::expect_array;
using st::testing::expect_contains;
using st::testing::expect_exact;
using st::testing::round_all;
using st::testing::row_major_strides;
using st::testing::test_values;
using st::testing::values;

namespace {

std::string name(st::DType t) { return std::string(st::short_name(t)); }
double eps(st::DType t) { return t == st::f64 ? 0x1p-53 : t == st::f32 ? 0x1p-24 : t == st::f16 ? 0x1p-11 : 0x1p-8; }

// For each kept index of `shape` (axes reduced), the flat indices of its slice.
std::vector<std::vector<int64_t>> slices(const st::Shape& shape, const std::vector<int>& axes) {
  std::vector<bool> red(shape.size(), false);
  for (int a : axes) red[static_cast<size_t>(a < 0 ? a + static_cast<int>(shape.size()) : a)] = true;
  st::Shape kept;
  for (size_t d = 0; d < shape.size(); ++d)
    if (!red[d]) kept.push_back(shape[d]);
  std::vector<std::vector<int64_t>> out(static_cast<size_t>(st::num_elements(kept)));
  std::vector<int64_t> s = row_major_strides(shape), ks = row_major_strides(kept);
  for (int64_t i = 0; i < st::num_elements(shape); ++i) {
    int64_t o = 0;
    size_t kd = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      if (!red[d]) o += ((i / s[d]) % shape[d]) * ks[kd++];
    out[static_cast<size_t>(o)].push_back(i);
  }
  return out;
}

TEST(NN, Relu) {
  for (st::DType t : {st::f32, st::f64, st::bf16, st::f16, st::i32, st::i64}) {
    SCOPED_TRACE(name(t));
    std::vector<double> x = round_all({-3, -0.5, 0, 0.5, 2, 100, -100}, t);
    if (st::is_floating(t)) x.insert(x.end(), {NAN, INFINITY, -INFINITY});
    std::vector<double> want;
    for (double v : x) want.push_back(std::isnan(v) ? NAN : v > 0 ? v : 0);
    st::Array r = st::relu(st::array(x, {static_cast<int64_t>(x.size())}, t));
    expect_array(r, {static_cast<int64_t>(x.size())}, t, want, 0);
  }
  EXPECT_EQ(st::relu(st::zeros({0, 2}, st::bf16)).shape(), (st::Shape{0, 2}));
  EXPECT_EQ(st::relu(st::Array(-2.0f)).item<float>(), 0.0f);
}

TEST(NN, SigmoidIsLogistic) {
  for (st::DType t : st::testing::kFloatTypes) {
    SCOPED_TRACE(name(t));
    std::vector<double> x = round_all(test_values(50, -20, 20, 13), t);
    x.insert(x.end(), {0, INFINITY, -INFINITY, NAN});
    st::Array a = st::array(x, {static_cast<int64_t>(x.size())}, t);
    std::vector<double> want;
    for (double v : x) want.push_back(1 / (1 + std::exp(-v)));
    expect_array(st::sigmoid(a), {static_cast<int64_t>(x.size())}, t, round_all(want, t), t == st::f32 || t == st::f64 ? 4 : 1);
    std::vector<double> s = values(st::sigmoid(a)), l = values(st::logistic(a));
    for (size_t i = 0; i < s.size(); ++i) EXPECT_TRUE(st::testing::identical(s[i], l[i])) << i;
  }
  // Integers are promoted.
  EXPECT_EQ(st::sigmoid(st::array({0}, {1})).dtype(), st::f32);
  EXPECT_EQ(st::sigmoid(st::array({0}, {1})).item<float>(), 0.5f);
}

TEST(NN, GeluTanhForm) {
  for (st::DType t : st::testing::kFloatTypes) {
    SCOPED_TRACE(name(t));
    std::vector<double> x = round_all(test_values(60, -6, 6, 19), t);
    x.insert(x.end(), {0, 1, -1, 3, -3, 10, -10, 1e-3});
    x = round_all(x, t);
    st::Array r = st::gelu(st::array(x, {static_cast<int64_t>(x.size())}, t));
    ASSERT_EQ(r.dtype(), t);
    std::vector<double> got = values(r);
    for (size_t i = 0; i < x.size(); ++i) {
      double v = x[i];
      double want = 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
      // The composite rounds after each of its ops in t: a few ULPs of the result, and for
      // negative x (1 + tanh ≈ 0) a few ULPs of x.
      double tol = 8 * st::testing::ulp(want, t) + 8 * eps(t) * std::fabs(v);
      EXPECT_NEAR(got[i], want, tol) << "gelu(" << v << ")";
    }
    std::vector<double> s = values(st::gelu(st::array(std::vector<double>{NAN, INFINITY}, {2}, t)));
    EXPECT_TRUE(std::isnan(s[0]));
    EXPECT_EQ(s[1], INFINITY);
  }
  EXPECT_EQ(st::gelu(st::array({1, 2}, {2})).dtype(), st::f32);
  EXPECT_TRUE(st::gelu(st::Array(1.0f)).weak_type());
}

TEST(NN, WeakScalarsKeepTheirDtype) {
  // As in JAX, a weak f32 scalar stays (weak) f32 through the composites: their own constants
  // must not promote it to f64.
  for (const st::Array& r : {st::gelu(st::Array(1.0f)), st::logsumexp(st::Array(1.0f)), st::mean(st::Array(3.0f)),
                             st::softmax(st::Array(2.0f), {}), st::relu(st::Array(-1.0f)), st::sigmoid(st::Array(0.0f))}) {
    EXPECT_EQ(r.dtype(), st::f32) << r;
    EXPECT_TRUE(r.weak_type()) << r;
  }
  EXPECT_NEAR(st::gelu(st::Array(1.0f)).item<float>(), 0.5 * (1 + std::tanh(std::sqrt(2 / M_PI) * 1.044715)), 1e-6);
  EXPECT_EQ(st::logsumexp(st::Array(1.0f)).item<float>(), 1.0f);
  EXPECT_EQ(st::softmax(st::Array(2.0f), {}).item<float>(), 1.0f);
}

// softmax over `axes` of x (shape), in double.
std::vector<double> ref_softmax(const std::vector<double>& x, const st::Shape& shape, const std::vector<int>& axes) {
  std::vector<double> out(x.size());
  for (const auto& idx : slices(shape, axes)) {
    double m = -INFINITY, s = 0;
    for (int64_t i : idx) m = std::max(m, x[static_cast<size_t>(i)]);
    for (int64_t i : idx) s += std::exp(x[static_cast<size_t>(i)] - m);
    for (int64_t i : idx) out[static_cast<size_t>(i)] = std::exp(x[static_cast<size_t>(i)] - m) / s;
  }
  return out;
}

TEST(NN, SoftmaxAgainstReferenceOnAnyAxes) {
  st::Shape shape = {3, 4, 5};
  for (st::DType t : st::testing::kFloatTypes) {
    std::vector<double> x = round_all(test_values(60, -5, 5, 29), t);
    for (const std::optional<std::vector<int>>& axes :
         {std::optional<std::vector<int>>(), std::optional<std::vector<int>>({0}), std::optional<std::vector<int>>({1}),
          std::optional<std::vector<int>>({-1}), std::optional<std::vector<int>>({0, 2}), std::optional<std::vector<int>>({0, 1, 2})}) {
      std::vector<int> ax = axes ? *axes : std::vector<int>{-1};  // the default is the last axis
      SCOPED_TRACE(name(t) + " axes " + st::shape_string(st::Shape(ax.begin(), ax.end())));
      std::vector<double> want = ref_softmax(x, shape, ax);
      st::Array a = st::array(x, shape, t);
      st::Array r = axes ? st::softmax(a, st::Axes(*axes)) : st::softmax(a);
      ASSERT_EQ(r.shape(), shape);
      ASSERT_EQ(r.dtype(), t);
      std::vector<double> got = values(r);
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], want[i], 8 * st::testing::ulp(want[i], t) + 16 * eps(t) * want[i]) << "element " << i;
      // Each slice sums to 1.
      for (const auto& idx : slices(shape, ax)) {
        double s = 0;
        for (int64_t i : idx) s += got[static_cast<size_t>(i)];
        EXPECT_NEAR(s, 1.0, 4 * static_cast<double>(idx.size()) * eps(t));
      }
    }
  }
}

TEST(NN, SoftmaxIsStable) {
  for (st::DType t : {st::f32, st::f64, st::bf16}) {
    SCOPED_TRACE(name(t));
    // exp(1000) overflows every dtype: a naive softmax gives nan.
    std::vector<double> x = round_all({1000, 1000, 999, -1000, 1e4, 1e4}, t);
    st::Array r = st::softmax(st::array(x, {3, 2}, t));
    std::vector<double> want = ref_softmax(x, {3, 2}, {1});
    std::vector<double> got = values(r);
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_TRUE(std::isfinite(got[i])) << i;
      EXPECT_NEAR(got[i], want[i], 8 * st::testing::ulp(want[i], t) + 16 * eps(t) * want[i]);
    }
    // -inf entries get weight 0; a row of equal entries is uniform.
    expect_array(st::softmax(st::array(std::vector<double>{-INFINITY, 0, -INFINITY, 5, 5, 5}, {2, 3}, t)), {2, 3}, t,
                 round_all({0, 1, 0, 1.0 / 3, 1.0 / 3, 1.0 / 3}, t), 2);
    // nan poisons its slice only.
    std::vector<double> n = values(st::softmax(st::array(std::vector<double>{NAN, 1, 1, 1}, {2, 2}, t)));
    EXPECT_TRUE(std::isnan(n[0]) && std::isnan(n[1]));
    EXPECT_EQ(n[2], 0.5);
    EXPECT_EQ(n[3], 0.5);
  }
  EXPECT_EQ(st::softmax(st::array({1, 2}, {2})).dtype(), st::f32);
  EXPECT_EQ(st::softmax(st::zeros({0, 3})).shape(), (st::Shape{0, 3}));
  expect_contains(error_message<st::ValueError>([] { st::softmax(st::zeros({2, 3}), 2); }), "axis 2 is out of range for f32[2,3]");
}

// logsumexp over `axes` (all when empty) of x, in double.
std::vector<double> ref_logsumexp(const std::vector<double>& x, const st::Shape& shape, const std::vector<int>& axes) {
  std::vector<double> out;
  for (const auto& idx : slices(shape, axes)) {
    double m = -INFINITY, s = 0;
    bool nan = false;
    for (int64_t i : idx) {
      nan = nan || std::isnan(x[static_cast<size_t>(i)]);
      m = std::max(m, x[static_cast<size_t>(i)]);
    }
    if (nan) {
      out.push_back(NAN);
      continue;
    }
    if (std::isinf(m)) {
      out.push_back(m);
      continue;
    }
    for (int64_t i : idx) s += std::exp(x[static_cast<size_t>(i)] - m);
    out.push_back(m + std::log(s));
  }
  return out;
}

TEST(NN, LogSumExp) {
  st::Shape shape = {3, 4, 5};
  for (st::DType t : st::testing::kFloatTypes) {
    std::vector<double> x = round_all(test_values(60, -5, 5, 31), t);
    for (const std::vector<int>& ax : {std::vector<int>{}, std::vector<int>{0}, std::vector<int>{-1}, std::vector<int>{0, 2},
                                       std::vector<int>{1, 2}}) {
      for (bool keep : {false, true}) {
        SCOPED_TRACE(name(t) + " axes " + st::shape_string(st::Shape(ax.begin(), ax.end())) + (keep ? " keepdims" : ""));
        std::vector<int> all = ax.empty() ? std::vector<int>{0, 1, 2} : ax;
        std::vector<double> want = ref_logsumexp(x, shape, all);
        st::Shape out;
        for (int d = 0; d < 3; ++d) {
          bool r = false;
          for (int a : all) r = r || (a < 0 ? a + 3 : a) == d;
          if (!r) out.push_back(shape[static_cast<size_t>(d)]);
          else if (keep) out.push_back(1);
        }
        st::Array a = st::array(x, shape, t);
        st::Array res = ax.empty() ? st::logsumexp(a, {}, keep) : st::logsumexp(a, st::Axes(ax), keep);
        ASSERT_EQ(res.shape(), out);
        ASSERT_EQ(res.dtype(), t);
        std::vector<double> got = values(res);
        for (size_t i = 0; i < got.size(); ++i)
          EXPECT_NEAR(got[i], want[i], 4 * st::testing::ulp(want[i], t) + 8 * eps(t) * 5) << "element " << i;  // |x| <= 5
      }
    }
  }
}

TEST(NN, LogSumExpIsStableAndHandlesInfinities) {
  for (st::DType t : {st::f32, st::f64, st::bf16}) {
    SCOPED_TRACE(name(t));
    std::vector<double> x = round_all({1000, 1000, -1000, -1000, -INFINITY, -INFINITY, INFINITY, 1, INFINITY, -INFINITY, NAN, 1}, t);
    std::vector<double> want = ref_logsumexp(x, {6, 2}, {1});
    std::vector<double> got = values(st::logsumexp(st::array(x, {6, 2}, t), 1));
    ASSERT_EQ(got.size(), 6u);
    for (size_t i = 0; i < 6; ++i) {
      if (std::isnan(want[i]) || std::isinf(want[i])) EXPECT_TRUE(st::testing::identical(got[i], want[i])) << i << ": " << got[i];
      else EXPECT_NEAR(got[i], want[i], 8 * st::testing::ulp(want[i], t)) << i;
    }
    // keepdims, and the whole array.
    EXPECT_EQ(st::logsumexp(st::array(x, {6, 2}, t), 1, true).shape(), (st::Shape{6, 1}));
    std::vector<double> w = values(st::logsumexp(st::array(std::vector<double>{-INFINITY, -INFINITY}, {2}, t)));
    EXPECT_EQ(w[0], -INFINITY);
  }
  // An empty reduction is log(0).
  expect_exact(st::logsumexp(st::zeros({0})), {}, st::f32, {-INFINITY});
  EXPECT_EQ(st::logsumexp(st::array({1, 2}, {2})).dtype(), st::f32);
  expect_contains(error_message<st::ValueError>([] { st::logsumexp(st::zeros({2}), 1); }), "axis 1 is out of range for f32[2]");
}

}  // namespace
