// Elementwise arithmetic and math against references computed here in double (plain loops,
// std:: math), rounded once to the result dtype. Over f32 f64 bf16 f16 (and i32 i64 where an
// op takes integers), edge values (±0, nan, ±inf, subnormals, the largest finite value),
// empty and size-1 dimensions, and broadcasting in every direction.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <functional>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::testing::close;
using st::testing::error_message;
using st::testing::expect_array;
using st::testing::expect_contains;
using st::testing::expect_exact;
using st::testing::identical;
using st::testing::kFloatTypes;
using st::testing::ref_binary;
using st::testing::round_all;
using st::testing::test_values;
using st::testing::values;

namespace {

std::string name(st::DType t) { return std::string(st::short_name(t)); }

// The smallest positive subnormal of t, times 3 (so that halving it is inexact).
double subnormal(st::DType t) {
  switch (t) {
    case st::f16: return 3 * std::ldexp(1.0, -24);
    case st::bf16: return 3 * std::ldexp(1.0, -133);
    case st::f32: return 3 * std::ldexp(1.0, -149);
    default: return 3 * std::ldexp(1.0, -1074);
  }
}
double largest(st::DType t) {
  switch (t) {
    case st::f16: return 65504.0;
    case st::bf16: return std::ldexp(2.0 - std::ldexp(1.0, -7), 127);
    case st::f32: return std::numeric_limits<float>::max();
    default: return std::numeric_limits<double>::max();
  }
}

// Edge values representable in t.
std::vector<double> edges(st::DType t) {
  return round_all({0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e-3, -7.25, 100.0, NAN, INFINITY, -INFINITY,
                    subnormal(t), -subnormal(t), largest(t), -largest(t)},
                   t);
}

st::Array vec(const std::vector<double>& v, st::DType t) { return st::array(v, {static_cast<int64_t>(v.size())}, t); }

// ---- Unary math over the float dtypes ----

struct Unary {
  const char* name;
  std::function<st::Array(const st::Array&)> op;
  double (*ref)(double);
  double lo, hi;       // range of the extra sample values
  bool log_uniform;    // samples are exp(uniform(lo, hi))
  double ulps_f32;     // tolerance for f32/f64 (bf16/f16 are computed in f32, rounded once: 1 ULP)
  std::vector<double> extra;
};

double ref_logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double ref_rsqrt(double x) { return 1.0 / std::sqrt(x); }
double ref_sign(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x; }

std::vector<Unary> unary_cases() {
  return {
      {"exp", [](const st::Array& x) { return st::exp(x); }, [](double x) { return std::exp(x); }, -80, 80, false, 4, {-87.0, 88.5, 709.0, 1e-8}},
      {"log", [](const st::Array& x) { return st::log(x); }, [](double x) { return std::log(x); }, -60, 60, true, 4, {2.0, 0.999, 1.001}},
      {"log1p", [](const st::Array& x) { return st::log1p(x); }, [](double x) { return std::log1p(x); }, -0.99, 10, false, 4, {1e-10, -1e-10, 1e-5, -0.5, -2.0}},
      {"expm1", [](const st::Array& x) { return st::expm1(x); }, [](double x) { return std::expm1(x); }, -20, 20, false, 4, {1e-10, -1e-10, 1e-5, -1e-5, 0.3, 84.5, 88.5, 88.7, 709.5}},
      {"exp2", [](const st::Array& x) { return st::exp2(x); }, [](double x) { return std::exp2(x); }, -130, 130, false, 4, {1e-10, -1e-10, 0.5, -1.0, 10.0, 127.5, -149.0, 1023.5, -1074.0}},
      {"tanh", [](const st::Array& x) { return st::tanh(x); }, [](double x) { return std::tanh(x); }, -10, 10, false, 4, {1e-6, -1e-6, 0.01, 20.0}},
      {"sinh", [](const st::Array& x) { return st::sinh(x); }, [](double x) { return std::sinh(x); }, -20, 20, false, 4, {1e-6, -1e-6, 0.01, 88.5, 89.5, 710.0, -710.5}},
      {"cosh", [](const st::Array& x) { return st::cosh(x); }, [](double x) { return std::cosh(x); }, -20, 20, false, 4, {1e-6, -1e-6, 0.01, 88.5, 89.5, 710.0, -710.5}},
      {"asinh", [](const st::Array& x) { return st::asinh(x); }, [](double x) { return std::asinh(x); }, -100, 100, false, 4, {1e-6, -1e-6, 0.01, 1e10, -1e30}},
      {"acosh", [](const st::Array& x) { return st::acosh(x); }, [](double x) { return std::acosh(x); }, 0, 30, true, 4, {1.0, 1.0001, 0.5, 0.0, -2.0, 1e30}},
      {"atanh", [](const st::Array& x) { return st::atanh(x); }, [](double x) { return std::atanh(x); }, -1, 1, false, 4, {1e-6, -1e-6, 0.9999, -0.9999, 1.0, -1.0, 1.5, -2.0}},
      {"erf", [](const st::Array& x) { return st::erf(x); }, [](double x) { return std::erf(x); }, -6, 6, false, 2, {1e-8, -1e-8, 0.5, -0.5, 3.9, 5.9, -6.5}},
      {"erfc", [](const st::Array& x) { return st::erfc(x); }, [](double x) { return std::erfc(x); }, -6, 10, false, 4, {1e-8, -1e-8, 0.5, -0.5, 3.9, 9.0, 26.0, 27.5, -6.5}},
      {"logistic", [](const st::Array& x) { return st::logistic(x); }, ref_logistic, -30, 30, false, 4, {-12.0, -9.5, 9.5, 16.0, -50.0}},
      {"sin", [](const st::Array& x) { return st::sin(x); }, [](double x) { return std::sin(x); }, -100, 100, false, 4, {1e-6, 3.14159265, 1.5707963}},
      {"cos", [](const st::Array& x) { return st::cos(x); }, [](double x) { return std::cos(x); }, -100, 100, false, 4, {1e-6, 3.14159265, 1.5707963}},
      {"tan", [](const st::Array& x) { return st::tan(x); }, [](double x) { return std::tan(x); }, -100, 100, false, 4, {1e-6, -1e-6, 0.785398, 1.5707963, -1.5707, 1e6}},
      {"asin", [](const st::Array& x) { return st::asin(x); }, [](double x) { return std::asin(x); }, -1, 1, false, 4, {1e-6, -1e-6, 0.5, -0.9999, 0.9999, 1.0, -1.0, 1.5, -2.0}},
      {"acos", [](const st::Array& x) { return st::acos(x); }, [](double x) { return std::acos(x); }, -1, 1, false, 4, {1e-6, -1e-6, 0.5, -0.9999, 0.9999, 1.0, -1.0, 1.5, -2.0}},
      {"atan", [](const st::Array& x) { return st::atan(x); }, [](double x) { return std::atan(x); }, -100, 100, false, 4, {1e-6, -1e-6, 0.5, 1e10, -1e30}},
      {"sqrt", [](const st::Array& x) { return st::sqrt(x); }, [](double x) { return std::sqrt(x); }, -30, 30, true, 0, {2.0, 4.0, 1e-20}},
      {"rsqrt", [](const st::Array& x) { return st::rsqrt(x); }, ref_rsqrt, -30, 30, true, 2, {2.0, 4.0, 0.25}},
      {"cbrt", [](const st::Array& x) { return st::cbrt(x); }, [](double x) { return std::cbrt(x); }, -100, 100, false, 4, {8.0, -27.0, 1e-30, -1e-30, 0.001}},
      {"abs", [](const st::Array& x) { return st::abs(x); }, [](double x) { return std::fabs(x); }, -100, 100, false, 0, {}},
      {"sign", [](const st::Array& x) { return st::sign(x); }, ref_sign, -100, 100, false, 0, {}},
      {"floor", [](const st::Array& x) { return st::floor(x); }, [](double x) { return std::floor(x); }, -100, 100, false, 0, {-0.5, 0.5, -1.5, 2.5}},
      {"ceil", [](const st::Array& x) { return st::ceil(x); }, [](double x) { return std::ceil(x); }, -100, 100, false, 0, {-0.5, 0.5, -1.5, 2.5}},
      // jnp.round rounds halfway cases to even; lax.round's away_from_zero is std::round.
      {"round", [](const st::Array& x) { return st::round(x); }, [](double x) { return std::nearbyint(x); }, -100, 100, false, 0, {-0.5, 0.5, -1.5, 1.5, 2.5, -2.5, 3.5, 0.49999997, -0.4, 4503599627370497.0, 1e30, -1e30}},
      {"round away", [](const st::Array& x) { return st::round(x, st::RoundingMethod::away_from_zero); }, [](double x) { return std::round(x); }, -100, 100, false, 0, {-0.5, 0.5, -1.5, 1.5, 2.5, -2.5, 3.5, 0.49999997, -0.4, 4503599627370497.0, 1e30, -1e30}},
      {"negative", [](const st::Array& x) { return st::negative(x); }, [](double x) { return -x; }, -100, 100, false, 0, {}},
      {"operator-", [](const st::Array& x) { return -x; }, [](double x) { return -x; }, -100, 100, false, 0, {}},
  };
}

TEST(Elementwise, UnaryMathOverFloatDtypesAndEdgeValues) {
  for (const Unary& c : unary_cases()) {
    for (st::DType t : kFloatTypes) {
      SCOPED_TRACE(std::string(c.name) + " " + name(t));
      std::vector<double> x = edges(t);
      x.insert(x.end(), c.extra.begin(), c.extra.end());
      for (double v : test_values(40, c.lo, c.hi, 7)) x.push_back(c.log_uniform ? std::exp(v) : v);
      x = round_all(x, t);
      std::vector<double> want(x.size());
      for (size_t i = 0; i < x.size(); ++i) want[i] = c.ref(x[i]);
      want = round_all(want, t);
      st::Array r = c.op(vec(x, t));
      ASSERT_EQ(r.dtype(), t);
      ASSERT_EQ(r.shape(), st::Shape{static_cast<int64_t>(x.size())});
      std::vector<double> got = values(r);
      double ulps = c.ulps_f32 == 0 ? 0 : (t == st::f32 || t == st::f64) ? c.ulps_f32 : 1;
      for (size_t i = 0; i < x.size(); ++i) {
        bool ok = want[i] == 0 ? identical(got[i], want[i]) : close(got[i], want[i], t, ulps);
        EXPECT_TRUE(ok) << c.name << "(" << x[i] << ") = " << got[i] << ", want " << want[i] << " (" << name(t) << ")";
      }
    }
  }
}

TEST(Elementwise, UnaryMathSpecialValues) {
  // The IEEE special cases, spelled out (f32; the loops above cover the other dtypes).
  auto f = [](std::vector<double> v) { return vec(v, st::f32); };
  expect_exact(st::exp(f({-INFINITY, INFINITY, NAN, 0.0, -0.0})), {5}, st::f32, {0, INFINITY, NAN, 1, 1});
  expect_exact(st::log(f({0.0, -0.0, -1.0, INFINITY, 1.0, NAN})), {6}, st::f32, {-INFINITY, -INFINITY, NAN, INFINITY, 0, NAN});
  expect_exact(st::log1p(f({-0.0, -1.0, -2.0, INFINITY})), {4}, st::f32, {-0.0, -INFINITY, NAN, INFINITY});
  expect_exact(st::expm1(f({-0.0, -INFINITY, INFINITY})), {3}, st::f32, {-0.0, -1, INFINITY});
  expect_exact(st::tanh(f({-0.0, -INFINITY, INFINITY, NAN})), {4}, st::f32, {-0.0, -1, 1, NAN});
  expect_exact(st::logistic(f({-INFINITY, INFINITY, 0.0, NAN})), {4}, st::f32, {0, 1, 0.5, NAN});
  expect_exact(st::erf(f({-0.0, 0.0, -INFINITY, INFINITY, NAN})), {5}, st::f32, {-0.0, 0.0, -1, 1, NAN});
  expect_exact(st::erfc(f({-INFINITY, INFINITY, 0.0, -0.0, NAN})), {5}, st::f32, {2, 0, 1, 1, NAN});
  expect_exact(st::exp2(f({-INFINITY, INFINITY, 0.0, -0.0, 10.0, -1.0, 128.0, -150.0, NAN})), {9}, st::f32, {0, INFINITY, 1, 1, 1024, 0.5, INFINITY, 0, NAN});
  expect_exact(st::tan(f({-0.0, 0.0, INFINITY, -INFINITY, NAN})), {5}, st::f32, {-0.0, 0.0, NAN, NAN, NAN});
  expect_exact(st::asin(f({-0.0, 1.0, -1.0, 2.0, -2.0, INFINITY, NAN})), {7}, st::f32,
               {-0.0, static_cast<float>(M_PI_2), -static_cast<float>(M_PI_2), NAN, NAN, NAN, NAN});
  expect_exact(st::acos(f({1.0, -1.0, 2.0, -2.0, -INFINITY, NAN})), {6}, st::f32, {0, static_cast<float>(M_PI), NAN, NAN, NAN, NAN});
  expect_exact(st::atan(f({-0.0, INFINITY, -INFINITY, NAN})), {4}, st::f32, {-0.0, static_cast<float>(M_PI_2), -static_cast<float>(M_PI_2), NAN});
  expect_exact(st::sinh(f({-0.0, -INFINITY, INFINITY, 100.0, NAN})), {5}, st::f32, {-0.0, -INFINITY, INFINITY, INFINITY, NAN});
  expect_exact(st::cosh(f({-0.0, -INFINITY, INFINITY, -100.0, NAN})), {5}, st::f32, {1, INFINITY, INFINITY, INFINITY, NAN});
  expect_exact(st::asinh(f({-0.0, -INFINITY, INFINITY, NAN})), {4}, st::f32, {-0.0, -INFINITY, INFINITY, NAN});
  expect_exact(st::acosh(f({1.0, 0.5, 0.0, -1.0, INFINITY, -INFINITY, NAN})), {7}, st::f32, {0, NAN, NAN, NAN, INFINITY, NAN, NAN});
  expect_exact(st::atanh(f({-0.0, 1.0, -1.0, 2.0, -INFINITY, NAN})), {6}, st::f32, {-0.0, INFINITY, -INFINITY, NAN, NAN, NAN});
  expect_exact(st::cbrt(f({-0.0, -8.0, 27.0, -INFINITY, INFINITY, NAN})), {6}, st::f32, {-0.0, -2, 3, -INFINITY, INFINITY, NAN});
  expect_exact(st::sin(f({-0.0, INFINITY, NAN})), {3}, st::f32, {-0.0, NAN, NAN});
  expect_exact(st::cos(f({-0.0, -INFINITY})), {2}, st::f32, {1, NAN});
  expect_exact(st::sqrt(f({-0.0, -1.0, INFINITY, 4.0})), {4}, st::f32, {-0.0, NAN, INFINITY, 2});
  expect_exact(st::rsqrt(f({0.0, -0.0, INFINITY, -1.0, 4.0})), {5}, st::f32, {INFINITY, -INFINITY, 0, NAN, 0.5});
  expect_exact(st::abs(f({-0.0, -INFINITY, NAN})), {3}, st::f32, {0.0, INFINITY, NAN});
  expect_exact(st::sign(f({-0.0, 0.0, -INFINITY, NAN, -3.0})), {5}, st::f32, {-0.0, 0.0, -1, NAN, -1});
  expect_exact(st::floor(f({-0.5, -0.0, 0.5, -INFINITY})), {4}, st::f32, {-1, -0.0, 0, -INFINITY});
  expect_exact(st::ceil(f({-0.5, -0.0, 0.5, INFINITY})), {4}, st::f32, {-0.0, -0.0, 1, INFINITY});
  expect_exact(-f({0.0, -0.0, NAN, INFINITY}), {4}, st::f32, {-0.0, 0.0, NAN, -INFINITY});
}

TEST(Elementwise, SmallArgumentsKeepRelativeAccuracy) {
  // log1p and expm1 exist for these: 1 + x loses x entirely in f32.
  for (st::DType t : {st::f32, st::f64}) {
    SCOPED_TRACE(name(t));
    std::vector<double> x = round_all({1e-7, -1e-7, 1e-12, -3e-9}, t);
    std::vector<double> l(x.size()), e(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      l[i] = std::log1p(x[i]);
      e[i] = std::expm1(x[i]);
    }
    expect_array(st::log1p(vec(x, t)), {4}, t, round_all(l, t), 2);
    expect_array(st::expm1(vec(x, t)), {4}, t, round_all(e, t), 2);
  }
}

TEST(Elementwise, MathOnIntegersAndBoolsPromotesToFloat) {
  st::Array i = st::array({0, 1, 2}, {3});
  st::Array r = st::exp(i);
  EXPECT_EQ(r.dtype(), st::f32);
  expect_array(r, {3}, st::f32, round_all({1.0, std::exp(1.0), std::exp(2.0)}, st::f32), 2);
  expect_array(st::sqrt(st::array(std::vector<int64_t>{4, 9}, {2})), {2}, st::f32, {2, 3}, 0);
  expect_array(st::log(st::array({true, false}, {2})), {2}, st::f32, {0, -INFINITY}, 0);
  expect_array(st::sin(i), {3}, st::f32, round_all({0.0, std::sin(1.0), std::sin(2.0)}, st::f32), 4);
  // A weak scalar stays weak.
  st::Array w = st::exp(st::Array(1));
  EXPECT_EQ(w.dtype(), st::f32);
  EXPECT_TRUE(w.weak_type());
  EXPECT_EQ(w.shape(), st::Shape{});
  // A float scalar keeps its dtype (double is f64).
  EXPECT_EQ(st::exp(st::Array(1.0)).dtype(), st::f64);
  EXPECT_TRUE(st::exp(st::Array(1.0)).weak_type());
}

TEST(Elementwise, IntegerUnaryOps) {
  for (st::DType t : {st::i32, st::i64}) {
    SCOPED_TRACE(name(t));
    std::vector<int64_t> x = {0, 1, -1, 7, -7, 123456, -123456};
    if (t == st::i64) x.push_back(int64_t{1} << 40);
    st::Array a = st::array(x, {static_cast<int64_t>(x.size())}, t);
    std::vector<int64_t> neg, ab, sg;
    for (int64_t v : x) {
      neg.push_back(-v);
      ab.push_back(v < 0 ? -v : v);
      sg.push_back(v > 0 ? 1 : v < 0 ? -1 : 0);
    }
    for (auto [r, want] : {std::pair{st::negative(a), neg}, std::pair{-a, neg}, std::pair{st::abs(a), ab},
                           std::pair{st::sign(a), sg}, std::pair{st::floor(a), x}, std::pair{st::ceil(a), x}}) {
      EXPECT_EQ(r.dtype(), t);
      EXPECT_EQ(r.to_vector<int64_t>(), want);
    }
  }
  // bool: abs, sign, floor and ceil are the identity; negative is an error (as in NumPy).
  st::Array b = st::array({true, false}, {2});
  for (const st::Array& r : {st::abs(b), st::sign(b), st::floor(b), st::ceil(b)}) {
    EXPECT_EQ(r.dtype(), st::bool_);
    EXPECT_EQ(r.to_vector<bool>(), (std::vector<bool>{true, false}));
  }
  expect_contains(error_message<st::DTypeError>([&] { st::negative(b); }),
                  "negative: expects a numeric operand, but got bool[2]");
  expect_contains(error_message<st::DTypeError>([&] { (void)-b; }), "negative: expects a numeric operand");
}

TEST(Elementwise, UnaryOnEmptyAndSize1Shapes) {
  for (st::DType t : kFloatTypes) {
    for (const st::Shape& s : {st::Shape{0}, st::Shape{2, 0}, st::Shape{0, 1, 3}}) {
      for (const st::Array& r : {st::exp(st::zeros(s, t)), st::abs(st::zeros(s, t)), -st::zeros(s, t),
                                 st::floor(st::zeros(s, t)), st::sqrt(st::zeros(s, t))}) {
        EXPECT_EQ(r.shape(), s);
        EXPECT_EQ(r.dtype(), t);
        EXPECT_EQ(r.size(), 0);
      }
    }
    expect_array(st::exp(st::zeros({1, 1, 1}, t)), {1, 1, 1}, t, {1}, 0);
    expect_array(st::cos(st::zeros({}, t)), {}, t, {1}, 0);
  }
}

// ---- Binary arithmetic over the float dtypes: every pair of edge values ----

struct Binary {
  const char* name;
  std::function<st::Array(const st::Array&, const st::Array&)> op;
  double (*ref)(double, double);
  double ulps;  // -1: exact with the sign of zero; 0: exact value, either zero
};

// Floor modulo (Python's %, jnp.remainder): fmod, moved by b where its sign differs from b's.
double ref_mod(double a, double b) {
  double r = std::fmod(a, b);
  return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}
double ref_max(double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b); }
double ref_min(double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b); }

