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
#include "strata/composites.h"
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

// jax.scipy.linalg.schur: a = z t zᴴ with z unitary; output "real" (for real a: t
// quasi-upper-triangular, a 2×2 diagonal block per complex conjugate eigenvalue pair) or
// "complex" (t upper triangular; a real a is made complex first). Each 2×2 block is in LAPACK's
// standard form (equal diagonal entries, b·c < 0: dlanv2), but the form is not unique: the
// eigenvalues' order on the diagonal and signs may differ from scipy's. The `schur` primitive; CPU only and not differentiable, as in JAX.
struct SchurResult {
  Array t, z;
};
SchurResult schur(const Array& a, const std::string& output = "real", SourceLocation loc = SourceLocation::current());
// jax.scipy.linalg.hessenberg (with calc_q): a = q h qᴴ, h zero below the first subdiagonal, q
// unitary (Householder reflections). The `hessenberg` primitive; CPU only, not differentiable.
struct HessenbergResult {
  Array h, q;
};
HessenbergResult hessenberg(const Array& a, SourceLocation loc = SourceLocation::current());

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

// jnp.linalg.vector_norm: the ord-norm of x's elements over `axis` (one or several axes taken
// as one vector; all when unset): 2 (default), inf, -inf, 0 (nonzeros), 1 or any p.
Array vector_norm(const Array& x, NormOrd ord = 2, std::optional<std::vector<int>> axis = std::nullopt,
                  bool keepdims = false, SourceLocation loc = SourceLocation::current());
// jnp.linalg.matrix_norm: norm over the last two axes ("fro" by default).
Array matrix_norm(const Array& x, NormOrd ord = "fro", bool keepdims = false,
                  SourceLocation loc = SourceLocation::current());
// jnp.linalg.tensorinv: the inverse of a as a map from its first `ind` dimensions to the
// others; the result has shape (others..., first...).
Array tensorinv(const Array& a, int ind = 2, SourceLocation loc = SourceLocation::current());
// jnp.linalg.tensorsolve: x with tensordot(a, x, x.ndim) = b; `axes` of a are first moved to
// the end (NumPy's order).
Array tensorsolve(const Array& a, const Array& b, std::optional<std::vector<int>> axes = std::nullopt,
                  SourceLocation loc = SourceLocation::current());

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
// Special matrices (scipy.linalg's, as JAX 0.10 has them). The ones built from vectors are
// batched over the vectors' leading dimensions (broadcast together): c [..., m] → [..., m, n].
// toeplitz: first column c, first row r (r[0] ignored; r defaults to conj(c)).
Array toeplitz(const Array& c, const std::optional<Array>& r = std::nullopt, SourceLocation loc = SourceLocation::current());
// hankel: first column c, last row r (r[0] ignored; r defaults to zeros): element (i, j) is
// (c ++ r[1:])[i + j].
Array hankel(const Array& c, const std::optional<Array>& r = std::nullopt, SourceLocation loc = SourceLocation::current());
// circulant: element (i, j) is c[(i - j) mod n].
Array circulant(const Array& c, SourceLocation loc = SourceLocation::current());
// leslie: fecundities f [..., n] in the first row, survival rates s [..., n-1] below the diagonal.
Array leslie(const Array& f, const Array& s, SourceLocation loc = SourceLocation::current());
// companion: the companion matrix of the polynomial a[0] x^(n-1) + ... + a[n-1] (first row
// -a[1:]/a[0], ones below the diagonal); floats.
Array companion(const Array& a, SourceLocation loc = SourceLocation::current());
// fiedler: |a[i] - a[j]|.
Array fiedler(const Array& a, SourceLocation loc = SourceLocation::current());
// fiedler_companion: Fiedler's pentadiagonal companion matrix of the polynomial a (same
// eigenvalues as companion(a)); floats.
Array fiedler_companion(const Array& a, SourceLocation loc = SourceLocation::current());
// convolution_matrix: the Toeplitz matrix A with A @ v = np.convolve(a, v, mode) for v of n
// elements; mode "full", "valid" or "same".
Array convolution_matrix(const Array& a, int64_t n, const std::string& mode = "full",
                         SourceLocation loc = SourceLocation::current());
