// The elementwise composites log2, log10, hypot, logaddexp and sinc (jnp's definitions) against
// std:: references in double over the float dtypes and edge values, integer promotion, jit
// against eager (within 4 ULPs: compiled sin/log may differ from libm's in the last bits), and their derivatives (check_grads; sinc's at 0 as jnp's custom rule).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::close;
using st::testing::round_all;
using st::testing::values;

namespace {

using Unary = std::function<Array(const Array&)>;
using Binary = std::function<Array(const Array&, const Array&)>;

Array vec(const std::vector<double>& v, st::DType t) { return st::array(v, {static_cast<int64_t>(v.size())}, t); }

// Each value of `got` against ref(inputs) rounded to t, within `ulps` ULPs or atol(x).
void expect_close(const Array& got, const std::vector<double>& want_unrounded, st::DType t, double ulps,
                  const std::function<double(size_t)>& atol, const std::function<std::string(size_t)>& what) {
  ASSERT_EQ(got.dtype(), t);
  std::vector<double> g = values(got), w = round_all(want_unrounded, t);
  ASSERT_EQ(g.size(), w.size());
  for (size_t i = 0; i < g.size(); ++i)
    EXPECT_TRUE(close(g[i], w[i], t, ulps, atol(i))) << what(i) << ": got " << g[i] << ", want " << w[i];
}

double ref_logaddexp(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return NAN;
  if (a == b) return std::isinf(a) ? a : a + std::log(2.0);
  double m = std::max(a, b), o = std::min(a, b);
  return m + std::log1p(std::exp(o - m));
}

double ref_sinc(double x) { return x == 0 ? 1.0 : std::sin(M_PI * x) / (M_PI * x); }

const std::vector<double> kLogEdges = {1, 2, 8, 10, 1000, 0.1, 1e-30, 3e-39, 0.0, -0.0, -1, INFINITY, -INFINITY, NAN, 3.3e38};

}  // namespace

TEST(Composites, Log2AndLog10) {
  struct Case { const char* name; Unary f; double (*ref)(double); };
  for (const Case& c : {Case{"log2", [](const Array& x) { return st::log2(x); }, static_cast<double (*)(double)>(std::log2)},
                        Case{"log10", [](const Array& x) { return st::log10(x); }, static_cast<double (*)(double)>(std::log10)}}) {
    for (st::DType t : st::testing::kFloatTypes) {
      SCOPED_TRACE(std::string(c.name) + " " + std::string(st::short_name(t)));
      std::vector<double> x = round_all(st::testing::test_values(40, 0.01, 100, 5), t);
      x.insert(x.end(), kLogEdges.begin(), kLogEdges.end());
      x = round_all(x, t);
      std::vector<double> want;
      for (double v : x) want.push_back(c.ref(v));
      expect_close(c.f(vec(x, t)), want, t, 4, [](size_t) { return 0.0; },
                   [&](size_t i) { return std::string(c.name) + "(" + std::to_string(x[i]) + ")"; });
    }
    // Integers are promoted to f32, as jnp does.
    Array r = c.f(st::array({1, 100}, {2}));
    EXPECT_EQ(r.dtype(), st::f32);
    EXPECT_NEAR(r.to_vector<double>()[1], c.ref(100), 1e-6);
  }
  EXPECT_EQ(st::log2(st::Array(1024.0)).item<double>(), 10.0);
  // log(x)/log(10), as jnp: 1000 gives 3 within an ULP, not necessarily exactly.
  EXPECT_NEAR(st::log10(st::Array(1000.0)).item<double>(), 3.0, 1e-15);
}

