// lgamma, digamma and nextafter (issue 14), and the JAX agreements: `%`/remainder as floor
// modulo with fmod truncating, and grad(abs) at 0. Each against an independent reference
// (std::lgamma, a recurrence-and-series digamma, std::nextafter, Python's %), jit against
// eager, derivatives against finite differences.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "autodiff/check_grads.h"
#include "lax.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity(), kNan = std::numeric_limits<double>::quiet_NaN();

// ψ(x) independently of the Lanczos form: the recurrence ψ(x) = ψ(x+1) - 1/x up to x >= 20,
// then the asymptotic series; the reflection below 1/2.
double digamma_ref(double x) {
  if (x <= 0 && x == std::floor(x)) return NAN;
  if (x < 0.5) return digamma_ref(1 - x) - M_PI / std::tan(M_PI * x);
  double r = 0;
  for (; x < 20; x += 1) r -= 1 / x;
  double x2 = 1 / (x * x);
  return r + std::log(x) - 0.5 / x - x2 * (1. / 12 - x2 * (1. / 120 - x2 * (1. / 252 - x2 * (1. / 240 - x2 / 132))));
}

// Relative error scaled by 1 + |want| (lgamma crosses 0 at 1 and 2).
double err(double got, double want) { return std::fabs(got - want) / (1 + std::fabs(want)); }

}  // namespace

TEST(Lgamma, MatchesStdLgamma) {
  std::vector<double> xs = st::testing::test_values(4000, -30, 40, 1);
  for (double& x : st::testing::test_values(1000, -3, 3, 2)) xs.push_back(x);
  for (st::DType t : {st::f32, st::f64}) {
    Array x = st::array(xs, {static_cast<int64_t>(xs.size())}, t);
    std::vector<double> in = x.to_vector<double>(), got = st::lgamma(x).to_vector<double>();
    double tol = t == st::f64 ? 1e-13 : 1e-5, worst = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      double want = std::lgamma(in[i]);
      if (!std::isfinite(want)) continue;
      worst = std::max(worst, err(got[i], want));
    }
    EXPECT_LT(worst, tol) << st::short_name(t);
  }
}

TEST(Lgamma, EdgeValues) {
  // Poles and infinities give +inf, nan stays nan; Γ(1) = Γ(2) = 1; Γ(1/2) = √π; Γ(-1/2) = -2√π.
  Array x = st::array({0.0, -1.0, -7.0, kInf, -kInf, kNan, 1.0, 2.0, 0.5, -0.5}, {10}, st::f64);
  std::vector<double> y = st::lgamma(x).to_vector<double>();
  for (int i = 0; i < 5; ++i) EXPECT_EQ(y[i], INFINITY) << i;
  EXPECT_TRUE(std::isnan(y[5]));
  EXPECT_NEAR(y[8], std::log(std::sqrt(M_PI)), 1e-15);
  EXPECT_NEAR(y[9], std::log(2 * std::sqrt(M_PI)), 1e-15);
  // lgamma(1) = lgamma(2) = 0 exactly in every float dtype, eager and jit (log 0! and log 1!:
  // the approximation alone leaves 2^-21 in f32 and f16, 2^-50 in f64).
  for (st::DType t : {st::f16, st::bf16, st::f32, st::f64}) {
    Array ones = st::astype(st::array({1.0, 2.0, 1.0, 2.0}, {4}, st::f64), t);
    auto f = [](const Array& v) { return st::astype(st::lgamma(v), st::f64); };
    for (double v : f(ones).to_vector<double>()) EXPECT_EQ(v, 0.0) << st::short_name(t) << " eager";
    for (double v : st::jit(f)(ones).to_vector<double>()) EXPECT_EQ(v, 0.0) << st::short_name(t) << " jit";
  }
  // Integer operands are promoted to f32, as jnp.
  EXPECT_EQ(st::lgamma(st::array({3, 4}, {2})).dtype(), st::f32);
}

