// tracer/kernels/bidiagonal_values.h — singular values of a bidiagonal matrix by LAPACK's dqds
// (dlasq1-dlasq6: Fernando and Parlett 1994, Parlett and Marques 2000), the values-only path of
// svdvals after the bidiagonal reduction. dqds works on the squares of the entries (the qd array
// of BᵀB) with transforms that subtract no like-signed quantities, so every singular value, the
// tiny ones of a graded matrix included, comes out to high relative accuracy, in O(n²) work
// (Eigen's BDCSVD spends O(n³) on the dense matrix).
#pragma once

#include <cstdint>

namespace strata::kernels {

// Singular values of the n×n upper bidiagonal matrix with diagonal d[0, n) and superdiagonal
// e[0, n-1), descending, into s[0, n) (s may alias neither d nor e). The signs of d and e do not
// matter; the matrix is scaled as LAPACK does, so entries near the overflow or underflow
// thresholds are fine. The relative accuracy is LAPACK's: every value to about n ulps while the
// entries and the values span less than some 1e150; past that a value can now and then lose
// digits, just as it does in LAPACK's dlasq1. False when an entry is not finite or dqds did not
// converge (s unspecified).
bool bidiagonal_singular_values(int64_t n, const double* d, const double* e, double* s);

}  // namespace strata::kernels
