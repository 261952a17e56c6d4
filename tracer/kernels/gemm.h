// tracer/kernels/gemm.h — dot_general on contiguous arrays: a batched GEMM over the thread pool
// (packed_gemm.h's for f32/f64 where it suits, Eigen's otherwise). Shared by the eager kernel
// (tracer/primitives/dot_general.cpp) and the compiled code's runtime GEMM (backends/cpu), so
// that both compute the same bits.
#pragma once

#include <cstdint>

#include "../params.h"
#include "strata/dtype.h"
#include "strata/shape.h"

namespace strata::kernels {

// The operands' shapes and StableHLO's dimension numbers.
struct DotGeneralDims {
  Shape lhs, rhs;
  IntList lhs_batch, rhs_batch, lhs_contract, rhs_contract;
};

// Bytes of workspace dot_general needs: copies of operands whose layout GEMM cannot read in
// place, and f32 buffers for bf16/f16 (widened, multiplied, rounded once on store).
int64_t dot_general_workspace_bytes(DType dtype, const DotGeneralDims& dims);

// out (batch, lhs free, rhs free; contiguous) = the contraction of lhs and rhs (contiguous,
// of `dtype`). `workspace` holds dot_general_workspace_bytes (64-byte aligned), or is null to
// allocate it here. `parallel` splits the batches, or the larger of M and N, across the pool.
void dot_general(DType dtype, const void* lhs, const void* rhs, void* out,
                 const DotGeneralDims& dims, void* workspace, bool parallel = true);

}  // namespace strata::kernels
