// tracer/kernels/complex_hessenberg.h — the reduction of a general complex matrix to upper
// Hessenberg form by blocked Householder reflections (LAPACK's zgehrd with zlahr2's panels, and
// zunghr for the reflections' product), the complex counterpart of hessenberg.h. Eigen's
// HessenbergDecomposition applies one reflection at a time from both sides on one core
// (matrix-vector bound: 41 ms at c64 512² with Q, against 18 here on 2 threads; 1211 against 270
// at c128 1024²); here each panel of reflections reaches the rest of the matrix through real
// GEMMs across the pool, and only the panel's matrix-vector products stream the trailing
// matrix. Eigen's stays the faster below about 150 rows (c64) or 100 (c128). Row-major.
#pragma once

#include <complex>
#include <cstdint>

namespace strata::kernels {

// a (n×n, row-major, |entries| ≤ 1: the caller scales) ← H = Qᴴ a Q, upper Hessenberg with
// exact zeros below the subdiagonal, Q the product of n − 2 reflections I − τ v vᴴ. qt, when
// not null, gets Qᵀ (row j = Q's column j, not conjugated), n×n row-major. The same bits on one
// thread as across the pool, wherever the buffers lie.
template <class T>
void complex_hessenberg(std::complex<T>* a, std::complex<T>* qt, int64_t n);

// Whether an n×n matrix of std::complex<T> goes through complex_hessenberg rather than Eigen's
// reduction (measured with Q: c64 128² 0.85 against 0.89 ms, 160² 1.53 against 1.41; c128 96²
// 0.83 against 0.74).
template <class T>
bool complex_hessenberg_suits(int64_t n) {
  return n >= (sizeof(T) == 4 ? 160 : 112);
}

}  // namespace strata::kernels
