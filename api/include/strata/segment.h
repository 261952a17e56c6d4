// strata/segment.h — segment reductions, as jax.ops': out[s] combines the rows data[i] (along
// the first axis) whose segment_ids[i] == s, for s in [0, num_segments). Scatter-adds (min,
// max, mul) into the combiner's identity, so empty segments hold 0 (sum), 1 (prod), -inf /
// the lowest integer (max) or +inf / the highest (min), and ids outside [0, num_segments) —
// negative ones too — are dropped, as JAX's. Differentiable, batchable and compiled like the
// scatters they are (graph networks: messages summed per receiving node).
#pragma once

#include <cstdint>
#include <optional>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata {

// num_segments is static (the result's size); without it, the ids must be concrete (not under
// jit, grad or vmap) and it is max(segment_ids) + 1, as jax.ops without num_segments.
Array segment_sum(const Array& data, const Array& segment_ids, std::optional<int64_t> num_segments = std::nullopt,
                  SourceLocation loc = SourceLocation::current());
Array segment_prod(const Array& data, const Array& segment_ids, std::optional<int64_t> num_segments = std::nullopt,
                   SourceLocation loc = SourceLocation::current());
Array segment_max(const Array& data, const Array& segment_ids, std::optional<int64_t> num_segments = std::nullopt,
                  SourceLocation loc = SourceLocation::current());
Array segment_min(const Array& data, const Array& segment_ids, std::optional<int64_t> num_segments = std::nullopt,
                  SourceLocation loc = SourceLocation::current());

}  // namespace strata