// Between 1/2 and 7/2, where lgamma crosses 0 at 1 and 2, the result's own relative accuracy
// (the series about 2; the Lanczos sum alone was up to 1e5 ulps off near 1 and 2, as JAX's),
// eager and jit, against glibc's lgamma in long double.
TEST(Lgamma, RelativeAccuracyWhereItCrossesZero) {
  std::vector<double> xs;
  for (double v = 0.5; v < 3.5; v += 1.0 / 1024) xs.push_back(v);
  for (double d : {1e-3, 1e-5, 1e-7, 3e-9, 1e-12})
    for (double at : {1.0, 2.0})
      for (double sign : {-1.0, 1.0}) xs.push_back(at + sign * d);
  for (st::DType t : {st::f32, st::f64}) {
    const Array x = st::array(xs, {static_cast<int64_t>(xs.size())}, t);
    const std::vector<double> in = x.to_vector<double>();
    const double eps = t == st::f64 ? 0x1p-52 : 0x1p-23;
    auto f = [](const Array& v) { return st::lgamma(v); };
    for (bool compiled : {false, true}) {
      const std::vector<double> got = (compiled ? st::jit(f)(x) : f(x)).to_vector<double>();
      double worst = 0, at = 0;
      for (size_t i = 0; i < in.size(); ++i) {
        const long double want = std::lgamma(static_cast<long double>(in[i]));
        if (want == 0) {
          EXPECT_EQ(got[i], 0.0) << in[i];
          continue;
        }
        const double ulps = static_cast<double>(std::fabs(got[i] - want) / std::fabs(want)) / eps;
        if (ulps > worst) worst = ulps, at = in[i];
      }
      EXPECT_LT(worst, 8) << st::short_name(t) << (compiled ? " jit" : " eager") << " at " << at;
    }
  }
}

TEST(Digamma, MatchesRecurrenceReference) {
  std::vector<double> xs = st::testing::test_values(4000, -30, 40, 3);
  for (st::DType t : {st::f32, st::f64}) {
    Array x = st::array(xs, {static_cast<int64_t>(xs.size())}, t);
    std::vector<double> in = x.to_vector<double>(), got = st::digamma(x).to_vector<double>();
    double worst = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      // Near a pole ψ is ill-conditioned: skip inputs within 1e-3 of a non-positive integer.
      if (in[i] < 0.5 && std::fabs(in[i] - std::round(in[i])) < 1e-3) continue;
      worst = std::max(worst, err(got[i], digamma_ref(in[i])));
    }
    EXPECT_LT(worst, t == st::f64 ? 1e-11 : 2e-5) << st::short_name(t);
  }
  std::vector<double> y = st::digamma(st::array({1.0, 0.0, -3.0, 0.5}, {4}, st::f64)).to_vector<double>();
  EXPECT_NEAR(y[0], -0.57721566490153286, 1e-14);  // -γ
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_TRUE(std::isnan(y[2]));
  EXPECT_NEAR(y[3], -0.57721566490153286 - 2 * std::log(2.0), 1e-14);
}

