// tracer/primitives/dynamic_slice_common.h — what dynamic_slice and dynamic_update_slice share:
// the check of their start-index operands and the clamping of the starts (JAX's semantics: each
// start moves so that the box stays inside the operand).
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "../array_impl.h"
#include "ad_rules.h"
#include "batch_rules.h"
#include "common.h"

namespace strata::dynamic_slicing {

// One 0-d i32 start a dimension of `x`.
inline void check_starts(std::string_view op, const AbstractValue& x, std::span<const AbstractValue> starts) {
  if (starts.size() != x.shape.size())
    throw ValueError(std::string(op) + ": expects " + std::to_string(x.shape.size()) + " start indices for " + x.str() +
                     " (one a dimension), but got " + std::to_string(starts.size()));
  for (const AbstractValue& s : starts)
    if (s.dtype != DType::i32 || !s.shape.empty())
      throw DTypeError(std::string(op) + ": expects 0-d i32 start indices, but got " + s.str());
}

// The starts read from the kernel's operands, each clamped to [0, dim - size].
inline std::vector<int64_t> clamped_starts(std::span<const KernelArg> starts, const Shape& operand, const Shape& box) {
  std::vector<int64_t> r(operand.size());
  for (size_t d = 0; d < operand.size(); ++d)
    r[d] = std::clamp<int64_t>(*starts[d].as<int32_t>(), 0, operand[d] - box[d]);
  return r;
}

inline void refuse_batched_starts(std::string_view op, std::span<const int> start_dims) {
  for (int d : start_dims)
    if (d != not_mapped)
      throw ValueError("vmap: `" + std::string(op) + "` with start indices that differ per example has no batching rule yet");
}

}  // namespace strata::dynamic_slicing