// hilbert: 1 / (i + j + 1) (f64); invhilbert: its inverse (f64, through comb; for large n the
// entries exceed f64's exact integers, as in JAX).
Array hilbert(int64_t n);
Array invhilbert(int64_t n);
// pascal: the binomial coefficients — "symmetric" (L Lᵀ), "lower" (L[i, j] = C(i, j)) or
// "upper" (Lᵀ); f32 as JAX's (through lgamma, so large entries are rounded). invpascal: the
// inverse of each (f64).
Array pascal(int64_t n, const std::string& kind = "symmetric");
Array invpascal(int64_t n, const std::string& kind = "symmetric");
// helmert: the (n-1) × n Helmert matrix (with full, n × n: the first row 1/√n).
Array helmert(int64_t n, bool full = false);
// hadamard: the n × n Sylvester Hadamard matrix (n a power of 2) of ±1.
Array hadamard(int64_t n, DType dtype = i64);
// dft: the n-point DFT matrix exp(-2πi jk/n) (dft(n) @ x = fft(x)); scale "" (none), "sqrtn"
// or "n" divides it by √n or n.
Array dft(int64_t n, const std::string& scale = "", DType dtype = c128);
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
// ---- Matrix functions and equations on the Schur form (jax.scipy.linalg) ----
// rsf2csf: the complex Schur form (t upper triangular, complex) from a real one (t, z) of
// schur(a, "real"), by one Givens rotation per 2×2 block (the eigenvalue with positive
// imaginary part first, as LAPACK orders them). Batched.
SchurResult rsf2csf(const Array& t, const Array& z, SourceLocation loc = SourceLocation::current());
// sqrtm: the principal square root (complex, as JAX's) of each square matrix, through the
// complex Schur form and Björck–Hammarling's recurrence, one superdiagonal at a time.
Array sqrtm(const Array& a, SourceLocation loc = SourceLocation::current());
// funm: the matrix function f(a) (complex) of one square matrix, through the complex Schur form
// and Parlett's recurrence (Golub & Van Loan, algorithm 11.1.1): `func` maps the eigenvalues
// [n] (an Array) to f of each. Inaccurate for close eigenvalues, as scipy's.
namespace detail {
SchurResult funm_schur(const Array& a, const SourceLocation& loc);
Array funm_parlett(const SchurResult& s, const Array& f_of_eigenvalues, const SourceLocation& loc);
}  // namespace detail
template <class F>
Array funm(const Array& a, F func, SourceLocation loc = SourceLocation::current()) {
  SchurResult s = detail::funm_schur(a, loc);
  return detail::funm_parlett(s, Array(func(diagonal(s.t, 0, -2, -1))), loc);
}
// polar: a = u p with u having orthonormal columns (rows) and p Hermitian positive
// semi-definite, side "right" (a [m, n] → u [m, n], p [n, n]) or "left" (a = p u, p [m, m]),
// through the SVD; differentiable. JAX's default method "qdwh" gives the same u and p; only
// "svd" is computed here (method "qdwh" is refused).
struct PolarResult {
  Array u, p;
};
PolarResult polar(const Array& a, const std::string& side = "right", const std::string& method = "svd",
                  SourceLocation loc = SourceLocation::current());
// solve_sylvester: x with a x + x b = c, a [..., m, m], b [..., n, n], c [..., m, n]: method
// "schur" (Bartels–Stewart, on the complex Schur forms of a and bᴴ) or "eigen" (through the
// eigendecompositions); real when a, b and c are. NaN when some eigenvalue sum λ_a + λ_b is
// below tol in modulus (no unique solution), as JAX.
Array solve_sylvester(const Array& a, const Array& b, const Array& c, const std::string& method = "schur",
                      double tol = 1e-8, SourceLocation loc = SourceLocation::current());

// scipy.linalg.expm: the matrix exponential of each square matrix [..., n, n], by scaling and
// squaring with a Padé approximant (Higham 2005, as JAX: degree 3 to 13 by the 1-norm for
// f64/c128, 3 to 7 for f32/c64); NaN when more than max_squarings squarings would be needed.
// Differentiable (through the solve, the products and the control flow).
Array expm(const Array& a, int max_squarings = 16, SourceLocation loc = SourceLocation::current());

// scipy.linalg.expm_frechet (JAX's): expm(a) and its Fréchet derivative in the direction e
// (both [..., n, n]), L(a, e) = d/dt expm(a + t e) at 0 — the forward-mode derivative of expm.
struct ExpmFrechetResult {
  Array expm, frechet;
};
ExpmFrechetResult expm_frechet(const Array& a, const Array& e, SourceLocation loc = SourceLocation::current());

}  // namespace strata::linalg
