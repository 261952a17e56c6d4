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

// "[1, 2]": how a list of ints appears in a message.
std::string list_string(const IntList& v);

}  // namespace strata::shape_rules
