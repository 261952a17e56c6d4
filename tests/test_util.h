// tests/test_util.h — helpers shared by the tests: building arrays, reading them back as
// doubles, and comparing against references computed independently in the test.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "jaxpr_parser.h"
#include "strata/strata.h"

namespace strata::testing {

// The elements of `a` as doubles (bools as 0/1), row-major.
inline std::vector<double> values(const Array& a) { return a.to_vector<double>(); }

// Rounds `v` to what dtype `t` can hold (f32, bf16 or f16 rounding; integer truncation),
// so that references computed in double can be compared with results stored in `t`.
inline double round_to(double v, DType t) {
  Array a = array(std::vector<double>{v}, {1}, f64);
  return astype(a, t).to_vector<double>()[0];
}

// Units in the last place of dtype t near |v| (for float tolerances).
inline double ulp(double v, DType t) {
  // A real float's own mantissa and smallest normal (finfo); bf16's for anything else.
  FInfo f = finfo(is_floating(t) ? t : bf16);
  int mant = f.nmant;
  double m = std::fabs(v);
  // Below the dtype's smallest normal the spacing is that of the subnormals.
  double min_normal = f.smallest_normal;
  if (m < min_normal || !std::isfinite(m)) m = min_normal;
  return std::ldexp(1.0, std::ilogb(m) - mant);
}

// True when got and want agree: both nan, equal infinities, or within `ulps` ULPs of t (or
// an absolute `atol`).
inline bool close(double got, double want, DType t, double ulps = 4, double atol = 0) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  if (std::isnan(got) || std::isinf(got)) return false;
  return std::fabs(got - want) <= std::max(ulps * ulp(want, t), atol);
}

// EXPECT that `a` has `shape`, `dtype` and elements close to `want`.
inline void expect_array(const Array& a, const Shape& shape, DType dtype, const std::vector<double>& want,
                         double ulps = 4, double atol = 0) {
  ASSERT_EQ(a.shape(), shape) << "shape of " << a;
  ASSERT_EQ(a.dtype(), dtype) << "dtype of " << a;
  std::vector<double> got = values(a);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(close(got[i], want[i], dtype, ulps, atol))
        << "element " << i << ": got " << got[i] << ", want " << want[i] << " (" << short_name(dtype) << ")";
}

// Runs `fn` and returns the message of the strata::Error subclass E it throws (fails the test
// when it throws nothing or something else).
template <class E, class Fn>
std::string error_message(Fn&& fn) {
  try {
    fn();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw a different exception: " << e.what();
    return {};
  }
  ADD_FAILURE() << "did not throw";
  return {};
}

// A complex array as [..., 2] (its real and imaginary parts, as the JAX value scripts under
// tests/api print complex results); a real one as it is.
inline Array real_imag(const Array& a) { return is_complex(a.dtype()) ? stack({real(a), imag(a)}, -1) : a; }

// EXPECT that fn throws a strata::Error whose message contains `part`.
template <class Fn>
void expect_error(Fn&& fn, const std::string& part) {
  std::string msg = error_message<Error>(std::forward<Fn>(fn));
  EXPECT_NE(msg.find(part), std::string::npos) << "message: " << msg << "\nexpected to contain: " << part;
}

inline constexpr DType kFloatTypes[] = {f32, f64, bf16, f16};
inline constexpr DType kNumericTypes[] = {i32, i64, f32, f64, bf16, f16};

// sin(a·i + b) over the elements in row-major order (f64): inputs the JAX value scripts
// rebuild with numpy. As a matrix it has rank 2 (sin(x + y) splits); sin_squares, sin(a·i² +
// b), gives full-rank matrices.
inline Array sin_sequence(const Shape& shape, double a, double b, bool squares = false) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<double> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) {
    double k = static_cast<double>(i);
    v[i] = std::sin(a * (squares ? k * k : k) + b);
  }
  return array(v, shape, f64);
}
inline Array sin_squares(const Shape& shape, double a, double b) { return sin_sequence(shape, a, b, true); }

// scale·sin(0.37·i) over the elements in row-major order, computed by strata (f32) and cast to
// `t`: reductions' inputs of any size, with no run of equal values.
inline Array wave(const Shape& shape, DType t = f32, double scale = 3.0) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return astype(reshape(sin(arange(0.0, static_cast<double>(n), 1.0) * 0.37) * scale, shape), t);
}

}  // namespace strata::testing

