// tracer/kernels/blocked_linalg.cpp — see blocked_linalg.h. Right-looking blocked algorithms
// (Golub & Van Loan, "Matrix Computations", 4th ed., 4.2.9 and 3.2.11): factor a block column
// with Eigen (small), solve the block row or column beside it with Eigen's triangular solve
// (in fixed-size pieces across the pool), and subtract the product of the two from the
// trailing matrix with packed_gemm (C -= A·B, split across the pool).
#include "blocked_linalg.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <vector>

#include "householder.h"
#include "packed_gemm.h"
#include "parallel.h"

namespace strata::kernels {
namespace {

// The block column: the trailing updates' K. 128 keeps a block column of 2048 rows (1 MiB of
// f32) in L2 and the GEMM at its full speed (measured: 96 and 192 within 5%).
constexpr int64_t kBlock = 128;
// Rows (Cholesky) or columns (LU) of a triangular solve one pool task takes.
constexpr int64_t kSolvePiece = 128;
// Rows of one GEMM of the Cholesky's trailing update (its lower triangle only, a row panel at
// a time: the panel's rows times the columns up to its diagonal).
constexpr int64_t kSyrkPanel = 256;
// LU panels this narrow are factored column by column (getf2); wider ones split in two.
constexpr int64_t kLeaf = 16;

template <class T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using ColMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
using Stride = Eigen::OuterStride<>;
// rows × cols of the row-major buffer whose rows are `ld` apart, from p.
template <class T>
Eigen::Map<RowMat<T>, 0, Stride> view(T* p, int64_t rows, int64_t cols, int64_t ld) {
  return Eigen::Map<RowMat<T>, 0, Stride>(p, rows, cols, Stride(ld));
}

// A block of a row-major matrix as a GEMM operand: its rows `ld` apart, or (trans) the block
// stored transposed (the operand's column j is the stored row j).
template <class T>
struct Block {
  const T* p;
  int64_t ld;
  bool trans = false;
};

// C (M×N, rows ldc apart) -= A (M×K) · B (K×N): householder.h's gemm (the packed GEMM where
// its tiles suit the shape, Eigen for thin ones).
template <class T>
void subtract_product(T* c, int64_t ldc, Block<T> a, Block<T> b, int64_t M, int64_t N, int64_t K) {
  if (K == 0) return;
  gemm(a.p, a.ld, a.trans, b.p, b.ld, b.trans, c, ldc, M, N, K, true);
}

// The same, every operand a block of one matrix whose rows are ld apart.
template <class T>
void subtract_product(T* c, const T* a, const T* b, bool b_trans, int64_t M, int64_t N, int64_t K, int64_t ld) {
  subtract_product(c, ld, Block<T>{a, ld}, Block<T>{b, ld, b_trans}, M, N, K);
}

// Triangular solves, recursive (Elmroth et al., "Recursive Blocked Algorithms and Hybrid Data
// Structures for Dense Matrix Library Software", SIAM Review 2004): the triangle split in two,
// one half solved, the other's right-hand side updated by a GEMM, the other half solved; Eigen
// below kSolveLeaf (its own blocked solve ran at a sixth of the GEMM's speed here).
constexpr int64_t kSolveLeaf = 32;

// X (rows × m) ← X L⁻ᵀ, L the m×m lower triangle at l.
template <class T>
void solve_right_lower_transposed(const T* l, int64_t m, T* x, int64_t rows, int64_t ld) {
  if (m <= kSolveLeaf) {
    // Row by row, forward: x_j = (x_j - Σ_{p<j} x_p L[j][p]) / L[j][j], each x_j subtracted
    // from the rest of the row as soon as it is known (Lᵀ's rows contiguous, so the inner
    // loop is a vector AXPY; Eigen's solve on the right ran at 7 GFLOP/s here).
    T lt[kSolveLeaf][kSolveLeaf];
    for (int64_t j = 0; j < m; ++j)
      for (int64_t q = 0; q < m; ++q) lt[j][q] = l[q * ld + j];
    for (int64_t i = 0; i < rows; ++i) {
      T* row = x + i * ld;
      for (int64_t j = 0; j < m; ++j) {
        const T v = row[j] /= lt[j][j];
        for (int64_t q = j + 1; q < m; ++q) row[q] -= v * lt[j][q];
      }
    }
    return;
  }
  // Lᵀ = [L1ᵀ L21ᵀ; 0 L2ᵀ]: X1 = B1 L1⁻ᵀ, then X2 = (B2 - X1 L21ᵀ) L2⁻ᵀ.
  const int64_t m1 = m / 2, m2 = m - m1;
  solve_right_lower_transposed(l, m1, x, rows, ld);
  subtract_product(x + m1, x, l + m1 * ld, true, rows, m2, m1, ld);
  solve_right_lower_transposed(l + m1 * ld + m1, m2, x + m1, rows, ld);
}

// X (m × cols) ← L⁻¹ X, L the m×m unit lower triangle at l.
template <class T>
void solve_left_unit_lower(const T* l, int64_t m, T* x, int64_t cols, int64_t ld) {
  if (m <= kSolveLeaf) {
    auto X = view(x, m, cols, ld);
    view(const_cast<T*>(l), m, m, ld).template triangularView<Eigen::UnitLower>().solveInPlace(X);
    return;
  }
  // [L1 0; L21 L2]: X1 = L1⁻¹ B1, then X2 = L2⁻¹ (B2 - L21 X1).
  const int64_t m1 = m / 2, m2 = m - m1;
  solve_left_unit_lower(l, m1, x, cols, ld);
  subtract_product(x + m1 * ld, l + m1 * ld, x, false, m2, cols, m1, ld);
  solve_left_unit_lower(l + m1 * ld + m1, m2, x + m1 * ld, cols, ld);
}

// getf2 on columns [c0, c0 + w) of the panel p (rows × width, rows ld apart) below row c0:
// each pivot's row swapped across the panel, the column scaled, the rank-1 update kept to the
// columns [c0, c0 + w).
template <class T>
void lu_leaf(T* p, int64_t ld, int64_t rows, int64_t width, int64_t c0, int64_t w, int32_t* pivots) {
  for (int64_t j = c0; j < c0 + w; ++j) {
    int64_t q = j;
    T best = std::abs(p[j * ld + j]);
    for (int64_t i = j + 1; i < rows; ++i) {
      const T v = std::abs(p[i * ld + j]);
      if (v > best) best = v, q = i;
    }
    pivots[j] = static_cast<int32_t>(q);
    if (q != j) std::swap_ranges(p + j * ld, p + j * ld + width, p + q * ld);
    const T d = p[j * ld + j];
    const T* u = p + j * ld;
    for (int64_t i = j + 1; i < rows; ++i) {
      T* row = p + i * ld;
      if (d != T(0)) row[j] /= d;
      const T l = row[j];
      for (int64_t c = j + 1; c < c0 + w; ++c) row[c] -= l * u[c];
    }
  }
}

// getrf2 on columns [c0, c0 + w) of the panel below row c0: the left half, its U's rows beside
// it, the right half's update by one GEMM, then the right half.
template <class T>
void lu_panel(T* p, int64_t ld, int64_t rows, int64_t width, int64_t c0, int64_t w, int32_t* pivots) {
  if (w <= kLeaf) return lu_leaf(p, ld, rows, width, c0, w, pivots);
  const int64_t w1 = w / 2, w2 = w - w1;
  lu_panel(p, ld, rows, width, c0, w1, pivots);
  solve_left_unit_lower(p + c0 * ld + c0, w1, p + c0 * ld + c0 + w1, w2, ld);
  subtract_product(p + (c0 + w1) * ld + c0 + w1, p + (c0 + w1) * ld + c0, p + c0 * ld + c0 + w1, false,
                   rows - c0 - w1, w2, w1, ld);
  lu_panel(p, ld, rows, width, c0 + w1, w2, pivots);
}

}  // namespace

bool blocked_linalg_suits(int64_t n) { return n >= 2 * kBlock && packed_gemm_available(); }

// --- Cholesky.

template <class T>
bool blocked_cholesky(T* a, int64_t n) {
  for (int64_t k = 0; k < n; k += kBlock) {
    const int64_t b = std::min(kBlock, n - k), r = n - k - b;
    T* a11 = a + k * n + k;
    // The diagonal block, through its column-major view (Eigen's LLT is fastest there): the
    // view's upper triangle is the block's lower one, and the factor U it leaves is L.
    Eigen::Map<ColMat<T>, 0, Stride> block(a11, b, b, Stride(n));
    Eigen::LLT<Eigen::Ref<ColMat<T>, 0, Stride>, Eigen::Upper> llt(block);
    if (llt.info() != Eigen::Success) return false;
    if (r == 0) break;
    // The block column below: A21 ← A21 L11⁻ᵀ, rows independent.
    T* a21 = a + (k + b) * n + k;
    parallel_for((r + kSolvePiece - 1) / kSolvePiece, 1, [&](int64_t lo, int64_t hi) {
      for (int64_t p = lo; p < hi; ++p) {
        const int64_t row = p * kSolvePiece;
        solve_right_lower_transposed(a11, b, a21 + row * n, std::min(kSolvePiece, r - row), n);
      }
    });
    // The trailing matrix's lower triangle: A22 -= A21 A21ᵀ, a row panel at a time (with the
    // diagonal tile's upper half, which nothing reads).
    T* a22 = a + (k + b) * n + (k + b);
    for (int64_t p0 = 0; p0 < r; p0 += kSyrkPanel) {
      const int64_t p1 = std::min(r, p0 + kSyrkPanel);
      subtract_product(a22 + p0 * n, a21 + p0 * n, a21, true, p1 - p0, p1, b, n);
    }
  }
  return true;
}

// --- LU.

template <class T>
void blocked_lu(T* a, int64_t n, int32_t* pivots) {
  std::vector<T> panel(static_cast<size_t>(n * (std::min(kBlock, n) + 16)));
  for (int64_t k = 0; k < n; k += kBlock) {
    const int64_t b = std::min(kBlock, n - k), r = n - k - b;
    // The block column, factored in a copy whose rows are not a power of two apart: down a
    // column of the matrix itself (rows 8 KiB apart at n = 2048) every row falls in the same
    // cache sets, and the panel's column walks missed all the way to L3.
    const int64_t ld = b + 16;
    for (int64_t i = k; i < n; ++i) std::copy(a + i * n + k, a + i * n + k + b, panel.data() + (i - k) * ld);
    lu_panel(panel.data(), ld, n - k, b, int64_t{0}, b, pivots + k);
    for (int64_t i = k; i < n; ++i) std::copy(panel.data() + (i - k) * ld, panel.data() + (i - k) * ld + b, a + i * n + k);
    // Its row swaps across the rest of the matrix (LAPACK's laswp).
    for (int64_t j = k; j < k + b; ++j) {
      const int64_t q = pivots[j] += static_cast<int32_t>(k);
      if (q == j) continue;
      std::swap_ranges(a + j * n, a + j * n + k, a + q * n);
      std::swap_ranges(a + j * n + k + b, a + (j + 1) * n, a + q * n + k + b);
    }
    if (r == 0) break;
    // The block row beside: A12 ← L11⁻¹ A12, columns independent.
    T* a12 = a + k * n + k + b;
    parallel_for((r + kSolvePiece - 1) / kSolvePiece, 1, [&](int64_t lo, int64_t hi) {
      for (int64_t p = lo; p < hi; ++p) {
        const int64_t col = p * kSolvePiece;
        solve_left_unit_lower(a + k * n + k, b, a12 + col, std::min(kSolvePiece, r - col), n);
      }
    });
    // The trailing matrix: A22 -= A21 A12.
    subtract_product(a + (k + b) * n + k + b, a + (k + b) * n + k, a12, false, r, r, b, n);
  }
}

// --- Triangular solve (the primitive's every flag).

namespace {

// op(A), m×m, as blocks: a's rows lda apart; op is the transpose when `trans`.
template <class T>
struct Triangle {
  const T* a;
  int64_t lda;
  bool trans, lower, unit;  // lower: op(A)'s triangle