std::vector<Binary> binary_cases() {
  return {
      {"add", [](const st::Array& a, const st::Array& b) { return st::add(a, b); }, [](double a, double b) { return a + b; }, -1},
      {"subtract", [](const st::Array& a, const st::Array& b) { return st::subtract(a, b); }, [](double a, double b) { return a - b; }, -1},
      {"multiply", [](const st::Array& a, const st::Array& b) { return st::multiply(a, b); }, [](double a, double b) { return a * b; }, -1},
      {"divide", [](const st::Array& a, const st::Array& b) { return st::divide(a, b); }, [](double a, double b) { return a / b; }, -1},
      {"remainder", [](const st::Array& a, const st::Array& b) { return st::remainder(a, b); }, ref_mod, -1},
      {"fmod", [](const st::Array& a, const st::Array& b) { return st::fmod(a, b); }, [](double a, double b) { return std::fmod(a, b); }, -1},
      {"maximum", [](const st::Array& a, const st::Array& b) { return st::maximum(a, b); }, ref_max, 0},
      {"minimum", [](const st::Array& a, const st::Array& b) { return st::minimum(a, b); }, ref_min, 0},
      {"power", [](const st::Array& a, const st::Array& b) { return st::power(a, b); }, [](double a, double b) { return std::pow(a, b); }, 1},
      {"atan2", [](const st::Array& a, const st::Array& b) { return st::atan2(a, b); }, [](double a, double b) { return std::atan2(a, b); }, 1},
      {"operator+", [](const st::Array& a, const st::Array& b) { return a + b; }, [](double a, double b) { return a + b; }, -1},
      {"operator-", [](const st::Array& a, const st::Array& b) { return a - b; }, [](double a, double b) { return a - b; }, -1},
      {"operator*", [](const st::Array& a, const st::Array& b) { return a * b; }, [](double a, double b) { return a * b; }, -1},
      {"operator/", [](const st::Array& a, const st::Array& b) { return a / b; }, [](double a, double b) { return a / b; }, -1},
      {"operator%", [](const st::Array& a, const st::Array& b) { return a % b; }, ref_mod, -1},
  };
}

