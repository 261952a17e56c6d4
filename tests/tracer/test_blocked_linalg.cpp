// The blocked Cholesky and LU (tracer/kernels/blocked_linalg.h) against their definitions, in
// double precision: L Lᵀ = a, P a = L U with |L| ≤ 1 (partial pivoting) and the pivots LAPACK's;
// sizes that end mid-block and mid-panel; f32 and f64; a matrix that is not positive definite;
// a singular one (a zero column); the blocked Hessenberg reduction; the real Schur form's block
// reordering (move_block_up); the bits the same on one thread as across the pool (also of
// eigh's divide and conquer, the blocked QR, and real and complex eig); the bidiagonal
// reduction (Q B Pᵀ = a) and its bits, with the singular values' and vectors', on one thread. The
// Cholesky, LU, triangular solve, QR and eigh tests skip where the build has no packed GEMM
// (no AVX-512).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kernels/bidiagonal.h"
#include "kernels/blocked_linalg.h"
#include "kernels/complex_eigen.h"
#include "kernels/hessenberg.h"
#include "kernels/householder.h"
#include "kernels/nonsymmetric_eigen.h"
#include "kernels/parallel.h"
#include "kernels/symmetric_eigen.h"
#include "one_thread.h"

namespace k = strata::kernels;
using strata::testing::on_one_thread;

namespace {

std::vector<double> random_rectangle(int64_t m, int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(static_cast<size_t>(m * n));
  for (double& x : v) x = u(gen);
  return v;
}

std::vector<double> random_matrix(int64_t n, unsigned seed) { return random_rectangle(n, n, seed); }

// x xᵀ / n + I, positive definite.
std::vector<double> spd(int64_t n, unsigned seed) {
  std::vector<double> x = random_matrix(n, seed), a(static_cast<size_t>(n * n));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < n; ++p) s += x[size_t(i * n + p)] * x[size_t(j * n + p)];
      a[size_t(i * n + j)] = s / double(n) + (i == j ? 1.0 : 0.0);
    }
  return a;
}

template <class T>
std::vector<T> cast(const std::vector<double>& v) {
  return std::vector<T>(v.begin(), v.end());
}

template <class T>
constexpr double tolerance() {
  return std::is_same_v<T, float> ? 2e-4 : 1e-11;
}

template <class T>
void check_cholesky(int64_t n) {
  const std::vector<double> a = spd(n, 5 + unsigned(n));
  std::vector<T> l = cast<T>(a);
  ASSERT_TRUE(k::blocked_cholesky(l.data(), n)) << n;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j <= i; ++j) {
      double s = 0;
      for (int64_t p = 0; p <= j; ++p) s += double(l[size_t(i * n + p)]) * double(l[size_t(j * n + p)]);
      ASSERT_NEAR(s, a[size_t(i * n + j)], tolerance<T>()) << "(L Lᵀ)[" << i << "," << j << "] of n=" << n;
    }
}

template <class T>
void check_lu(int64_t n, bool zero_column) {
  std::vector<double> a = random_matrix(n, 9 + unsigned(n));
  if (zero_column)
    for (int64_t i = 0; i < n; ++i) a[size_t(i * n + 3)] = 0;
  std::vector<T> lu = cast<T>(a);
  std::vector<int32_t> pivots(size_t(n), -1);
  k::blocked_lu(lu.data(), n, pivots.data());
  std::vector<int64_t> perm(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) perm[size_t(i)] = i;
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_GE(pivots[size_t(i)], i);
    ASSERT_LT(pivots[size_t(i)], n);
    std::swap(perm[size_t(i)], perm[size_t(pivots[size_t(i)])]);
  }
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const double lij = double(lu[size_t(i * n + j)]);
      if (j < i) ASSERT_LE(std::abs(lij), 1.0) << "L[" << i << "," << j << "] of n=" << n;
      double s = 0;
      for (int64_t p = 0; p <= std::min(i, j); ++p)
        s += (p == i ? 1.0 : double(lu[size_t(i * n + p)])) * double(lu[size_t(p * n + j)]);
      ASSERT_NEAR(s, a[size_t(perm[size_t(i)] * n + j)], tolerance<T>() * 10)
          << "(L U)[" << i << "," << j << "] of n=" << n;
    }
}

