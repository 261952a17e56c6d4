// strata/linalg.h — linear algebra (jax.numpy.linalg and jax.lax.linalg), batched over leading
// dimensions: a [..., m, n] is a batch of m × n matrices. f32, f64, c64 and c128 (integers and
// bools are promoted to a float first; f16/bf16 are refused with a DTypeError, as LAPACK has
// none). Complex matrices: every decomposition and function here, eagerly and compiled, with
// derivatives in JAX's convention (grad of a real loss is ∂L/∂x − i·∂L/∂y; st::holomorphic).
//
// The decompositions (cholesky, triangular_solve, lu, qr, eigh, svd, eig) are primitives: eager
// through Eigen, compiled as calls into the same code, differentiable (JAX's rules) and
// batchable. Everything else here is built from them, and differentiates through them.
//
// Numerical behaviour follows JAX: a matrix that is not positive definite gives a NaN-filled
// Cholesky factor; a singular matrix gives inf/nan from solve and inv, 0 from det (no error).
// Shapes that are not (square) matrices raise ShapeError naming the function.
//
// Derivatives of eigh and svd: the rules divide by differences of eigenvalues (of squared
// singular values), so at a repeated eigenvalue (singular value) the derivative of the
// eigenvectors (singular vectors) is not defined — it comes out inf/nan, as in JAX — while the
// derivative of the values themselves stays finite. A function that depends on the vectors only
// through a quantity invariant to the choice of basis of the degenerate subspace is still
// differentiable in exact arithmetic, but these rules do not see that. For svd, u and vt with
// m ≠ n also divide by the singular values (undefined at a zero one), and full_matrices=true is
// differentiable only for square matrices (as in JAX); qr for m >= n, full only when square.
// Complex eigen- and singular vectors are defined up to a phase per column: only functions of
// them that do not see that phase (|v|, v diag(f(w)) vᴴ, u diag(s) vᴴ) have derivatives.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata::linalg {

// The lower Cholesky factor L (L Lᴴ = a, zeros above the diagonal) of each symmetric (Hermitian)
// positive definite matrix [..., n, n]. With symmetrize_input, a is replaced by (a + aᴴ)/2 first (as
// jnp.linalg.cholesky; then the derivative is symmetric too); else only its lower triangle is read.
Array cholesky(const Array& a, bool symmetrize_input = true, SourceLocation loc = SourceLocation::current());

// jax.lax.linalg.triangular_solve: x with op(a) x = b (left_side) or x op(a) = b, where op(a) is
// a or aᵀ (transpose_a), conjugated with conjugate_a (aᴴ with both), reading only a's lower
// (else upper) triangle, its diagonal taken as ones with unit_diagonal. a [..., m, m],
// b [..., m, k] (left) or [..., k, m] (right), the same batch dimensions. The defaults are
// JAX's; conjugate_a comes last (JAX has it before unit_diagonal) so that positional calls
// written before it keep their meaning.
Array triangular_solve(const Array& a, const Array& b, bool left_side = false, bool lower = false,
                       bool transpose_a = false, bool unit_diagonal = false, bool conjugate_a = false,
                       SourceLocation loc = SourceLocation::current());

// jax.lax.linalg.lu: LU with partial pivoting of [..., m, n]. `lu` packs L (strictly below the
// diagonal, unit diagonal understood) and U; pivots [..., min(m, n)] i32 are LAPACK's row swaps
// (0-based); permutation [..., m] i32 gives a[permutation] = L U.
struct LuResult {
  Array lu, pivots, permutation;
};
LuResult lu(const Array& a, SourceLocation loc = SourceLocation::current());

// jnp.linalg.qr: q r = a with orthonormal (unitary) columns of q and upper-triangular r; reduced
// (q [..., m, k], r [..., k, n], k = min(m, n); mode="reduced") or full (q [..., m, m]).
struct QrResult {
  Array q, r;
};
QrResult qr(const Array& a, bool full_matrices = false, SourceLocation loc = SourceLocation::current());

// jnp.linalg.eigh: eigenvalues (ascending, [..., n], real: f32 for c64) and eigenvectors (the
// columns of [..., n, n]) of each symmetric (Hermitian) matrix; symmetrize_input as cholesky
// (else the lower triangle is read). See the caveat on derivatives above.
struct EighResult {
  Array eigenvalues, eigenvectors;
};
EighResult eigh(const Array& a, bool symmetrize_input = true, SourceLocation loc = SourceLocation::current());

