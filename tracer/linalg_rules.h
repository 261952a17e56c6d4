// tracer/linalg_rules.h — the decompositions of jax.lax.linalg (cholesky, triangular_solve, lu,
// qr, eigh, svd, eig, schur, hessenberg) as one family: their kinds, the bool params each takes (JAX's names) packed
// into flag bits, and their shape rules. Plain C++ shared by the primitives
// (tracer/primitives/linalg_*.cpp), the dialect's strata.linalg verifier, the lowering and the
// kernels (kernels/linalg.h). Messages follow shape_rules.h: "expects X, but got Y", no op name.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "strata/shape.h"

namespace strata::linalg_rules {

enum class Kind : int64_t {
  kCholesky = 0, kTriangularSolve = 1, kLu = 2, kQr = 3, kEigh = 4, kSvd = 5, kEig = 6, kSchur = 7, kHessenberg = 8
};

// Flag bits. triangular_solve: op(a) is a, aᵀ (transpose_a), conj(a) (conjugate_a) or aᴴ
// (both); left_side solves op(a) x = b, else x op(a) = b; only the `lower` (else upper) triangle
// of a is read, its diagonal taken as ones with unit_diagonal.
inline constexpr int64_t kLeftSide = 1, kLower = 2, kTransposeA = 4, kUnitDiagonal = 8, kConjugateA = 16;
// qr, svd.
inline constexpr int64_t kFullMatrices = 1, kComputeUv = 2;
// eig: which eigenvectors besides the eigenvalues.
inline constexpr int64_t kComputeLeft = 1, kComputeRight = 2;
// schur: the Schur vectors besides the Schur form.
inline constexpr int64_t kComputeSchurVectors = 1;

// The primitive's (and the op's `kind`) name, and back.
std::string_view kind_name(Kind k);
std::optional<Kind> kind_from_name(std::string_view name);

// The bool params of a kind (JAX's names) and the flag bit of each.
struct FlagParam {
  const char* name;
  int64_t bit;
};
std::span<const FlagParam> flag_params(Kind k);
size_t num_operands(Kind k);

// The result shapes; `index[i]` marks an i32 result (lu's pivots and permutation), `complex[i]`
// a complex one of the operands' real dtype (eig's), `real[i]` one of the operands' real dtype
// (eigh's eigenvalues, svd's singular values: real for complex operands too); the others have
// the operands' dtype.
struct Result {
  std::vector<Shape> shapes;
  std::vector<bool> index;
  std::vector<bool> complex;  // empty: none
  std::vector<bool> real;     // empty: none
  std::string error;  // empty on success
  bool ok() const { return error.empty(); }
};
Result shapes(Kind k, int64_t flags, std::span<const Shape> operands);

// The product of the leading (batch) dimensions of a rank >= 2 shape.
int64_t batch_size(const Shape& s);

}  // namespace strata::linalg_rules
