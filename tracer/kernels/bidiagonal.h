// tracer/kernels/bidiagonal.h — the reduction of a real matrix to upper bidiagonal form by
// Householder reflections from both sides (LAPACK's gebrd with dlabrd's panels), row-major,
// f32/f64: the first step of an SVD. Eigen's UpperBidiagonalization runs on one core; here each
// panel of 32 reflection pairs reaches the rest of the matrix through two GEMMs across the
// pool, and only the panel's two matrix-vector products per step stream the trailing matrix
// (split across the pool, each sum in an order that does not depend on the split).
#pragma once

#include <cstdint>

namespace strata::kernels {

// a (m×n, row-major, m ≥ n) ← Qᵀ a P = B, upper bidiagonal: diagonal d[0, n), superdiagonal
// e[0, n-1) (in double, as the bidiagonal solvers take them). Q = H_0 ⋯ H_{n-1}, H_i = I -
// tauq[i] v_i v_iᵀ with v_i = (0, .., 0, 1, a[i+1][i], .., a[m-1][i]); P = G_0 ⋯ G_{n-2}, G_i =
// I - taup[i] u_i u_iᵀ with u_i = (0, .., 0, 1 at i + 1, a[i][i+2], .., a[i][n-1]) (LAPACK's
// storage, transposed). The caller scales a so that squared column norms cannot overflow or
// underflow (scaling_exponent). The same bits on one thread as across the pool.
template <class T>
void bidiagonalize(T* a, int64_t m, int64_t n, double* d, double* e, T* tauq, T* taup);

// Whether a real m×n svd goes through singular_values / singular_value_decomposition below
// (with vectors when `uv`): for smaller ones Eigen's BDCSVD (one-sided Jacobi below 16) costs
// less (measured f32: 3×3 values 0.5 µs against 1.0, 16² with vectors 39 µs against 60; even at
// 32² with vectors and 8² without).
bool svd_by_bidiagonalization_suits(int64_t m, int64_t n, bool uv);

// The singular values of a (m×n, row-major, real) descending into s[0, min(m, n)): scaled by a
// power of two where needed, reduced to bidiagonal form (through a QR factorization first when
// it is at least twice as tall as wide, or twice as wide as tall, as LAPACK's gesdd), then
// dqds (bidiagonal_values.h). False when dqds did not converge.
template <class T>
bool singular_values(const T* a, int64_t m, int64_t n, T* s);

// a (m×n, row-major, real) = u diag(s) vt as LAPACK's gesdd: s[0, k) descending (k = min(m,
// n)), u m×m and vt n×n with `full`, else m×k and k×n. Scaled by a power of two where needed,
// through a QR factorization first when at least twice as tall as wide (a wide matrix through
// its transpose), reduced to bidiagonal form, bidiagonal_svd.h's divide and conquer, and the
// reflections applied to its vectors. False when the divide and conquer failed.
template <class T>
bool singular_value_decomposition(const T* a, int64_t m, int64_t n, T* s, T* u, T* vt, bool full);

}  // namespace strata::kernels
