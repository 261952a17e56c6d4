// tracer/shape_rules.h — the shape rules of the structural ops, as plain functions.
//
// Written once and shared: the tracer's primitives call them (and throw on failure), and the
// `strata` dialect's verifiers call them (and emit an op error). No MLIR, no exceptions.
// Messages follow one pattern, "expects X, but got Y", and never name the op: each caller adds
// its own prefix.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "strata/shape.h"

namespace strata::shape_rules {

using IntList = std::vector<int64_t>;

struct Result {
  Shape shape;
  std::string error;  // empty on success
  bool ok() const { return error.empty(); }
};

// NumPy broadcasting of two shapes (used by the API, not by the primitives).
Result broadcast_shapes(const Shape& a, const Shape& b);
// Elementwise operands: all of one shape, except that 0-d operands broadcast.
Result elementwise(std::span<const Shape> operands);
// StableHLO broadcast_in_dim: operand dim i maps to result dim dims[i] (size equal or 1).
Result broadcast_in_dim(const Shape& operand, const Shape& result, const IntList& dims);
Result reshape(const Shape& operand, const Shape& result);
Result transpose(const Shape& operand, const IntList& permutation);
Result slice(const Shape& operand, const IntList& start, const IntList& limit,
             const IntList& strides);
Result concatenate(std::span<const Shape> operands, int64_t dimension);
// Removes `axes` (distinct, in range) from the operand's shape.
Result reduce(const Shape& operand, const IntList& axes);
Result argmax(const Shape& operand, int64_t axis);
// Result dims: batch dims, then lhs free dims, then rhs free dims (StableHLO order).
Result dot_general(const Shape& lhs, const Shape& rhs, const IntList& lhs_batch,
                   const IntList& rhs_batch, const IntList& lhs_contract,
                   const IntList& rhs_contract);
Result iota(const Shape& shape, int64_t dimension);
// StableHLO pad with non-negative low, high and interior padding per dimension.
Result pad(const Shape& operand, const IntList& low, const IntList& high, const IntList& interior);

// ---- Convolution and pooling (issue 13) ----
// jax.lax.conv_general_dilated's parameters. The specs are JAX's ConvDimensionNumbers: for
// lhs and out [batch, feature, spatial...], for rhs [out feature, in feature, spatial...],
// each entry the array dimension holding it.
struct ConvParams {
  IntList window_strides, padding_low, padding_high, lhs_dilation, rhs_dilation;
  IntList lhs_spec, rhs_spec, out_spec;
  int64_t feature_group_count = 1, batch_group_count = 1;
};
// The result shape; padding may be negative (it then crops), as in StableHLO.
Result conv_general_dilated(const Shape& lhs, const Shape& rhs, const ConvParams& p);
// jax.lax.rev: `dimensions` distinct and in range; the shape is the operand's.
Result rev(const Shape& operand, const IntList& dimensions);
// 1 + (size - 1) * dilation, or 0 for an empty dimension (lax._dilate_shape).
inline int64_t dilated_size(int64_t size, int64_t dilation) {
  return size == 0 ? 0 : 1 + (size - 1) * dilation;
}

// ---- Sorting (issue 13) ----
// jax.lax.sort / StableHLO sort: at least one operand, all of one shape of rank >= 1,
// `dimension` in range, 1 <= num_keys <= operands (num_keys < 0: not checked, StableHLO's op
// has a comparator instead).
Result sort(std::span<const Shape> operands, int64_t dimension, int64_t num_keys = -1);

// "[1, 2]": how a list of ints appears in a message.
std::string list_string(const IntList& v);

}  // namespace strata::shape_rules