// Near ψ's positive root 1.4616… (the series there; the Lanczos form's absolute error was up to
// 3e3 ulps of ψ, as JAX's), eager and jit, each value's own relative accuracy against mpmath.
TEST(Digamma, RelativeAccuracyNearItsRoot) {
  const std::vector<double> xs{1.4626321449683621, 1.4606321449683624, 1.4616331449683622, 1.4616320449683622,
                               1.5616321449683623, 1.2616321449683623, 1.7016321449683622, 1.5, 1.25};
  const std::vector<double> want64{0.0009672297406143648, -0.0009681152672804021, 9.67671802512691e-07,
                                   -9.676722912130594e-08, 0.09258270895625463,   -0.2136151297202467,
                                   0.20984174187442842,   0.03648997397857652,    -0.22745353337626542};
  // The same points rounded to f32, and ψ there.
  const std::vector<double> want32{0.0009672628935859528, -0.0009681725751395573, 9.108077224469776e-07,
                                   -1.2739158105197846e-07, 0.09258271906300437,  -0.21361505987473414,
                                   0.20984173957579463,    0.03648997397857652,   -0.22745353337626542};
  auto f = [](const Array& v) { return st::digamma(v); };
  for (st::DType t : {st::f32, st::f64}) {
    const Array x = st::array(xs, {static_cast<int64_t>(xs.size())}, t);
    const std::vector<double>& want = t == st::f64 ? want64 : want32;
    const double eps = t == st::f64 ? 0x1p-52 : 0x1p-23;
    for (bool compiled : {false, true}) {
      const std::vector<double> got = (compiled ? st::jit(f)(x) : f(x)).to_vector<double>();
      for (size_t i = 0; i < xs.size(); ++i)
        EXPECT_NEAR(got[i], want[i], 4 * eps * std::fabs(want[i])) << st::short_name(t) << (compiled ? " jit " : " eager ") << xs[i];
    }
  }
}

TEST(LgammaDigamma, CompiledMatchesEagerOverFloatDtypes) {
  std::vector<double> xs = st::testing::test_values(2000, -12, 25, 4);
  for (double v : {0.0, -1.0, -2.0, 1.0, 2.0, 0.5, 1e-30, -1e-8, 1e10, kInf, -kInf, kNan}) xs.push_back(v);
  for (st::DType t : st::testing::kFloatTypes) {
    Array x = st::array(xs, {static_cast<int64_t>(xs.size())}, t);
    for (auto fn : {+[](const Array& a) { return st::lgamma(a); }, +[](const Array& a) { return st::digamma(a); }}) {
      std::vector<double> got = st::jit(fn)(x).to_vector<double>(), want = fn(x).to_vector<double>();
      for (size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i]) || std::isinf(want[i])) {
          EXPECT_TRUE(st::testing::identical(got[i], want[i])) << xs[i] << ": " << got[i] << " vs " << want[i];
          continue;
        }
        // The same expression; the vector log/sin/log1p of libmvec differ from libm by a few ulps,
        // amplified near lgamma's and digamma's zeros (hence the absolute part).
        double ulp = st::testing::ulp(want[i], t);
        EXPECT_NEAR(got[i], want[i], 64 * ulp + (t == st::f64 ? 1e-13 : 1e-5)) << st::short_name(t) << " " << xs[i];
      }
    }
  }
}

TEST(LgammaDigamma, Derivatives) {
  Array x = st::array({0.3, 1.7, 4.2, -0.6, -2.3, 11.0}, {6}, st::f64);
  // d/dx lgamma = digamma, exactly the primitive.
  Array g = st::grad([](const Array& a) { return st::sum(st::lgamma(a)); })(x);
  std::vector<double> gv = g.to_vector<double>(), dv = st::digamma(x).to_vector<double>();
  for (size_t i = 0; i < gv.size(); ++i) EXPECT_DOUBLE_EQ(gv[i], dv[i]);
  st::testing::check_grads([](const std::vector<Array>& a) { return st::lgamma(a[0]); }, {x}, "lgamma");
  // d/dx digamma = trigamma, against finite differences (and once more for the second derivative).
  st::testing::check_grads([](const std::vector<Array>& a) { return st::digamma(a[0]); }, {x}, "digamma", 1e-6);
  st::testing::check_grads(
      [](const std::vector<Array>& a) { return st::grad([](const Array& v) { return st::sum(st::digamma(v)); })(a[0]); },
      {x}, "trigamma", 1e-5);
  // Under jit too.
  auto dg = st::jit(st::grad([](const Array& a) { return st::sum(st::digamma(a)); }));
  std::vector<double> jg = dg(x).to_vector<double>(),
                      eg = st::grad([](const Array& a) { return st::sum(st::digamma(a)); })(x).to_vector<double>();
  for (size_t i = 0; i < jg.size(); ++i) EXPECT_NEAR(jg[i], eg[i], 1e-12 * (1 + std::fabs(eg[i])));
}

