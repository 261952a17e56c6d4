// tracer/kernels/bidiagonal_svd.h — the singular value decomposition of a bidiagonal matrix by
// Gu and Eisenstat's divide and conquer (LAPACK's dbdsdc: dlasd0-dlasd4), written anew for
// row-major blocks and strata's GEMM, as symmetric_eigen.cpp does for eigh: the halves'
// decompositions join through the secular equation of a rank-one update of their squared
// singular values (secular.h), vectors from Löwner's recomputed weights so they come out
// orthogonal, and one product with the halves' vectors per merge. Eigen's BDCSVD, which this
// replaces, runs the same algorithm on one core with its own (slower) secular solver.
#pragma once

#include <cstdint>

namespace strata::kernels {

// The n×n upper bidiagonal B with diagonal d[0, n) and superdiagonal e[0, n-1) = X diag(s) Yᵀ:
// s[0, n) descending, X and Y n×n row-major, their columns the left and right singular
// vectors. R is float or double: the vectors are built in R, the secular equations solved in
// double. False when a leaf's solver failed.
template <class R>
bool bidiagonal_svd(int64_t n, const double* d, const double* e, double* s, R* x, R* y);

}  // namespace strata::kernels