// ---- Reference helpers for the public-op tests (tests/api) ----
namespace strata::testing {

// True when got is exactly want: both nan, or equal with the same sign (+0 and -0 differ).
inline bool identical(double got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  return got == want && std::signbit(got) == std::signbit(want);
}

// EXPECT that `a` has `shape`, `dtype` and exactly the elements `want` (signs of zeros and
// nans included).
inline void expect_exact(const Array& a, const Shape& shape, DType dtype, const std::vector<double>& want) {
  ASSERT_EQ(a.shape(), shape) << "shape of " << a;
  ASSERT_EQ(a.dtype(), dtype) << "dtype of " << a;
  std::vector<double> got = values(a);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(identical(got[i], want[i]))
        << "element " << i << ": got " << got[i] << ", want " << want[i] << " (" << short_name(dtype) << ")";
}

// Rounds every element of `v` to dtype t (one conversion for the whole vector).
inline std::vector<double> round_all(const std::vector<double>& v, DType t) {
  if (v.empty()) return v;
  return astype(array(v, {static_cast<int64_t>(v.size())}, f64), t).to_vector<double>();
}

// Round-to-nearest-even of v to a binary float type with `mant` stored mantissa bits, minimum
// normal exponent `emin` and largest finite value `maxv`, written independently of the
// library (frexp/ldexp and nearbyint), for checking its conversions.
inline double ref_round(double v, DType t) {
  if (t == f64 || std::isnan(v) || std::isinf(v) || v == 0) return v;
  int mant = t == f32 ? 23 : t == f16 ? 10 : 7;
  int emin = t == f16 ? -14 : -126;
  double maxv = t == f32 ? static_cast<double>(std::numeric_limits<float>::max())
              : t == f16 ? 65504.0 : std::ldexp(2.0 - std::ldexp(1.0, -7), 127);
  int e = std::max(std::ilogb(v), emin);
  double q = std::ldexp(1.0, e - mant);  // spacing of the representable values near v
  double r = std::nearbyint(v / q) * q;   // ties to even under the default rounding mode
  if (std::fabs(r) > maxv) return std::copysign(INFINITY, v);
  return r;
}

// Row-major strides (in elements) of `shape`.
inline std::vector<int64_t> row_major_strides(const Shape& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d)
    s[static_cast<size_t>(d)] = s[static_cast<size_t>(d) + 1] * shape[static_cast<size_t>(d) + 1];
  return s;
}

// NumPy's broadcast shape, by the test's own rule (fails the test when incompatible).
inline Shape ref_broadcast_shape(const Shape& a, const Shape& b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i + a.size() < rank ? 1 : a[i + a.size() - rank];
    int64_t db = i + b.size() < rank ? 1 : b[i + b.size() - rank];
    EXPECT_TRUE(da == db || da == 1 || db == 1) << "test bug: shapes do not broadcast";
    out[i] = da == 1 ? db : da;
  }
  return out;
}

// The flat index into an operand of shape `s` (aligned right, size-1 dims repeated) that
// element `i` of an array of shape `out` reads under broadcasting.
inline int64_t ref_broadcast_index(const Shape& out, const Shape& s, int64_t i) {
  std::vector<int64_t> os = row_major_strides(out), ss = row_major_strides(s);
  int64_t idx = 0;
  size_t lead = out.size() - s.size();
  for (size_t d = 0; d < out.size(); ++d) {
    int64_t k = (i / os[d]) % out[d];
    if (d >= lead && s[d - lead] != 1) idx += k * ss[d - lead];
  }
  return idx;
}

// f(a, b) elementwise under NumPy broadcasting, by plain loops; `out_shape` receives the shape.
template <class F>
std::vector<double> ref_binary(const std::vector<double>& a, const Shape& as, const std::vector<double>& b,
                               const Shape& bs, F f, Shape* out_shape = nullptr) {
  Shape out = ref_broadcast_shape(as, bs);
  if (out_shape) *out_shape = out;
  std::vector<double> r(static_cast<size_t>(num_elements(out)));
  for (int64_t i = 0; i < static_cast<int64_t>(r.size()); ++i)
    r[static_cast<size_t>(i)] = f(a[static_cast<size_t>(ref_broadcast_index(out, as, i))],
                                  b[static_cast<size_t>(ref_broadcast_index(out, bs, i))]);
  return r;
}

