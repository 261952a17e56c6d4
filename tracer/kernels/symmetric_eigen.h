// tracer/kernels/symmetric_eigen.h — eigh of one large symmetric (Hermitian) matrix as LAPACK's
// syevd does it: Householder tridiagonalization, Cuppen's divide and conquer on the tridiagonal
// matrix (LAPACK's stedc: dlaed0-dlaed4, with Gu and Eisenstat's recomputed weights so the
// vectors come out orthogonal), and the reflections applied to its eigenvectors. Eigen's
// SelfAdjointEigenSolver accumulates every QR rotation into the vectors (about 9n³ flops, each
// rotation one pass over two columns): 250 ms at n = 1024 where JAX (LAPACK) takes 85. Divide
// and conquer puts the vectors' work into GEMMs (strata's packed GEMM across the pool), and
// deflation leaves out most of it.
#pragma once

#include <cstdint>

namespace strata::kernels {

// Whether an n×n eigh goes through divide and conquer (smaller ones stay with Eigen's QR, which
// the merges' set-up does not beat).
bool symmetric_eigen_suits(int64_t n);

// Eigenvalues (ascending) and eigenvectors of the symmetric tridiagonal matrix with diagonal
// d[0, n) and off-diagonal e[0, n-1): w[0, n) and z (n×n, row-major, vector j in column j).
// R is float or double: the vectors are built in R, the eigenvalues and the secular equations
// are solved in double. False when a leaf's QR iteration did not converge.
template <class R>
bool tridiagonal_eigen(int64_t n, const double* d, const double* e, double* w, R* z);

// a (n×n, row-major, the lower triangle read) = v diag(w) vᴴ: w ascending, v's columns the
// eigenvectors (row-major). T: float, double or std::complex of them; W its real type. False
// when the iteration did not converge (v, w unspecified).
template <class T, class W>
bool symmetric_eigen(const T* a, T* v, W* w, int64_t n);

}  // namespace strata::kernels
