// tracer/primitives/linalg_common.h — what the linear-algebra primitives (cholesky.cpp,
// triangular_solve.cpp, lu.cpp, qr.cpp, eigh.cpp, svd.cpp) share: their shape rule, eager kernel
// and batching rule (one family, linalg_rules.h), and the matrix helpers their derivative rules
// are written with (lax ops on batches of matrices [..., m, n], so they trace, jit and
// differentiate again).
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "../lax.h"
#include "../linalg_rules.h"
#include "../primitive.h"
#include "strata/errors.h"

namespace strata::linalg_prim {

using linalg_rules::Kind;

// The flag bits of a kind's bool params.
int64_t flags(Kind k, const Params& p);
std::vector<AbstractValue> rule(Kind k, std::span<const AbstractValue> in, const Params& p);
void kernel(Kind k, std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p);
// The batch dimension of each operand moved to the front (an unmapped one broadcast): the
// primitives are batched over leading dimensions already.
std::pair<std::vector<Array>, std::vector<int>> batch(const Primitive& prim, std::span<const Array> args,
                                                      std::span<const int> dims, const Params& p);

// The VJP of `prim` as the transpose of its JVP rule (linear in the tangents), traced as a
// program of the tangents and transposed by reverse mode, as JAX derives its linear-algebra
// VJPs. The complex matrices' VJPs are this: the pairing Re Σ a·b puts conjugates in places
// that hand-written transposes (the real rules) would each have to work out again.
std::vector<Array> transpose_of_jvp(const Primitive& prim, std::span<const Array> x, std::span<const Array> out,
                                    std::span<const Array> ct, const Params& p);

// The JVP and VJP of a decomposition JAX does not differentiate (schur, hessenberg): a
// ValueError with `Message`.
template <const char* Message>
std::vector<Array> refuse_to_differentiate(std::span<const Array>, std::span<const Array>, std::span<const Array>,
                                           const Params&) {
  throw ValueError(Message);
}

// ---- Matrix helpers over the last two dimensions ----
Array mT(const Array& x);                      // swaps the last two dimensions
Array mH(const Array& x);                      // mT, conjugated when complex
Array as_dtype_of(const Array& v, const Array& x);  // v converted to x's dtype if it differs
Array mm(const Array& a, const Array& b);      // batched a @ b
Array tril(const Array& x, int64_t k = 0);     // zero above diagonal k
Array triu(const Array& x, int64_t k = 0);     // zero below diagonal k
// The identity of x's trailing-matrix shape, rows × cols, broadcast over `batch` (x's dtype).
Array eye(const Shape& batch, int64_t rows, int64_t cols, DType dtype);
Array diagonal(const Array& x);               // [..., n, n] → [..., n] (min(m, n) for m × n)
Array diag_embed(const Array& v);             // [..., n] → [..., n, n]
// F[..., i, j] = 1 / d(x[..., j], x[..., i]) off the diagonal, 0 on it, for x [..., n]: the
// gap matrices of the eigh and svd rules (d elementwise on x broadcast to [..., n, n]).
Array off_diagonal_inverse(const Array& x, Array (*d)(const Array& xj, const Array& xi));
// x [..., m, n] times v [..., n] along columns (x diag(v)), or along rows (diag(v) x).
Array scale_cols(const Array& x, const Array& v);
Array scale_rows(const Array& x, const Array& v);
// The symmetric (Hermitian) matrix a primitive that reads only the lower triangle sees:
// tril(x) + tril(x, -1)ᵀ (cholesky, eigh: their tangents; complex: tril(x, -1) + its adjoint
// + the real part of the diagonal, as the kernels read it), and, for real x, its transpose
// tril(g) + tril(gᵀ, -1) (their cotangents). Both are the identity on symmetric matrices.
Array sym_from_lower(const Array& x);
Array sym_from_lower_transpose(const Array& g);
Array triangular_solve(const Array& a, const Array& b, bool left_side, bool lower, bool transpose_a,
                       bool unit_diagonal, bool conjugate_a = false);
Params triangular_solve_params(bool left_side, bool lower, bool transpose_a, bool unit_diagonal,
                               bool conjugate_a = false);

}  // namespace strata::linalg_prim