void check_binary(const Binary& c, st::DType t, const std::vector<double>& a, const st::Shape& as,
                  const std::vector<double>& b, const st::Shape& bs) {
  st::Shape out;
  std::vector<double> want = round_all(ref_binary(a, as, b, bs, c.ref, &out), t);
  st::Array r = c.op(st::array(a, as, t), st::array(b, bs, t));
  ASSERT_EQ(r.shape(), out);
  ASSERT_EQ(r.dtype(), t);
  std::vector<double> got = values(r);
  for (size_t i = 0; i < got.size(); ++i) {
    bool ok = c.ulps < 0 ? identical(got[i], want[i]) : close(got[i], want[i], t, c.ulps);
    EXPECT_TRUE(ok) << c.name << " element " << i << ": got " << got[i] << ", want " << want[i] << " (" << name(t) << ")";
  }
}

TEST(Elementwise, BinaryArithmeticOnAllPairsOfEdgeValues) {
  // a as a column and b as a row: {17,1} op {1,17} broadcasts to every pair.
  for (const Binary& c : binary_cases()) {
    for (st::DType t : kFloatTypes) {
      SCOPED_TRACE(std::string(c.name) + " " + name(t));
      std::vector<double> e = edges(t);
      int64_t n = static_cast<int64_t>(e.size());
      check_binary(c, t, e, {n, 1}, e, {1, n});
    }
  }
}