namespace {

// The stored bits of a 16-bit float array.
std::vector<uint64_t> bits16(const Array& a) {
  return st::lax::bind1(st::prim::kBitcastConvertType, {a}, st::Params{{"new_dtype", st::DType::u16}}).to_vector<uint64_t>();
}

}  // namespace

TEST(Nextafter, MatchesStdNextafter) {
  std::vector<double> xs = st::testing::test_values(500, -1e3, 1e3, 5), ys = st::testing::test_values(500, -1e3, 1e3, 6);
  const double edges[][2] = {{0, 1}, {0, -1}, {-0.0, 1}, {1, 1}, {1, 2}, {1, 0}, {-1, -2}, {-1, 0}, {INFINITY, 0},
                             {0, INFINITY}, {NAN, 1}, {1, NAN}, {1e-45, 0}, {-5e-324, 0}, {3.4e38, INFINITY}};
  for (auto& e : edges) xs.push_back(e[0]), ys.push_back(e[1]);
  int64_t n = static_cast<int64_t>(xs.size());
  for (st::DType t : {st::f32, st::f64}) {
    Array x = st::array(xs, {n}, t), y = st::array(ys, {n}, t);
    std::vector<double> in_x = x.to_vector<double>(), in_y = y.to_vector<double>();
    for (bool compiled : {false, true}) {
      Array z = compiled ? st::jit([](const Array& a, const Array& b) { return st::nextafter(a, b); })(x, y) : st::nextafter(x, y);
      std::vector<double> got = z.to_vector<double>();
      for (int64_t i = 0; i < n; ++i) {
        double want = t == st::f32 ? std::nextafter(static_cast<float>(in_x[i]), static_cast<float>(in_y[i]))
                                   : std::nextafter(in_x[i], in_y[i]);
        EXPECT_TRUE(st::testing::identical(got[i], want))
            << st::short_name(t) << (compiled ? " jit " : " eager ") << in_x[i] << " -> " << in_y[i] << ": " << got[i] << " vs " << want;
      }
    }
  }
}

TEST(Nextafter, HalfTypesStepInTheirOwnPrecision) {
  for (st::DType t : {st::bf16, st::f16}) {
    SCOPED_TRACE(st::short_name(t));
    Array x = st::array({1.0, 1.0, -2.0, 0.0, 0.0}, {5}, t), y = st::array({2.0, 0.0, -3.0, 1.0, -1.0}, {5}, t);
    for (bool compiled : {false, true}) {
      Array z = compiled ? st::jit([](const Array& a, const Array& b) { return st::nextafter(a, b); })(x, y) : st::nextafter(x, y);
      std::vector<uint64_t> got = bits16(z);
      uint64_t one = bits16(st::array({1.0}, {1}, t))[0], two = bits16(st::array({-2.0}, {1}, t))[0];
      EXPECT_EQ(got[0], one + 1u);
      EXPECT_EQ(got[1], one - 1u);
      EXPECT_EQ(got[2], two + 1u);  // away from zero: magnitude bits up
      EXPECT_EQ(got[3], 1u);        // the least positive subnormal
      EXPECT_EQ(got[4], 0x8001u) << compiled;  // and negative
    }
  }
}

TEST(Nextafter, PromotesAndIsNotDifferentiable) {
  EXPECT_EQ(st::nextafter(st::array({1, 2}, {2}), st::array({3, 0}, {2})).dtype(), st::f32);
  std::string msg = st::testing::error_message<st::Error>(
      [] { st::grad([](const Array& a) { return st::sum(st::nextafter(a, a + 1.0f)); })(st::array({1.0f}, {1})); });
  st::testing::expect_contains(msg, "nextafter");
}

