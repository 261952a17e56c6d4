// Reductions against plain loops in double: sum mean max min prod argmax over all, one,
// several and negative axes, keepdims, each of the kernel's three layouts (reduced axes
// trailing, leading, or mixed → transposed), bool inputs, nan, empty reductions, f32
// accumulation of bf16/f16, and argmax's ties and nans.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <functional>
#include <optional>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::testing::error_message;
using st::testing::expect_array;
using st::testing::expect_contains;
using st::testing::expect_exact;
using st::testing::identical;
using st::testing::round_all;
using st::testing::row_major_strides;
using st::testing::test_values;
using st::testing::values;

namespace {

std::string name(st::DType t) { return std::string(st::short_name(t)); }

enum class Kind { kSum, kProd, kMax, kMin };

// The reduction of `x` (shape `shape`) over `axes` (non-negative), in double, by plain loops:
// each input element is added into the output element its kept indices name.
std::vector<double> ref_reduce(Kind k, const std::vector<double>& x, const st::Shape& shape, std::vector<int> axes,
                               st::Shape* out_shape) {
  std::vector<bool> red(shape.size(), false);
  for (int a : axes) red[static_cast<size_t>(a)] = true;
  st::Shape out;
  for (size_t d = 0; d < shape.size(); ++d)
    if (!red[d]) out.push_back(shape[d]);
  *out_shape = out;
  double init = k == Kind::kSum ? 0 : k == Kind::kProd ? 1 : k == Kind::kMax ? -INFINITY : INFINITY;
  std::vector<double> r(static_cast<size_t>(st::num_elements(out)), init);
  std::vector<int64_t> in_strides = row_major_strides(shape), out_strides = row_major_strides(out);
  for (int64_t i = 0; i < static_cast<int64_t>(x.size()); ++i) {
    int64_t o = 0;
    size_t od = 0;
    for (size_t d = 0; d < shape.size(); ++d) {
      int64_t idx = (i / in_strides[d]) % shape[d];
      if (!red[d]) o += idx * out_strides[od++];
    }
    double& acc = r[static_cast<size_t>(o)];
    double v = x[static_cast<size_t>(i)];
    switch (k) {
      case Kind::kSum: acc += v; break;
      case Kind::kProd: acc *= v; break;
      case Kind::kMax: acc = std::isnan(acc) || std::isnan(v) ? NAN : std::max(acc, v); break;
      case Kind::kMin: acc = std::isnan(acc) || std::isnan(v) ? NAN : std::min(acc, v); break;
    }
  }
  return r;
}

st::Array reduce(Kind k, const st::Array& x, st::Axes axes, bool keepdims) {
  switch (k) {
    case Kind::kSum: return st::sum(x, axes, keepdims);
    case Kind::kProd: return st::prod(x, axes, keepdims);
    case Kind::kMax: return st::max(x, axes, keepdims);
    default: return st::min(x, axes, keepdims);
  }
}
const char* kind_name(Kind k) { return k == Kind::kSum ? "sum" : k == Kind::kProd ? "prod" : k == Kind::kMax ? "max" : "min"; }

// Checks reduce(x, axes) (as given, possibly negative; nullopt for all) against the reference.
// Sums and products are accumulated in f32 (f64 for f64) in some order: the tolerance is the
// accumulated rounding bound n·eps·Σ|x| plus one ULP of the result dtype.
void check_reduce(Kind k, st::DType t, const st::Shape& shape, std::optional<std::vector<int>> axes, bool keepdims,
                  const std::vector<double>& data) {
  std::vector<int> norm;
  if (axes) {
    for (int a : *axes) norm.push_back(a < 0 ? a + static_cast<int>(shape.size()) : a);
  } else {
    for (int d = 0; d < static_cast<int>(shape.size()); ++d) norm.push_back(d);
  }
  st::Shape out;
  std::vector<double> want = ref_reduce(k, data, shape, norm, &out);
  std::vector<double> abs_data(data.size());
  for (size_t i = 0; i < data.size(); ++i) abs_data[i] = std::fabs(data[i]);
  st::Shape unused;
  std::vector<double> mag = ref_reduce(k == Kind::kProd ? Kind::kProd : Kind::kSum, abs_data, shape, norm, &unused);
  if (keepdims) {
    out = shape;
    for (int a : norm) out[static_cast<size_t>(a)] = 1;
  }
  st::Axes ax = axes ? st::Axes(*axes) : st::Axes();
  st::Array r = reduce(k, st::array(data, shape, t), ax, keepdims);
  ASSERT_EQ(r.shape(), out);
  ASSERT_EQ(r.dtype(), t);
  std::vector<double> got = values(r), wround = round_all(want, t);
  int64_t n = 1;
  for (int a : norm) n *= shape[static_cast<size_t>(a)];
  double eps = t == st::f64 ? 0x1p-53 : 0x1p-24;
  for (size_t i = 0; i < got.size(); ++i) {
    bool ok;
    if (k == Kind::kMax || k == Kind::kMin || st::is_integer(t)) {
      ok = identical(got[i], wround[i]) || (got[i] == 0 && wround[i] == 0);
    } else {
      double tol = 2.0 * static_cast<double>(n) * eps * mag[i] + st::testing::ulp(want[i], t);
      ok = std::isnan(want[i]) ? std::isnan(got[i]) : std::isinf(want[i]) ? got[i] == want[i] : std::fabs(got[i] - want[i]) <= tol;
    }
    EXPECT_TRUE(ok) << kind_name(k) << " element " << i << ": got " << got[i] << ", want " << want[i] << " (" << name(t) << ")";
  }
}

struct AxesCase {
  st::Shape shape;
  std::optional<std::vector<int>> axes;
  const char* layout;
};

const AxesCase kAxesCases[] = {
    {{3, 4, 5}, std::nullopt, "all"},
    {{3, 4, 5}, std::vector<int>{2}, "trailing"},
    {{3, 4, 5}, std::vector<int>{1, 2}, "trailing"},
    {{3, 4, 5}, std::vector<int>{-1, -2}, "trailing (negative)"},
    {{3, 4, 5}, std::vector<int>{0}, "leading"},
    {{3, 4, 5}, std::vector<int>{0, 1}, "leading"},
    {{3, 4, 5}, std::vector<int>{1}, "middle (mixed)"},
    {{3, 4, 5}, std::vector<int>{0, 2}, "outer (mixed)"},
    {{3, 4, 5}, std::vector<int>{2, 0}, "outer, unordered (mixed)"},
    {{3, 4, 5}, std::vector<int>{-3, -1}, "outer, negative (mixed)"},
    {{3, 4, 5}, std::vector<int>{}, "none"},
    {{2, 3, 4, 5}, std::vector<int>{1, 3}, "interleaved (mixed)"},
    {{1, 5, 1, 3}, std::vector<int>{1}, "size-1 dims around a leading axis"},
    {{3, 1, 4}, std::vector<int>{1}, "a size-1 axis"},
    {{1, 4}, std::vector<int>{0}, "a leading size-1 axis"},
    {{4, 1}, std::vector<int>{0}, "leading before a size-1 dim"},
    {{7}, std::vector<int>{0}, "1-d"},
    {{}, std::nullopt, "0-d"},
    {{6, 1, 7}, std::vector<int>{0, 2}, "mixed around a size-1 dim"},
};

TEST(Reductions, EveryLayoutAxesAndKeepdims) {
  for (Kind k : {Kind::kSum, Kind::kProd, Kind::kMax, Kind::kMin}) {
    for (st::DType t : {st::f32, st::f64, st::bf16, st::f16, st::i32, st::i64}) {
      for (const AxesCase& c : kAxesCases) {
        for (bool keep : {false, true}) {
          SCOPED_TRACE(std::string(kind_name(k)) + " " + name(t) + " " + st::shape_string(c.shape) + " " + c.layout +
                       (keep ? " keepdims" : ""));
          // Products stay in range with values near 1; integers are exact.
          std::vector<double> data = test_values(static_cast<size_t>(st::num_elements(c.shape)), k == Kind::kProd ? 0.5 : -10,
                                                 k == Kind::kProd ? 1.5 : 10, 3);
          if (st::is_integer(t)) {
            // Small integers; for products ±1 with a 2 every 7th element, so that no product overflows.
            for (size_t i = 0; i < data.size(); ++i)
              data[i] = k == Kind::kProd ? (data[i] < 1 ? -1.0 : 1.0) * (i % 7 == 0 ? 2 : 1) : std::round(data[i]);
          }
          data = round_all(data, t);
          check_reduce(k, t, c.shape, c.axes, keep, data);
        }
      }
    }
  }
}

TEST(Reductions, LargeArraysUseEveryPathInParallel) {
  // Large enough that each layout splits across threads.
  const AxesCase big[] = {
      {{3, 20000}, std::vector<int>{0}, "leading"},  {{40000, 3}, std::vector<int>{1}, "trailing"},
      {{100, 3, 200}, std::vector<int>{1}, "mixed"}, {{2, 70000}, std::vector<int>{1}, "trailing, long rows"},
      {{70001}, std::nullopt, "all"},
  };
  for (Kind k : {Kind::kSum, Kind::kMax, Kind::kMin}) {
    for (st::DType t : {st::f32, st::f64, st::bf16}) {
      for (const AxesCase& c : big) {
        SCOPED_TRACE(std::string(kind_name(k)) + " " + name(t) + " " + st::shape_string(c.shape) + " " + c.layout);
        std::vector<double> data = round_all(test_values(static_cast<size_t>(st::num_elements(c.shape)), -1, 1, 9), t);
        check_reduce(k, t, c.shape, c.axes, false, data);
      }
    }
  }
}

TEST(Reductions, LongFloatSumsKeepTheirDigitsEagerly) {
  // 4M f32 normals: each of Eigen's packet lanes summing 131072 terms in a row left the sum
  // 1e-2 off (with 16M, up to 8e-2); in blocks of 1024 summed pairwise it is within 1e-3 of
  // the sum in double (JAX 0.10.2's: 1e-5 to 6e-4 at 16M). The compiled sums' accuracy:
  // tests/jit/test_float_sum_accuracy.cpp.
  for (int seed : {1, 2, 3}) {
    st::Array x = st::random::normal(st::random::key(seed), {1 << 22}, st::f32);
    double exact = 0;
    for (float v : x.to_vector<float>()) exact += v;
    EXPECT_NEAR(st::sum(x).item<float>(), exact, 1e-3) << "seed " << seed;
    // Along rows too (the kernel's row path), and as complex parts.
    st::Array rows = st::sum(st::reshape(x, {2, 1 << 21}), {1});
    EXPECT_NEAR(st::sum(st::astype(rows, st::f64)).item<double>(), exact, 1e-3) << "seed " << seed;
  }
  // Along the leading axis (the kernel's column path: blocks of 64 rows, the blocks pairwise):
  // within 8 units of 2^-24·||column||₂ of the sum in double (rows added in order, the old kernel: up to 205).
  {
    const int64_t rows = 1 << 18, cols = 16;
    std::vector<float> v = st::random::normal(st::random::key(6), {rows * cols}, st::f32).to_vector<float>();
    std::vector<float> got = st::sum(st::array(v, {rows, cols}), {0}).to_vector<float>();
    for (int64_t j = 0; j < cols; ++j) {
      double sum = 0, squares = 0;
      for (int64_t i = 0; i < rows; ++i) {
        sum += v[i * cols + j];
        squares += static_cast<double>(v[i * cols + j]) * v[i * cols + j];
      }
      EXPECT_LT(std::abs(got[j] - sum) / (std::ldexp(1.0, -24) * std::sqrt(squares)), 8) << "column " << j;
    }
  }
  st::Array z = st::complex(st::random::normal(st::random::key(4), {1 << 22}, st::f32), st::random::normal(st::random::key(5), {1 << 22}, st::f32));
  double re = 0, im = 0;
  for (float v : st::real(z).to_vector<float>()) re += v;
  for (float v : st::imag(z).to_vector<float>()) im += v;
  st::Array s = st::sum(z);
  EXPECT_NEAR(st::real(s).item<float>(), re, 1e-3);
  EXPECT_NEAR(st::imag(s).item<float>(), im, 1e-3);
}

TEST(Reductions, HalfTypesAccumulateInF32) {
  // 4096 ones: a bf16 accumulator would stop at 256, an f16 one at 2048.
  for (st::DType t : {st::bf16, st::f16}) {
    SCOPED_TRACE(name(t));
    for (const st::Shape& s : {st::Shape{4096}, st::Shape{4096, 2}, st::Shape{2, 4096}, st::Shape{2, 4096, 2}}) {
      std::vector<int> axis = {s.size() == 1 ? 0 : s.size() == 3 ? 1 : s[0] == 4096 ? 0 : 1};
      st::Array r = st::sum(st::ones(s, t), st::Axes(axis));
      EXPECT_EQ(r.dtype(), t);
      for (double v : values(r)) EXPECT_EQ(v, 4096);
      st::Array m = st::mean(st::ones(s, t), st::Axes(axis));
      EXPECT_EQ(m.dtype(), t);
      for (double v : values(m)) EXPECT_EQ(v, 1);
    }
    // 0.1 summed 1000 times: within a bf16/f16 ULP of 100, not of an accumulated drift.
    st::Array r = st::sum(st::full({1000}, 0.1, t));
    double one = round_all({0.1}, t)[0];
    expect_array(r, {}, t, round_all({1000 * one}, t), 1);
  }
}

TEST(Reductions, NanPropagatesInMaxAndMin) {
  for (st::DType t : st::testing::kFloatTypes) {
    SCOPED_TRACE(name(t));
    // nan first, middle, last of a row; in each layout.
    std::vector<double> d = {NAN, 1, 2, 3, -1, NAN, 5, 6, 7, 8, 9, NAN, 0, 1, 2, 3};
    for (const AxesCase& c : {AxesCase{{4, 4}, std::vector<int>{1}, "trailing"}, AxesCase{{4, 4}, std::vector<int>{0}, "leading"},
                              AxesCase{{2, 4, 2}, std::vector<int>{1}, "mixed"}, AxesCase{{16}, std::nullopt, "all"}}) {
      SCOPED_TRACE(c.layout);
      check_reduce(Kind::kMax, t, c.shape, c.axes, false, d);
      check_reduce(Kind::kMin, t, c.shape, c.axes, false, d);
      check_reduce(Kind::kSum, t, c.shape, c.axes, false, d);
    }
    // Infinities are ordinary values.
    expect_exact(st::max(st::array(std::vector<double>{-INFINITY, INFINITY, 0}, {3}, t)), {}, t, {INFINITY});
    expect_exact(st::min(st::array(std::vector<double>{-INFINITY, INFINITY, 0}, {3}, t)), {}, t, {-INFINITY});
    expect_exact(st::sum(st::array(std::vector<double>{-INFINITY, INFINITY}, {2}, t)), {}, t, {NAN});
  }
}

TEST(Reductions, EmptyReductionsGiveTheIdentity) {
  // As lax.reduce does: 0 for sum, 1 for prod, -inf/+inf (or the integer extremes) for max/min.
  for (st::DType t : {st::f32, st::f64, st::bf16, st::f16, st::i32, st::i64}) {
    SCOPED_TRACE(name(t));
    bool fl = st::is_floating(t);
    double lo = fl ? -INFINITY : t == st::i32 ? INT_MIN : -9223372036854775808.0;
    double hi = fl ? INFINITY : t == st::i32 ? INT_MAX : 9223372036854775807.0;
    st::Array e = st::zeros({0}, t);
    expect_exact(st::sum(e), {}, t, {0});
    expect_exact(st::prod(e), {}, t, {1});
    expect_exact(st::max(e), {}, t, {lo});
    expect_exact(st::min(e), {}, t, {hi});
    st::Array e2 = st::zeros({2, 0, 3}, t);
    expect_exact(st::sum(e2, 1), {2, 3}, t, std::vector<double>(6, 0));
    expect_exact(st::prod(e2, {1}, true), {2, 1, 3}, t, std::vector<double>(6, 1));
    expect_exact(st::max(e2, {0, 1}), {3}, t, std::vector<double>(3, lo));
    expect_exact(st::min(e2, {1, 2}), {2}, t, std::vector<double>(2, hi));
    // Reducing the non-empty axis of an empty array: still empty.
    EXPECT_EQ(st::sum(e2, 2).shape(), (st::Shape{2, 0}));
    EXPECT_EQ(st::max(e2, 0).shape(), (st::Shape{0, 3}));
  }
  expect_exact(st::mean(st::zeros({0})), {}, st::f32, {NAN});
  EXPECT_EQ(st::sum(st::zeros({0}, st::i64)).to_vector<int64_t>()[0], 0);
  EXPECT_EQ(st::max(st::zeros({0}, st::i64)).to_vector<int64_t>()[0], std::numeric_limits<int64_t>::min());
}

TEST(Reductions, BoolInputs) {
  st::Array b = st::array({true, false, true, true, false, true}, {2, 3});
  st::Array s = st::sum(b);
  EXPECT_EQ(s.dtype(), st::i32);
  EXPECT_EQ(s.item<int>(), 4);
  EXPECT_EQ(st::sum(b, 1).to_vector<int>(), (std::vector<int>{2, 2}));
  EXPECT_EQ(st::sum(b, 0, true).shape(), (st::Shape{1, 3}));
  EXPECT_EQ(st::sum(b, 0, true).to_vector<int>(), (std::vector<int>{2, 0, 2}));
  EXPECT_EQ(st::prod(b, 0).dtype(), st::i32);
  EXPECT_EQ(st::prod(b, 0).to_vector<int>(), (std::vector<int>{1, 0, 1}));
  EXPECT_EQ(st::max(b, 1).dtype(), st::bool_);
  EXPECT_EQ(st::max(b, 0).to_vector<bool>(), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(st::min(b, 1).to_vector<bool>(), (std::vector<bool>{false, false}));
  st::Array m = st::mean(b, 0);
  EXPECT_TRUE(st::is_floating(m.dtype()));
  expect_array(m, {3}, m.dtype(), {1, 0, 1}, 0);
  EXPECT_EQ(st::sum(st::zeros({0}, st::bool_)).dtype(), st::i32);
  EXPECT_EQ(st::max(st::zeros({0}, st::bool_)).item<bool>(), false);
  EXPECT_EQ(st::min(st::zeros({0}, st::bool_)).item<bool>(), true);
}

TEST(Reductions, Mean) {
  for (st::DType t : st::testing::kFloatTypes) {
    SCOPED_TRACE(name(t));
    std::vector<double> d = round_all(test_values(60, -5, 5, 17), t);
    for (const AxesCase& c : {AxesCase{{3, 4, 5}, std::nullopt, "all"}, AxesCase{{3, 4, 5}, std::vector<int>{1}, "middle"},
                              AxesCase{{3, 4, 5}, std::vector<int>{0, -1}, "outer"}, AxesCase{{3, 4, 5}, std::vector<int>{2}, "trailing"}}) {
      for (bool keep : {false, true}) {
        SCOPED_TRACE(std::string(c.layout) + (keep ? " keepdims" : ""));
        std::vector<int> norm;
        if (c.axes)
          for (int a : *c.axes) norm.push_back(a < 0 ? a + 3 : a);
        else
          norm = {0, 1, 2};
        st::Shape out;
        std::vector<double> want = ref_reduce(Kind::kSum, d, c.shape, norm, &out);
        double n = 1;
        for (int a : norm) n *= static_cast<double>(c.shape[static_cast<size_t>(a)]);
        for (double& w : want) w /= n;
        if (keep) {
          out = c.shape;
          for (int a : norm) out[static_cast<size_t>(a)] = 1;
        }
        st::Array r = st::mean(st::array(d, c.shape, t), c.axes ? st::Axes(*c.axes) : st::Axes(), keep);
        // bf16/f16: accumulated and divided in f32, rounded once.
        expect_array(r, out, t, round_all(want, t), t == st::f32 || t == st::f64 ? 4 : 1, 1e-6);
      }
    }
  }
  // Integers average as floats.
  st::Array m = st::mean(st::array({1, 2, 3, 5}, {2, 2}), 1);
  EXPECT_EQ(m.dtype(), st::f32);
  expect_exact(m, {2}, st::f32, {1.5, 4});
  expect_exact(st::mean(st::Array(3.0f)), {}, st::f32, {3});
}

TEST(Argmax, FirstOfTiesAndFirstNan) {
  for (st::DType t : {st::f32, st::f64, st::bf16, st::f16, st::i32, st::i64}) {
    SCOPED_TRACE(name(t));
    st::Array x = st::array(std::vector<double>{1, 3, 3, 2, 5, 5, 5, 0, -1, -1, -2, -1}, {3, 4}, t);
    st::Array r = st::argmax(x, 1);
    EXPECT_EQ(r.dtype(), st::i32);
    EXPECT_EQ(r.shape(), st::Shape{3});
    EXPECT_EQ(r.to_vector<int>(), (std::vector<int>{1, 0, 0}));
    EXPECT_EQ(st::argmax(x, 0).to_vector<int>(), (std::vector<int>{1, 1, 1, 0}));
    EXPECT_EQ(st::argmax(x, -2).to_vector<int>(), (std::vector<int>{1, 1, 1, 0}));
    EXPECT_EQ(st::argmax(x).item<int>(), 4);
    EXPECT_EQ(st::argmax(x).shape(), st::Shape{});
    EXPECT_EQ(st::argmax(x, std::nullopt, true).shape(), (st::Shape{1, 1}));
    EXPECT_EQ(st::argmax(x, 1, true).shape(), (st::Shape{3, 1}));
    EXPECT_EQ(st::argmax(x, 1, true).to_vector<int>(), (std::vector<int>{1, 0, 0}));
  }
  for (st::DType t : st::testing::kFloatTypes) {
    SCOPED_TRACE(name(t));
    st::Array x = st::array(std::vector<double>{1, NAN, 3, NAN, NAN, 5, 0, 0, -INFINITY, -INFINITY, 2, NAN}, {3, 4}, t);
    EXPECT_EQ(st::argmax(x, 1).to_vector<int>(), (std::vector<int>{1, 0, 3}));
    EXPECT_EQ(st::argmax(x, 0).to_vector<int>(), (std::vector<int>{1, 0, 0, 0}));
    EXPECT_EQ(st::argmax(x).item<int>(), 1);
    EXPECT_EQ(st::argmax(st::array(std::vector<double>{-INFINITY, -INFINITY}, {2}, t)).item<int>(), 0);
    EXPECT_EQ(st::argmax(st::array(std::vector<double>{-0.0, 0.0}, {2}, t)).item<int>(), 0);
  }
}

TEST(Argmax, AgainstLoopsOnEveryAxis) {
  st::Shape shape = {3, 4, 5};
  std::vector<double> d = test_values(60, -3, 3, 23);
  for (double& v : d) v = std::round(v);  // many ties
  for (int axis = -3; axis < 3; ++axis) {
    SCOPED_TRACE(axis);
    int a = axis < 0 ? axis + 3 : axis;
    st::Shape out;
    for (int dd = 0; dd < 3; ++dd)
      if (dd != a) out.push_back(shape[static_cast<size_t>(dd)]);
    std::vector<int> want;
    std::vector<int64_t> s = row_major_strides(shape);
    for (int64_t o = 0; o < st::num_elements(out); ++o) {
      // The base offset of this output element's row along `a`.
      int64_t base = 0, rem = o;
      for (int dd = 2; dd >= 0; --dd) {
        if (dd == a) continue;
        base += (rem % shape[static_cast<size_t>(dd)]) * s[static_cast<size_t>(dd)];
        rem /= shape[static_cast<size_t>(dd)];
      }
      int best = 0;
      for (int k = 1; k < shape[static_cast<size_t>(a)]; ++k)
        if (d[static_cast<size_t>(base + k * s[static_cast<size_t>(a)])] > d[static_cast<size_t>(base + best * s[static_cast<size_t>(a)])]) best = k;
      want.push_back(best);
    }
    st::Array r = st::argmax(st::array(d, shape, st::f32), axis);
    EXPECT_EQ(r.shape(), out);
    EXPECT_EQ(r.to_vector<int>(), want);
  }
  // A long axis, split across threads.
  std::vector<double> big = test_values(200000, 0, 1, 3);
  big[123457] = 2;
  big[190000] = 2;
  EXPECT_EQ(st::argmax(st::array(big, {200000}, st::f32)).item<int>(), 123457);
  EXPECT_EQ(st::argmax(st::array(big, {2000, 100}, st::f32), 1).to_vector<int>()[1234], 57);
  EXPECT_EQ(st::argmax(st::array(big, {100, 2000}, st::f32), 0).to_vector<int>()[1457], 61);
}

TEST(Argmax, BoolAndSize1) {
  EXPECT_EQ(st::argmax(st::array({false, true, true}, {3})).item<int>(), 1);
  EXPECT_EQ(st::argmax(st::array({false, false}, {2})).item<int>(), 0);
  EXPECT_EQ(st::argmax(st::array({7.f}, {1})).item<int>(), 0);
  EXPECT_EQ(st::argmax(st::Array(7.0f)).item<int>(), 0);
  EXPECT_EQ(st::argmax(st::zeros({3, 1}), 1).to_vector<int>(), (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(st::argmax(st::zeros({0, 3}), 1).shape(), (st::Shape{0}));
}

TEST(Reductions, Errors) {
  st::Array a = st::zeros({3, 4});
  expect_contains(error_message<st::ValueError>([&] { st::sum(a, 2); }), "sum: axis 2 is out of range for f32[3,4] (rank 2)");
  expect_contains(error_message<st::ValueError>([&] { st::mean(a, -3); }), "mean: axis -3 is out of range for f32[3,4]");
  expect_contains(error_message<st::ValueError>([&] { st::prod(a, {0, 2}); }), "prod: axis 2 is out of range");
  expect_contains(error_message<st::ValueError>([&] { st::max(a, {0, -2}); }), "max: axis -2 is repeated in the axes for f32[3,4]");
  expect_contains(error_message<st::ValueError>([&] { st::min(a, {1, 1}); }), "min: axis 1 is repeated");
  expect_contains(error_message<st::ValueError>([&] { st::sum(st::Array(1.0f), 0); }), "sum: axis 0 is out of range for f32[] (rank 0)");
  expect_contains(error_message<st::ValueError>([&] { st::argmax(a, 2); }), "argmax: axis 2 is out of range for f32[3,4]");
  expect_contains(error_message<st::ValueError>([&] { st::argmax(st::zeros({0, 3}), 0); }), "argmax: axis 0 of f32[0,3] is empty");
  // Over the whole of an empty array there is no index to return (NumPy and JAX raise too).
  expect_contains(error_message<st::ValueError>([&] { st::argmax(st::zeros({0})); }), "argmax");
  expect_contains(error_message<st::ValueError>([&] { st::argmax(st::zeros({2, 0})); }), "f32[2,0]");
}

}  // namespace
