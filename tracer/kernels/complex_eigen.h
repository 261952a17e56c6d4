// tracer/kernels/complex_eigen.h — the Schur form and eigenvectors of a general complex matrix,
// as LAPACK's zgees/zgeev: Hessenberg reduction (Eigen's, for now), zlaqr0's QR iteration
// (complex_schur.cpp: single-shift sweeps on small blocks, aggressive early deflation and
// multishift sweeps through GEMMs on large ones), ztrevc's substitutions. Row-major, c64/c128.
// Eigen's ComplexSchur, which these replace, applies each rotation down strided columns of a
// column-major matrix (77% of its time at 256² in apply_rotation_in_the_plane); here the
// reflections from the left run along rows, and those from the right reach the rows above the
// bulges once per sweep or slab, along the rows too.
#pragma once

#include <complex>
#include <cstdint>

namespace strata::kernels {

// LAPACK's zlaqr0 with wantz (ilo = 0, ihi = n − 1) on h (n×n, row-major, upper Hessenberg;
// what lies below the subdiagonal is ignored and zeroed): w gets the eigenvalues and, with
// want_t, h becomes the upper triangular T with h = Q T Qᴴ (w its diagonal); without it only
// the active blocks are transformed and h is left unspecified. zt, when not null (then want_t),
// holds Zᵀ (Z's columns as rows, not conjugated) of some unitary Z, updated to Zᵀ of Z·Q.
// False when it did not converge (30 n iterations per eigenvalue).
template <class T>
bool complex_schur(std::complex<T>* h, std::complex<T>* zt, std::complex<T>* w, int64_t n, bool want_t);

// a = z t zᴴ (a, t, z n×n, row-major; z may be null): t upper triangular (exact zeros below
// the diagonal), z unitary. False when the QR iteration did not converge.
template <class T>
bool complex_schur_form(const std::complex<T>* a, std::complex<T>* t, std::complex<T>* z, int64_t n);

// The eigenvalues w of a (n×n, row-major, finite) in the Schur form's order and, when not null,
// its right eigenvectors (row j of vt: a v_j = w_j v_j) and left ones (row j of ut: u_jᴴ a = w_j
// u_jᴴ), by ztrevc's back and forward substitution on T (finite for a defective matrix too).
// Not normalized, not balanced. False when the QR iteration did not converge. The same bits on
// one thread as across the pool, wherever the buffers lie.
template <class T>
bool complex_eigen(const std::complex<T>* a, std::complex<T>* w, std::complex<T>* vt, std::complex<T>* ut, int64_t n);

}  // namespace strata::kernels