TEST(Elementwise, BinaryArithmeticOnLongArrays) {
  // Long enough for the vectorised loop and its scalar tail, with mixed signs and magnitudes.
  for (const Binary& c : binary_cases()) {
    for (st::DType t : kFloatTypes) {
      SCOPED_TRACE(std::string(c.name) + " " + name(t));
      std::vector<double> a = round_all(test_values(101, -50, 50, 3), t);
      std::vector<double> b = round_all(test_values(101, -4, 4, 4), t);
      check_binary(c, t, a, {101}, b, {101});
    }
  }
}

TEST(Elementwise, BroadcastingInEveryDirection) {
  const std::pair<st::Shape, st::Shape> shapes[] = {
      {{3, 1}, {1, 4}}, {{1, 4}, {3, 1}}, {{4}, {3, 4}},    {{3, 4}, {4}},       {{3, 4}, {3, 1}},
      {{3, 1}, {3, 4}}, {{2, 1, 3}, {4, 1}}, {{1}, {5}},    {{5}, {1}},          {{1, 1}, {2, 3}},
      {{2, 3}, {}},     {{}, {2, 3}},     {{}, {}},         {{1}, {}},           {{2, 1, 1}, {1, 3, 1}},
  };
  for (const Binary& c : binary_cases()) {
    for (st::DType t : {st::f32, st::f16}) {
      for (auto& [as, bs] : shapes) {
        SCOPED_TRACE(std::string(c.name) + " " + name(t) + " " + st::shape_string(as) + " with " + st::shape_string(bs));
        std::vector<double> a = round_all(test_values(static_cast<size_t>(st::num_elements(as)), -9, 9, 11), t);
        std::vector<double> b = round_all(test_values(static_cast<size_t>(st::num_elements(bs)), 0.5, 3, 12), t);
        check_binary(c, t, a, as, b, bs);
      }
    }
  }
}

