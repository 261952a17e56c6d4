// strata/indexing.h — reading and updating parts of arrays at run-time positions, as JAX does:
// lax.dynamic_slice / dynamic_update_slice.
//
// Out-of-range positions never read or write outside an array; they follow JAX:
//  - dynamic_slice / dynamic_update_slice: a negative start counts from the end of its
//    dimension, then every start is clamped so that the box stays inside the operand.
#pragma once

#include <cstdint>
#include <vector>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata {

// The `sizes` box of x starting at `starts` (one integer scalar a dimension, concrete or
// traced), clamped to stay inside x (jax.lax.dynamic_slice).
Array dynamic_slice(const Array& x, const std::vector<Array>& starts, const std::vector<int64_t>& sizes,
                    SourceLocation loc = SourceLocation::current());
// x with `update` (converted to x's dtype; of x's rank, no larger) written at `starts`, clamped
// as dynamic_slice's (jax.lax.dynamic_update_slice). x itself is unchanged: a new array.
Array dynamic_update_slice(const Array& x, const Array& update, const std::vector<Array>& starts,
                           SourceLocation loc = SourceLocation::current());

}  // namespace strata
