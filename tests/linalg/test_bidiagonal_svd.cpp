// The bidiagonal divide and conquer (tracer/kernels/bidiagonal_svd.cpp) against its definition,
// in double: X diag(s) Yᵀ = B, XᵀX = YᵀY = I, s descending and equal to dqds's values
// (bidiagonal_values.cpp, an independent algorithm); on random matrices of sizes around the
// leaves (24 columns) and merges, and on the structures that exercise deflation: diagonal
// matrices, repeated and clustered values, zeros on the diagonal (zero singular values) and the
// superdiagonal (splits), graded entries, known spectra, and large and small scales.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/bidiagonal_svd.h"
#include "kernels/bidiagonal_values.h"

namespace k = strata::kernels;

namespace {

struct Bidiagonal {
  std::vector<double> d, e;
  int64_t n() const { return static_cast<int64_t>(d.size()); }
};

Bidiagonal random_bidiagonal(int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> g;
  Bidiagonal b{std::vector<double>(static_cast<size_t>(n)),
               std::vector<double>(static_cast<size_t>(std::max<int64_t>(n - 1, 0)))};
  for (double& v : b.d) v = g(gen);
  for (double& v : b.e) v = g(gen);
  return b;
}

// Runs the decomposition in R and checks it; the values back in double for further checks.
template <class R>
std::vector<double> check(const Bidiagonal& b, const std::string& what) {
  SCOPED_TRACE(what + " n=" + std::to_string(b.n()) + (std::is_same_v<R, float> ? " f32" : " f64"));
  const int64_t n = b.n();
  const size_t nn = static_cast<size_t>(n * n);
  std::vector<double> s(static_cast<size_t>(n), -1.0);
  std::vector<R> x(nn, R(7)), y(nn, R(7));
  EXPECT_TRUE(k::bidiagonal_svd(n, b.d.data(), b.e.data(), s.data(), x.data(), y.data()));
  double norm = 0;
  for (double v : b.d) norm = std::max(norm, std::abs(v));
  for (double v : b.e) norm = std::max(norm, std::abs(v));
  const double eps = std::numeric_limits<R>::epsilon(), tol = 30 * eps * std::sqrt(double(std::max<int64_t>(n, 1)));
  for (int64_t i = 0; i < n; ++i) {
    EXPECT_GE(s[size_t(i)], 0.0);
    if (i) EXPECT_GE(s[size_t(i - 1)], s[size_t(i)]) << "descending at " << i;
  }
  // (X Σ Yᵀ)[i][j] against B, and the Gram matrices (in a lambda: ASSERT returns void).
  [&] {
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double a = 0, gx = 0, gy = 0;
        for (int64_t p = 0; p < n; ++p) {
          a += double(x[size_t(i * n + p)]) * s[size_t(p)] * double(y[size_t(j * n + p)]);
          gx += double(x[size_t(p * n + i)]) * double(x[size_t(p * n + j)]);
          gy += double(y[size_t(p * n + i)]) * double(y[size_t(p * n + j)]);
        }
        const double want = i == j ? b.d[size_t(i)] : j == i + 1 ? b.e[size_t(i)] : 0.0;
        ASSERT_NEAR(a, want, tol * norm) << "(X Σ Yᵀ)[" << i << "," << j << "]";
        ASSERT_NEAR(gx, i == j ? 1.0 : 0.0, tol) << "(XᵀX)[" << i << "," << j << "]";
        ASSERT_NEAR(gy, i == j ? 1.0 : 0.0, tol) << "(YᵀY)[" << i << "," << j << "]";
      }
  }();
  std::vector<double> want(static_cast<size_t>(n));
  EXPECT_TRUE(k::bidiagonal_singular_values(n, b.d.data(), b.e.data(), want.data()));
  for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(s[size_t(i)], want[size_t(i)], tol * norm) << "value " << i << " vs dqds";
  return s;
}

template <class R>
std::vector<double> check_both(const Bidiagonal& b, const std::string& what) {
  check<float>(b, what);
  return check<R>(b, what);
}

}  // namespace

TEST(BidiagonalSvd, RandomMatrices) {
  for (int64_t n : {0, 1, 2, 3, 24, 25, 26, 49, 50, 100, 257})
    check_both<double>(random_bidiagonal(n, 10 + unsigned(n)), "random");
}

