// strata/selection.h — argmin, all/any and clamping (issue 13's small primitives: argmin,
// reduce_and, reduce_or, clamp).
#pragma once

#include <optional>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata {

// Index (i32) of the first smallest element along `axis`, or over the flattened array; the
// first nan when there is one (jnp.argmin).
Array argmin(const Array& x, std::optional<int> axis = std::nullopt, bool keepdims = false,
             SourceLocation loc = SourceLocation::current());

// Whether every (any) element over `axes` (all when empty) is non-zero; bool (jnp.all, jnp.any).
Array all(const Array& x, Axes axes = {}, bool keepdims = false, SourceLocation loc = SourceLocation::current());
Array any(const Array& x, Axes axes = {}, bool keepdims = false, SourceLocation loc = SourceLocation::current());

// jnp.clip: min(max(x, lo), hi), broadcasting all three (NumPy promotion); nan if any is nan.
Array clip(const Array& x, const Array& lo, const Array& hi, SourceLocation loc = SourceLocation::current());
// jax.lax.clamp: the same, in lax's operand order; lo and hi are 0-d or of x's shape.
Array clamp(const Array& lo, const Array& x, const Array& hi, SourceLocation loc = SourceLocation::current());

}  // namespace strata
