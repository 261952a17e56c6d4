// cumsum, cumprod, cummax, cummin, cumlogsumexp against plain loops (every axis, both
// directions, every dtype, nans and ±0), jit against eager, derivatives against finite
// differences (through the associative scan), and vmap.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "autodiff/check_grads.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using namespace st::testing;

namespace {

using CumFn = Array (*)(const Array&, std::optional<int>, bool, st::SourceLocation);

struct Kind {
  const char* name;
  CumFn fn;
  std::function<double(double, double)> combine;  // in double: the reference
};

double ref_lse(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return NAN;
  if (a == b && std::isinf(a)) return a;
  double m = std::max(a, b);
  return m + std::log1p(std::exp(-std::fabs(a - b)));
}
double nan_max(double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b); }
double nan_min(double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b); }

const Kind kKinds[] = {
    {"cumsum", [](const Array& x, std::optional<int> a, bool r, st::SourceLocation l) { return st::cumsum(x, a, r, l); },
     [](double a, double b) { return a + b; }},
    {"cumprod", [](const Array& x, std::optional<int> a, bool r, st::SourceLocation l) { return st::cumprod(x, a, r, l); },
     [](double a, double b) { return a * b; }},
    {"cummax", [](const Array& x, std::optional<int> a, bool r, st::SourceLocation l) { return st::cummax(x, a, r, l); }, nan_max},
    {"cummin", [](const Array& x, std::optional<int> a, bool r, st::SourceLocation l) { return st::cummin(x, a, r, l); }, nan_min},
    {"cumlogsumexp",
     [](const Array& x, std::optional<int> a, bool r, st::SourceLocation l) { return st::cumlogsumexp(x, a, r, l); }, ref_lse},
};

// The reference along `axis` of a row-major array of `shape`, rounding to t at each step as
// the library does (bf16/f16 store every partial result).
std::vector<double> reference(const Kind& k, const std::vector<double>& v, const st::Shape& shape, int axis, bool reverse,
                              st::DType t) {
  int64_t n = shape[static_cast<size_t>(axis)], inner = 1, outer = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (static_cast<int>(d) < axis) outer *= shape[d];
    if (static_cast<int>(d) > axis) inner *= shape[d];
  }
  bool half = t == st::bf16 || t == st::f16;
  std::vector<double> out(v.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      double acc = 0;
      for (int64_t s = 0; s < n; ++s) {
        int64_t kk = reverse ? n - 1 - s : s;
        size_t at = static_cast<size_t>((o * n + kk) * inner + i);
        acc = s == 0 ? v[at] : k.combine(acc, v[at]);
        if (half) acc = ref_round(acc, t);
        out[at] = acc;
      }
    }
  return out;
}

std::vector<double> random_values(size_t n, double lo, double hi, unsigned seed, bool integers) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<double> v(n);
  for (double& x : v) x = integers ? std::round(d(g)) + 0.0 : d(g);  // + 0.0: no -0 integers
  return v;
}

}  // namespace

TEST(Cumulative, AgainstLoopsOnEveryAxisDirectionAndDtype) {
  st::Shape shape{3, 4, 5};
  for (const Kind& k : kKinds)
    for (st::DType t : kNumericTypes) {
      bool fl = st::is_floating(t);
      if (std::string(k.name) == "cumlogsumexp" && !fl) continue;
      SCOPED_TRACE(std::string(k.name) + " " + std::string(st::short_name(t)));
      // Products stay small: values near ±1.
      bool prod = std::string(k.name) == "cumprod";
      std::vector<double> v = random_values(60, prod ? -1.5 : -9, prod ? 1.5 : 9, 3, !fl);
      v = round_all(v, t);
      Array x = st::array(v, shape, t);
      for (int axis = 0; axis < 3; ++axis)
        for (bool reverse : {false, true}) {
          SCOPED_TRACE("axis " + std::to_string(axis) + (reverse ? " reverse" : ""));
          std::vector<double> want = reference(k, v, shape, axis, reverse, t);
          double ulps = std::string(k.name) == "cumlogsumexp" ? 16 : 4;
          double atol = fl ? 1e-6 : 0;
          if (t == st::bf16 || t == st::f16) atol = 0;
          expect_array(k.fn(x, axis, reverse, st::SourceLocation::current()), shape, t, want, ulps, atol);
          Array j = st::jit([&](const Array& a) { return k.fn(a, axis, reverse, st::SourceLocation::current()); })(x);
          expect_array(j, shape, t, want, ulps, atol);
        }
    }
}