// Q H Qᵀ = a, QᵀQ = I and H exactly zero below its subdiagonal; H the same bits without Q
// and with the matrix one element off the allocator's alignment; Q itself Qᵀ's transpose.
template <class T>
void check_hessenberg(const std::vector<double>& a, int64_t n, const std::string& what) {
  SCOPED_TRACE(what + " n=" + std::to_string(n) + (std::is_same_v<T, float> ? " f32" : " f64"));
  std::vector<T> h = cast<T>(a), qt(static_cast<size_t>(n * n), T(7));
  k::hessenberg(h.data(), qt.data(), n, true);
  std::vector<T> h2(a.size() + 1);
  std::copy(a.begin(), a.end(), h2.begin() + 1);
  k::hessenberg(h2.data() + 1, static_cast<T*>(nullptr), n, true);
  EXPECT_TRUE(std::equal(h.begin(), h.end(), h2.begin() + 1)) << "H without Q, elsewhere in memory";
  std::vector<T> h3 = cast<T>(a), q(static_cast<size_t>(n * n));
  k::hessenberg(h3.data(), q.data(), n, false);
  EXPECT_EQ(h3, h) << "H with Q untransposed";
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) ASSERT_EQ(q[size_t(i * n + j)], qt[size_t(j * n + i)]) << "Q[" << i << "," << j << "]";
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j + 1 < i; ++j) ASSERT_EQ(h[size_t(i * n + j)], T(0)) << "H[" << i << "," << j << "]";
  // qt's row k is Q's column k.
  std::vector<double> qh(static_cast<size_t>(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t p = 0; p < n; ++p)
      for (int64_t j = 0; j < n; ++j) qh[size_t(i * n + j)] += double(qt[size_t(p * n + i)]) * double(h[size_t(p * n + j)]);
  const double tol = tolerance<T>() * 0.1 * std::max<double>(1, std::sqrt(double(n)));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0, o = 0;
      for (int64_t p = 0; p < n; ++p) {
        s += qh[size_t(i * n + p)] * double(qt[size_t(p * n + j)]);
        o += double(qt[size_t(i * n + p)]) * double(qt[size_t(j * n + p)]);
      }
      ASSERT_NEAR(s, a[size_t(i * n + j)], tol) << "(Q H Qᵀ)[" << i << "," << j << "]";
      ASSERT_NEAR(o, i == j ? 1.0 : 0.0, tol) << "(QᵀQ)[" << i << "," << j << "]";
    }
}

}  // namespace

// Sizes below one panel of 32 reflections, ending just past one, mid-panel and after several.
TEST(BlockedLinalg, HessenbergReduction) {
  for (int64_t n : {1, 2, 3, 5, 33, 34, 100, 161, 300}) {
    const std::vector<double> a = random_matrix(n, 40 + unsigned(n));
    check_hessenberg<float>(a, n, "random");
    check_hessenberg<double>(a, n, "random");
  }
  // Reflections that are the identity: an upper triangular matrix (all of them), a zero first
  // column, and a matrix that is Hessenberg already.
  const int64_t n = 70;
  std::vector<double> upper = random_matrix(n, 50), zero_column = upper, hess = upper;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      if (j < i) upper[size_t(i * n + j)] = 0;
      if (j + 1 < i) hess[size_t(i * n + j)] = 0;
      if (j == 0) zero_column[size_t(i * n + j)] = 0;
    }
  check_hessenberg<double>(upper, n, "upper triangular");
  check_hessenberg<double>(zero_column, n, "zero first column");
  check_hessenberg<float>(hess, n, "Hessenberg");
}

TEST(BlockedLinalg, HessenbergDoesNotDependOnTheThreadCount) {
  const int64_t n = 301;
  const std::vector<float> a = cast<float>(random_matrix(n, 60));
  std::vector<float> h1 = a, h2 = a, q1(static_cast<size_t>(n * n)), q2 = q1;
  on_one_thread([&] { k::hessenberg(h1.data(), q1.data(), n, false); });
  k::hessenberg(h2.data(), q2.data(), n, false);
  EXPECT_EQ(h1, h2);
  EXPECT_EQ(q1, q2);
}