// ---- JAX agreement: % is floor modulo (jnp.remainder), fmod truncates (lax.rem) ----

TEST(Remainder, FloorModuloLikePython) {
  std::vector<double> a = {-7, 7, -7, 7, 5.5, -5.5, 0, -0.0, 6, -6}, b = {3, -3, -3, 3, 2, 2, 3, 3, 3, -3};
  for (st::DType t : {st::f32, st::f64, st::i32, st::i64, st::i8}) {
    SCOPED_TRACE(st::short_name(t));
    bool integer = st::is_integer(t);
    Array x = st::array(a, {10}, t), y = st::array(b, {10}, t);
    std::vector<double> xa = x.to_vector<double>(), ya = y.to_vector<double>();
    for (bool compiled : {false, true}) {
      Array r = compiled ? st::jit([](const Array& p, const Array& q) { return p % q; })(x, y) : x % y;
      Array f = compiled ? st::jit([](const Array& p, const Array& q) { return st::fmod(p, q); })(x, y) : st::fmod(x, y);
      std::vector<double> rv = r.to_vector<double>(), fv = f.to_vector<double>();
      for (size_t i = 0; i < rv.size(); ++i) {
        double tr = std::fmod(xa[i], ya[i]);
        double fl = (tr != 0 && ((tr < 0) != (ya[i] < 0))) ? tr + ya[i] : tr;  // Python's %
        EXPECT_EQ(rv[i], fl) << xa[i] << " % " << ya[i];
        EXPECT_EQ(fv[i], tr) << "fmod(" << xa[i] << ", " << ya[i] << ")";
        if (!integer && fl == 0) EXPECT_EQ(std::signbit(rv[i]), std::signbit(tr));
      }
    }
  }
  // Unsigned: no sign to correct; a weak scalar divisor broadcasts.
  EXPECT_EQ((st::array({7, 8}, {2}, st::u8) % 3).to_vector<int>(), (std::vector<int>{1, 2}));
  EXPECT_EQ((st::array({-7, 8}, {2}) % 3).to_vector<int>(), (std::vector<int>{2, 2}));
  // x % 0: x for integers (XLA's rem, no trap), nan for floats.
  EXPECT_EQ((st::array({-5, 5}, {2}) % st::array({0, 0}, {2})).to_vector<int>(), (std::vector<int>{-5, 5}));
  EXPECT_TRUE(std::isnan((st::array({1.0f}, {1}) % 0.0f).item<float>()));
}

TEST(Remainder, GradientIsOneInTheDividend) {
  // d/dx (x mod y) = 1 and d/dy = -floor(x / y), as JAX's jnp.remainder away from the jumps.
  Array x = st::array({-7.5, 7.5, 2.25}, {3}, st::f64), y = st::array({2.0, -2.0, 1.0}, {3}, st::f64);
  auto [gx, gy] = st::grad([](const Array& p, const Array& q) { return st::sum(p % q); }, st::argnums<0, 1>)(x, y);
  EXPECT_EQ(gx.to_vector<double>(), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(gy.to_vector<double>(), (std::vector<double>{4, 4, -2}));
}

// ---- JAX agreement: grad(abs) at 0 is 1 ----

TEST(Abs, DerivativeAtZeroIsOne) {
  Array x = st::array({0.0f, -0.0f, 2.0f, -3.0f}, {4});
  auto g = st::grad([](const Array& a) { return st::sum(st::abs(a)); });
  EXPECT_EQ(g(x).to_vector<float>(), (std::vector<float>{1, 1, 1, -1}));
  EXPECT_EQ(st::jit(g)(x).to_vector<float>(), (std::vector<float>{1, 1, 1, -1}));
  auto [y, t] = st::jvp([](const Array& a) { return st::abs(a); }, std::tuple<Array>(x), std::tuple<Array>(st::ones({4})));
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{1, 1, 1, -1}));
}