TEST(Elementwise, EmptyShapesBroadcast) {
  const std::tuple<st::Shape, st::Shape, st::Shape> cases[] = {
      {{0}, {0}, {0}}, {{0}, {1}, {0}}, {{2, 0}, {2, 1}, {2, 0}}, {{2, 0}, {0}, {2, 0}},
      {{0, 1}, {1, 3}, {0, 3}}, {{0}, {}, {0}}, {{1, 0}, {3, 1}, {3, 0}},
  };
  for (const Binary& c : binary_cases()) {
    for (auto& [as, bs, out] : cases) {
      SCOPED_TRACE(std::string(c.name) + " " + st::shape_string(as) + " with " + st::shape_string(bs));
      st::Array r = c.op(st::zeros(as, st::bf16), st::ones(bs, st::bf16));
      EXPECT_EQ(r.shape(), out);
      EXPECT_EQ(r.dtype(), st::bf16);
      EXPECT_EQ(r.size(), 0);
    }
  }
  // A weak scalar with an empty array.
  st::Array r = st::zeros({0}, st::f16) * 2.0f;
  EXPECT_EQ(r.shape(), st::Shape{0});
  EXPECT_EQ(r.dtype(), st::f16);
}

TEST(Elementwise, ScalarOperandsOnEitherSide) {
  // The kernels' 0-d fast path: a weak C++ scalar on the left or right keeps the array's dtype.
  for (st::DType t : kFloatTypes) {
    SCOPED_TRACE(name(t));
    std::vector<double> x = edges(t);
    st::Array a = vec(x, t);
    for (float s : {2.0f, -0.0f, 0.5f, NAN, INFINITY}) {
      std::vector<double> add_r, sub_l, mul_r, div_l, rem_r, max_l, pow_r;
      double sv = s;
      for (double v : x) {
        add_r.push_back(v + sv);
        sub_l.push_back(sv - v);
        mul_r.push_back(v * sv);
        div_l.push_back(sv / v);
        rem_r.push_back(ref_mod(v, sv));
        max_l.push_back(ref_max(sv, v));
        pow_r.push_back(std::pow(v, sv));
      }
      int64_t n = static_cast<int64_t>(x.size());
      expect_exact(a + s, {n}, t, round_all(add_r, t));
      expect_exact(s - a, {n}, t, round_all(sub_l, t));
      expect_exact(a * s, {n}, t, round_all(mul_r, t));
      expect_exact(s / a, {n}, t, round_all(div_l, t));
      expect_exact(a % s, {n}, t, round_all(rem_r, t));
      expect_array(st::maximum(st::Array(s), a), {n}, t, round_all(max_l, t), 0);
      expect_array(st::power(a, st::Array(s)), {n}, t, round_all(pow_r, t), 1);
      // A strong 0-d array promotes like any array (here: the same dtype).
      expect_exact(st::add(a, st::array({sv}, {}, t)), {n}, t, round_all(add_r, t));
    }
  }
}

TEST(Elementwise, SubnormalsAreNotFlushed) {
  for (st::DType t : kFloatTypes) {
    SCOPED_TRACE(name(t));
    double d = subnormal(t) / 3;  // the smallest subnormal
    st::Array a = vec({d, 2 * d, -d}, t);
    expect_exact(a + a, {3}, t, {2 * d, 4 * d, -2 * d});
    expect_exact(a * 2.0f, {3}, t, {2 * d, 4 * d, -2 * d});
    expect_exact(a - a, {3}, t, {0, 0, 0});
    expect_exact(st::abs(a), {3}, t, {d, 2 * d, d});
    // Half the smallest subnormal ties to even (0); 1.5x it rounds to 2x.
    expect_exact(a * 0.5f, {3}, t, {0, d, -0.0});
    expect_exact(vec({3 * d}, t) * 0.5f, {1}, t, {2 * d});
    // Normal-range results from subnormal operands.
    double big = std::ldexp(1.0, t == st::f16 ? 20 : 100);
    if (t == st::f16) big = 1024;
    std::vector<double> prod = round_all({d * big}, t);
    expect_exact(vec({d}, t) * st::array({big}, {}, t), {1}, t, prod);
    EXPECT_TRUE((vec({d}, t) > 0.0f).item<bool>());
  }
}

// ---- atan2, erf_inv, integer_pow (issue 14) ----

TEST(Elementwise, Atan2QuadrantsSignedZerosAndPromotion) {
  // (y, x): the four quadrants, the axes, signed zeros (C's atan2) and infinities.
  std::vector<double> y{1, 1, -1, -1, 0, -0.0, 0, -0.0, 1, -1, INFINITY, INFINITY, -INFINITY, 1, NAN};
  std::vector<double> x{1, -1, -1, 1, 1, 1, -1, -1, 0, 0, INFINITY, -INFINITY, 1, -INFINITY, 1};
  std::vector<double> want{M_PI / 4, 3 * M_PI / 4, -3 * M_PI / 4, -M_PI / 4, 0, -0.0, M_PI, -M_PI, M_PI / 2,
                           -M_PI / 2, M_PI / 4, 3 * M_PI / 4, -M_PI / 2, M_PI, NAN};
  for (st::DType t : {st::f32, st::f64}) {
    std::vector<double> got = values(st::atan2(vec(y, t), vec(x, t)));
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_TRUE(want[i] == 0 ? identical(got[i], want[i]) : close(got[i], want[i], t, 1))
          << "atan2(" << y[i] << ", " << x[i] << ") = " << got[i] << " (" << name(t) << ")";
  }
  // Integer operands become f32, as jnp.arctan2; weak scalars take the array's type.
  st::Array r = st::atan2(st::array(std::vector<int64_t>{1, -2}, {2}), st::array(std::vector<int64_t>{0, 2}, {2}));
  EXPECT_EQ(r.dtype(), st::f32);
  EXPECT_NEAR(r.to_vector<double>()[1], -M_PI / 4, 1e-7);
  EXPECT_EQ(st::atan2(vec({1}, st::bf16), st::Array(2.0)).dtype(), st::bf16);
}