// jnp.linalg.eig (and jax.lax.linalg.eig's flags): the eigenvalues w ([..., n], complex) of
// each general square matrix (real or complex) and its right eigenvectors (a v_j = w_j v_j, the columns of
// `eigenvectors` [..., n, n], complex, unit norm); with compute_left_eigenvectors also the left
// ones (u_jᴴ a = w_j u_jᴴ, `left_eigenvectors`); arrays not asked for are null. The order of the
// eigenvalues is the Schur form's, not sorted (may differ from LAPACK geev's). f32, c64 → c64;
// f64, c128 → c128.
// Differentiable in the eigenvalues only (as JAX): differentiating a function of the
// eigenvectors raises ValueError; use eigvals. Not on the cuda target (as JAX: CPU only).
struct EigResult {
  Array eigenvalues, eigenvectors, left_eigenvectors;
};
EigResult eig(const Array& a, bool compute_left_eigenvectors = false, bool compute_right_eigenvectors = true,
              SourceLocation loc = SourceLocation::current());
// jnp.linalg.eigvals: eig's eigenvalues alone.
Array eigvals(const Array& a, SourceLocation loc = SourceLocation::current());

// jnp.linalg.svd: a = u diag(s) vt, s descending [..., k] (real), vt = vᴴ. full_matrices (NumPy's default):
// u [..., m, m], vt [..., n, n]; else u [..., m, k], vt [..., k, n]. Without compute_uv only s
// is computed (u and vt are null Arrays). See the caveat on derivatives above.
struct SvdResult {
  Array u, s, vt;
};
SvdResult svd(const Array& a, bool full_matrices = true, bool compute_uv = true,
              SourceLocation loc = SourceLocation::current());
// The singular values alone (jnp.linalg.svdvals).
Array svdvals(const Array& a, SourceLocation loc = SourceLocation::current());

