// Complex numbers (c64, c128): creation, promotion, every op that takes them, eager against
// std::complex, jit against eager, and the errors of the ops that do not take them.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <functional>

#include "lax.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::error_message;
using st::testing::expect_contains;
using c64 = std::complex<float>;
using c128 = std::complex<double>;

namespace {

// Points off the axes, on them, near 0 (log1p, expm1) and with parts of both signs.
std::vector<c128> sample() {
  return {{0.5, -1.25}, {-2.0, 0.75}, {1.5, 2.0}, {-0.25, -0.5}, {1e-3, 2e-3}, {3.0, 0.0}, {0.0, -1.0}, {-1.5, 1e-4}};
}

template <class C>
std::vector<C> as(const std::vector<c128>& v) {
  std::vector<C> r;
  for (c128 z : v) r.push_back(C(static_cast<typename C::value_type>(z.real()), static_cast<typename C::value_type>(z.imag())));
  return r;
}

// |got - want| <= tol * (1 + |want|), elementwise.
template <class C>
void expect_close(const std::vector<C>& got, const std::vector<c128>& want, double tol, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    c128 g(got[i].real(), got[i].imag());
    if (g == want[i]) continue;  // a pole's infinity (atan(-i)) included
    EXPECT_LE(std::abs(g - want[i]), tol * (1 + std::abs(want[i]))) << what << " at " << i << ": got " << g << ", want " << want[i];
  }
}

struct Unary {
  const char* name;
  std::function<Array(const Array&)> op;
  std::function<c128(c128)> ref;
};

std::vector<Unary> unaries() {
  return {
      {"neg", [](const Array& x) { return -x; }, [](c128 z) { return -z; }},
      {"exp", [](const Array& x) { return st::exp(x); }, [](c128 z) { return std::exp(z); }},
      {"log", [](const Array& x) { return st::log(x); }, [](c128 z) { return std::log(z); }},
      {"log1p", [](const Array& x) { return st::log1p(x); }, [](c128 z) { return std::log(1.0 + z); }},
      {"expm1", [](const Array& x) { return st::expm1(x); }, [](c128 z) { return std::exp(z) - 1.0; }},
      {"sqrt", [](const Array& x) { return st::sqrt(x); }, [](c128 z) { return std::sqrt(z); }},
      {"rsqrt", [](const Array& x) { return st::rsqrt(x); }, [](c128 z) { return 1.0 / std::sqrt(z); }},
      {"sin", [](const Array& x) { return st::sin(x); }, [](c128 z) { return std::sin(z); }},
      {"cos", [](const Array& x) { return st::cos(x); }, [](c128 z) { return std::cos(z); }},
      {"tan", [](const Array& x) { return st::tan(x); }, [](c128 z) { return std::tan(z); }},
      {"tanh", [](const Array& x) { return st::tanh(x); }, [](c128 z) { return std::tanh(z); }},
      {"sinh", [](const Array& x) { return st::sinh(x); }, [](c128 z) { return std::sinh(z); }},
      {"cosh", [](const Array& x) { return st::cosh(x); }, [](c128 z) { return std::cosh(z); }},
      {"asin", [](const Array& x) { return st::asin(x); }, [](c128 z) { return std::asin(z); }},
      {"acos", [](const Array& x) { return st::acos(x); }, [](c128 z) { return std::acos(z); }},
      {"atan", [](const Array& x) { return st::atan(x); }, [](c128 z) { return std::atan(z); }},
      {"asinh", [](const Array& x) { return st::asinh(x); }, [](c128 z) { return std::asinh(z); }},
      {"acosh", [](const Array& x) { return st::acosh(x); }, [](c128 z) { return std::acosh(z); }},
      {"atanh", [](const Array& x) { return st::atanh(x); }, [](c128 z) { return std::atanh(z); }},
      {"logistic", [](const Array& x) { return st::logistic(x); }, [](c128 z) { return 1.0 / (1.0 + std::exp(-z)); }},
      {"sign", [](const Array& x) { return st::sign(x); }, [](c128 z) { return z / std::abs(z); }},
      {"conj", [](const Array& x) { return st::conj(x); }, [](c128 z) { return std::conj(z); }},
      {"square", [](const Array& x) { return st::integer_pow(x, 2); }, [](c128 z) { return z * z; }},
      {"cube_inverse", [](const Array& x) { return st::integer_pow(x, -3); }, [](c128 z) { return 1.0 / (z * z * z); }},
      {"sum_axis", [](const Array& x) { return x * 2.0f + st::conj(x); }, [](c128 z) { return z * 2.0 + std::conj(z); }},
  };
}

template <class C>
void check_unaries(double tol) {
  std::vector<c128> z = sample();
  Array x = st::array(as<C>(z), {static_cast<int64_t>(z.size())});
  for (const Unary& u : unaries()) {
    std::vector<c128> want;
    for (c128 v : z) want.push_back(u.ref(v));
    Array e = u.op(x);
    EXPECT_EQ(e.dtype(), x.dtype()) << u.name;
    expect_close(e.template to_vector<C>(), want, tol, std::string(u.name) + " eager");
    // jit gives what eager gives, up to the rounding of a different formula.
    Array j = st::jit(u.op)(x);
    EXPECT_EQ(j.dtype(), x.dtype()) << u.name;
    expect_close(j.template to_vector<C>(), want, tol, std::string(u.name) + " jit");
  }
}

}  // namespace

TEST(Complex, DTypesAndPromotion) {
  EXPECT_EQ(st::itemsize(st::c64), 8u);
  EXPECT_EQ(st::itemsize(st::c128), 16u);
  EXPECT_EQ(st::long_name(st::c64), "complex64");
  EXPECT_EQ(st::short_name(st::c128), "c128");
  EXPECT_TRUE(st::is_complex(st::c64) && !st::is_floating(st::c64) && !st::is_integer(st::c64));
  EXPECT_EQ(st::promote_types(st::f32, st::c64), st::c64);
  EXPECT_EQ(st::promote_types(st::f64, st::c64), st::c128);  // JAX's lattice: f64 < c128
  EXPECT_EQ(st::promote_types(st::i32, st::c64), st::c64);
  EXPECT_EQ(st::promote_types(st::bf16, st::c64), st::c64);
  EXPECT_EQ(st::promote_types(st::c64, st::c128), st::c128);
  Array x = st::array(std::vector<float>{1, 2}, {2});
  // A C++ complex scalar is weak: with f32 it gives c64 whatever its width (as a Python complex).
  EXPECT_EQ((x * c128(0, 1)).dtype(), st::c64);
  EXPECT_EQ((st::astype(x, st::f64) * c64(0, 1)).dtype(), st::c128);
  Array z = x * c64(0, 1);
  EXPECT_EQ(z.to_vector<c64>(), (std::vector<c64>{{0, 1}, {0, 2}}));
  EXPECT_EQ(z.to_string(), "array([0.+1.j, 0.+2.j], dtype=complex64)");
  // A jaxpr prints a complex literal as Python writes one.
  std::string text = st::make_jaxpr([](const Array& a) { return a * c64(0.5f, -2); })(x).to_string();
  expect_contains(text, "(0.5-2.0j):c64[]");
}