// erf_inv by bisection on erf (erfc near ±1, where erf loses the digits) in long double.
double ref_erf_inv(double x) {
  if (std::isnan(x) || std::fabs(x) > 1) return NAN;
  if (std::fabs(x) == 1) return std::copysign(INFINITY, x);
  // Below 1e-8 the series sqrt(pi)/2 (x + pi/12 x^3) is exact in double (and bisection from 30
  // would stop at 30 / 2^200).
  if (std::fabs(x) < 1e-8) return 0.88622692545275801365 * x * (1 + M_PI / 12 * x * x);
  long double a = std::fabs(static_cast<long double>(x)), lo = 0, hi = 30;
  for (int i = 0; i < 200; ++i) {
    long double m = (lo + hi) / 2;
    bool below = a <= 0.5L ? std::erf(m) < a : std::erfc(m) > 1 - a;
    (below ? lo : hi) = m;
  }
  return std::copysign(static_cast<double>((lo + hi) / 2), x);
}

TEST(Elementwise, ErfInvAgainstReferenceValues) {
  // Known values: erf_inv(0.5) = 0.4769362762044699 (mpmath), erf_inv(-0.9) = -1.1630871536766743.
  EXPECT_NEAR(st::erf_inv(st::Array(0.5)).item<double>(), 0.4769362762044699, 2e-16);
  EXPECT_NEAR(st::erf_inv(st::Array(-0.9)).item<double>(), -1.1630871536766743, 4e-16);
  EXPECT_NEAR(st::erf_inv(vec({0.5}, st::f32)).to_vector<double>()[0], 0.4769362762044699, 2e-7);
  // Over (-1, 1), the tails near ±1 included (where the polynomial changes piece), per dtype.
  std::vector<double> xs = test_values(60, -1, 1, 5);
  for (double v : {1e-30, -1e-300, 1e-8, 0.25, 0.9, 0.99, 0.996, 0.9978, 0.9999, 0.999999, 1 - 1e-9, 1 - 1e-12, 1 - 1e-15})
    xs.insert(xs.end(), {v, -v});
  for (st::DType t : kFloatTypes) {
    SCOPED_TRACE(name(t));
    std::vector<double> x = round_all(xs, t);
    std::vector<double> got = values(st::erf_inv(vec(x, t)));
    // Giles' f32 polynomial is within 3 ULPs of f32 and its f64 one within 4 of f64; bf16 and
    // f16 are computed in f32 and rounded once.
    double ulps = t == st::f32 ? 3 : t == st::f64 ? 4 : 1;
    for (size_t i = 0; i < x.size(); ++i) {
      double want = round_all({ref_erf_inv(x[i])}, t)[0];
      EXPECT_TRUE(want == 0 ? identical(got[i], want) : close(got[i], want, t, ulps))
          << "erf_inv(" << x[i] << ") = " << got[i] << ", want " << want;
      // erf(erf_inv(x)) = x, to the accuracy erf's slope allows.
      if (t == st::f64 && std::fabs(x[i]) < 0.999)
        EXPECT_NEAR(std::erf(got[i]), x[i], 4e-16) << x[i];
    }
    // The edges: ±1 → ±inf, beyond → nan, ±0 kept, nan.
    std::vector<double> e = values(st::erf_inv(vec({1, -1, 1.5, -2, 0.0, -0.0, NAN, INFINITY}, t)));
    std::vector<double> want{INFINITY, -INFINITY, NAN, NAN, 0.0, -0.0, NAN, NAN};
    for (size_t i = 0; i < e.size(); ++i) EXPECT_TRUE(identical(e[i], want[i])) << i << ": " << e[i];
  }
  EXPECT_EQ(st::erf_inv(st::array(std::vector<int64_t>{0}, {1})).dtype(), st::f32);
}

TEST(Elementwise, IntegerPowOnFloatsAndIntegers) {
  std::vector<double> xs{0.5, -1.5, 3.0, -0.75, 1.1, -2.0, 0.0, -0.0, 10.0};
  for (st::DType t : kFloatTypes) {
    for (int64_t n : {0, 1, 2, 3, 4, 5, 7, 10, 17, -1, -2, -3, -6}) {
      SCOPED_TRACE(name(t) + " n=" + std::to_string(n));
      std::vector<double> x = round_all(xs, t);
      st::Array r = st::integer_pow(vec(x, t), n);
      ASSERT_EQ(r.dtype(), t);
      std::vector<double> got = values(r);
      for (size_t i = 0; i < x.size(); ++i) {
        double want = round_all({std::pow(x[i], static_cast<double>(n))}, t)[0];
        // One rounding per multiplication: up to log2(n) + popcount(n) of them.
        EXPECT_TRUE(want == 0 || std::isinf(want) ? identical(got[i], want) : close(got[i], want, t, 8))
            << x[i] << "^" << n << " = " << got[i] << ", want " << want;
      }
    }
  }
  // x^0 is 1 for every x (nan and inf included), as jax.lax.integer_pow.
  EXPECT_EQ(values(st::integer_pow(vec({NAN, INFINITY, 0.0}, st::f32), 0)), (std::vector<double>{1, 1, 1}));
  // Integers: exact, wrapping on overflow as the multiplications do.
  for (st::DType t : {st::i32, st::i64}) {
    std::vector<int64_t> base{-3, -1, 0, 1, 2, 7, 12345};
    for (int64_t n : {0, 1, 2, 3, 6, 13}) {
      std::vector<int64_t> got = st::integer_pow(st::array(base, {7}, t), n).to_vector<int64_t>();
      for (size_t i = 0; i < base.size(); ++i) {
        int64_t want = static_cast<int64_t>(static_cast<uint64_t>(1));
        uint64_t acc = 1;
        for (int64_t k = 0; k < n; ++k) acc *= static_cast<uint64_t>(base[i]);
        want = t == st::i32 ? static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(acc))) : static_cast<int64_t>(acc);
        EXPECT_EQ(got[i], want) << base[i] << "^" << n << " (" << name(t) << ")";
      }
    }
  }
  // Negative exponents on integers and bool operands are errors; floats are not promoted.
  st::Array ints = st::array(std::vector<int64_t>{2}, {1});
  expect_contains(error_message<st::DTypeError>([&] { st::integer_pow(ints, -1); }),
                  "integer_pow: integers cannot be raised to a negative power");
  EXPECT_THROW(st::integer_pow(st::array(std::vector<bool>{true}, {1}), 2), st::DTypeError);
  EXPECT_EQ(st::integer_pow(vec({2}, st::bf16), 3).dtype(), st::bf16);
  EXPECT_EQ(st::integer_pow(vec({2}, st::f32), -2).item<float>(), 0.25f);
}