TEST(Cumulative, NansZerosInfinitiesAndIntegerWrap) {
  std::vector<double> v = {1, -0.0, NAN, 2, -INFINITY, INFINITY};
  for (const Kind& k : kKinds) {
    SCOPED_TRACE(k.name);
    Array x = st::array(v, {6}, st::f32);
    std::vector<double> want = reference(k, v, {6}, 0, false, st::f32);
    for (const Array& got : {k.fn(x, 0, false, st::SourceLocation::current()),
                             st::jit([&](const Array& a) { return k.fn(a, 0, false, st::SourceLocation::current()); })(x)}) {
      std::vector<double> g = got.to_vector<double>();
      for (size_t i = 0; i < 6; ++i) EXPECT_TRUE(identical(g[i], want[i]) || std::fabs(g[i] - want[i]) < 1e-6) << i << ": " << g[i] << " vs " << want[i];
    }
  }
  // ±0: the running maximum of -0 then +0 is +0; the sum of -0 alone is -0.
  expect_exact(st::cummax(st::array(std::vector<double>{-0.0, 0.0}, {2}, st::f32)), {2}, st::f32, {-0.0, 0.0});
  expect_exact(st::cumsum(st::array(std::vector<double>{-0.0}, {1}, st::f32)), {1}, st::f32, {-0.0});
  // Equal infinities in cumlogsumexp stay themselves.
  expect_exact(st::cumlogsumexp(st::array(std::vector<double>{-INFINITY, -INFINITY, INFINITY, INFINITY}, {4}, st::f32)),
               {4}, st::f32, {-INFINITY, -INFINITY, INFINITY, INFINITY});
  // Integer sums wrap as in two's complement, eagerly and compiled.
  Array big = st::array(std::vector<int32_t>{INT32_MAX, 1, 1}, {3});
  expect_exact(st::cumsum(big), {3}, st::i32, {INT32_MAX, INT32_MIN, INT32_MIN + 1.0});
  expect_exact(st::jit([](const Array& a) { return st::cumsum(a); })(big), {3}, st::i32, {INT32_MAX, INT32_MIN, INT32_MIN + 1.0});
}

TEST(Cumulative, ApiFlatteningBoolsEmptyAndErrors) {
  Array m = st::array(std::vector<double>{1, 2, 3, 4, 5, 6}, {2, 3}, st::f32);
  expect_exact(st::cumsum(m), {6}, st::f32, {1, 3, 6, 10, 15, 21});
  expect_exact(st::cumsum(m, -1), {2, 3}, st::f32, {1, 3, 6, 4, 9, 15});
  expect_exact(st::cumsum(m, 0, true), {2, 3}, st::f32, {5, 7, 9, 4, 5, 6});
  expect_exact(st::cumsum(st::array({true, false, true}, {3})), {3}, st::i32, {1, 1, 2});
  expect_exact(st::cummax(st::array({false, true, false}, {3})), {3}, st::bool_, {0, 1, 1});
  EXPECT_EQ(st::cumlogsumexp(st::arange(int64_t{3})).dtype(), st::f32);
  EXPECT_EQ(st::cumsum(st::zeros({0, 3}), 0).shape(), (st::Shape{0, 3}));
  EXPECT_EQ(st::jit([](const Array& a) { return st::cumprod(a, 1); })(st::zeros({2, 0})).shape(), (st::Shape{2, 0}));
  expect_contains(error_message<st::ValueError>([&] { st::cumsum(m, 2); }), "cumsum: axis 2 is out of range");
  // Large, split across threads eagerly: every row against the loop.
  std::vector<double> v = random_values(300 * 700, -1, 1, 9, true);
  Array x = st::array(v, {300, 700}, st::i32);
  expect_exact(st::cumsum(x, 1), {300, 700}, st::i32, reference(kKinds[0], v, {300, 700}, 1, false, st::i32));
  expect_exact(st::jit([](const Array& a) { return st::cumsum(a, 0, true); })(x), {300, 700}, st::i32,
               reference(kKinds[0], v, {300, 700}, 0, true, st::i32));
}

TEST(Cumulative, DerivativesAgainstFiniteDifferences) {
  // Distinct values (no ties for max/min), away from zero for prod; odd and even lengths.
  for (int64_t n : {1, 2, 5, 8}) {
    std::vector<double> v = random_values(static_cast<size_t>(3 * n), 0.5, 2, static_cast<unsigned>(n), false);
    for (size_t i = 0; i < v.size(); i += 2) v[i] = -v[i];
    Array x = st::array(v, {3, n}, st::f64);
    for (const Kind& k : kKinds)
      for (int axis : {0, 1})
        for (bool reverse : {false, true}) {
          std::string what = std::string(k.name) + " n=" + std::to_string(n) + " axis " + std::to_string(axis) + (reverse ? " reverse" : "");
          check_grads([&](const std::vector<Array>& a) { return k.fn(a[0], axis, reverse, st::SourceLocation::current()); }, {x}, what);
        }
  }
  // Under jit, and the second derivative of cumsum-of-squares.
  Array x = st::array(std::vector<double>{0.3, -1.2, 2.0, 0.7}, {4}, st::f64);
  Array g = st::jit(st::grad([](const Array& a) { return st::sum(st::cumprod(a) * st::cummax(a)); }))(x);
  Array ge = st::grad([](const Array& a) { return st::sum(st::cumprod(a) * st::cummax(a)); })(x);
  std::vector<double> gv = g.to_vector<double>(), gev = ge.to_vector<double>();
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(gv[i], gev[i], 1e-12);
  // cummax passes the cotangent to the running maximum: [3, 1, 2, 5] → argmax positions 0, 0, 0, 3.
  Array gm = st::grad([](const Array& a) { return st::sum(st::cummax(a)); })(st::array(std::vector<double>{3, 1, 2, 5}, {4}, st::f64));
  expect_exact(gm, {4}, st::f64, {3, 0, 0, 1});
}

TEST(Cumulative, Vmap) {
  Array x = st::array(std::vector<double>{1, 2, 3, 4, 5, 6}, {2, 3}, st::f32);
  for (const Kind& k : kKinds) {
    SCOPED_TRACE(k.name);
    Array r = st::vmap([&](const Array& row) { return k.fn(row, 0, true, st::SourceLocation::current()); }, {1})(x);
    Array want = st::transpose(k.fn(x, 0, true, st::SourceLocation::current()));
    std::vector<double> a = r.to_vector<double>(), b = want.to_vector<double>();
    ASSERT_EQ(r.shape(), (st::Shape{3, 2}));
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-5);
  }
}
