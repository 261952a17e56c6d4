// The bidiagonal singular value kernel (tracer/kernels/bidiagonal_values.cpp: LAPACK's dqds)
// against references that share nothing with it, in long double: bisection on the Golub-Kahan
// matrix's Sturm counts, relatively accurate whatever the grading (Demmel and Kahan 1990), and
// one-sided Jacobi, relatively accurate for B = X D with X well conditioned (Demmel and Veselić
// 1992); and against what is exact: closed-form spectra, Π σ = Π |d|, diagonal matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/bidiagonal_values.h"

namespace {

using strata::kernels::bidiagonal_singular_values;
using LVec = std::vector<long double>;
constexpr double kEps = std::numeric_limits<double>::epsilon();

struct Bidiagonal {
  std::vector<double> d, e;
  int64_t n() const { return static_cast<int64_t>(d.size()); }
};

std::vector<double> values(const Bidiagonal& b) {
  std::vector<double> s(b.d.size(), -1.0);
  EXPECT_TRUE(bidiagonal_singular_values(b.n(), b.d.data(), b.e.data(), s.data()));
  for (size_t i = 1; i < s.size(); ++i) EXPECT_GE(s[i - 1], s[i]) << "descending at " << i;
  for (double v : s) EXPECT_GE(v, 0.0);
  return s;
}

Bidiagonal random_bidiagonal(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  Bidiagonal b{std::vector<double>(n), std::vector<double>(std::max<int64_t>(n - 1, 0))};
  for (double& v : b.d) v = u(rng);
  for (double& v : b.e) v = u(rng);
  return b;
}

// How many singular values exceed x > 0: the negative pivots of T + x I, T the Golub-Kahan
// tridiagonal (zero diagonal, off-diagonal d0, e0, d1, ..., d_{n-1}, eigenvalues ±σ). Each
// pivot's rounding is a relative change of O(ε) in one entry of B, so the count is exact for a
// relatively nearby matrix, and bisection on it relatively accurate.
int64_t count_above(const Bidiagonal& b, long double x) {
  int64_t count = 0;
  long double p = x;
  for (int64_t k = 0; k + 1 < 2 * b.n(); ++k) {
    const long double c = k % 2 ? b.e[k / 2] : b.d[k / 2];
    p = x - c * (c / p);
    if (p == 0) p = -std::numeric_limits<long double>::min();  // the sign it has for x a hair lower
    count += p < 0;
  }
  return count;
}

// σ (descending) by bisection, each to a few ulps of long double: geometric while the bracket
// spans a factor above 2 (so tiny values cost no more than large ones), then arithmetic.
LVec bisection_values(const Bidiagonal& b) {
  const int64_t n = b.n();
  long double bound = 0;
  for (int64_t i = 0; i < n; ++i)
    bound = std::max(bound, std::abs(static_cast<long double>(b.d[i])) + (i + 1 < n ? std::abs(b.e[i]) : 0.0));
  LVec s(n);
  for (int64_t j = 0; j < n; ++j) {  // σ_j > x ⟺ count_above(x) > j
    long double lo = 0, hi = 2 * bound + std::numeric_limits<long double>::min();
    for (int it = 0; it < 20000 && hi > 1e-4000L; ++it) {
      const long double mid = lo == 0 ? hi * 0x1p-64L : hi > 2 * lo ? std::sqrt(lo) * std::sqrt(hi) : lo + (hi - lo) / 2;
      if (mid <= lo || mid >= hi) break;
      (count_above(b, mid) > j ? lo : hi) = mid;
    }
    s[j] = hi > 1e-4000L ? lo + (hi - lo) / 2 : 0;
  }
  return s;
}

// One-sided (Hestenes) Jacobi on the columns of the dense B (or Bᵀ): rotate pairs of columns
// until all are orthogonal; σ are the column norms, descending.
LVec one_sided_jacobi(const Bidiagonal& b, bool transpose) {
  const int64_t n = b.n();
  std::vector<LVec> col(n, LVec(n, 0));
  for (int64_t i = 0; i < n; ++i) {
    col[i][i] = b.d[i];
    if (i + 1 < n) (transpose ? col[i][i + 1] : col[i + 1][i]) = b.e[i];
  }
  auto dot = [n](const LVec& x, const LVec& y) {
    long double s = 0;
    for (int64_t i = 0; i < n; ++i) s += x[i] * y[i];
    return s;
  };
  for (int sweep = 0; sweep < 60; ++sweep) {
    bool rotated = false;
    for (int64_t p = 0; p < n; ++p)
      for (int64_t q = p + 1; q < n; ++q) {
        const long double a = dot(col[p], col[p]), bb = dot(col[q], col[q]), c = dot(col[p], col[q]);
        if (std::abs(c) <= 1e-19L * std::sqrt(a) * std::sqrt(bb)) continue;
        rotated = true;
        const long double zeta = (bb - a) / (2 * c);
        const long double t = (zeta >= 0 ? 1 : -1) / (std::abs(zeta) + std::sqrt(1 + zeta * zeta));
        const long double cs = 1 / std::sqrt(1 + t * t), sn = cs * t;
        for (int64_t i = 0; i < n; ++i) {
          const long double x = col[p][i], y = col[q][i];
          col[p][i] = cs * x - sn * y;
          col[q][i] = sn * x + cs * y;
        }
      }
    if (!rotated) break;
  }
  LVec s(n);
  for (int64_t j = 0; j < n; ++j) s[j] = std::sqrt(dot(col[j], col[j]));
  std::sort(s.begin(), s.end(), std::greater<>());
  return s;
}

void expect_close(const std::vector<double>& s, const LVec& ref, double tol, const std::string& what) {
  ASSERT_EQ(s.size(), ref.size()) << what;
  for (size_t i = 0; i < s.size(); ++i)
    EXPECT_LE(std::abs(s[i] - ref[i]), tol) << what << " σ" << i << " = " << s[i];
}

void expect_relative(const std::vector<double>& s, const LVec& ref, double tol, const std::string& what) {
  ASSERT_EQ(s.size(), ref.size()) << what;
  for (size_t i = 0; i < s.size(); ++i)
    EXPECT_LE(std::abs(s[i] - ref[i]), tol * ref[i])
        << what << " σ" << i << " = " << s[i] << " want " << static_cast<double>(ref[i]);
}

// log Π σ = log Π |d| (|det B|), which every value enters relatively.
void expect_determinant(const std::vector<double>& s, const Bidiagonal& b, double tol, const std::string& what) {
  long double log_s = 0, log_d = 0;
  for (int64_t i = 0; i < b.n(); ++i) {
    log_s += std::log(static_cast<long double>(s[i]));
    log_d += std::log(std::abs(static_cast<long double>(b.d[i])));
  }
  EXPECT_NEAR(static_cast<double>(log_s - log_d), 0.0, tol) << what << ": Π σ against |det B|";
}

TEST(BidiagonalValues, RandomMatchReferences) {
  for (int64_t n : {0, 1, 2, 3, 4, 10, 37, 100, 500}) {
    const Bidiagonal b = random_bidiagonal(n, 100 + n);
    const std::vector<double> s = values(b);
    const double tol = 1e-15 * std::max<int64_t>(n, 4) * (n ? s[0] : 0);
    const std::string what = "n=" + std::to_string(n);
    expect_close(s, bisection_values(b), tol, what + " vs bisection");
    if (n <= 100) expect_close(s, one_sided_jacobi(b, false), tol, what + " vs Jacobi");
  }
}

TEST(BidiagonalValues, EmptyAndOneByOne) {
  EXPECT_TRUE(bidiagonal_singular_values(0, nullptr, nullptr, nullptr));
  const double d = -3.5;
  double s = 0;
  EXPECT_TRUE(bidiagonal_singular_values(1, &d, nullptr, &s));
  EXPECT_EQ(s, 3.5);
}

// 2×2: σ₁σ₂ = |d₀d₁| and σ₁² + σ₂² = d₀² + e₀² + d₁² (in long double, whose range holds the
// squares), so σ₂ = |d₀d₁| / σ₁, relatively accurate.
TEST(BidiagonalValues, TwoByTwo) {
  for (auto [d0, e0, d1] : {std::tuple{1.0, 1.0, 1e-20}, {1e-20, 1.0, 1.0}, {3.0, -4.0, 2.0}, {0.0, 1.0, 2.0},
                            {1e-100, 1e100, -1e-100}, {2.0, 1e-30, -1.0}, {1e300, 1e300, 1e300}}) {
    const Bidiagonal b{{d0, d1}, {e0}};
    const std::vector<double> s = values(b);
    const long double a0 = d0, b0 = e0, a1 = d1, sum = a0 * a0 + b0 * b0 + a1 * a1, prod = std::abs(a0 * a1);
    const long double big = std::sqrt((sum + std::sqrt((sum - 2 * prod) * (sum + 2 * prod))) / 2), small = prod / big;
    EXPECT_LE(std::abs(s[0] - big), 4 * kEps * big) << d0 << " " << e0 << " " << d1;
    EXPECT_LE(std::abs(s[1] - small), 4 * kEps * small) << d0 << " " << e0 << " " << d1;
  }
  // σ₂ = 1e-600 underflows (and so does |d| / |e|): zero, σ₁ exact.
  const std::vector<double> s = values(Bidiagonal{{1e-200, -1e-200}, {1e200}});
  EXPECT_EQ(s[0], 1e200);
  EXPECT_EQ(s[1], 0.0);
}

// d = e = 1: σ_k = 2 cos(kπ / (2n + 1)), k = 1..n; also scaled far toward overflow and underflow
// (the kernel scales before squaring, so nothing over- or underflows).
TEST(BidiagonalValues, KnownSpectrumAndScaling) {
  for (int64_t n : {3, 8, 50, 200}) {
    LVec exact(n);
    for (int64_t k = 1; k <= n; ++k)
      exact[k - 1] = 2 * std::cos(static_cast<long double>(k) * 3.141592653589793238462643383279502884L / (2 * n + 1));
    for (double scale : {1.0, 1e-300, 1e300, -1e-150, 1e-307}) {
      Bidiagonal b{std::vector<double>(n, scale), std::vector<double>(n - 1, scale)};
      LVec ref(exact);
      for (long double& v : ref) v *= std::abs(static_cast<long double>(scale));
      expect_relative(values(b), ref, 4 * n * kEps, "ones n=" + std::to_string(n) + " scale " + std::to_string(scale));
    }
  }
}

// Graded matrices: B = X D (|e_i| ≤ |d_{i+1}| / 2) or B = D X (|e_i| ≤ |d_i| / 2) with X
// bidiagonal, unit diagonal, superdiagonal at most 1/2, so well conditioned: one-sided Jacobi (on
// B or Bᵀ) is a second relatively accurate reference besides bisection. The values span 1e-150
// to 1 (or 1e-30 to 1 with a zigzag); every one, the smallest included, must be relatively
// accurate.
TEST(BidiagonalValues, GradedRelativeAccuracy) {
  const int64_t n = 31;
  for (bool decreasing : {true, false})
    for (bool column_graded : {true, false})
      for (double step : {1e-5, 1e-1}) {
        Bidiagonal b{std::vector<double>(n), std::vector<double>(n - 1)};
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> u(0.5, 2);
        double g = 1;
        std::vector<double> grade(n);
        for (int64_t i = 0; i < n; ++i, g *= step) grade[decreasing ? i : n - 1 - i] = g;
        if (step == 1e-1)  // add a slow zigzag so that the grading is not monotone
          for (int64_t i = 0; i < n; i += 3) grade[i] *= 1e-2;
        for (int64_t i = 0; i < n; ++i) b.d[i] = (i % 3 == 1 ? -1 : 1) * u(rng) * grade[i];
        for (int64_t i = 0; i + 1 < n; ++i)
          b.e[i] = (i % 2 ? -0.25 : 0.25) * u(rng) * (column_graded ? std::abs(b.d[i + 1]) : std::abs(b.d[i]));
        const std::vector<double> s = values(b);
        const std::string what = std::string(decreasing ? "decreasing" : "increasing") +
                                 (column_graded ? " X D" : " D X") + " step " + std::to_string(step);
        expect_relative(s, bisection_values(b), 1e-14, what + " vs bisection");
        expect_relative(s, one_sided_jacobi(b, !column_graded), 1e-14, what + " vs Jacobi");
      }
}

// Arbitrary grading (entries 10^[-12, 12] at random, signs at random): relative accuracy of every
// value against bisection, and the determinant.
TEST(BidiagonalValues, WildGrading) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> ex(-12, 12), sgn(-1, 1);
  for (int trial = 0; trial < 20; ++trial) {
    const int64_t n = 3 + trial % 10;
    Bidiagonal b{std::vector<double>(n), std::vector<double>(n - 1)};
    for (double& v : b.d) v = std::copysign(std::pow(10.0, ex(rng)), sgn(rng));
    for (double& v : b.e) v = std::copysign(std::pow(10.0, ex(rng)), sgn(rng));
    const std::vector<double> s = values(b);
    const std::string what = "trial " + std::to_string(trial);
    expect_relative(s, bisection_values(b), 1e-14 * n, what);
    expect_determinant(s, b, 1e-14 * n * n, what);
  }
}

