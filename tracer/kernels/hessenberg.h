// tracer/kernels/hessenberg.h — the reduction of a general real matrix to upper Hessenberg form
// by blocked Householder reflections (LAPACK's gehrd with dlahr2's panels, and orghr for the
// reflections' product). Row-major, f32/f64. Eigen's HessenbergDecomposition applies one
// reflection at a time from both sides on one core (231 ms at 1024² f32 with Q, against 81
// here on 2 threads); here each panel of reflections reaches the rest of the matrix through GEMMs
// across the pool, and only the panel's matrix-vector products stream the trailing matrix.
#pragma once

#include <cstdint>

namespace strata::kernels {

// a (n×n, row-major) ← H = Qᵀ a Q, upper Hessenberg (zeros below the subdiagonal), Q the
// product of n - 2 reflections. q, when not null, gets Q (n×n, row-major), or Qᵀ (Q's columns
// as rows) with `transpose_q`. The caller scales a so that the reflections' squared norms
// cannot overflow (|a| ≤ 1 is safe). The same bits on one thread as across the pool, wherever
// the buffers lie.
template <class T>
void hessenberg(T* a, T* q, int64_t n, bool transpose_q);

}  // namespace strata::kernels