  // op(A)[r0 .., c0 ..] as a GEMM operand.
  Block<T> block(int64_t r0, int64_t c0) const {
    return trans ? Block<T>{a + c0 * lda + r0, lda, true} : Block<T>{a + r0 * lda + c0, lda, false};
  }
  // The diagonal block from k, `size` wide, as a triangle of its own.
  Triangle sub(int64_t k) const { return {a + k * lda + k, lda, trans, lower, unit}; }
};

// Eigen's solve on a small triangle, X (rows × cols, ldx apart) in place.
template <class T>
void solve_leaf(const Triangle<T>& t, int64_t m, T* x, int64_t rows, int64_t cols, int64_t ldx, bool left) {
  auto X = view(x, rows, cols, ldx);
  auto A = view(const_cast<T*>(t.a), m, m, t.lda);
  // Storage's triangle: op(A)'s, or the other one when op transposes.
  const bool stored_lower = t.lower != t.trans;
  auto run = [&](const auto& op, auto mode) {
    constexpr int Mode = decltype(mode)::value;
    if (left)
      op.template triangularView<Mode>().solveInPlace(X);
    else
      op.template triangularView<Mode>().template solveInPlace<Eigen::OnTheRight>(X);
  };
  auto with_mode = [&](const auto& op, bool lower) {
    if (lower && t.unit) return run(op, std::integral_constant<int, Eigen::UnitLower>());
    if (lower) return run(op, std::integral_constant<int, Eigen::Lower>());
    if (t.unit) return run(op, std::integral_constant<int, Eigen::UnitUpper>());
    run(op, std::integral_constant<int, Eigen::Upper>());
  };
  if (t.trans)
    with_mode(A.transpose(), !stored_lower);
  else
    with_mode(A, stored_lower);
}

constexpr int64_t kTrsmLeaf = 64;

// op(A) X = B (left; X m × cols) or X op(A) = B (right; X rows × m), X holding B on entry.
template <class T>
void trsm(const Triangle<T>& t, int64_t m, T* x, int64_t rows, int64_t cols, int64_t ldx, bool left) {
  if (m <= kTrsmLeaf) {
    // Independent right-hand sides across the pool, in pieces of a fixed size.
    const int64_t n = left ? cols : rows;
    parallel_for((n + kSolvePiece - 1) / kSolvePiece, 1, [&](int64_t lo, int64_t hi) {
      for (int64_t p = lo; p < hi; ++p) {
        const int64_t at = p * kSolvePiece, w = std::min(kSolvePiece, n - at);
        if (left)
          solve_leaf(t, m, x + at, m, w, ldx, true);
        else
          solve_leaf(t, m, x + at * ldx, w, m, ldx, false);
      }
    });
    return;
  }
  const int64_t m1 = m / 2, m2 = m - m1;
  const Triangle<T> t1 = t.sub(0), t2 = t.sub(m1);
  if (left) {  // X = [X1; X2] by rows
    T *x1 = x, *x2 = x + m1 * ldx;
    if (t.lower) {  // X1 = A11⁻¹ B1; B2 -= A21 X1; X2 = A22⁻¹ B2
      trsm(t1, m1, x1, m1, cols, ldx, true);
      subtract_product(x2, ldx, t.block(m1, 0), Block<T>{x1, ldx}, m2, cols, m1);
      trsm(t2, m2, x2, m2, cols, ldx, true);
    } else {  // X2 = A22⁻¹ B2; B1 -= A12 X2; X1 = A11⁻¹ B1
      trsm(t2, m2, x2, m2, cols, ldx, true);
      subtract_product(x1, ldx, t.block(0, m1), Block<T>{x2, ldx}, m1, cols, m2);
      trsm(t1, m1, x1, m1, cols, ldx, true);
    }
  } else {  // X = [X1 X2] by columns
    T *x1 = x, *x2 = x + m1;
    if (t.lower) {  // X2 = B2 A22⁻¹; B1 -= X2 A21; X1 = B1 A11⁻¹
      trsm(t2, m2, x2, rows, m2, ldx, false);
      subtract_product(x1, ldx, Block<T>{x2, ldx}, t.block(m1, 0), rows, m1, m2);
      trsm(t1, m1, x1, rows, m1, ldx, false);
    } else {  // X1 = B1 A11⁻¹; B2 -= X1 A12; X2 = B2 A22⁻¹
      trsm(t1, m1, x1, rows, m1, ldx, false);
      subtract_product(x2, ldx, Block<T>{x1, ldx}, t.block(0, m1), rows, m2, m1);
      trsm(t2, m2, x2, rows, m2, ldx, false);
    }
  }
}

}  // namespace

template <class T>
void blocked_triangular_solve(const T* a, T* x, int64_t m, int64_t rows, int64_t cols, bool left, bool lower,
                              bool transpose_a, bool unit) {
  const Triangle<T> t{a, m, transpose_a, lower != transpose_a, unit};
  trsm(t, m, x, rows, cols, cols, left);
}

template bool blocked_cholesky<float>(float*, int64_t);
template bool blocked_cholesky<double>(double*, int64_t);
template void blocked_lu<float>(float*, int64_t, int32_t*);
template void blocked_lu<double>(double*, int64_t, int32_t*);
template void blocked_triangular_solve<float>(const float*, float*, int64_t, int64_t, int64_t, bool, bool, bool, bool);
template void blocked_triangular_solve<double>(const double*, double*, int64_t, int64_t, int64_t, bool, bool, bool,
                                               bool);

}  // namespace strata::kernels