// A real Schur form with blocks of orders 1, 2, 1, 2, 2, 1 (standard 2×2 blocks [a b; c a],
// b·c < 0; distinct eigenvalues) and random entries above them.
template <class T>
std::vector<T> schur_form(std::vector<int64_t>& starts) {
  const std::vector<int64_t> orders = {1, 2, 1, 2, 2, 1};
  const int64_t n = 9;
  std::vector<double> r = random_matrix(n, 70);
  std::vector<T> t(static_cast<size_t>(n * n), T(0));
  starts.clear();
  int64_t row = 0;
  for (size_t b = 0; b < orders.size(); ++b) {
    starts.push_back(row);
    const double a = 0.4 * double(b) - 1;
    for (int64_t j = row; j < n; ++j) t[size_t(row * n + j)] = T(r[size_t(row * n + j)]);
    t[size_t(row * n + row)] = T(a);
    if (orders[b] == 2) {
      for (int64_t j = row + 2; j < n; ++j) t[size_t((row + 1) * n + j)] = T(r[size_t((row + 1) * n + j)]);
      t[size_t(row * n + row + 1)] = T(1.5 + 0.1 * double(b));
      t[size_t((row + 1) * n + row)] = T(-0.5);
      t[size_t((row + 1) * n + row + 1)] = T(a);
    }
    row += orders[b];
  }
  return t;
}

// The eigenvalues of t's diagonal block at row i (one, or a pair a ± i·√(−bc)).
template <class T>
std::pair<double, double> block_eigenvalue(const std::vector<T>& t, int64_t n, int64_t i) {
  const bool pair = i + 1 < n && t[size_t((i + 1) * n + i)] != T(0);
  const double a = t[size_t(i * n + i)];
  return {a, pair ? std::sqrt(-double(t[size_t(i * n + i + 1)]) * double(t[size_t((i + 1) * n + i)])) : 0.0};
}

// move_block_up (LAPACK's dtrexc upwards, dlaexc's swaps of 1×1 and 2×2 blocks) of the block at
// row ifst of t to row ilst: Z t' Zᵀ = t, ZᵀZ = I, t' a standard Schur form with the block's
// eigenvalues at ilst.
template <class T>
void check_moved(const std::vector<T>& t, int64_t n, int64_t ifst, int64_t ilst, double tol) {
  std::vector<T> moved = t, zt(static_cast<size_t>(n * n), T(0));
  for (int64_t i = 0; i < n; ++i) zt[size_t(i * n + i)] = T(1);
  const int64_t first = ifst > 0 && t[size_t(ifst * n + ifst - 1)] != T(0) ? ifst - 1 : ifst;
  ASSERT_EQ(k::move_block_up(moved.data(), zt.data(), n, ifst, ilst), ilst);
  const std::pair<double, double> want = block_eigenvalue(t, n, first), got = block_eigenvalue(moved, n, ilst);
  EXPECT_NEAR(got.first, want.first, tol);
  EXPECT_NEAR(got.second, want.second, tol);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double back = 0, id = 0;  // (Z t' Zᵀ)_ij and (Zᵀ Z)_ij = (zt ztᵀ)_ij
      for (int64_t p = 0; p < n; ++p) {
        id += double(zt[size_t(i * n + p)]) * double(zt[size_t(j * n + p)]);
        for (int64_t q = 0; q < n; ++q)
          back += double(zt[size_t(p * n + i)]) * double(moved[size_t(p * n + q)]) * double(zt[size_t(q * n + j)]);
      }
      EXPECT_NEAR(back, double(t[size_t(i * n + j)]), tol) << i << "," << j;
      EXPECT_NEAR(id, i == j ? 1.0 : 0.0, tol) << i << "," << j;
      if (j + 1 < i) EXPECT_EQ(moved[size_t(i * n + j)], T(0)) << i << "," << j;
    }
  for (int64_t i = 0; i + 1 < n; ++i) {
    if (moved[size_t((i + 1) * n + i)] == T(0)) continue;
    EXPECT_EQ(moved[size_t(i * n + i)], moved[size_t((i + 1) * n + i + 1)]) << "block at " << i;
    EXPECT_LT(moved[size_t(i * n + i + 1)] * moved[size_t((i + 1) * n + i)], T(0)) << "block at " << i;
    ++i;
  }
}