// ---- Integer arithmetic ----

int64_t ipow(int64_t a, int64_t b) {
  if (b < 0) return a == 1 ? 1 : a == -1 ? (b % 2 ? -1 : 1) : 0;
  int64_t r = 1;
  for (int64_t i = 0; i < b; ++i) r *= a;
  return r;
}

TEST(Elementwise, IntegerBinaryOps) {
  for (st::DType t : {st::i32, st::i64}) {
    SCOPED_TRACE(name(t));
    std::vector<int64_t> v = {0, 1, -1, 2, -3, 7, -7, 100, -100, 46340};
    if (t == st::i64) v.push_back(3037000499);
    int64_t n = static_cast<int64_t>(v.size());
    st::Array a = st::array(v, {n, 1}, t), b = st::array(v, {1, n}, t);
    auto check = [&](const st::Array& r, auto f, const char* what) {
      SCOPED_TRACE(what);
      ASSERT_EQ(r.shape(), (st::Shape{n, n}));
      ASSERT_EQ(r.dtype(), t);
      std::vector<int64_t> got = r.to_vector<int64_t>();
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
          EXPECT_EQ(got[static_cast<size_t>(i * n + j)], f(v[static_cast<size_t>(i)], v[static_cast<size_t>(j)]))
              << what << "(" << v[static_cast<size_t>(i)] << ", " << v[static_cast<size_t>(j)] << ")";
    };
    check(a + b, [](int64_t x, int64_t y) { return x + y; }, "add");
    check(a - b, [](int64_t x, int64_t y) { return x - y; }, "subtract");
    check(st::multiply(a, b), [](int64_t x, int64_t y) { return x * y; }, "multiply");
    check(st::maximum(a, b), [](int64_t x, int64_t y) { return std::max(x, y); }, "maximum");
    check(st::minimum(a, b), [](int64_t x, int64_t y) { return std::min(x, y); }, "minimum");
    // Python's %, as the header documents: the sign of the divisor; x % 0 is x (XLA's rem).
    check(a % b, [](int64_t x, int64_t y) {
      if (y == 0) return x;
      int64_t r = x % y;
      return r != 0 && ((r < 0) != (y < 0)) ? r + y : r;
    }, "remainder");
    // fmod: C's, the sign of the dividend.
    check(st::fmod(a, b), [](int64_t x, int64_t y) { return y == 0 ? x : x % y; }, "fmod");
  }
  // The remainder's sign follows the divisor, fmod's the dividend.
  EXPECT_EQ((st::array({-7, 7, -7, 7}, {4}) % st::array({3, -3, -3, 3}, {4})).to_vector<int>(),
            (std::vector<int>{2, -2, -1, 1}));
  EXPECT_EQ(st::fmod(st::array({-7, 7, -7, 7}, {4}), st::array({3, -3, -3, 3}, {4})).to_vector<int>(),
            (std::vector<int>{-1, 1, -1, 1}));
  // No trap on INT_MIN % -1 (0) or x % 0 (x).
  EXPECT_EQ((st::array({INT_MIN, 5}, {2}) % st::array({-1, 0}, {2})).to_vector<int>(), (std::vector<int>{0, 5}));
  int64_t lmin = std::numeric_limits<int64_t>::min();
  EXPECT_EQ((st::array(std::vector<int64_t>{lmin, -5}, {2}) % st::array(std::vector<int64_t>{-1, 0}, {2})).to_vector<int64_t>(),
            (std::vector<int64_t>{0, -5}));
  // i64 keeps values beyond 2^53 exactly.
  int64_t big = (int64_t{1} << 60) + 3;
  EXPECT_EQ((st::array(std::vector<int64_t>{big}, {1}) + st::array(std::vector<int64_t>{big}, {1})).to_vector<int64_t>()[0], 2 * big);
  EXPECT_EQ((st::array(std::vector<int64_t>{big}, {1}) - 1).to_vector<int64_t>()[0], big - 1);
}

TEST(Elementwise, IntegerPower) {
  for (st::DType t : {st::i32, st::i64}) {
    SCOPED_TRACE(name(t));
    std::vector<int64_t> base = {-3, -2, -1, 0, 1, 2, 3, 10}, ex = {-3, -2, -1, 0, 1, 2, 3, 5};
    st::Array a = st::array(base, {8, 1}, t), b = st::array(ex, {1, 8}, t);
    st::Array r = st::power(a, b);
    ASSERT_EQ(r.dtype(), t);
    std::vector<int64_t> got = r.to_vector<int64_t>();
    for (size_t i = 0; i < 8; ++i)
      for (size_t j = 0; j < 8; ++j)
        EXPECT_EQ(got[i * 8 + j], ipow(base[i], ex[j])) << base[i] << "^" << ex[j];
  }
  EXPECT_EQ(st::power(st::array(std::vector<int64_t>{3}, {1}), st::Array(39)).to_vector<int64_t>()[0], 4052555153018976267);
}

