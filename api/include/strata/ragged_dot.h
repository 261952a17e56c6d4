// strata/ragged_dot.h — jax.lax.ragged_dot, the grouped matmul of mixture-of-experts layers:
// lhs [m, k] holds consecutive groups of rows (group_sizes [g], integers), and the rows of group
// i are multiplied by rhs[i] ([g, k, n]); rows past the last group give zeros. Computed as JAX
// computes it off TPU: each group's rows masked out of lhs, one batched matmul over the groups
// ([g, m, k] × [g, k, n]) and a sum over them — g times a dense matmul's work. Differentiable
// in lhs and rhs; traced like any op.
#pragma once

#include <optional>

#include "strata/array.h"
#include "strata/dtype.h"
#include "strata/ops.h"

namespace strata {

Array ragged_dot(const Array& lhs, const Array& rhs, const Array& group_sizes,
                 std::optional<DType> preferred_element_type = std::nullopt,
                 SourceLocation loc = SourceLocation::current());

}  // namespace strata