TEST(Composites, Hypot) {
  for (st::DType t : st::testing::kFloatTypes) {
    SCOPED_TRACE(st::short_name(t));
    const double big = t == st::f64 ? 1e300 : t == st::f16 ? 6e4 : 1e38;
    const double tiny = t == st::f64 ? 1e-300 : t == st::f16 ? 1e-7 : t == st::bf16 ? 1e-38 : 1e-40;
    std::vector<double> a = st::testing::test_values(30, -50, 50, 3), b = st::testing::test_values(30, -50, 50, 4);
    std::vector<std::pair<double, double>> edges = {
        {3, 4}, {-3, 4}, {0, -5}, {0, 0}, {-0.0, 0}, {big, big}, {-big, big / 2}, {tiny, tiny}, {tiny, 0},
        {INFINITY, NAN}, {NAN, -INFINITY}, {INFINITY, 1}, {-INFINITY, -INFINITY}, {NAN, 1}, {1, NAN}};
    for (auto [p, q] : edges) a.push_back(p), b.push_back(q);
    a = round_all(a, t), b = round_all(b, t);
    std::vector<double> want;
    for (size_t i = 0; i < a.size(); ++i) want.push_back(std::hypot(a[i], b[i]));
    expect_close(st::hypot(vec(a, t), vec(b, t)), want, t, 4, [](size_t) { return 0.0; },
                 [&](size_t i) { return "hypot(" + std::to_string(a[i]) + ", " + std::to_string(b[i]) + ")"; });
  }
  // Broadcasting, and integer operands promoted to f32.
  Array r = st::hypot(st::array({3, 5}, {2}), st::Array(4));
  EXPECT_EQ(r.dtype(), st::f32);
  EXPECT_EQ(r.to_vector<double>(), (std::vector<double>{5, static_cast<double>(std::hypot(5.0f, 4.0f))}));
  EXPECT_EQ(st::hypot(st::Array(3.0f), st::array({4.0, 0.0}, {2}, st::f64)).dtype(), st::f64);
}

TEST(Composites, Logaddexp) {
  for (st::DType t : st::testing::kFloatTypes) {
    SCOPED_TRACE(st::short_name(t));
    const double big = t == st::f16 ? 6e4 : 1e30;
    std::vector<double> a = st::testing::test_values(30, -20, 20, 5), b = st::testing::test_values(30, -20, 20, 6);
    std::vector<std::pair<double, double>> edges = {
        {0, 0}, {1, 2}, {-3, -3}, {big, big}, {-big, -big}, {big, -big}, {1000, 0}, {-1000, 0},
        {INFINITY, INFINITY}, {-INFINITY, -INFINITY}, {INFINITY, -INFINITY}, {-INFINITY, INFINITY},
        {-INFINITY, 3}, {2, -INFINITY}, {INFINITY, 3}, {NAN, 1}, {1, NAN}, {NAN, INFINITY}, {-INFINITY, NAN}};
    for (auto [p, q] : edges) a.push_back(p), b.push_back(q);
    a = round_all(a, t), b = round_all(b, t);
    std::vector<double> want;
    for (size_t i = 0; i < a.size(); ++i) want.push_back(ref_logaddexp(a[i], b[i]));
    expect_close(st::logaddexp(vec(a, t), vec(b, t)), want, t, 4, [](size_t) { return 0.0; },
                 [&](size_t i) { return "logaddexp(" + std::to_string(a[i]) + ", " + std::to_string(b[i]) + ")"; });
  }
  EXPECT_EQ(st::logaddexp(st::array({0}, {1}), st::Array(0)).dtype(), st::f32);
}

TEST(Composites, Sinc) {
  for (st::DType t : st::testing::kFloatTypes) {
    SCOPED_TRACE(st::short_name(t));
    std::vector<double> x = st::testing::test_values(50, -5, 5, 7);
    x.insert(x.end(), {0.0, -0.0, 1, -1, 2, 0.5, -0.5, 1e-20, -3e-8, 1e4, INFINITY, -INFINITY, NAN});
    x = round_all(x, t);
    std::vector<double> want;
    for (double v : x) want.push_back(ref_sinc(v));
    // pi x is rounded to t: the error of sin(pi x)/(pi x) is absolute, a few ULPs of 1.
    expect_close(st::sinc(vec(x, t)), want, t, 4,
                 [&](size_t) { return 4 * st::testing::ulp(1.0, t); },
                 [&](size_t i) { return "sinc(" + std::to_string(x[i]) + ")"; });
  }
  std::vector<double> at0 = values(st::sinc(vec({0.0, -0.0}, st::f32)));
  EXPECT_EQ(at0, (std::vector<double>{1, 1}));
  EXPECT_EQ(st::sinc(st::array({0, 1}, {2})).dtype(), st::f32);
}