// Every block to every place above it (named by either row of a 2×2 block); and two coupled
// copies of one complex pair, [C I; 0 C] with C = [0.5 1; −1 0.5] (a defective pair: C X − X C = I
// has no solution, and the swap is C −I's sign flip).
template <class T>
void check_move_block_up(double tol) {
  std::vector<int64_t> starts;
  const std::vector<T> t = schur_form<T>(starts);
  for (size_t from = 1; from < starts.size(); ++from)
    for (size_t to = 0; to < from; ++to) {
      SCOPED_TRACE("block " + std::to_string(from) + " to " + std::to_string(to));
      const bool pair = block_eigenvalue(t, 9, starts[from]).second != 0;
      check_moved(t, 9, starts[from] + (pair && from % 2 == 0 ? 1 : 0), starts[to], tol);
    }
  SCOPED_TRACE("defective pair");
  const std::vector<T> defective = {T(0.5), T(1), T(1),   T(0), T(-1), T(0.5), T(0),  T(1),
                                    T(0),   T(0), T(0.5), T(1), T(0),  T(0),   T(-1), T(0.5)};
  check_moved(defective, 4, 3, 0, tol);
}

TEST(SchurReordering, MovesBlocksUp) {
  check_move_block_up<double>(1e-13);
  check_move_block_up<float>(1e-5);
}

TEST(BlockedLinalg, CholeskyReassemblesTheMatrix) {
  if (!k::blocked_linalg_suits(256)) GTEST_SKIP() << "built without the packed GEMM";
  for (int64_t n : {256, 300, 389}) {
    check_cholesky<float>(n);
    check_cholesky<double>(n);
  }
}

TEST(BlockedLinalg, CholeskyOfAMatrixNotPositiveDefiniteFails) {
  if (!k::blocked_linalg_suits(256)) GTEST_SKIP() << "built without the packed GEMM";
  const int64_t n = 300;
  std::vector<float> a = cast<float>(spd(n, 3));
  a[size_t(200 * n + 200)] = -5;  // a pivot in the second block turns negative
  EXPECT_FALSE(k::blocked_cholesky(a.data(), n));
}

TEST(BlockedLinalg, LuReassemblesThePermutedMatrix) {
  if (!k::blocked_linalg_suits(256)) GTEST_SKIP() << "built without the packed GEMM";
  for (int64_t n : {256, 300, 389}) {
    check_lu<float>(n, false);
    check_lu<double>(n, false);
  }
  check_lu<double>(300, true);
}

// Every flag of the triangular solve: op(a) x = b or x op(a) = b holds, the other triangle
// (garbage here) never read.
TEST(BlockedLinalg, TriangularSolveEveryFlag) {
  if (!k::blocked_linalg_suits(256)) GTEST_SKIP() << "built without the packed GEMM";
  const int64_t m = 300, other = 70;
  std::vector<double> a = random_matrix(m, 21);
  for (int64_t i = 0; i < m; ++i) a[size_t(i * m + i)] = 4 + (i % 3);  // well conditioned
  for (int f = 0; f < 16; ++f) {
    const bool left = f & 1, lower = f & 2, trans = f & 4, unit = f & 8;
    SCOPED_TRACE("left " + std::to_string(left) + " lower " + std::to_string(lower) + " transpose " +
                 std::to_string(trans) + " unit " + std::to_string(unit));
    const int64_t rows = left ? m : other, cols = left ? other : m;
    // The triangle the solve reads, scaled so that op(a) stays well conditioned.
    auto op = [&](int64_t i, int64_t j) {
      const int64_t r = trans ? j : i, c = trans ? i : j;
      if (r == c) return unit ? 1.0 : a[size_t(r * m + c)];
      return (lower ? r > c : r < c) ? a[size_t(r * m + c)] / double(m) : 0.0;
    };
    std::vector<double> scaled = a;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < m; ++j)
        if (i != j) scaled[size_t(i * m + j)] /= double(m);
    std::vector<double> b = random_matrix(std::max(rows, cols), 30 + unsigned(f));
    b.resize(size_t(rows * cols));
    std::vector<double> x = b;
    k::blocked_triangular_solve(scaled.data(), x.data(), m, rows, cols, left, lower, trans, unit);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        double s = 0;
        for (int64_t p = 0; p < m; ++p)
          s += left ? op(i, p) * x[size_t(p * cols + j)] : x[size_t(i * cols + p)] * op(p, j);
        ASSERT_NEAR(s, b[size_t(i * cols + j)], 1e-10) << "(" << i << "," << j << ")";
      }
  }
}

