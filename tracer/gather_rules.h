// tracer/gather_rules.h — the shape rules of gather and scatter (StableHLO's dimension
// numbers), shared by the tracer's primitives and the dialect's verifiers like shape_rules.h.
// No MLIR, no exceptions; messages follow "expects X, but got Y" and never name the op.
#pragma once

#include "shape_rules.h"

namespace strata::shape_rules {

// StableHLO's gather dimension numbers (JAX's GatherDimensionNumbers without batching dims).
// The indices' dimension `index_vector_dim` holds the index vectors (index_vector_dim equal to
// the indices' rank: each index is a scalar); its other dimensions are the batch dimensions.
struct GatherDims {
  IntList offset_dims;           // result dims holding the slice's (non-collapsed) dims
  IntList collapsed_slice_dims;  // operand dims of slice size 1 that the result drops
  IntList start_index_map;       // the operand dim each index-vector entry starts
  int64_t index_vector_dim = 0;
};
// The result shape: batch dims of the indices with the slice's dims at `offset_dims`.
Result gather(const Shape& operand, const Shape& indices, const GatherDims& dims, const IntList& slice_sizes);

// StableHLO's scatter dimension numbers.
struct ScatterDims {
  IntList update_window_dims;            // update dims holding the window's dims
  IntList inserted_window_dims;          // operand dims of window size 1 the updates omit
  IntList scatter_dims_to_operand_dims;  // the operand dim each index-vector entry starts
  int64_t index_vector_dim = 0;
};
// The result shape (the operand's) when the updates fit the indices and the operand.
Result scatter(const Shape& operand, const Shape& indices, const Shape& updates, const ScatterDims& dims);

}  // namespace strata::shape_rules
