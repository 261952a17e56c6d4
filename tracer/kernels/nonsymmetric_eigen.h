// tracer/kernels/nonsymmetric_eigen.h — eig of a general real matrix as LAPACK's geev does it:
// balancing (dgebal: permutations isolating eigenvalues, power-of-two scaling), the Hessenberg
// reduction (hessenberg.h, blocked as gehrd), the real Schur form by the QR iteration (dlahqr:
// Ahues and Tisseur's deflation test, exceptional shifts, each converged 2×2 block in dlanv2's
// standard form; large active blocks chase 12 bulges per sweep as dlaqr5, their reflections
// reaching the rest of the matrix through GEMMs), the eigenvectors of the quasi-triangular
// form by back substitution (dtrevc), taken back through the Schur vectors by one GEMM and
// through the balancing (dgebak). Eigen's RealSchur applies each 3-element reflector through
// its general Householder code (its set-up is most of the time at n = 256), and its
// eigenvectors come from a scalar back substitution and a triangular product: 62 ms at 256²
// where JAX (LAPACK) takes 17.5.
#pragma once

#include <cstdint>

namespace strata::kernels {

// The QR iteration (LAPACK's dlahqr; from 96 active rows, multishift sweeps as dlaqr5's
// without aggressive early deflation) on the upper Hessenberg h (n×n, row-major;
// what lies below the subdiagonal is ignored and zeroed): h becomes the real Schur form T
// (quasi-upper-triangular, 2×2 blocks standard) when want_t, else only its eigenvalues are
// sure; wr + i·wi are the eigenvalues in the order of T's diagonal (a complex pair with the
// positive imaginary part first). zt, when not null, is Zᵀ (row-major: Z's columns as rows)
// of some orthogonal Z, updated to Zᵀ of Z·Q where h = Q T Qᵀ. False when it did not
// converge (30 n iterations).
template <class T>
bool real_schur(T* h, T* zt, T* wr, T* wi, int64_t n, bool want_t);

// LAPACK's dtrexc for a block moving up: the diagonal block of the real Schur form t (n×n,
// row-major, standard 2×2 blocks) at row ifst (either row of a 2×2 block) moved up to start at
// row ilst ≤ ifst (a block's first row) by swaps with the blocks above it (dlaexc: a rotation for
// two 1×1 blocks, else reflections from the blocks' Sylvester equation, the moved 2×2 blocks
// standardized again), each an orthogonal similarity also applied to the rows of zt (Zᵀ) when not
// null. A swap that would perturb the blocks by more than 10·ulp·max|block| (nearly equal
// eigenvalues, strongly coupled) is refused and the block stays there. Returns the row the block
// starts at: ilst, or where a refused swap left it. The aggressive early deflation moves blocks
// that have not converged out of the way with it.
template <class T>
int64_t move_block_up(T* t, T* zt, int64_t n, int64_t ifst, int64_t ilst);

// The real Schur decomposition a = z t zᵀ (a, t, z n×n, row-major; z may be null): t
// quasi-upper-triangular with standard 2×2 blocks (zeros below them), z orthogonal. Not
// balanced (a scaling would not be orthogonal; gees permutes only). False when the QR
// iteration did not converge.
template <class T>
bool real_schur_form(const T* a, T* t, T* z, int64_t n);

// The eigenvalues wr + i·wi of a (n×n, row-major, finite) and, when vt is not null, its right
// eigenvectors as LAPACK's geev stores them: row j of vt (n×n) is eigenvector j for a real
// eigenvalue; for a complex pair j, j + 1, rows j and j + 1 are the real and imaginary parts of
// the vector of w_j (w_{j+1}'s is its conjugate). ut, when not null, gets the left eigenvectors
// (uᴴ a = w uᴴ) the same way, as geev's VL (dtrevc's forward substitution: finite for a
// defective matrix too). Not normalized. Balanced first, as geev's job 'B'. False when the QR
// iteration did not converge. The same bits on one thread as across the pool, wherever the
// buffers lie.
template <class T>
bool nonsymmetric_eigen(const T* a, T* wr, T* wi, T* vt, int64_t n, T* ut = nullptr);

}  // namespace strata::kernels