TEST(BlockedLinalg, ResultDoesNotDependOnTheThreadCount) {
  if (!k::blocked_linalg_suits(256)) GTEST_SKIP() << "built without the packed GEMM";
  const int64_t n = 389;
  std::vector<float> c1 = cast<float>(spd(n, 4)), c2 = c1;
  std::vector<float> l1 = cast<float>(random_matrix(n, 6)), l2 = l1;
  std::vector<int32_t> p1(static_cast<size_t>(n)), p2(static_cast<size_t>(n));
  std::vector<float> s1 = cast<float>(random_matrix(n, 8)), s2 = s1;
  on_one_thread([&] {
    k::blocked_cholesky(c1.data(), n);
    k::blocked_lu(l1.data(), n, p1.data());
    k::blocked_triangular_solve(c1.data(), s1.data(), n, n, n, true, true, true, false);
  });
  k::blocked_cholesky(c2.data(), n);
  k::blocked_lu(l2.data(), n, p2.data());
  k::blocked_triangular_solve(c2.data(), s2.data(), n, n, n, true, true, true, false);
  EXPECT_EQ(c1, c2);
  EXPECT_EQ(s1, s2);
  EXPECT_EQ(l1, l2);
  EXPECT_EQ(p1, p2);
}

TEST(BlockedLinalg, EighAndQrDoNotDependOnTheThreadCount) {
  if (!k::householder_qr_suits(500, 300)) GTEST_SKIP() << "built without the packed GEMM";
  const int64_t n = 300, m = 500;
  std::vector<float> a = cast<float>(spd(n, 10)), v1(static_cast<size_t>(n * n)), v2 = v1, w1(static_cast<size_t>(n)), w2 = w1;
  std::vector<double> b = random_matrix(m, 12);
  b.resize(static_cast<size_t>(m * n));  // the first m × n entries
  std::vector<double> q1(static_cast<size_t>(m * n)), q2 = q1, r1(static_cast<size_t>(n * n)), r2 = r1;
  on_one_thread([&] {
    ASSERT_TRUE(k::symmetric_eigen(a.data(), v1.data(), w1.data(), n));
    k::householder_qr(b.data(), q1.data(), r1.data(), m, n, false);
  });
  ASSERT_TRUE(k::symmetric_eigen(a.data(), v2.data(), w2.data(), n));
  k::householder_qr(b.data(), q2.data(), r2.data(), m, n, false);
  EXPECT_EQ(w1, w2);
  EXPECT_EQ(v1, v2);
  EXPECT_EQ(q1, q2);
  EXPECT_EQ(r1, r2);
}

// eig's eigenvector back substitution runs its vectors across the pool.
TEST(BlockedLinalg, EigDoesNotDependOnTheThreadCount) {
  const int64_t n = 200;
  const std::vector<double> a = random_matrix(n, 13);
  std::vector<double> wr1(static_cast<size_t>(n)), wi1 = wr1, wr2 = wr1, wi2 = wr1, v1(static_cast<size_t>(n * n)), v2 = v1;
  std::vector<double> u1 = v1, u2 = v1;
  on_one_thread([&] { ASSERT_TRUE(k::nonsymmetric_eigen(a.data(), wr1.data(), wi1.data(), v1.data(), n, u1.data())); });
  ASSERT_TRUE(k::nonsymmetric_eigen(a.data(), wr2.data(), wi2.data(), v2.data(), n, u2.data()));
  EXPECT_EQ(wr1, wr2);
  EXPECT_EQ(wi1, wi2);
  EXPECT_EQ(v1, v2);
  EXPECT_EQ(u1, u2);
}