// jnp.linalg.solve: x with a x = b, a [..., n, n]; b [n] (a vector) or [..., n, k], the batch
// dimensions broadcast. Through LU with partial pivoting.
Array solve(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// The inverse of each square matrix (solve against the identity).
Array inv(const Array& a, SourceLocation loc = SourceLocation::current());
// The determinant of each square matrix, [...] (from LU).
Array det(const Array& a, SourceLocation loc = SourceLocation::current());
// jnp.linalg.slogdet: sign (±1, or det/|det| for complex; 0 for a singular matrix) and log|det|
// (real; -inf for singular).
struct SlogdetResult {
  Array sign, logabsdet;
};
SlogdetResult slogdet(const Array& a, SourceLocation loc = SourceLocation::current());

// jnp.linalg.lstsq for a [m, n] and b [m] or [m, k] (no batch, as JAX): x minimising |a x - b|,
// through the SVD; singular values below rcond · s_max count as zero (default rcond: eps ·
// max(m, n); negative: eps). residuals = |b - a x|² per column ([k], [1] for a vector b), rank
// (i32) and the singular values s.
struct LstsqResult {
  Array x, residuals, rank, s;
};
LstsqResult lstsq(const Array& a, const Array& b, std::optional<double> rcond = std::nullopt,
                  SourceLocation loc = SourceLocation::current());

// jnp.linalg.pinv: the Moore–Penrose pseudo-inverse [..., n, m] through the SVD; singular values
// at or below rtol · s_max count as zero (default rtol: 10 · max(m, n) · eps).
Array pinv(const Array& a, std::optional<double> rtol = std::nullopt, SourceLocation loc = SourceLocation::current());

// The order of a norm (jnp.linalg.norm's `ord`): none (the default: 2-norm of vectors,
// Frobenius of matrices), a number (vectors: p, inf, -inf, 0 counts nonzeros; matrices: 1, -1,
// 2, -2, inf, -inf), or "fro" / "nuc" (matrices).
struct NormOrd {
  enum Kind { kDefault, kNumber, kFro, kNuc };
  Kind kind = kDefault;
  double p = 0;
  NormOrd() = default;
  NormOrd(double value) : kind(kNumber), p(value) {}  // NOLINT
  NormOrd(int value) : kind(kNumber), p(value) {}     // NOLINT
  NormOrd(const char* name);                           // NOLINT: "fro" or "nuc"
};
// jnp.linalg.norm: with no axis, a vector norm of a 1-d x, a matrix norm of a 2-d x, or (ord
// none) the 2-norm of x flattened; one axis: vector norms along it; two axes: matrix norms over
// them. keepdims keeps the reduced axes with size 1.
Array norm(const Array& x, NormOrd ord = {}, std::optional<std::vector<int>> axis = std::nullopt,
           bool keepdims = false, SourceLocation loc = SourceLocation::current());

// jnp.linalg.matrix_power: a to the integer power n (repeated squaring; n < 0 inverts first,
// n = 0 gives identities).
Array matrix_power(const Array& a, int n, SourceLocation loc = SourceLocation::current());

// jnp.linalg.matrix_rank: the number (i32) of singular values above rtol · s_max (default
// rtol: max(m, n) · eps), per matrix.
Array matrix_rank(const Array& a, std::optional<double> rtol = std::nullopt, SourceLocation loc = SourceLocation::current());
// jnp.linalg.cond: the condition number, s_max / s_min for the default (2-norm) order, else
// norm(a, ord) · norm(inv(a), ord); inf for a singular matrix.
Array cond(const Array& a, NormOrd ord = {}, SourceLocation loc = SourceLocation::current());
// jnp.linalg.multi_dot: the product of the matrices in the cheapest order (NumPy's dynamic
// programme over the shapes); a 1-d first (last) operand is a row (column) vector.
Array multi_dot(const std::vector<Array>& arrays, SourceLocation loc = SourceLocation::current());
// jnp.linalg.eigvalsh: eigh's eigenvalues alone (ascending).
Array eigvalsh(const Array& a, SourceLocation loc = SourceLocation::current());

// ---- From jax.scipy.linalg ----
// scipy.linalg.block_diag: the arrays (0-d as 1 × 1, 1-d as one row) on the diagonal of a zero
// matrix, in one promoted dtype.
Array block_diag(const std::vector<Array>& blocks, SourceLocation loc = SourceLocation::current());
// scipy.linalg.toeplitz: the matrix with first column c and first row r (r[0] ignored; r
// defaults to conj(c)).
Array toeplitz(const Array& c, const std::optional<Array>& r = std::nullopt, SourceLocation loc = SourceLocation::current());
// scipy.linalg.solve_triangular: x with op(a) x = b for triangular a [..., n, n] (its lower
// triangle read when `lower`, else the upper), op(a) = a (trans 0), aᵀ (1) or aᴴ (2), its
// diagonal taken as ones with unit_diagonal; b [..., n] or [..., n, k].
Array solve_triangular(const Array& a, const Array& b, int trans = 0, bool lower = false, bool unit_diagonal = false,
                       SourceLocation loc = SourceLocation::current());
// scipy.linalg.cho_factor / cho_solve: the Cholesky factor of a symmetric (Hermitian) positive
// definite a (upper, a = Uᴴ U, unless `lower`: a = L Lᴴ; the other triangle zero), then x with
// a x = b from it by two triangular solves.
struct ChoFactor {
  Array c;
  bool lower = false;
};
ChoFactor cho_factor(const Array& a, bool lower = false, SourceLocation loc = SourceLocation::current());
Array cho_solve(const ChoFactor& factor, const Array& b, SourceLocation loc = SourceLocation::current());
// scipy.linalg.lu_factor / lu_solve: LU with partial pivoting (lu packs L and U, pivots are
// LAPACK's 0-based row swaps), then x with op(a) x = b (trans 0, 1: aᵀ, 2: aᴴ), b [..., n] or
// [..., n, k].
struct LuFactor {
  Array lu, pivots;
};
LuFactor lu_factor(const Array& a, SourceLocation loc = SourceLocation::current());
Array lu_solve(const LuFactor& factor, const Array& b, int trans = 0, SourceLocation loc = SourceLocation::current());
// jax.lax.linalg.lu_pivots_to_permutation: the row permutation [..., size] (i32) that the row
// swaps `pivots` [..., k] make of 0 .. size-1.
Array lu_pivots_to_permutation(const Array& pivots, int64_t size, SourceLocation loc = SourceLocation::current());
// scipy.linalg.expm: the matrix exponential of each square matrix [..., n, n], by scaling and
// squaring with a Padé approximant (Higham 2005, as JAX: degree 3 to 13 by the 1-norm for
// f64/c128, 3 to 7 for f32/c64); NaN when more than max_squarings squarings would be needed.
// Differentiable (through the solve, the products and the control flow).
Array expm(const Array& a, int max_squarings = 16, SourceLocation loc = SourceLocation::current());

}  // namespace strata::linalg