// Tiny diagonal entries among unit ones (d = (1, 1e-20, ...)): the small values are relatively
// accurate, where a method accurate only to ε‖B‖ would miss them entirely.
TEST(BidiagonalValues, TinyDiagonalEntries) {
  const Bidiagonal b{{1, 1e-20, 1, 1e-20, 1}, {1, 1, 1e-10, 1}};
  const std::vector<double> s = values(b);
  expect_relative(s, bisection_values(b), 1e-14, "bisection");
  expect_determinant(s, b, 1e-14, "d = (1, 1e-20, ...)");
}

// Entries 10^±110 chosen so that a shifted transform meets a zero pivot (d_k + e_k = 0): the NaN
// it makes sends dqds to a retry without shift, then to the guarded transform (dlasq6). The
// first matrix has two values 3.5e-11 apart relatively.
TEST(BidiagonalValues, ZeroPivotRetries) {
  for (const Bidiagonal& b : {Bidiagonal{{1e-80, 1e80, 1e-100, 1, 1e-30}, {1e90, 1e-90, 1e-90, 1e60}},
                              Bidiagonal{{1e-110, 1e-10, 1e80, 1e-90, 1e40, 1e-80}, {1e-40, 1e100, 1e-90, 1e-30, 1e-10}}}) {
    const std::vector<double> s = values(b);
    expect_relative(s, bisection_values(b), 1e-14, "bisection");
    expect_relative(s, one_sided_jacobi(b, false), 1e-14, "Jacobi");
    expect_determinant(s, b, 1e-14, "zero pivot");
  }
}

