// tracer/kernels/blocked_linalg.h — Cholesky, LU and triangular solves of one large matrix as
// LAPACK blocks them (potrf, getrf with a recursive panel as getrf2, trsm), in place on
// row-major buffers, with the trailing updates (nearly all the flops) in strata's packed GEMM
// across the thread pool. Eigen's LLT, PartialPivLU and triangular solves run one matrix on
// one core at about half of the GEMM's speed or less;
// linalg.cpp calls these where blocked_linalg_suits() says so, Eigen elsewhere.
//
// The blocks and the split of every step into units are fixed sizes, never the thread count,
// so the result is the same bits on any number of threads (as packed_gemm's).
#pragma once

#include <cstdint>

namespace strata::kernels {

// Whether an n×n matrix is factored here: large enough to be worth the blocks, and the packed
// GEMM built (AVX-512).
bool blocked_linalg_suits(int64_t n);

// a (n×n, row-major) holds a symmetric matrix in its lower triangle; on return its lower
// triangle holds L (a = L Lᵀ) and its strictly upper triangle is unspecified. False (a left
// partly factored) when a leading block is not positive definite.
template <class T>
bool blocked_cholesky(T* a, int64_t n);

// P a = L U in place (L unit lower below the diagonal, U on and above), LAPACK's partial
// pivoting: pivots[i] is the row swapped with row i at step i (the first largest |value| of
// the column; a column of zeros is left as it is).
template <class T>
void blocked_lu(T* a, int64_t n, int32_t* pivots);

// op(a) x = b (left) or x op(a) = b, a m×m row-major with its triangle (lower or upper, as
// stored) read and the other ignored, op the transpose when transpose_a, a unit diagonal
// assumed when unit; x (rows × cols, row-major) holds b on entry and the solution on return.
// Recursive: the triangle halved, the halves' coupling one GEMM.
template <class T>
void blocked_triangular_solve(const T* a, T* x, int64_t m, int64_t rows, int64_t cols, bool left, bool lower,
                              bool transpose_a, bool unit);

}  // namespace strata::kernels
