// tests/backends/cpu_test_util.h — compile a traced program for the CPU, run it, and compare
// with eager evaluation of the same jaxpr: bitwise for integers and bools, within a few ULPs
// for floats (both nan, equal infinities, same sign of zero unless the case allows either).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "backends/Compiler.h"
#include "jaxpr.h"
#include "primitive.h"
#include "strata/strata.h"
#include "test_util.h"
#include "trace.h"

namespace strata::testing {

// How compiled floats may differ from eager ones.
struct Tolerance {
  double ulps = 4;
  // Sums (reductions, dot products): also allow `sum_terms` × eps × `scale`, the error bound of
  // a sum of sum_terms terms of magnitude up to scale in another order.
  double sum_terms = 0, scale = 0;
  bool any_zero_sign = false;  // +0 and -0 both accepted (ties of max/min, sums in any order)
};

// A freshly allocated array for an executable's output.
inline Array output_like(const AbstractValue& a) { return zeros(a.shape, a.dtype); }

// EXPECTs that the compiled result `got` matches the eager `want` within `tol`.
inline void expect_arrays_match(const Array& got, const Array& want, const Tolerance& tol) {
  ASSERT_EQ(got.shape(), want.shape());
  ASSERT_EQ(got.dtype(), want.dtype());
  DType t = want.dtype();
  if (is_complex(t)) {
    // Within tol.ulps of |want| (the compiled code's complex formulas, MLIR's, and eager's,
    // libstdc++'s, differ by a few ulps of the modulus); nan and inf parts must agree.
    std::vector<std::complex<double>> g = got.to_vector<std::complex<double>>(), w = want.to_vector<std::complex<double>>();
    double eps = std::ldexp(1.0, t == c128 ? -52 : -23);
    int failures = 0;
    for (size_t i = 0; i < g.size() && failures < 5; ++i) {
      bool finite = std::isfinite(w[i].real()) && std::isfinite(w[i].imag());
      bool ok;
      if (!finite) {
        auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
        ok = same(g[i].real(), w[i].real()) && same(g[i].imag(), w[i].imag());
      } else {
        double bound = std::max(std::max(tol.ulps, 4.0) * eps * std::abs(w[i]), tol.sum_terms * eps * tol.scale);
        ok = std::abs(g[i] - w[i]) <= bound;
      }
      if (!ok) {
        ++failures;
        ADD_FAILURE() << "element " << i << ": compiled " << g[i] << ", eager " << w[i] << " (" << short_name(t) << ")";
      }
    }
    return;
  }
  if (!is_floating(t)) {
    size_t n = static_cast<size_t>(want.size()) * itemsize(t);
    if (n == 0 || std::memcmp(got.data(), want.data(), n) == 0) return;
    std::vector<double> g = values(got), w = values(want);
    for (size_t i = 0; i < g.size(); ++i)
      if (g[i] != w[i]) {
        ADD_FAILURE() << "element " << i << ": compiled " << g[i] << ", eager " << w[i] << " (" << short_name(t) << ")";
        return;
      }
    return;
  }
  std::vector<double> g = values(got), w = values(want);
  double eps = finfo(t).eps;
  // Both compute the 8-bit floats in f32 and round once: at most one step apart.
  double ulps = is_float8(t) ? std::min(tol.ulps, 1.0) : tol.ulps;
  int failures = 0;
  for (size_t i = 0; i < g.size() && failures < 5; ++i) {
    bool ok;
    if (std::isnan(w[i])) ok = std::isnan(g[i]);
    else if (std::isinf(w[i])) ok = g[i] == w[i];
    else if (std::isnan(g[i]) || std::isinf(g[i])) ok = false;
    else {
      double bound = std::max(ulps * ulp(w[i], t), tol.sum_terms * eps * tol.scale);
      ok = std::fabs(g[i] - w[i]) <= bound;
      if (ok && g[i] == 0 && w[i] == 0 && !tol.any_zero_sign) ok = std::signbit(g[i]) == std::signbit(w[i]);
    }
    if (!ok) {
      ++failures;
      ADD_FAILURE() << "element " << i << ": compiled " << g[i] << ", eager " << w[i] << " (" << short_name(t) << ")";
    }
  }
}

// Compiles `jaxpr`, runs it on `inputs` and compares each output with eval_jaxpr's.
inline void expect_compiled_matches_eager(const Jaxpr& jaxpr, const std::vector<Array>& inputs,
                                          const Tolerance& tol = {}, const JitOptions& options = {},
                                          const std::string& what = "") {
  SCOPED_TRACE(what + "\n" + jaxpr.to_string());
  CompileResult r = compiler::compile(*jaxpr.impl(), options);
  ASSERT_TRUE(r.ok()) << r.error;
  std::vector<Array> want = eval_jaxpr(jaxpr, inputs);
  const Executable& exe = *r.executable;
  ASSERT_EQ(exe.output_types().size(), want.size());
  std::vector<Array> got;
  std::vector<void*> out_ptrs;
  for (const AbstractValue& a : exe.output_types()) {
    got.push_back(output_like(a));
    out_ptrs.push_back(const_cast<void*>(got.back().data()));
  }
  std::vector<const void*> in_ptrs;
  for (const Array& a : inputs) in_ptrs.push_back(a.data());
  ASSERT_TRUE(exe.execute(in_ptrs.data(), out_ptrs.data()).ok());
  for (size_t k = 0; k < want.size(); ++k) {
    SCOPED_TRACE("output " + std::to_string(k));
    expect_arrays_match(got[k], want[k], tol);
  }
}

// A program of one equation: `prim` with `params` on inputs shaped like `inputs`.
inline Jaxpr one_equation(const Primitive& prim, const Params& params, const std::vector<Array>& inputs) {
  return make_jaxpr([&](const std::vector<Array>& xs) {
    return strata::bind(prim, xs, params, SourceLoc{__FILE__, __LINE__, 0});
  })(inputs);
}

// ---- Inputs ----

inline Array of(const std::vector<double>& v, const Shape& shape, DType t) {
  return astype(array(v, shape, f64), t);
}

// Edge values of a float dtype (as doubles; `of` rounds them): signed zeros, infinities, nan,
// subnormals, the largest finite value, values near 1, and moderate ones.
inline std::vector<double> float_edges(DType t) {
  double sub = is_float8(t) ? finfo(t).smallest_subnormal : t == f64 ? 4.9e-324 : t == f16 ? 6e-8 : 1e-40;
  double big = is_float8(t) ? finfo(t).max : t == f64 ? 1e300 : t == f16 ? 60000.0 : 3e38;
  double tiny = is_float8(t) ? finfo(t).smallest_normal : t == f64 ? 2.2250738585072014e-308 : t == f16 ? 6.104e-5 : 1.1754944e-38;
  return {0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.75, 1e-3, 100.0, -1e4, INFINITY, -INFINITY, NAN,
          sub, -sub, tiny, big, -big, 7.0, 0.1};
}

inline std::vector<int64_t> int_edges(DType t) {
  if (is_subbyte_integer(t)) {  // every value
    std::vector<int64_t> all;
    for (int64_t v = iinfo(t).min; v <= static_cast<int64_t>(iinfo(t).max); ++v) all.push_back(v);
    return all;
  }
  int64_t lo = t == i32 ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int64_t>::min();
  int64_t hi = t == i32 ? std::numeric_limits<int32_t>::max() : std::numeric_limits<int64_t>::max();
  return {0, 1, -1, 2, -2, 7, -7, 100, 31, 32, 63, 64, lo, hi, lo + 1, hi - 1};
}

// The values as `t` (i32 unless i64; another integer dtype keeps them modulo its width).
inline Array ints(const std::vector<int64_t>& v, const Shape& shape, DType t) {
  if (t == i64) return array(v, shape, i64);
  if (t != i32 && is_integer(t)) return astype(array(v, shape, i64), t);
  std::vector<int32_t> w(v.begin(), v.end());
  return array(w, shape, i32);
}

// The edge values of `t` as a 1-D array.
inline Array edges(DType t) {
  if (is_complex(t)) {  // every pair of the parts' edge values (±0, ±inf, nan, ...) as re + i·im
    std::vector<double> e = float_edges(real_dtype(t)), re, im;
    for (double a : e)
      for (double b : e) { re.push_back(a); im.push_back(b); }
    Shape s{static_cast<int64_t>(re.size())};
    return complex(of(re, s, real_dtype(t)), of(im, s, real_dtype(t)));
  }
  if (t == bool_) return array(std::vector<uint8_t>{0, 1}, {2}, bool_);
  if (is_integer(t)) {
    std::vector<int64_t> v = int_edges(t);
    return ints(v, {static_cast<int64_t>(v.size())}, t);
  }
  std::vector<double> v = float_edges(t);
  return of(v, {static_cast<int64_t>(v.size())}, t);
}

// Every pair of edge values: x[i*n + j] = e[i], y[i*n + j] = e[j].
inline std::pair<Array, Array> edge_pairs(DType t) {
  if (is_complex(t)) {  // each complex edge value against a few ordinary ones, and itself
    Array e = edges(t);
    int64_t n = e.size();
    Array ordinary = complex(of({1.5, -0.25, 0, 3}, {4}, real_dtype(t)), of({-2, 0.5, 1, 0}, {4}, real_dtype(t)));
    Array x = broadcast_to(reshape(e, {n, 1}), {n, 5}), y = concatenate({broadcast_to(reshape(ordinary, {1, 4}), {n, 4}), reshape(e, {n, 1})}, 1);
    return {reshape(x, {n * 5}), reshape(y, {n * 5})};
  }
  if (t == bool_) {
    std::vector<uint8_t> x{0, 0, 1, 1}, y{0, 1, 0, 1};
    return {array(x, {4}, bool_), array(y, {4}, bool_)};
  }
  if (is_integer(t)) {
    std::vector<int64_t> e = int_edges(t), x, y;
    for (int64_t a : e)
      for (int64_t b : e) { x.push_back(a); y.push_back(b); }
    Shape s{static_cast<int64_t>(x.size())};
    return {ints(x, s, t), ints(y, s, t)};
  }
  std::vector<double> e = float_edges(t), x, y;
  for (double a : e)
    for (double b : e) { x.push_back(a); y.push_back(b); }
  Shape s{static_cast<int64_t>(x.size())};
  return {of(x, s, t), of(y, s, t)};
}

// Deterministic values of `t` in [lo, hi) (integers: truncated), of `shape`.
inline Array random_array(const Shape& shape, DType t, double lo, double hi, uint64_t seed = 1) {
  if (is_complex(t))  // both parts in [lo, hi)
    return complex(random_array(shape, real_dtype(t), lo, hi, seed), random_array(shape, real_dtype(t), lo, hi, seed + 1000));
  std::vector<double> v = test_values(static_cast<size_t>(num_elements(shape)), lo, hi, seed);
  if (t == bool_) {
    std::vector<uint8_t> b;
    for (double x : v) b.push_back(x > (lo + hi) / 2 ? 1 : 0);
    return array(b, shape, bool_);
  }
  if (is_integer(t)) {
    std::vector<int64_t> w;
    for (double x : v) w.push_back(static_cast<int64_t>(std::floor(x)));
    return ints(w, shape, t);
  }
  return of(v, shape, t);
}

}  // namespace strata::testing