// The complex kernel (complex_eigen.h): its deferred reflections and Z's go across the pool by
// rows and columns, the vectors one per task.
TEST(BlockedLinalg, ComplexEigDoesNotDependOnTheThreadCount) {
  const int64_t n = 300;
  const std::vector<double> re = random_matrix(n, 14), im = random_matrix(n, 15);
  std::vector<std::complex<float>> a(static_cast<size_t>(n * n));
  for (size_t i = 0; i < a.size(); ++i) a[i] = {float(re[i]), float(im[i])};
  std::vector<std::complex<float>> w1(static_cast<size_t>(n)), w2 = w1, v1(a.size()), v2 = v1, u1 = v1, u2 = v1;
  std::vector<std::complex<float>> t1(a.size()), t2 = t1, z1 = t1, z2 = t1;
  on_one_thread([&] {
    ASSERT_TRUE(k::complex_eigen(a.data(), w1.data(), v1.data(), u1.data(), n));
    ASSERT_TRUE(k::complex_schur_form(a.data(), t1.data(), z1.data(), n));
  });
  ASSERT_TRUE(k::complex_eigen(a.data(), w2.data(), v2.data(), u2.data(), n));
  ASSERT_TRUE(k::complex_schur_form(a.data(), t2.data(), z2.data(), n));
  EXPECT_EQ(w1, w2);
  EXPECT_EQ(v1, v2);
  EXPECT_EQ(u1, u2);
  EXPECT_EQ(t1, t2);
  EXPECT_EQ(z1, z2);
}

namespace {

// Q B Pᵀ = a (in double), QᵀQ = I, PᵀP = I for the bidiagonal reduction of a (m×n, m ≥ n):
// Q and P formed from the reflections where bidiagonalize left them (LAPACK's storage), B
// from d and e.
template <class T>
void check_bidiagonalization(const std::vector<double>& a, int64_t m, int64_t n, const std::string& what) {
  SCOPED_TRACE(what + " " + std::to_string(m) + "×" + std::to_string(n) + (std::is_same_v<T, float> ? " f32" : " f64"));
  std::vector<T> w = cast<T>(a), tauq(static_cast<size_t>(n)), taup(static_cast<size_t>(n));
  std::vector<double> d(static_cast<size_t>(n)), e(static_cast<size_t>(n));
  k::bidiagonalize(w.data(), m, n, d.data(), e.data(), tauq.data(), taup.data());
  // Q = H_0 ⋯ H_{n-1} and P = G_0 ⋯ G_{n-2}, each applied from the left to the identity, last first.
  auto identity = [](int64_t s) {
    std::vector<double> q(static_cast<size_t>(s * s), 0.0);
    for (int64_t i = 0; i < s; ++i) q[size_t(i * s + i)] = 1;
    return q;
  };
  auto reflect = [](std::vector<double>& q, int64_t s, const std::vector<double>& v, double tau) {
    for (int64_t c = 0; c < s; ++c) {
      double dot = 0;
      for (int64_t r = 0; r < s; ++r) dot += v[size_t(r)] * q[size_t(r * s + c)];
      for (int64_t r = 0; r < s; ++r) q[size_t(r * s + c)] -= tau * v[size_t(r)] * dot;
    }
  };
  std::vector<double> q = identity(m), p = identity(n);
  for (int64_t i = n - 1; i >= 0; --i) {
    std::vector<double> v(static_cast<size_t>(m), 0.0);
    v[size_t(i)] = 1;
    for (int64_t r = i + 1; r < m; ++r) v[size_t(r)] = double(w[size_t(r * n + i)]);
    reflect(q, m, v, double(tauq[size_t(i)]));
    if (i + 1 < n) {
      std::vector<double> u(static_cast<size_t>(n), 0.0);
      u[size_t(i + 1)] = 1;
      for (int64_t c = i + 2; c < n; ++c) u[size_t(c)] = double(w[size_t(i * n + c)]);
      reflect(p, n, u, double(taup[size_t(i)]));
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(double(w[size_t(i * n + i)]), double(T(d[size_t(i)]))) << "d stored on the diagonal";
    if (i + 1 < n) ASSERT_EQ(double(w[size_t(i * n + i + 1)]), double(T(e[size_t(i)]))) << "e stored";
  }
  double largest = 0;
  for (double x : a) largest = std::max(largest, std::abs(x));
  const double tol = tolerance<T>() * 0.1 * std::max<double>(1, std::sqrt(double(m))) * std::max(largest, 1e-300);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {  // (Q B Pᵀ)[i][j] = Σ_c Q[i][c] (d_c P[j][c] + e_c P[j][c+1])
      double s = 0;
      for (int64_t c = 0; c < n; ++c)
        s += q[size_t(i * m + c)] * (d[size_t(c)] * p[size_t(j * n + c)] + (c + 1 < n ? e[size_t(c)] * p[size_t(j * n + c + 1)] : 0.0));
      ASSERT_NEAR(s, a[size_t(i * n + j)], tol) << "(Q B Pᵀ)[" << i << "," << j << "]";
    }
  const double otol = tolerance<T>() * 0.1 * std::max<double>(1, std::sqrt(double(m)));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < m; ++j) {
      double s = 0;
      for (int64_t r = 0; r < m; ++r) s += q[size_t(r * m + i)] * q[size_t(r * m + j)];
      ASSERT_NEAR(s, i == j ? 1.0 : 0.0, otol) << "(QᵀQ)[" << i << "," << j << "]";
    }
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t r = 0; r < n; ++r) s += p[size_t(r * n + i)] * p[size_t(r * n + j)];
      ASSERT_NEAR(s, i == j ? 1.0 : 0.0, otol) << "(PᵀP)[" << i << "," << j << "]";
    }
}

}  // namespace