// Deterministic pseudo-random doubles in [lo, hi) (a small LCG, independent of strata::random).
inline std::vector<double> test_values(size_t n, double lo, double hi, uint64_t seed = 1) {
  std::vector<double> v(n);
  uint64_t s = seed * 6364136223846793005ull + 1442695040888963407ull;
  for (double& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = lo + (hi - lo) * static_cast<double>(s >> 11) * 0x1.0p-53;
  }
  return v;
}

// A 1-d array of the values (f64 for double, i32 for int32_t, ...).
template <class T>
Array array1d(const std::vector<T>& v) {
  return array(v, {static_cast<int64_t>(v.size())});
}

// EXPECT each element of `a` (as f64) near want[i]: within rtol · (1 + |want[i]|); a NaN wanted
// matches a NaN, an infinity only itself.
inline void expect_elements(const Array& a, const std::vector<double>& want, double rtol = 1e-12) {
  std::vector<double> got = astype(a, f64).to_vector<double>();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) EXPECT_TRUE(std::isnan(got[i])) << "element " << i << ": got " << got[i];
    else if (std::isinf(want[i])) EXPECT_EQ(got[i], want[i]) << "element " << i;
    else EXPECT_NEAR(got[i], want[i], rtol * (1 + std::fabs(want[i]))) << "element " << i;
  }
}

// EXPECT each element of `a` within rtol · |want[i]| + atol (a NaN wanted matches a NaN, an
// infinity only itself).
inline void expect_relative(const Array& a, const std::vector<double>& want, double rtol, double atol = 0) {
  std::vector<double> got = astype(a, f64).to_vector<double>();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) EXPECT_TRUE(std::isnan(got[i])) << "element " << i << ": got " << got[i];
    else if (std::isinf(want[i])) EXPECT_EQ(got[i], want[i]) << "element " << i;
    else EXPECT_NEAR(got[i], want[i], rtol * std::fabs(want[i]) + atol) << "element " << i;
  }
}

// One result next to what JAX printed for it: the expression (kept for the trace), the result,
// JAX's values row-major and, when given, its shape ({-1}: not checked).
struct JaxCase {
  const char* expr;
  Array got;
  std::vector<double> want;
  Shape shape = {-1};
};
// EXPECT each case's shape and each element within tol(case, wanted value) of JAX's (a NaN
// wanted matches a NaN, an infinity only itself).
template <class Tol>
void expect_jax_cases(const std::vector<JaxCase>& cases, Tol tol) {
  for (const JaxCase& c : cases) {
    SCOPED_TRACE(c.expr);
    if (c.shape != Shape{-1}) EXPECT_EQ(c.got.shape(), c.shape);
    std::vector<double> got = astype(c.got, f64).to_vector<double>();
    ASSERT_EQ(got.size(), c.want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      if (std::isnan(c.want[i])) EXPECT_TRUE(std::isnan(got[i])) << "element " << i << ": got " << got[i];
      else if (std::isinf(c.want[i])) EXPECT_EQ(got[i], c.want[i]) << "element " << i;
      else EXPECT_NEAR(got[i], c.want[i], tol(c, c.want[i])) << "element " << i;
    }
  }
}

// EXPECT that `msg` contains `part`.
inline void expect_contains(const std::string& msg, const std::string& part) {
  EXPECT_NE(msg.find(part), std::string::npos) << "message: " << msg << "\nexpected to contain: " << part;
}

// The jaxpr `text` parsed back, EXPECTing that it parses and prints as `text` again; an empty
// Jaxpr where it does not parse.
inline Jaxpr reparsed_jaxpr(const std::string& text) {
  ParsedJaxpr parsed = parse_jaxpr(text);
  if (!parsed.jaxpr) {
    ADD_FAILURE() << "does not parse: " << parsed.error.message << "\n" << text;
    return Jaxpr(nullptr);
  }
  Jaxpr j(parsed.jaxpr);
  EXPECT_EQ(j.to_string(), text);
  return j;
}

// How many times `what` occurs in `text` (ops in a stage's text).
inline int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace strata::testing