TEST(Elementwise, DivideIsTrueDivisionForIntegers) {
  st::Array a = st::array({7, -7, 1, -1, 0, INT_MIN, 3}, {7}), b = st::array({2, 2, 0, 0, 0, -1, 4}, {7});
  st::Array r = a / b;
  EXPECT_EQ(r.dtype(), st::f32);
  expect_exact(r, {7}, st::f32, {3.5, -3.5, INFINITY, -INFINITY, NAN, 2147483648.0, 0.75});
  EXPECT_EQ(st::divide(a, b).dtype(), st::f32);
  // i64 and bool operands also give a float.
  st::Array l = st::divide(st::array(std::vector<int64_t>{9}, {1}), st::array(std::vector<int64_t>{2}, {1}));
  EXPECT_TRUE(st::is_floating(l.dtype()));
  expect_array(l, {1}, l.dtype(), {4.5}, 0);
  expect_exact(st::divide(st::array({true, false}, {2}), st::array({true, true}, {2})), {2}, st::f32, {1, 0});
  // An int array by a weak int scalar: float; by a float scalar: the float.
  expect_exact(st::array({1, 2}, {2}) / 4, {2}, st::f32, {0.25, 0.5});
  st::Array h = st::array({1.0, 3.0}, {2}, st::f16) / 2;
  EXPECT_EQ(h.dtype(), st::f16);
  expect_exact(h, {2}, st::f16, {0.5, 1.5});
}

TEST(Elementwise, OperatorsMatchNamedOps) {
  st::Array x = st::array({1.5f, -2.f, 0.f}, {3}), y = st::array({0.5f, 3.f, -1.f}, {3});
  EXPECT_EQ((x + y).to_vector<float>(), st::add(x, y).to_vector<float>());
  EXPECT_EQ((x - y).to_vector<float>(), st::subtract(x, y).to_vector<float>());
  EXPECT_EQ((x * y).to_vector<float>(), st::multiply(x, y).to_vector<float>());
  EXPECT_EQ((x / y).to_vector<float>(), st::divide(x, y).to_vector<float>());
  EXPECT_EQ((x % y).to_vector<float>(), st::remainder(x, y).to_vector<float>());
  EXPECT_EQ((-x).to_vector<float>(), st::negative(x).to_vector<float>());
  // Scalars on either side, of every C++ kind.
  expect_exact(x + 1, {3}, st::f32, {2.5, -1, 1});
  expect_exact(1 - x, {3}, st::f32, {-0.5, 3, 1});
  expect_exact(2.0 * x, {3}, st::f32, {3, -4, 0});
  expect_exact(x / 2.0f, {3}, st::f32, {0.75, -1, 0});
  expect_exact(x % int64_t{2}, {3}, st::f32, {1.5, -0.0, 0});
  expect_exact(-(-x), {3}, st::f32, {1.5, -2, 0});
  // Two scalars: a weak 0-d result.
  st::Array s = st::Array(2.0f) * 3.0f;
  EXPECT_EQ(s.shape(), st::Shape{});
  EXPECT_TRUE(s.weak_type());
  EXPECT_EQ(s.item<float>(), 6.0f);
}

TEST(Elementwise, ResultWeakOnlyWhenAllOperandsAre) {
  st::Array x = st::ones({2}, st::bf16);
  EXPECT_FALSE((x + 1.0f).weak_type());
  EXPECT_FALSE((1.0f + x).weak_type());
  EXPECT_TRUE((st::Array(1.0f) + 1.0f).weak_type());
  EXPECT_TRUE((st::Array(1) + 1).weak_type());
  EXPECT_FALSE((st::array({1.f}, {}) + 1.0f).weak_type());
}

TEST(Elementwise, BoolArithmeticFollowsNumPy) {
  // NumPy and jnp: add is logical or, multiply logical and, maximum/minimum or/and; subtract
  // of bools is an error. With a weak int scalar a bool array promotes to int.
  st::Array a = st::array({true, true, false, false}, {4}), b = st::array({true, false, true, false}, {4});
  st::Array s = a + b, p = a * b, mx = st::maximum(a, b), mn = st::minimum(a, b);
  for (const st::Array* r : {&s, &p, &mx, &mn}) EXPECT_EQ(r->dtype(), st::bool_);
  EXPECT_EQ(s.to_vector<bool>(), (std::vector<bool>{true, true, true, false}));
  EXPECT_EQ(st::add(a, b).to_vector<bool>(), (std::vector<bool>{true, true, true, false}));
  EXPECT_EQ(p.to_vector<bool>(), (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ(mx.to_vector<bool>(), (std::vector<bool>{true, true, true, false}));
  EXPECT_EQ(mn.to_vector<bool>(), (std::vector<bool>{true, false, false, false}));
  expect_contains(error_message<st::DTypeError>([&] { (void)(a - b); }), "bool");
  st::Array i = a + 1;
  EXPECT_EQ(i.dtype(), st::i32);
  EXPECT_EQ(i.to_vector<int>(), (std::vector<int>{2, 2, 1, 1}));
  st::Array f = a * 2.5f;
  EXPECT_EQ(f.dtype(), st::f32);
  EXPECT_EQ(f.to_vector<float>(), (std::vector<float>{2.5f, 2.5f, 0, 0}));
}

TEST(Elementwise, Errors) {
  st::Array a = st::zeros({3}), b = st::zeros({4}), c = st::zeros({2, 3});
  expect_contains(error_message<st::ShapeError>([&] { st::add(a, b); }), "add: shapes f32[3] and f32[4] cannot be broadcast");
  expect_contains(error_message<st::ShapeError>([&] { st::subtract(a, b); }), "subtract: shapes f32[3] and f32[4]");
  expect_contains(error_message<st::ShapeError>([&] { st::divide(c, b); }), "divide: shapes f32[2,3] and f32[4]");
  expect_contains(error_message<st::ShapeError>([&] { st::remainder(b, c); }), "remainder: shapes f32[4] and f32[2,3]");
  expect_contains(error_message<st::ShapeError>([&] { st::power(st::zeros({2, 0}), a); }), "power: shapes f32[2,0] and f32[3]");
  expect_contains(error_message<st::ShapeError>([&] { st::maximum(st::zeros({2, 1}, st::i32), st::zeros({3, 1}, st::f16)); }),
                  "maximum: shapes i32[2,1] and f16[3,1]");
  expect_contains(error_message<st::ShapeError>([&] { (void)(a * b); }), "multiply: shapes f32[3] and f32[4]");
  expect_contains(error_message<st::ShapeError>([&] { (void)(a % b); }), "remainder: shapes");
  expect_contains(error_message<st::ShapeError>([&] { (void)(a / b); }), "divide: shapes");
  expect_contains(error_message<st::ShapeError>([&] { st::minimum(st::zeros({0}), a); }), "minimum: shapes f32[0] and f32[3]");
}

}  // namespace