TEST(Complex, PartsAndBuilding) {
  Array re = st::array(std::vector<float>{1, -2, 3}, {3}), im = st::array(std::vector<float>{0.5f, 4, -1}, {3});
  Array z = st::complex(re, im);
  EXPECT_EQ(z.dtype(), st::c64);
  EXPECT_EQ(z.to_vector<c64>(), (std::vector<c64>{{1, 0.5f}, {-2, 4}, {3, -1}}));
  EXPECT_EQ(st::real(z).to_vector<float>(), re.to_vector<float>());
  EXPECT_EQ(st::imag(z).to_vector<float>(), im.to_vector<float>());
  EXPECT_EQ(st::real(z).dtype(), st::f32);
  std::vector<float> mod = st::abs(z).to_vector<float>();
  EXPECT_EQ(st::abs(z).dtype(), st::f32);
  for (int i = 0; i < 3; ++i) EXPECT_FLOAT_EQ(mod[i], std::abs(z.to_vector<c64>()[i]));
  std::vector<float> arg = st::angle(z).to_vector<float>();
  for (int i = 0; i < 3; ++i) EXPECT_FLOAT_EQ(arg[i], std::arg(z.to_vector<c64>()[i]));
  // Real arrays: real is itself, imag zeros, conj itself (jnp).
  EXPECT_EQ(st::imag(re).to_vector<float>(), (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(st::conj(re).dtype(), st::f32);
  // f64 parts give c128; integer parts f32 first.
  EXPECT_EQ(st::complex(st::astype(re, st::f64), im).dtype(), st::c128);
  EXPECT_EQ(st::complex(st::array(std::vector<int>{1}, {1}), st::array(std::vector<int>{2}, {1})).dtype(), st::c64);
  // The same under jit, fused with arithmetic.
  auto f = [](const Array& a, const Array& b) {
    Array w = st::complex(a, b) * st::complex(b, a);
    return std::vector<Array>{st::real(w), st::imag(w), st::abs(w)};
  };
  std::vector<Array> e = f(re, im), j = st::jit(f)(re, im);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(j[k].to_vector<float>(), e[k].to_vector<float>()) << k;
}

TEST(Complex, ConversionToBoolAsJax) {
  // jnp's astype(bool) is z != 0 (either part); jax.lax.convert_element_type (and StableHLO's
  // convert) keeps the real part: JAX gives [True, True, True] and [True, False, True].
  Array z = st::array(std::vector<c128>{{-1, 0}, {0, 1}, {1, 0}}, {3});
  auto astype = [](const Array& v) { return st::astype(v, st::bool_); };
  auto lax = [](const Array& v) { return st::lax::convert_element_type(v, st::bool_, false); };
  for (bool compiled : {false, true}) {
    EXPECT_EQ((compiled ? st::jit(astype)(z) : astype(z)).to_vector<bool>(), (std::vector<bool>{true, true, true})) << compiled;
    EXPECT_EQ((compiled ? st::jit(lax)(z) : lax(z)).to_vector<bool>(), (std::vector<bool>{true, false, true})) << compiled;
  }
  expect_contains(st::make_jaxpr(astype)(z).to_string(), "bool[3] = ne a (0.0+0.0j):c128[]");  // JAX: ne a 0j
}

TEST(Complex, UnaryOpsC64) { check_unaries<c64>(2e-6); }
TEST(Complex, UnaryOpsC128) { check_unaries<c128>(1e-14); }

// Every unary op on a grid of parts (±inf, nan, ±0, huge, ordinary): jit gives eager's values,
// where a value with an infinite or nan part counts as one value whatever its parts (the
// fuzzer's rule: C99's Annex G and the compiled formulas pair them differently). Found by such
// a grid: atanh(±inf + yi) was nan, 1/√(±inf + nan·i) nan; logistic(-inf + inf·i) and
// (1e30 + 1e30i)^-3 were 0 eager (std::complex's Annex G products) and nan compiled.
TEST(Complex, NonFiniteAndHugePartsJitEqualsEager) {
  const float inf = INFINITY, nan = NAN;
  const std::vector<float> values{-inf, -1e30f, -2, -0.0f, 0, 0.5f, 2, 1e30f, inf, nan};
  std::vector<c64> grid;
  for (float re : values)
    for (float im : values) grid.emplace_back(re, im);
  const Array x = st::array(grid, {static_cast<int64_t>(grid.size())});
  auto nonfinite = [](c64 v) { return !std::isfinite(v.real()) || !std::isfinite(v.imag()); };
  auto same = [](float a, float b) {
    return (std::isnan(a) && std::isnan(b)) || a == b || std::abs(a - b) <= 1e-5f * std::max(1.0f, std::abs(b));
  };
  for (const Unary& u : unaries()) {
    const std::vector<c64> e = u.op(x).to_vector<c64>(), j = st::jit(u.op)(x).to_vector<c64>();
    for (size_t i = 0; i < grid.size(); ++i) {
      if (nonfinite(e[i]) && nonfinite(j[i])) continue;
      EXPECT_TRUE(same(j[i].real(), e[i].real()) && same(j[i].imag(), e[i].imag()))
          << u.name << grid[i] << ": jit " << j[i] << ", eager " << e[i];
    }
  }
}

namespace {
// Each part of `got` within 8 ulps of its own (relative) of `want`'s; a part below the normal
// range may be 0.
template <class C>
bool parts_close(C got, std::complex<long double> want) {
  using R = typename C::value_type;
  auto close = [](R g, long double w) {
    return g == w || std::abs(g - w) <= std::max<long double>(8 * std::numeric_limits<R>::epsilon() * std::abs(w),
                                                              std::numeric_limits<R>::min());
  };
  return close(got.real(), want.real()) && close(got.imag(), want.imag());
}

// sin, cos, sinh, cosh, tan and tanh of c64 or c128 values, eager and jit, against std::complex<long double>
// part by part (each part's own relative error: a small imaginary part is no rounding of the
// large real one), and jit against eager exactly at infinite, nan and zero parts (C99 Annex G as
// glibc gives it, signs of zeros and infinities included).
template <class C>
void check_circular_and_hyperbolic() {
  using R = typename C::value_type;
  using CL = std::complex<long double>;
  const R eps = std::numeric_limits<R>::epsilon(), inf = std::numeric_limits<R>::infinity();
  const R big = std::is_same_v<R, float> ? R(89.3) : R(710.3);  // cosh finite, e^x not
  const std::vector<C> small{{1, R(1e-5)}, {R(1e-18), R(1e-18)}, {R(-2.5), R(3e-9)}, {R(1e-3), R(1e-3)}, {0, R(1e-30)},
                             {R(1.5707964), R(1e-4)}, {R(1e-4), R(1.5707964)}};  // near tan's and tanh's poles
  const std::vector<C> large{{1, big}, {R(-0.5), -big}, {R(1.5707964), big}};
  const std::vector<std::function<Array(const Array&)>> ops{
      [](const Array& x) { return st::sin(x); }, [](const Array& x) { return st::cos(x); },
      [](const Array& x) { return st::sinh(x); }, [](const Array& x) { return st::cosh(x); },
      [](const Array& x) { return st::tan(x); }, [](const Array& x) { return st::tanh(x); }};
  const std::vector<std::function<CL(CL)>> refs{[](CL z) { return std::sin(z); }, [](CL z) { return std::cos(z); },
                                                [](CL z) { return std::sinh(z); }, [](CL z) { return std::cosh(z); },
                                                [](CL z) { return std::tan(z); }, [](CL z) { return std::tanh(z); }};
  const char* names[] = {"sin", "cos", "sinh", "cosh", "tan", "tanh"};
  std::vector<C> points = small;
  points.insert(points.end(), large.begin(), large.end());
  const Array x = st::array(points, {static_cast<int64_t>(points.size())});
  for (size_t k = 0; k < ops.size(); ++k)
    for (bool compiled : {false, true}) {
      const std::vector<C> got = (compiled ? st::jit(ops[k])(x) : ops[k](x)).template to_vector<C>();
      for (size_t i = 0; i < points.size(); ++i) {
        const CL want = refs[k](CL(points[i].real(), points[i].imag()));
        // sin and cos of a large imaginary part (sinh and cosh of a large real one) are finite
        // while e^|part| overflows; the others are far from it.
        EXPECT_TRUE(parts_close(got[i], want))
            << names[k] << points[i] << (compiled ? " jit " : " eager ") << got[i] << ", want ("
            << static_cast<double>(want.real()) << "," << static_cast<double>(want.imag()) << ")";
      }
    }
  // sinh, cosh and tanh of a large real part: the same points turned.
  std::vector<C> turned;
  for (const C& z : large) turned.emplace_back(z.imag(), z.real());
  const Array t = st::array(turned, {static_cast<int64_t>(turned.size())});
  for (size_t k : {2, 3, 5}) {
    const std::vector<C> got = st::jit(ops[k])(t).template to_vector<C>();
    for (size_t i = 0; i < turned.size(); ++i) {
      const CL want = refs[k](CL(turned[i].real(), turned[i].imag()));
      EXPECT_TRUE(parts_close(got[i], want))
          << names[k] << turned[i] << " jit " << got[i];
    }
  }
  // The edges: every pair of parts from this list, jit against eager, bit for bit but for nan
  // payloads and within a few ulps for finite values.
  const std::vector<R> values{0, R(-0.0), 1, -1, inf, -inf, std::numeric_limits<R>::quiet_NaN(), R(1e-30), big,
                              -big, 300, 1000, 2200, R(3.14159265), R(1.5707964), R(1e30)};
  std::vector<C> grid;
  for (R re : values)
    for (R im : values) grid.emplace_back(re, im);
  const Array g = st::array(grid, {static_cast<int64_t>(grid.size())});
  auto same = [&](R a, R b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::signbit(a) == std::signbit(b) && (a == b || std::abs(a - b) <= 8 * eps * std::abs(b));
  };
  for (size_t k = 0; k < ops.size(); ++k) {
    const std::vector<C> e = ops[k](g).template to_vector<C>(), j = st::jit(ops[k])(g).template to_vector<C>();
    for (size_t i = 0; i < grid.size(); ++i)
      EXPECT_TRUE(same(j[i].real(), e[i].real()) && same(j[i].imag(), e[i].imag()))
          << names[k] << grid[i] << ": jit " << j[i] << ", eager " << e[i];
  }
}
}  // namespace

// The compiled complex sin/cos/sinh/cosh took the complex dialect's (e^y ∓ e^-y)/2: sin(1 +
// 1e-5i)'s imaginary part was off by 1.4e-3 (relative) and 0 at 1e-20; c64 sin(1 + 89.3i) was
// inf (cosh 89.3 fits in f32, e^89.3 does not); sinh(100 + 0i) was inf + nan·i, eager inf + 0i.
// Its tan, by cos 2x + cosh 2y, was off by 8e-5 at 1.5708 + 1e-4i.
TEST(Complex, CircularAndHyperbolicAccurateAndAsGlibcC64) { check_circular_and_hyperbolic<c64>(); }
TEST(Complex, CircularAndHyperbolicAccurateAndAsGlibcC128) { check_circular_and_hyperbolic<c128>(); }

namespace {
// log, log1p, expm1, atanh and atan where a formula cancels, eager and jit, part by part against
// long double (each part's own relative error, within 8 ulps).
template <class C>
void check_cancelling_points() {
  using R = typename C::value_type;
  using CL = std::complex<long double>;
  using LD = long double;
  struct Fn {
    const char* name;
    std::function<Array(const Array&)> op;
    std::function<CL(CL)> ref;
    std::vector<C> points;
  };
  const std::vector<Fn> fns{
      // |z| near 1: log|z| cancels.
      {"log", [](const Array& x) { return st::log(x); }, [](CL z) { return std::log(z); },
       {{R(-0.299095), R(0.954359)}, {R(0.6), R(0.8)}, {1, R(1e-4)}, {R(1.06223), R(-0.935127)}}},
      // |1 + z| near 1: 2x + x² + y² cancels.
      {"log1p", [](const Array& x) { return st::log1p(x); },
       [](CL z) {
         // The squares' roundings added back (fmal): the terms cancel to 1e-9 here.
         const LD x = z.real(), y = z.imag(), p = x * x, q = y * y;
         const LD r = ((2 * x + p) + q) + (std::fma(x, x, -p) + std::fma(y, y, -q));
         return CL(std::log1p(r) / 2, std::atan2(y, 1 + x));
       },
       {{R(-0.115207), R(0.467346)}, {R(-0.5), R(0.8660254)}, {R(1e-5), R(2e-3)}}},
      // e^x tiny: its imaginary part e^x·sin y, not (expm1(x) + 1)·sin y.
      {"expm1", [](const Array& x) { return st::expm1(x); },
       [](CL z) {
         const LD x = z.real(), y = z.imag(), s = std::sin(y / 2);
         return CL(std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y));
       },
       {{R(-45.4551), R(-0.00246122)}, {R(-20), 1}, {R(-30), R(3)}}},
      // A part small beside the other: (log1p(z) - log1p(-z))/2 cancels in it.
      {"atanh", [](const Array& x) { return st::atanh(x); }, [](CL z) { return std::atanh(z); },
       {{R(-8.26911e-07), R(31.1189)}, {R(0.5), R(1e-10)}, {R(1e-8), R(0.3)}, {R(0.999), R(1e-3)}}},
      {"atan", [](const Array& x) { return st::atan(x); }, [](CL z) { return std::atan(z); },
       {{R(57.6458), R(-3.27152e-07)}, {R(1e-10), R(0.5)}, {R(0.3), R(1e-8)}}},
  };
  for (const Fn& fn : fns) {
    const Array x = st::array(fn.points, {static_cast<int64_t>(fn.points.size())});
    for (bool compiled : {false, true}) {
      const std::vector<C> got = (compiled ? st::jit(fn.op)(x) : fn.op(x)).template to_vector<C>();
      for (size_t i = 0; i < got.size(); ++i) {
        const CL want = fn.ref(CL(fn.points[i].real(), fn.points[i].imag()));
        EXPECT_TRUE(parts_close(got[i], want))
            << fn.name << fn.points[i] << (compiled ? " jit " : " eager ") << got[i] << ", want ("
            << static_cast<double>(want.real()) << "," << static_cast<double>(want.imag()) << ")";
      }
    }
  }
}
}  // namespace

// Found by a sweep of every complex function against long double: the compiled atanh and atan
// were up to 1e9 ulps off in a part small beside the other (in a fifth of the sample), log 4e3
// ulps near |z| = 1, expm1's imaginary part 0 below x = -17 (c64); eager log1p 47 ulps near
// |1 + z| = 1.
TEST(Complex, CancellingFormulasAccuratePerPartC64) { check_cancelling_points<c64>(); }
TEST(Complex, CancellingFormulasAccuratePerPartC128) { check_cancelling_points<c128>(); }

TEST(Complex, BinaryOpsEagerAndJit) {
  std::vector<c128> a = sample(), b;
  for (c128 z : a) b.push_back(z * c128(0.5, -0.25) + c128(0.25, 1.0));
  for (st::DType t : {st::c64, st::c128}) {
    Array x = st::astype(st::array(a, {8}), t), y = st::astype(st::array(b, {8}), t);
    double tol = t == st::c64 ? 2e-6 : 1e-14;
    struct Case {
      const char* name;
      std::function<Array(const Array&, const Array&)> op;
      std::function<c128(c128, c128)> ref;
    };
    std::vector<Case> cases = {
        {"add", [](const Array& p, const Array& q) { return p + q; }, [](c128 p, c128 q) { return p + q; }},
        {"sub", [](const Array& p, const Array& q) { return p - q; }, [](c128 p, c128 q) { return p - q; }},
        {"mul", [](const Array& p, const Array& q) { return p * q; }, [](c128 p, c128 q) { return p * q; }},
        {"div", [](const Array& p, const Array& q) { return p / q; }, [](c128 p, c128 q) { return p / q; }},
        {"pow", [](const Array& p, const Array& q) { return st::power(p, q); }, [](c128 p, c128 q) { return std::pow(p, q); }},
        {"where", [](const Array& p, const Array& q) { return st::where(st::real(p) > 0.0f, p, q); },
         [](c128 p, c128 q) { return p.real() > 0 ? p : q; }},
    };
    for (const Case& c : cases) {
      std::vector<c128> want;
      for (size_t i = 0; i < a.size(); ++i) want.push_back(c.ref(a[i], b[i]));
      Array e = c.op(x, y), j = st::jit(c.op)(x, y);
      EXPECT_EQ(e.dtype(), t);
      if (t == st::c64) {
        expect_close(e.to_vector<c64>(), want, tol, std::string(c.name) + " eager");
        expect_close(j.to_vector<c64>(), want, tol, std::string(c.name) + " jit");
      } else {
        expect_close(e.to_vector<c128>(), want, tol, std::string(c.name) + " eager");
        expect_close(j.to_vector<c128>(), want, tol, std::string(c.name) + " jit");
      }
    }
    // Equality compares both parts.
    Array z = st::astype(st::array(std::vector<c64>{{1, 2}, {1, -2}, {0, 0}}, {3}), t);
    Array w = st::astype(st::array(std::vector<c64>{{1, 2}, {1, 2}, {0, 0}}, {3}), t);
    auto eq = [](const Array& p, const Array& q) { return std::vector<Array>{p == q, p != q}; };
    for (const std::vector<Array>& r : {eq(z, w), st::jit(eq)(z, w)}) {
      EXPECT_EQ(r[0].to_vector<bool>(), (std::vector<bool>{true, false, true}));
      EXPECT_EQ(r[1].to_vector<bool>(), (std::vector<bool>{false, true, false}));
    }
  }
}

// Zero and non-finite bases (found by the differential fuzzer: eager's std::pow gave nan for
// 0^0, 0 for some infinite bases, where the compiled code gives 1, nan): jax.numpy.power's values
// (jax 0.10.2, complex64), eager and jit.
TEST(Complex, PowerEdgeCasesAsJax) {
  const double nan = std::nan(""), inf = INFINITY;
  std::vector<c128> base = {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {-0.0, 0}, {-inf, -inf}, {inf, 0}, {1e30, 0},
                            {-inf, 1}, {nan, 0}, {1, 0}};
  std::vector<c128> expo = {{0, 0}, {2, 0}, {1, 1}, {-1, 0}, {0, 1}, {-1, 1}, {0.5, 0}, {2, 1}, {0.5, 0}, {2, 0},
                            {-1, 0}, {0, 0}, {nan, 1}};
  std::vector<c128> want = {{1, 0}, {0, 0}, {nan, nan}, {nan, nan}, {nan, nan}, {nan, nan}, {0, 0}, {nan, nan},
                            {inf, 0}, {inf, nan}, {nan, nan}, {1, 0}, {1, 0}};
  for (st::DType t : {st::c64}) {
    const int64_t n = static_cast<int64_t>(base.size());
    Array x = st::astype(st::array(base, {n}), t), y = st::astype(st::array(expo, {n}), t);
    auto pw = [](const Array& p, const Array& q) { return st::power(p, q); };
    const Array results[] = {pw(x, y), st::jit(pw)(x, y)};
    for (int path = 0; path < 2; ++path) {
      std::vector<c128> got = st::astype(results[path], st::c128).to_vector<c128>();
      for (size_t i = 0; i < want.size(); ++i) {
        SCOPED_TRACE(std::string(path ? "jit " : "eager ") + std::string(st::short_name(t)) + " element " + std::to_string(i));
        auto same = [](double g, double w) { return std::isnan(w) ? std::isnan(g) : g == w; };
        EXPECT_TRUE(same(got[i].real(), want[i].real()) && same(got[i].imag(), want[i].imag())) << got[i] << " vs " << want[i];
      }
    }
  }
}

// Division without overflow in |b|² and with Annex G's infinities and zeros (found by the
// differential fuzzer: eager gave nan for 0 / (0 + inf i), jit 0): jax.numpy's values
// (jax 0.10.2, complex64), eager and jit.
TEST(Complex, DivisionEdgeCasesAsJax) {
  const double inf = INFINITY;
  std::vector<c128> num = {{0, 0}, {0, 0}, {0, 0}, {1, 0}, {1, 0}, {1, 0}};
  std::vector<c128> den = {{0, inf}, {-inf, 0}, {1e30, 1e30}, {0, inf}, {1e30, 1e30}, {3, 4}};
  std::vector<c128> want = {{0, 0}, {-0.0, -0.0}, {0, 0}, {0, -0.0}, {5.000000015855384e-31, -5.000000015855384e-31},
                            {0.11999999731779099, -0.1599999964237213}};
  Array x = st::astype(st::array(num, {6}), st::c64), y = st::astype(st::array(den, {6}), st::c64);
  auto dv = [](const Array& p, const Array& q) { return p / q; };
  const Array results[] = {dv(x, y), st::jit(dv)(x, y)};
  for (int path = 0; path < 2; ++path) {
    std::vector<c64> got = results[path].to_vector<c64>();
    for (size_t i = 0; i < want.size(); ++i) {
      SCOPED_TRACE(std::string(path ? "jit" : "eager") + " element " + std::to_string(i));
      EXPECT_NEAR(got[i].real(), want[i].real(), 1e-6 * std::abs(want[i].real())) << got[i];
      EXPECT_NEAR(got[i].imag(), want[i].imag(), 1e-6 * std::abs(want[i].imag())) << got[i];
      EXPECT_EQ(std::signbit(got[i].real()), std::signbit(want[i].real())) << got[i];
      EXPECT_EQ(std::signbit(got[i].imag()), std::signbit(want[i].imag())) << got[i];
    }
  }
}

// exp(a + bi) as XLA computes it, e^a·(cos b + i·sin b), with a real argument's imaginary
// part kept (found by the differential fuzzer: eager took C99's cexp, 0 for exp(-inf - inf i),
// jit nan): jax.numpy's values (jax 0.10.2, complex64), eager and jit.
TEST(Complex, ExpOfNonFiniteValuesAsJax) {
  const float inf = INFINITY, nan = NAN;
  std::vector<float> re = {-inf, -inf, inf, inf, -inf, nan, 1, inf, -inf, inf, 0};
  std::vector<float> im = {-inf, nan, inf, nan, 1, 0, inf, 0, 0, 2, nan};
  // Finite parts of jnp.exp(re + im·1j); nan where JAX gives nan.
  std::vector<float> want_re = {nan, nan, nan, nan, 0, nan, nan, inf, 0, -inf, nan};
  std::vector<float> want_im = {nan, nan, nan, nan, 0, 0, nan, 0, 0, inf, nan};
  const Array x = st::array(re, {11}), y = st::array(im, {11});
  auto e = [](const Array& a, const Array& b) { return st::exp(st::complex(a, b)); };
  const Array results[] = {e(x, y), st::jit(e)(x, y)};
  for (int path = 0; path < 2; ++path) {
    const std::vector<c64> got = results[path].to_vector<c64>();
    for (size_t i = 0; i < re.size(); ++i) {
      SCOPED_TRACE(std::string(path ? "jit" : "eager") + " exp(" + std::to_string(re[i]) + ", " + std::to_string(im[i]) + ")");
      for (auto [g, w] : {std::pair{got[i].real(), want_re[i]}, std::pair{got[i].imag(), want_im[i]}}) {
        if (std::isnan(w)) EXPECT_TRUE(std::isnan(g)) << got[i];
        else EXPECT_EQ(g, w) << got[i];
      }
    }
  }
}

// Products that overflow or cancel, and the quotients and sigmoids built on them, give JAX's
// values eager and compiled (jax 0.10.2, jit on the CPU): XLA fuses a·c - b·d into one
// multiply-add, so (1e30 + 1e30i)² is -inf + inf·i (unfused, inf - inf is nan; the 4 squares
// are one x86 vector: the fused product must hold in vector code too), and its complex
// multiply has no Annex G recovery, so logistic(-inf + inf·i) is nan (std::complex's gives 0).
TEST(Complex, OverflowingProductsAndQuotientsAsJax) {
  const float inf = INFINITY, nan = NAN;
  struct Case {
    const char* what;
    std::function<Array(const Array&)> f;
    std::vector<c64> in, want;
  };
  const std::vector<Case> cases = {
      {"square", [](const Array& z) { return z * z; },
       {{1e30f, 1e30f}, {-1e30f, -inf}, {-inf, -inf}, {1e30f, -1e30f}},
       {{-inf, inf}, {-inf, inf}, {nan, inf}, {-inf, -inf}}},
      {"product", [](const Array& z) { return z * st::array(std::vector<c64>{{1e30f, 1e30f}, {1e30f, -1e-30f}}, {2}); },
       {{1e30f, -1e30f}, {3, 1e30f}},
       {{inf, inf}, {3.0000002e30f, inf}}},  // which product of each part is fused: XLA's
      {"integer_pow -3", [](const Array& z) { return st::integer_pow(z, -3); },
       {{1e30f, 1e30f}, {-1e30f, -inf}, {-inf, -inf}, {1e30f, -1e30f}},
       {{-0.0f, 0}, {0, 0}, {nan, nan}, {-0.0f, 0}}},
      {"logistic", [](const Array& z) { return st::logistic(z); },
       {{-inf, 2}, {inf, 2}, {-inf, inf}, {inf, -inf}, {-inf, nan}, {2, inf}},
       {{-0.0f, 0}, {1, 0}, {nan, nan}, {nan, nan}, {nan, nan}, {nan, nan}}},
  };
  auto same = [](float g, float w) { return std::isnan(w) ? std::isnan(g) : g == w && std::signbit(g) == std::signbit(w); };
  for (const Case& c : cases) {
    const Array x = st::array(c.in, {static_cast<int64_t>(c.in.size())});
    const Array results[] = {c.f(x), st::jit(c.f)(x)};
    for (int path = 0; path < 2; ++path) {
      const std::vector<c64> got = results[path].to_vector<c64>();
      for (size_t i = 0; i < c.in.size(); ++i)
        EXPECT_TRUE(same(got[i].real(), c.want[i].real()) && same(got[i].imag(), c.want[i].imag()))
            << (path ? "jit " : "eager ") << c.what << c.in[i] << ": " << got[i] << ", JAX " << c.want[i];
    }
  }
}

// |z| and sign(z) with non-finite parts give JAX's values eager and compiled (jax 0.10.2, jit
// on the CPU): a nan part makes |z| nan even beside an infinite one (C99's hypot, which eager
// used, says inf; found by the differential fuzzer as jit nan against eager inf), and sign is
// z / |z|.
TEST(Complex, AbsAndSignOfNonFinitePartsAsJax) {
  const float inf = INFINITY, nan = NAN;
  const std::vector<c64> in = {{nan, inf}, {inf, nan}, {-inf, 1}, {0, 0}, {inf, inf}, {1e30f, 1e30f}, {3, -4}, {2, nan}};
  const std::vector<float> abs_want = {nan, nan, inf, 0, inf, 1.4142135e30f, 5, nan};
  const std::vector<c64> sign_want = {{nan, nan}, {nan, nan}, {nan, 0}, {0, 0}, {nan, nan}, {0.7071068f, 0.7071068f}, {0.6f, -0.8f}, {nan, nan}};
  auto same = [](float g, float w) { return std::isnan(w) ? std::isnan(g) : g == w; };
  const Array x = st::array(in, {static_cast<int64_t>(in.size())});
  auto abs = [](const Array& z) { return st::abs(z); };
  auto sign = [](const Array& z) { return st::sign(z); };
  for (int path = 0; path < 2; ++path) {
    const std::vector<float> a = (path ? st::jit(abs)(x) : abs(x)).to_vector<float>();
    const std::vector<c64> s = (path ? st::jit(sign)(x) : sign(x)).to_vector<c64>();
    for (size_t i = 0; i < in.size(); ++i) {
      EXPECT_TRUE(same(a[i], abs_want[i])) << (path ? "jit" : "eager") << " abs" << in[i] << ": " << a[i] << ", JAX " << abs_want[i];
      EXPECT_TRUE(same(s[i].real(), sign_want[i].real()) && same(s[i].imag(), sign_want[i].imag()))
          << (path ? "jit" : "eager") << " sign" << in[i] << ": " << s[i] << ", JAX " << sign_want[i];
    }
  }
}

// The complex dialect's folders rewrite (a - b) + b to a, log(exp(z)) to z and z·1 to z, which
// floating point does not allow (found by the differential fuzzer: jit kept exp(2^31 i)'s
// imaginary part, which eager rounds away). jax.numpy op by op gives 0.2378162+0j and
// -2.56637061j (jax 0.10.2; its jit folds the first chain too); jit must agree with eager.
TEST(Complex, CompiledChainsAreNotSimplifiedAlgebraically) {
  auto same = [](const Array& a, const Array& b, const std::string& what) {
    std::vector<c128> x = st::astype(a, st::c128).to_vector<c128>(), y = st::astype(b, st::c128).to_vector<c128>();
    ASSERT_EQ(x.size(), y.size()) << what;
    for (size_t i = 0; i < x.size(); ++i)
      for (auto [p, q] : {std::pair{x[i].real(), y[i].real()}, std::pair{x[i].imag(), y[i].imag()}})
        EXPECT_TRUE(std::isnan(p) ? std::isnan(q) : p == q || std::abs(p - q) <= 1e-6 * (1 + std::abs(q)))
            << what << " element " << i << ": jit " << x[i] << ", eager " << y[i];
  };
  Array z = st::astype(st::array(std::vector<c128>{{0, 2147483648.0}, {0.5, 3}}, {2}), st::c64);
  auto add_back = [](const Array& v) { return (st::exp(v) - v) + v; };
  same(st::jit(add_back)(z), add_back(z), "(exp(z) - z) + z");
  EXPECT_EQ(add_back(z).to_vector<c64>()[0].imag(), 0.0f);
  EXPECT_NEAR(add_back(z).to_vector<c64>()[0].real(), 0.2378162f, 1e-6f);

  Array w = st::array(std::vector<c128>{{0, 10}, {1, 7}}, {2});
  auto log_exp = [](const Array& v) { return st::log(st::exp(v)); };
  auto exp_log = [](const Array& v) { return st::exp(st::log(v)); };
  same(st::jit(log_exp)(w), log_exp(w), "log(exp(z))");
  same(st::jit(exp_log)(w), exp_log(w), "exp(log(z))");
  EXPECT_NEAR(st::jit(log_exp)(w).to_vector<c128>()[0].imag(), 10 - 4 * M_PI, 1e-12);

  const double inf = INFINITY;
  Array u = st::astype(st::array(std::vector<c128>{{inf, 0}, {1, inf}, {2, -3}}, {3}), st::c64);
  auto times_one = [](const Array& v) { return v * st::Array(c64(1, 0)); };
  auto over_one = [](const Array& v) { return v / st::Array(c64(1, 0)); };
  auto sub_add = [](const Array& v) { return (v + st::Array(c64(1e8f, 0))) - st::Array(c64(1e8f, 0)); };
  same(st::jit(times_one)(u), times_one(u), "z * (1+0i)");
  same(st::jit(over_one)(u), over_one(u), "z / (1+0i)");
  same(st::jit(sub_add)(u), sub_add(u), "(z + 1e8) - 1e8");
}

TEST(Complex, ReductionsMatmulAndDataMovement) {
  std::vector<c64> v;
  for (int i = 0; i < 12; ++i) v.push_back(c64(0.25f * i - 1, 0.5f - 0.125f * i));
  Array x = st::array(v, {3, 4});
  auto f = [](const Array& a) {
    Array m = st::matmul(a, st::transpose(st::conj(a)));  // a · aᴴ
    return std::vector<Array>{st::sum(a, {1}), st::prod(a, {0}), st::cumsum(a, 1), m,
                              st::concatenate({a, st::reshape(a, {3, 4})[{st::Slice(0, 1)}]}, 0),
                              st::astype(a, st::f32), st::astype(st::real(a), st::c128), st::astype(a, st::bool_)};
  };
  std::vector<Array> e = f(x), j = st::jit(f)(x);
  // References.
  std::vector<c128> sum1, prod0, cum, mm;
  for (int r = 0; r < 3; ++r) {
    c128 s = 0;
    for (int c = 0; c < 4; ++c) s += c128(v[r * 4 + c]);
    sum1.push_back(s);
  }
  for (int c = 0; c < 4; ++c) {
    c128 p = 1;
    for (int r = 0; r < 3; ++r) p *= c128(v[r * 4 + c]);
    prod0.push_back(p);
  }
  for (int r = 0; r < 3; ++r) {
    c128 s = 0;
    for (int c = 0; c < 4; ++c) cum.push_back(s += c128(v[r * 4 + c]));
  }
  for (int r = 0; r < 3; ++r)
    for (int q = 0; q < 3; ++q) {
      c128 s = 0;
      for (int c = 0; c < 4; ++c) s += c128(v[r * 4 + c]) * std::conj(c128(v[q * 4 + c]));
      mm.push_back(s);
    }
  for (const std::vector<Array>& r : {e, j}) {
    expect_close(r[0].to_vector<c64>(), sum1, 1e-6, "sum");
    expect_close(r[1].to_vector<c64>(), prod0, 1e-6, "prod");
    expect_close(r[2].to_vector<c64>(), cum, 1e-6, "cumsum");
    expect_close(r[3].to_vector<c64>(), mm, 1e-6, "matmul");
    EXPECT_EQ(r[4].shape(), (st::Shape{4, 4}));
    EXPECT_EQ(r[4].to_vector<c64>()[13], v[1]);
    EXPECT_EQ(r[5].dtype(), st::f32);
    EXPECT_EQ(r[5].to_vector<float>()[5], v[5].real());  // the real part, as JAX
    EXPECT_EQ(r[6].to_vector<c128>()[7], c128(v[7].real(), 0));
    EXPECT_EQ(r[7].to_vector<bool>()[4], false);  // v[4] = 0 + 0i, the only false one
    EXPECT_EQ(r[7].to_vector<bool>()[5], true);
  }
  EXPECT_EQ(e[5].to_vector<float>(), j[5].to_vector<float>());
}

TEST(Complex, ScattersIntoComplexArrays) {
  // x.at[idx].set / add / mul with a repeated index (the last write wins for set; add and mul
  // accumulate), eager against std::complex and jit against eager.
  std::vector<c64> v = {{1, 2}, {-1, 0.5f}, {0.25f, -3}, {2, 2}, {0, -1}};
  std::vector<c64> u = {{0.5f, 1}, {-2, 1}, {1, -1}, {3, 0.5f}};
  std::vector<int32_t> idx = {0, 2, 2, 4};
  Array x = st::array(v, {5}), upd = st::array(u, {4}), at = st::array(idx, {4});
  auto f = [](const Array& a, const Array& i, const Array& w) {
    return std::vector<Array>{a.at(i).set(w), a.at(i).add(w), a.at(i).mul(w)};
  };
  std::vector<c64> set = v, add = v, mul = v;
  for (size_t k = 0; k < idx.size(); ++k) {
    set[idx[k]] = u[k];
    add[idx[k]] += u[k];
    mul[idx[k]] *= u[k];
  }
  std::vector<Array> e = f(x, at, upd), j = st::jit(f)(x, at, upd);
  for (const std::vector<Array>& r : {e, j}) {
    EXPECT_EQ(r[0].to_vector<c64>(), set);
    expect_close(r[1].to_vector<c64>(), std::vector<c128>(add.begin(), add.end()), 1e-6, "add");
    expect_close(r[2].to_vector<c64>(), std::vector<c128>(mul.begin(), mul.end()), 1e-6, "mul");
  }
  for (size_t k = 0; k < 3; ++k) EXPECT_EQ(e[k].to_vector<c64>(), j[k].to_vector<c64>()) << k;
  EXPECT_EQ(x.to_vector<c64>(), v);  // the operand is not modified
  // min and max in the lexicographic order (Complex.OrderedReductionsAsJax has JAX's values).
  auto g = [](const Array& a, const Array& i, const Array& w) { return std::vector<Array>{a.at(i).max(w), a.at(i).min(w)}; };
  std::vector<c64> hi = v, lo = v;
  auto less = [](c64 p, c64 q) { return p.real() != q.real() ? p.real() < q.real() : p.imag() < q.imag(); };
  for (size_t k = 0; k < idx.size(); ++k) {
    if (less(hi[idx[k]], u[k])) hi[idx[k]] = u[k];
    if (less(u[k], lo[idx[k]])) lo[idx[k]] = u[k];
  }
  std::vector<Array> ge = g(x, at, upd), gj = st::jit(g)(x, at, upd);
  for (const std::vector<Array>& r : {ge, gj}) {
    EXPECT_EQ(r[0].to_vector<c64>(), hi);
    EXPECT_EQ(r[1].to_vector<c64>(), lo);
  }
}

TEST(Complex, SortsLexicographically) {
  // By the real parts, then the imaginary ones (NumPy's order; nan parts last), ascending and
  // descending, argsort stable; eager against the expected order, jit against eager.
  const double nan = NAN;
  std::vector<c128> v = {{2, 1}, {-1, 5}, {2, -3}, {nan, 0}, {-1, 5}, {0, nan}, {0, 2}, {-4, 0}};
  Array x = st::array(v, {8});
  auto f = [](const Array& a) {
    return std::vector<Array>{st::sort(a), st::argsort(a), st::sort(a, -1, true), st::argsort(a, -1, true),
                              st::top_k(a, 3).second};
  };
  std::vector<Array> e = f(x), j = st::jit(f)(x);
  const std::vector<int32_t> up = {7, 1, 4, 6, 5, 2, 0, 3}, down = {3, 0, 2, 5, 6, 1, 4, 7};
  EXPECT_EQ(e[1].to_vector<int32_t>(), up);
  EXPECT_EQ(e[3].to_vector<int32_t>(), down);  // stable: the equal -1+5i keep their order
  EXPECT_EQ(e[4].to_vector<int32_t>(), (std::vector<int32_t>{3, 0, 2}));
  std::vector<c128> sorted = e[0].to_vector<c128>();
  for (size_t k = 0; k < up.size(); ++k) {
    c128 want = v[static_cast<size_t>(up[k])], got = sorted[k];
    EXPECT_TRUE((got.real() == want.real() || (std::isnan(got.real()) && std::isnan(want.real()))) &&
                (got.imag() == want.imag() || (std::isnan(got.imag()) && std::isnan(want.imag()))))
        << k;
  }
  for (size_t k = 0; k < e.size(); ++k)
    EXPECT_EQ(std::memcmp(e[k].data(), j[k].data(), e[k].nbytes()), 0) << "jit output " << k;
  // lax.sort with a real key carries complex operands along (a 16-byte c128 too); complex keys
  // are refused with the way out.
  Array key = st::array(std::vector<float>{3, 1, 2}, {3});
  Array payload = st::array(std::vector<c128>{{1, 1}, {2, 2}, {3, 3}}, {3});
  auto g = [](const Array& k, const Array& p) { return st::sort({k, p}, 0, true, 1)[1]; };
  const std::vector<c128> want = {{2, 2}, {3, 3}, {1, 1}};
  EXPECT_EQ(g(key, payload).to_vector<c128>(), want);
  EXPECT_EQ(st::jit(g)(key, payload).to_vector<c128>(), want);
  expect_contains(error_message<st::Error>([&] { (void)st::sort({payload, key}, 0, true, 1); }),
                  "sort: expects real keys (complex ones sort by their real and imaginary parts as two keys");
}

TEST(Complex, MaximumAndMinimumAreLexicographicAsJax) {
  // jax.lax.max / min (and jnp.maximum / minimum) compare real parts, then imaginary ones.
  Array a = st::array(std::vector<c128>{{1.5, 2.5}, {1.5, 7.5}, {0.0, 1.5}}, {3});
  Array b = st::array(std::vector<c128>{{7.5, 1.5}, {1.5, 2.5}, {-0.0, 2.5}}, {3});
  auto f = [](const Array& p, const Array& q) { return std::vector<Array>{st::maximum(p, q), st::minimum(p, q)}; };
  for (bool compiled : {false, true}) {
    std::vector<Array> r = compiled ? st::jit(f)(a, b) : f(a, b);
    EXPECT_EQ(r[0].to_vector<c128>(), (std::vector<c128>{{7.5, 1.5}, {1.5, 7.5}, {-0.0, 2.5}})) << compiled;
    EXPECT_EQ(r[1].to_vector<c128>(), (std::vector<c128>{{1.5, 2.5}, {1.5, 2.5}, {0.0, 1.5}})) << compiled;
  }
  // The derivative flows to the operand picked: of sum(real(max(a, b))) in a, 1 where a is.
  auto loss = [&](const Array& p) { return st::sum(st::real(st::maximum(p, b))); };
  EXPECT_EQ(st::grad(loss)(a).to_vector<c128>(), (std::vector<c128>{{0, 0}, {1, 0}, {0, 0}}));
  EXPECT_EQ(st::jit(st::grad(loss))(a).to_vector<c128>(), (std::vector<c128>{{0, 0}, {1, 0}, {0, 0}}));
}

// Reductions, scans, windows, scatters and segments take the lexicographic max/min too, as in
// JAX (jax 0.10.2, complex64, on z below): max (2-1j), max over rows [2-1j, 2-5j, 9j], min
// over columns [9j, -1], cummax along rows [[1+2j, 1+3j, 1+3j], [2-1j]*3], a (1, 2) window max
// [[1+3j, 1+3j], [2-1j, 2-5j]], segment_max [1+3j, 2-1j], .at[[0, 0, 1]].max([5, 1+1j, 0])
// [5, 1+3j, 9j, ...]. The identity (-inf + 0i for max) takes part as in JAX: max of
// [-inf - 5i] is -inf + 0i. Eager and jit agree.
TEST(Complex, OrderedReductionsAsJax) {
  const double inf = INFINITY;
  Array z = st::astype(st::array(std::vector<c128>{{1, 2}, {1, 3}, {0, 9}, {2, -1}, {2, -5}, {-1, 0}}, {2, 3}), st::c64);
  auto f = [](const Array& v) {
    Array flat = st::reshape(v, {6});
    return std::vector<Array>{st::max(v),
                              st::max(v, {0}),
                              st::min(v, {1}),
                              st::cummax(v, 1),
                              st::reduce_window_max(v, {1, 2}),
                              st::segment_max(flat, st::array(std::vector<int32_t>{0, 0, 1, 1, 1, 0}, {6}), 2),
                              flat.at({st::array(std::vector<int32_t>{0, 0, 1}, {3})})
                                  .max(st::astype(st::array(std::vector<c128>{{5, 0}, {1, 1}, {0, 0}}, {3}), st::c64)),
                              st::cummin(flat)};
  };
  std::vector<std::vector<c128>> want = {
      {{2, -1}},
      {{2, -1}, {2, -5}, {0, 9}},
      {{0, 9}, {-1, 0}},
      {{1, 2}, {1, 3}, {1, 3}, {2, -1}, {2, -1}, {2, -1}},
      {{1, 3}, {1, 3}, {2, -1}, {2, -5}},
      {{1, 3}, {2, -1}},
      {{5, 0}, {1, 3}, {0, 9}, {2, -1}, {2, -5}, {-1, 0}},
      {{1, 2}, {1, 2}, {0, 9}, {0, 9}, {0, 9}, {-1, 0}}};
  for (bool compiled : {false, true}) {
    std::vector<Array> r = compiled ? st::jit(f)(z) : f(z);
    ASSERT_EQ(r.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      std::vector<c128> got = st::astype(r[i], st::c128).to_vector<c128>();
      EXPECT_EQ(got, want[i]) << "result " << i << (compiled ? " (jit)" : " (eager)");
    }
  }
  // Gradients flow to the element picked (JAX: grad of imag(max(z)) is -1j at z[1, 0]; of
  // sum(real(cummax(z, axis=1))) 1, 2 and 3 at the picked elements).
  auto top = [](const Array& v) { return st::imag(st::max(v)); };
  auto scan = [](const Array& v) { return st::sum(st::real(st::cummax(v, 1))); };
  for (bool compiled : {false, true}) {
    EXPECT_EQ((compiled ? st::jit(st::grad(top))(z) : st::grad(top)(z)).to_vector<c64>(),
              (std::vector<c64>{{0, 0}, {0, 0}, {0, 0}, {0, -1}, {0, 0}, {0, 0}})) << compiled;
    EXPECT_EQ((compiled ? st::jit(st::grad(scan))(z) : st::grad(scan)(z)).to_vector<c64>(),
              (std::vector<c64>{{1, 0}, {2, 0}, {0, 0}, {3, 0}, {0, 0}, {0, 0}})) << compiled;
  }
  // JAX has no gradient of a complex window max (select_and_scatter_add compares with ge).
  expect_contains(error_message<st::Error>([&] {
                    (void)st::grad([](const Array& v) { return st::sum(st::real(st::reduce_window_max(v, {1, 2}))); })(z);
                  }),
                  "complex");
  Array edge = st::astype(st::array(std::vector<c128>{{-inf, -5}, {-inf, -7}}, {2}), st::c64);
  auto g = [](const Array& v) {
    return std::vector<Array>{st::max(v), st::min(v), st::segment_max(v, st::array(std::vector<int32_t>{0, 0}, {2}), 3),
                              st::cummax(v), st::cummax(v, 0, /*reverse=*/true)};
  };
  for (bool compiled : {false, true}) {
    std::vector<Array> r = compiled ? st::jit(g)(edge) : g(edge);
    EXPECT_EQ(r[0].to_vector<c64>(), (std::vector<c64>{{-INFINITY, 0}})) << compiled;
    EXPECT_EQ(r[1].to_vector<c64>(), (std::vector<c64>{{-INFINITY, -7}})) << compiled;
    EXPECT_EQ(r[2].to_vector<c64>(), (std::vector<c64>{{-INFINITY, 0}, {-INFINITY, 0}, {-INFINITY, 0}})) << compiled;
    // The scans too (jax.lax.cummax, forwards and reversed: [-inf + 0j, -inf + 0j]).
    EXPECT_EQ(r[3].to_vector<c64>(), (std::vector<c64>{{-INFINITY, 0}, {-INFINITY, 0}})) << compiled;
    EXPECT_EQ(r[4].to_vector<c64>(), (std::vector<c64>{{-INFINITY, 0}, {-INFINITY, 0}})) << compiled;
  }
  // jax.lax.cummax([-inf - 5j, 1, -inf + 3j]) = [-inf + 0j, 1, 1]; cummin([inf + 5j, 2 - 1j]) = [inf + 0j, 2 - 1j].
  Array a = st::astype(st::array(std::vector<c128>{{-inf, -5}, {1, 0}, {-inf, 3}}, {3}), st::c64);
  Array b = st::astype(st::array(std::vector<c128>{{inf, 5}, {2, -1}}, {2}), st::c64);
  auto scans = [](const Array& p, const Array& q) { return std::vector<Array>{st::cummax(p), st::cummin(q)}; };
  for (bool compiled : {false, true}) {
    std::vector<Array> r = compiled ? st::jit(scans)(a, b) : scans(a, b);
    EXPECT_EQ(r[0].to_vector<c64>(), (std::vector<c64>{{-INFINITY, 0}, {1, 0}, {1, 0}})) << compiled;
    EXPECT_EQ(r[1].to_vector<c64>(), (std::vector<c64>{{INFINITY, 0}, {2, -1}})) << compiled;
  }
}

// A nan in either part makes max/min nan + nan·i whichever operand it is in, and values equal
// but for the signs of zeros give +0 (max) or -0 (min) partwise: the operation is commutative
// and associative, so that a reduction split into chunks (jit) equals the sequential one.
TEST(Complex, ExtremaAreCommutativeWithNansAndSignedZeros) {
  const double nan = NAN;
  Array a = st::array(std::vector<c128>{{1, 2}, {nan, 0}, {1, nan}, {0.0, -0.0}, {3, 1}}, {5});
  Array b = st::array(std::vector<c128>{{nan, 0}, {1, 2}, {1, 2}, {-0.0, 0.0}, {3, 1}}, {5});
  for (bool compiled : {false, true}) {
    auto mx = [](const Array& p, const Array& q) { return st::maximum(p, q); };
    auto mn = [](const Array& p, const Array& q) { return st::minimum(p, q); };
    for (auto [p, q] : {std::pair{a, b}, std::pair{b, a}}) {
      std::vector<c128> hi = (compiled ? st::jit(mx)(p, q) : mx(p, q)).to_vector<c128>();
      std::vector<c128> lo = (compiled ? st::jit(mn)(p, q) : mn(p, q)).to_vector<c128>();
      for (int i = 0; i < 3; ++i)
        EXPECT_TRUE(std::isnan(hi[i].real()) && std::isnan(hi[i].imag()) && std::isnan(lo[i].real()) &&
                    std::isnan(lo[i].imag()))
            << i << " " << hi[i] << " " << lo[i] << " " << compiled;
      EXPECT_FALSE(std::signbit(hi[3].real()) || std::signbit(hi[3].imag())) << hi[3];
      EXPECT_TRUE(std::signbit(lo[3].real()) && std::signbit(lo[3].imag())) << lo[3];
      EXPECT_EQ(hi[4], c128(3, 1));
    }
  }
  // A long reduction (the jit splits it into chunks) with one nan: nan either way.
  std::vector<c128> v(100000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = {std::sin(double(i)), std::cos(double(i))};
  v[77777] = {0, nan};
  Array big = st::array(v, {100000});
  auto red = [](const Array& x) { return st::max(x); };
  EXPECT_TRUE(std::isnan(red(big).to_vector<c128>()[0].real()));
  EXPECT_TRUE(std::isnan(st::jit(red)(big).to_vector<c128>()[0].real()));
  v[77777] = {0.5, 0.5};
  Array clean = st::array(v, {100000});
  EXPECT_EQ(red(clean).to_vector<c128>(), st::jit(red)(clean).to_vector<c128>());
}

TEST(Complex, OpsWithoutAnOrderSayWhy) {
  Array z = st::complex(st::array(std::vector<float>{1, 2}, {2}), st::array(std::vector<float>{0, 1}, {2}));
  expect_contains(error_message<st::Error>([&] { (void)(z < z); }), "lt: expects an ordered dtype (not complex), but got c64[2]");
  expect_contains(error_message<st::Error>([&] { (void)st::argmax(z); }), "complex");
  expect_contains(error_message<st::Error>([&] { (void)st::floor(z); }), "floor");
  expect_contains(error_message<st::Error>([&] { (void)st::complex(z, z); }), "complex: expects real parts, but got c64[2]");
  // The same inside jit: the trace stops at the op.
  expect_contains(error_message<st::Error>([&] { (void)st::jit([](const Array& a) { return a < a; })(z); }), "lt: expects an ordered dtype");
}

TEST(Complex, DerivativesFlowThroughComplexValues) {
  // d/dx sum(real(exp(i·x))) = -sin(x); tests/autodiff/test_complex_grads.cpp checks the rules.
  Array x = st::array(std::vector<float>{1, 2}, {2});
  auto loss = [](const Array& a) { return st::sum(st::real(st::exp(a * c64(0, 1)))); };
  std::vector<float> g = st::grad(loss)(x).to_vector<float>();
  EXPECT_NEAR(g[0], -std::sin(1.0f), 1e-6);
  EXPECT_NEAR(g[1], -std::sin(2.0f), 1e-6);
  // A complex constant that no differentiated input reaches.
  Array c = st::complex(st::array(std::vector<float>{1, 2}, {2}), st::array(std::vector<float>{3, 4}, {2}));
  auto ok = [c](const Array& a) { return st::sum(a * st::real(c * c)); };
  std::vector<float> h = st::grad(ok)(x).to_vector<float>();
  EXPECT_FLOAT_EQ(h[0], -8.0f);   // real((1+3i)^2) = 1 - 9
  EXPECT_FLOAT_EQ(h[1], -12.0f);  // real((2+4i)^2) = 4 - 16
}