TEST(Composites, JitMatchesEager) {
  std::vector<double> x = {-0.0, 0.0, 1e-30, 0.3, -0.5, 1.0, 2.5, -3.9, 100, INFINITY, -INFINITY, NAN};
  std::vector<double> y = {1.0, 0.0, -2.0, 0.3, 7.5, -INFINITY, 2.5, 1e30, -100, INFINITY, 3, 1};
  for (st::DType t : st::testing::kFloatTypes) {
    SCOPED_TRACE(st::short_name(t));
    Array a = vec(x, t), b = vec(y, t);
    struct Case { const char* name; Binary f; };
    for (const Case& c : {Case{"log2", [](const Array& u, const Array&) { return st::log2(u); }},
                          Case{"log10", [](const Array& u, const Array&) { return st::log10(u); }},
                          Case{"sinc", [](const Array& u, const Array&) { return st::sinc(u); }},
                          Case{"hypot", [](const Array& u, const Array& v) { return st::hypot(u, v); }},
                          Case{"logaddexp", [](const Array& u, const Array& v) { return st::logaddexp(u, v); }}}) {
      SCOPED_TRACE(c.name);
      std::vector<double> got = st::jit(c.f)(a, b).to_vector<double>(), want = c.f(a, b).to_vector<double>();
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_TRUE(close(got[i], want[i], t, 4)) << c.name << " at " << i << ": " << got[i] << " vs " << want[i];
    }
  }
}

TEST(Composites, Derivatives) {
  using V = std::vector<Array>;
  using st::testing::check_grads;
  auto rnd = [](std::vector<int64_t> shape, uint64_t seed, double lo, double hi) {
    return st::random::uniform(st::random::key(seed), shape, st::f64, lo, hi);
  };
  Array pos = rnd({3, 4}, 1, 0.2, 5), x = rnd({3, 4}, 2, -3, 3), y = rnd({4}, 3, -3, 3);
  check_grads([](const V& v) { return st::log2(v[0]); }, {pos}, "log2");
  check_grads([](const V& v) { return st::log10(v[0]); }, {pos}, "log10");
  check_grads([](const V& v) { return st::hypot(v[0], v[1]); }, {x, y}, "hypot");
  check_grads([](const V& v) { return st::logaddexp(v[0], v[1]); }, {x, y}, "logaddexp");
  check_grads([](const V& v) { return st::logaddexp(v[0], v[1]); }, {x * 100, y}, "logaddexp large");
  // At equal operands each derivative is exactly 1/2.
  check_grads([](const V& v) { return st::logaddexp(v[0], v[1]); }, {x, x}, "logaddexp x x");
  auto [ga, gb] = st::grad([](const Array& a, const Array& b) { return st::sum(st::logaddexp(a, b)); },
                           st::argnums<0, 1>)(st::array({1.0, -2.0}, {2}, st::f64), st::array({1.0, -2.0}, {2}, st::f64));
  EXPECT_EQ(ga.to_vector<double>(), (std::vector<double>{0.5, 0.5}));
  EXPECT_EQ(gb.to_vector<double>(), (std::vector<double>{0.5, 0.5}));
  Array xs = st::concatenate({st::reshape(x, {12}), st::array({0.0, 1.0, -1.0, 0.5}, {4}, st::f64)});
  check_grads([](const V& v) { return st::sinc(v[0]); }, {xs}, "sinc");
  // sinc at 0: derivative 0 and second derivative -pi^2/3, as jnp's custom rule.
  auto dsinc = [](const Array& v) { return st::grad([](const Array& u) { return st::sum(st::sinc(u)); })(v); };
  Array zero = st::array({0.0}, {1}, st::f64);
  EXPECT_EQ(dsinc(zero).to_vector<double>()[0], 0.0);
  double d2 = st::grad([&](const Array& v) { return st::sum(dsinc(v)); })(zero).to_vector<double>()[0];
  EXPECT_NEAR(d2, -M_PI * M_PI / 3, 1e-12);
}
