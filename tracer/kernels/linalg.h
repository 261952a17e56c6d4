// tracer/kernels/linalg.h — the decompositions of jax.lax.linalg on contiguous row-major
// buffers, through Eigen. Shared by the eager kernels (tracer/primitives/linalg_*.cpp) and the
// compiled code's runtime (backends/cpu, strata_rt_linalg), so both give the same bits.
#pragma once

#include <cstdint>

#include "linalg_rules.h"

namespace strata::kernels {

struct LinalgCall {
  linalg_rules::Kind kind;
  int64_t flags = 0;    // linalg_rules' flag bits
  bool f64 = false;     // f64 (or c128), else f32 (or c64)
  bool complex = false;  // c64/c128 operands
  int64_t batch = 1;    // matrices in the batch
  int64_t m = 0, n = 0;  // the first operand's matrices, m × n
  int64_t b_rows = 0, b_cols = 0;  // triangular_solve's b
};

// Fills the results (shapes and order of linalg_rules::shapes, i32 for lu's pivots and
// permutation, complex for eig's, real for eigh's eigenvalues and svd's singular values) from
// the operands. Never throws on any values: a non-finite operand or a decomposition that fails
// (cholesky of a matrix that is not positive definite) gives NaNs, a singular triangle
// inf/nan, as JAX. Batches split across the thread pool.
void linalg(const LinalgCall& call, const void* const* in, void* const* out);

}  // namespace strata::kernels
