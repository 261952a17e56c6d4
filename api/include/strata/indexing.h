// strata/indexing.h — reading and updating parts of arrays at run-time positions, as JAX does:
// lax.dynamic_slice / dynamic_update_slice.
//
// Out-of-range positions never read or write outside an array; they follow JAX:
//  - dynamic_slice / dynamic_update_slice: a negative start counts from the end of its
//    dimension, then every start is clamped so that the box stays inside the operand.
//  - take / take_along_axis (gathers): a negative index counts from the end, then indices are
//    clamped into the axis (JAX's mode "clip"; jnp.take's default "fill" gives nan instead).
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

// The elements of x at `indices` (any integer array) along `axis`: the result's shape is x's
// with that axis replaced by the indices' shape (jnp.take(x, indices, axis), mode "clip").
Array take(const Array& x, const Array& indices, int axis = 0, SourceLocation loc = SourceLocation::current());
// out[..., j, ...] = x[..., indices[..., j, ...], ...] along `axis` (jnp.take_along_axis):
// indices of x's rank, of x's sizes on the other axes; indices are clamped as take's.
Array take_along_axis(const Array& x, const Array& indices, int axis, SourceLocation loc = SourceLocation::current());

}  // namespace strata
