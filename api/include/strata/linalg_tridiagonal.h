// strata/linalg_tridiagonal.h — tridiagonal systems and eigenproblems: jax.lax.linalg's
// tridiagonal_solve and jax.scipy.linalg.eigh_tridiagonal, in st::linalg.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "strata/array.h"
#include "strata/linalg.h"
#include "strata/ops.h"

namespace strata::linalg {

// jax.lax.linalg.tridiagonal_solve: X with A X = B for the tridiagonal A of each batch entry:
// dl, d, du [..., m] its lower, main and upper diagonals (dl[i] = A[i, i−1], du[i] = A[i, i+1];
// dl[0] and du[m−1] are ignored), b [..., m, n]; all of one float or complex dtype. Gaussian
// elimination with partial pivoting (LAPACK's gtsv, as JAX runs on CPU) as a scan down the rows
// and one back up. perturb_singular replaces pivots smaller than eps·max|A| by that size (same
// sign), so a singular system still gives a finite X (inverse iteration needs that); JAX scales
// by max|U| of the factorisation instead. Derivatives (jvp, grad in all four operands) come from
// A X = B through custom_linear_solve — the transposed system is solved the same way.
Array tridiagonal_solve(const Array& dl, const Array& d, const Array& du, const Array& b, bool perturb_singular = false,
                        SourceLocation loc = SourceLocation::current());

// jax.scipy.linalg.eigh_tridiagonal: the eigenvalues (ascending) of the real symmetric (or
// Hermitian) tridiagonal matrix with diagonal d [n] and off-diagonal e [n−1], by JAX's
// algorithm: bisection on Sturm sequence counts for all wanted eigenvalues at once, to the
// absolute tolerance max(tol, eps·‖T‖). select "a" (all) or "i" (indices select_range.first to
// .second, inclusive); "v" is not implemented (as in JAX: its size depends on the values).
Array eigvalsh_tridiagonal(const Array& d, const Array& e, const std::string& select = "a",
                           std::optional<std::pair<int64_t, int64_t>> select_range = std::nullopt,
                           std::optional<double> tol = std::nullopt, SourceLocation loc = SourceLocation::current());
// The same with the eigenvectors (columns of [n, k]), by JAX's inverse iteration: from random
// unit vectors drawn with `key` (default key(42), as JAX), at most five steps of
// tridiagonal_solve(T − λ I, v, perturb_singular), the vectors of eigenvalues closer than
// sqrt(eps)·‖T‖ orthonormalised together (QR) after each step.
EighResult eigh_tridiagonal(const Array& d, const Array& e, const std::string& select = "a",
                            std::optional<std::pair<int64_t, int64_t>> select_range = std::nullopt,
                            std::optional<double> tol = std::nullopt, std::optional<Array> key = std::nullopt,
                            SourceLocation loc = SourceLocation::current());

}  // namespace strata::linalg