// Every value deflates (e = 0): s = |d| sorted (to the last bit or so), one unit vector each.
TEST(BidiagonalSvd, DiagonalMatrices) {
  Bidiagonal b = random_bidiagonal(90, 3);
  std::fill(b.e.begin(), b.e.end(), 0.0);
  std::vector<double> s = check_both<double>(b, "diagonal"), want(b.d.size());
  for (size_t i = 0; i < want.size(); ++i) want[i] = std::abs(b.d[i]);
  std::sort(want.rbegin(), want.rend());
  for (size_t i = 0; i < want.size(); ++i)  // (the leaves' Jacobi scales by the largest entry and back)
    EXPECT_NEAR(s[i], want[i], 2 * std::numeric_limits<double>::epsilon() * want[i]) << "value " << i;
  std::fill(b.d.begin(), b.d.end(), 1.0);
  for (double v : check_both<double>(b, "identity")) EXPECT_EQ(v, 1.0);
}

// Values equal or within rounding of each other: the rotations of the close-value deflation.
TEST(BidiagonalSvd, RepeatedAndClusteredValues) {
  const int64_t n = 120;
  Bidiagonal b{std::vector<double>(n), std::vector<double>(n - 1)};
  for (int64_t i = 0; i < n; ++i) b.d[size_t(i)] = i % 3 == 0 ? 1.0 : i % 3 == 1 ? 2.0 : -1.0;
  for (int64_t i = 0; i + 1 < n; ++i) b.e[size_t(i)] = i % 40 == 39 ? 1e-3 : 1e-13;
  check_both<double>(b, "repeated");
  for (int64_t i = 0; i < n; ++i) b.d[size_t(i)] = 1 + 1e-10 * double(i % 7);
  check_both<double>(b, "clustered");
}

// Zero diagonal entries give zero singular values; zero superdiagonal entries split B.
TEST(BidiagonalSvd, ZerosOnTheDiagonalAndSuperdiagonal) {
  Bidiagonal b = random_bidiagonal(140, 4);
  for (size_t i : {0, 24, 25, 70, 139}) b.d[i] = 0;
  std::vector<double> s = check_both<double>(b, "zero diagonal entries");
  EXPECT_LE(s.back(), 1e-14);
  Bidiagonal c = random_bidiagonal(140, 5);
  for (size_t i : {23, 24, 69, 100, 138}) c.e[i] = 0;
  check_both<double>(c, "zero superdiagonal entries");
  Bidiagonal z{std::vector<double>(60, 0.0), std::vector<double>(59, 0.0)};
  for (double v : check_both<double>(z, "zero")) EXPECT_EQ(v, 0.0);
}

// Entries graded over twelve orders of magnitude; d = e = 1, whose values are 2 cos(kπ/(2n+1)).
TEST(BidiagonalSvd, GradedAndKnownSpectra) {
  const int64_t n = 130;
  Bidiagonal g = random_bidiagonal(n, 6);
  for (int64_t i = 0; i < n; ++i) {
    g.d[size_t(i)] *= std::pow(10.0, -double(i) / 11);
    if (i + 1 < n) g.e[size_t(i)] *= std::pow(10.0, -double(i) / 11);
  }
  check_both<double>(g, "graded");
  Bidiagonal ones{std::vector<double>(n, 1.0), std::vector<double>(n - 1, 1.0)};
  std::vector<double> s = check_both<double>(ones, "d = e = 1");
  for (int64_t j = 0; j < n; ++j)
    EXPECT_NEAR(s[size_t(j)], 2 * std::cos(double(j + 1) * M_PI / double(2 * n + 1)), 1e-13) << "value " << j;
}

// Scaled by 2^±500 the values scale with it (the kernel alone: its callers scale the matrix to
// about 1 first).
TEST(BidiagonalSvd, EndsOfTheExponentRange) {
  const Bidiagonal b = random_bidiagonal(80, 7);
  const std::vector<double> s = check<double>(b, "unscaled");
  for (int e : {-500, 500}) {
    Bidiagonal c = b;
    for (double& v : c.d) v = std::ldexp(v, e);
    for (double& v : c.e) v = std::ldexp(v, e);
    const std::vector<double> t = check<double>(c, "scaled by 2^" + std::to_string(e));
    for (size_t i = 0; i < s.size(); ++i) EXPECT_NEAR(std::ldexp(t[i], -e), s[i], 1e-13 * s[0]) << "value " << i;
  }
}