// Shapes within one panel, at the last panel's size, ending mid-panel and after several
// panels (32 pairs each; the last 96 columns or fewer as one panel).
TEST(BlockedLinalg, Bidiagonalization) {
  const std::vector<std::pair<int64_t, int64_t>> shapes = {{1, 1},    {2, 2},    {3, 2},    {5, 5},     {40, 33},
                                                           {97, 97},  {100, 64}, {130, 128}, {161, 161}, {250, 150}};
  for (auto [m, n] : shapes) {
    const std::vector<double> a = random_rectangle(m, n, 80 + unsigned(m + n));
    check_bidiagonalization<float>(a, m, n, "random");
    check_bidiagonalization<double>(a, m, n, "random");
  }
  // Reflections that are the identity: a zero matrix, an upper bidiagonal one, a zero column.
  const int64_t m = 140, n = 130;
  std::vector<double> zero(static_cast<size_t>(m * n), 0.0), bidiagonal = random_rectangle(m, n, 90),
      zero_column = bidiagonal;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      if (j != i && j != i + 1) bidiagonal[size_t(i * n + j)] = 0;
      if (j == 40) zero_column[size_t(i * n + j)] = 0;
    }
  check_bidiagonalization<double>(zero, m, n, "zero");
  check_bidiagonalization<double>(bidiagonal, m, n, "bidiagonal");
  check_bidiagonalization<float>(zero_column, m, n, "a zero column");
}

TEST(BlockedLinalg, BidiagonalizationDoesNotDependOnTheThreadCount) {
  const int64_t m = 420, n = 390;
  const std::vector<float> a = cast<float>(random_rectangle(m, n, 95));
  std::vector<float> w1 = a, w2 = a, tq1(static_cast<size_t>(n)), tq2 = tq1, tp1 = tq1, tp2 = tq1, s1 = tq1, s2 = tq1;
  std::vector<double> d1(static_cast<size_t>(n)), d2 = d1, e1 = d1, e2 = d1;
  std::vector<float> sv1 = s1, sv2 = s1, u1(static_cast<size_t>(m * m)), u2 = u1, vt1(static_cast<size_t>(n * n)), vt2 = vt1;
  on_one_thread([&] {
    k::bidiagonalize(w1.data(), m, n, d1.data(), e1.data(), tq1.data(), tp1.data());
    ASSERT_TRUE(k::singular_values(a.data(), m, n, s1.data()));
    ASSERT_TRUE(k::singular_value_decomposition(a.data(), m, n, sv1.data(), u1.data(), vt1.data(), true));
  });
  k::bidiagonalize(w2.data(), m, n, d2.data(), e2.data(), tq2.data(), tp2.data());
  ASSERT_TRUE(k::singular_values(a.data(), m, n, s2.data()));
  ASSERT_TRUE(k::singular_value_decomposition(a.data(), m, n, sv2.data(), u2.data(), vt2.data(), true));
  EXPECT_EQ(sv1, sv2);
  EXPECT_EQ(u1, u2);
  EXPECT_EQ(vt1, vt2);
  EXPECT_EQ(w1, w2);
  EXPECT_EQ(d1, d2);
  EXPECT_EQ(e1, e2);
  EXPECT_EQ(tq1, tq2);
  EXPECT_EQ(tp1, tp2);
  EXPECT_EQ(s1, s2);
}
