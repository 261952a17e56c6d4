// tests/linalg/linalg_test_util.h — helpers of the linear-algebra tests: random and symmetric
// positive definite batches, matrix (conjugate) transposes, and comparisons within a tolerance,
// real and complex.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "strata/strata.h"

namespace strata::testing {

inline Array rnd(const Shape& shape, DType t, uint64_t seed) { return random::normal(random::key(seed), shape, t); }

inline std::vector<int> swap_last(int rank) {
  std::vector<int> perm;
  for (int i = 0; i < rank; ++i) perm.push_back(i);
  std::swap(perm[rank - 1], perm[rank - 2]);
  return perm;
}
inline Array mT(const Array& x) { return transpose(x, swap_last(x.ndim())); }

// x xᵀ + n I: symmetric positive definite, well conditioned.
inline Array spd(const Shape& shape, DType t, uint64_t seed) {
  Array x = rnd(shape, t, seed);
  return add(matmul(x, mT(x)), astype(eye(shape.back()) * static_cast<float>(shape.back()), t));
}

// A tolerance for dtype t: f32 1e-4, f64 1e-10, times `scale`.
inline double tol(DType t, double scale = 1) { return (t == f64 ? 1e-10 : 1e-4) * scale; }

inline void expect_near(const Array& got, const Array& want, double atol, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(got.shape(), want.shape());
  std::vector<double> a = got.to_vector<double>(), b = want.to_vector<double>();
  double scale = 1;
  for (double v : b) scale = std::max(scale, std::fabs(v));
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_NEAR(a[i], b[i], atol * scale) << "element " << i;
    if (::testing::Test::HasFailure()) return;
  }
}

// Bitwise equal (nan equal to nan).
inline void expect_same(const Array& got, const Array& want, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(got.shape(), want.shape());
  ASSERT_EQ(got.dtype(), want.dtype());
  std::vector<double> a = got.to_vector<double>(), b = want.to_vector<double>();
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) && std::isnan(b[i])) continue;
    EXPECT_EQ(a[i], b[i]) << "element " << i;
    if (::testing::Test::HasFailure()) return;
  }
}

// Complex arrays compared part by part (expect_near's tolerance relative to each part).
inline void expect_near_c(const Array& got, const Array& want, double atol, const std::string& what) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  expect_near(real(got), real(want), atol, what + " (real)");
  expect_near(imag(got), imag(want), atol, what + " (imag)");
}
inline void expect_same_c(const Array& got, const Array& want, const std::string& what) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  expect_same(real(got), real(want), what + " (real)");
  expect_same(imag(got), imag(want), what + " (imag)");
}

// The conjugate transpose of the last two dimensions.
inline Array mH(const Array& x) { return conj(mT(x)); }

inline void expect_all_nan(const Array& x, const std::string& what) {
  for (double v : x.to_vector<double>()) EXPECT_TRUE(std::isnan(v)) << what;
}

// `f` throws E with a message containing each of `parts`.
template <class E, class F>
void expect_error(F&& f, std::vector<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one mentioning " << parts[0];
  } catch (const E& e) {
    for (const std::string& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
  }
}

// The largest |entry| (complex entries by modulus), as a double.
inline double max_abs(const Array& a) {
  return max(abs(astype(a, is_complex(a.dtype()) ? c128 : f64))).item<double>();
}

// The machine epsilon of a (real or complex) dtype's precision.
inline double eps(DType t) {
  return (t == f32 || t == c64) ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
}

// `decompose` (Array -> its outputs) of a batch equals it of each matrix alone, and jitted,
// bit for bit: one matrix runs across the thread pool, a batch one matrix per thread.
template <class F>
void expect_batch_and_jit_same_bits(F decompose, const Array& batch) {
  std::vector<Array> all = decompose(batch);
  for (int64_t b = 0; b < batch.shape()[0]; ++b) {
    std::vector<Array> one = decompose(batch[b]);
    for (size_t i = 0; i < one.size(); ++i)
      expect_same(all[i][b], one[i], "output " + std::to_string(i) + " of matrix " + std::to_string(b));
  }
  std::vector<Array> jitted = jit(decompose)(batch);
  for (size_t i = 0; i < all.size(); ++i) expect_same(jitted[i], all[i], "jit output " + std::to_string(i));
}

// A complex array's values as std::complex<double>, row-major.
inline std::vector<std::complex<double>> complex_values(const Array& z) {
  std::vector<double> re = real(z).to_vector<double>(), im = imag(z).to_vector<double>();
  std::vector<std::complex<double>> v;
  for (size_t i = 0; i < re.size(); ++i) v.emplace_back(re[i], im[i]);
  return v;
}

// Each of `want` has a value of `got` within tol, matched by nearest value, and the two sets
// have the same size (enough for the separated spectra the tests use).
inline void expect_matching_values(const std::vector<std::complex<double>>& got,
                                   const std::vector<std::complex<double>>& want, double tol, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  std::vector<bool> used(got.size(), false);
  for (const std::complex<double>& x : want) {
    size_t best = got.size();
    for (size_t j = 0; j < got.size(); ++j)
      if (!used[j] && (best == got.size() || std::abs(got[j] - x) < std::abs(got[best] - x))) best = j;
    ASSERT_LT(best, got.size()) << what;
    EXPECT_LE(std::abs(got[best] - x), tol) << what << ": " << x << " nearest " << got[best];
    used[best] = true;
  }
}

}  // namespace strata::testing