// d_k = 0 makes a zero singular value: zero, or within rounding of the largest below it.
TEST(BidiagonalValues, ZeroOnTheDiagonal) {
  for (int64_t n : {3, 4, 20, 101})
    for (int64_t k : {int64_t{0}, n / 2, n - 1}) {
      Bidiagonal b = random_bidiagonal(n, 500 + n + k);
      b.d[k] = 0;
      const std::vector<double> s = values(b);
      const std::string what = "n=" + std::to_string(n) + " k=" + std::to_string(k);
      EXPECT_LE(s[n - 1], 1e-300) << what;
      expect_close(s, bisection_values(b), 1e-15 * std::max<int64_t>(n, 4) * s[0], what);
    }
  const Bidiagonal all_zero{std::vector<double>(6, 0.0), std::vector<double>(5, 0.0)};
  for (double v : values(all_zero)) EXPECT_EQ(v, 0.0);
  const Bidiagonal zero_d{std::vector<double>(6, 0.0), std::vector<double>{1, -2, 3, -4, 5}};  // σ = |e| and 0
  expect_relative(values(zero_d), {5, 4, 3, 2, 1, 0}, 2 * kEps, "d = 0");
}

// Zeros (and negligible values) on the superdiagonal split the matrix: the values are those of
// the blocks. A diagonal matrix gives |d| sorted, exactly.
TEST(BidiagonalValues, SplitsAndDiagonal) {
  const Bidiagonal diag{{3, -1, 4, -1, 5, 9, -2, 6}, std::vector<double>(7, 0.0)};
  EXPECT_EQ(values(diag), (std::vector<double>{9, 6, 5, 4, 3, 2, 1, 1}));

  Bidiagonal b = random_bidiagonal(60, 3);
  for (int64_t i : {4, 5, 17, 40, 58}) b.e[i] = 0;
  b.e[30] = 1e-200;
  LVec ref;
  int64_t lo = 0;
  for (int64_t hi = 1; hi <= 60; ++hi)
    if (hi == 60 || b.e[hi - 1] == 0) {
      const Bidiagonal block{std::vector<double>(b.d.begin() + lo, b.d.begin() + hi),
                             std::vector<double>(b.e.begin() + lo, b.e.begin() + hi - 1)};
      for (long double v : bisection_values(block)) ref.push_back(v);
      lo = hi;
    }
  std::sort(ref.begin(), ref.end(), std::greater<>());
  const std::vector<double> s = values(b);
  expect_relative(s, ref, 1e-13, "split");

  // Superdiagonal entries so far below the diagonal ones that their squares underflow after the
  // scaling: |d| sorted, up to the rounding of the scaling and squaring.
  Bidiagonal tiny = random_bidiagonal(9, 4);
  for (double& v : tiny.e) v = 1e-310;
  LVec sorted(tiny.d.begin(), tiny.d.end());
  for (long double& v : sorted) v = std::abs(v);
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  expect_relative(values(tiny), sorted, 2 * kEps, "e = 1e-310");
}

// Only |d| and |e| matter: flipping signs changes nothing, bit for bit.
TEST(BidiagonalValues, SignsDoNotMatter) {
  const Bidiagonal b = random_bidiagonal(77, 21);
  Bidiagonal a = b;
  for (double& v : a.d) v = std::abs(v);
  for (double& v : a.e) v = std::abs(v);
  EXPECT_EQ(values(b), values(a));
}

TEST(BidiagonalValues, NonFiniteInputFails) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (int64_t n : {1, 2, 5})
    for (double bad : {nan, inf, -inf})
      for (bool in_d : {true, false}) {
        if (n == 1 && !in_d) continue;
        Bidiagonal b = random_bidiagonal(n, 9);
        (in_d ? b.d[n - 1] : b.e[0]) = bad;
        std::vector<double> s(n);
        EXPECT_FALSE(bidiagonal_singular_values(n, b.d.data(), b.e.data(), s.data())) << n << " " << bad;
      }
}

}  // namespace
