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

// The derivative rules are written for real matrices: a complex x is refused, naming the
// primitive (ValueError).
void real_derivatives_only(const char* name, const Array& x);

// ---- Matrix helpers over the last two dimensions ----
Array mT(const Array& x);                      // swaps the last two dimensions
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
// The symmetric matrix a primitive that reads only the lower triangle sees: tril(x) +
// tril(x, -1)ᵀ (cholesky, eigh: their tangents), and its transpose tril(g) + tril(gᵀ, -1)
// (their cotangents). Both are the identity map on symmetric matrices.
Array sym_from_lower(const Array& x);
Array sym_from_lower_transpose(const Array& g);
Array triangular_solve(const Array& a, const Array& b, bool left_side, bool lower, bool transpose_a,
                       bool unit_diagonal);
Params triangular_solve_params(bool left_side, bool lower, bool transpose_a, bool unit_diagonal);

}  // namespace strata::linalg_prim
