// strata/sorting.h — cumulative ops (jax.lax.cumsum, cumprod, cummax, cummin, cumlogsumexp;
// jnp.cumsum's flattening when no axis is given).
#pragma once

#include <optional>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata {

// Element i is the sum (product, maximum, minimum, log-sum-exp) of elements 0..i along `axis`
// (i..n-1 with `reverse`); over the flattened array when no axis is given. Bools sum and
// multiply as i32 (as jnp); cummax/cummin of bools stay bool; cumlogsumexp promotes integers
// to a float. A nan propagates from where it appears on.
Array cumsum(const Array& x, std::optional<int> axis = std::nullopt, bool reverse = false,
             SourceLocation loc = SourceLocation::current());
Array cumprod(const Array& x, std::optional<int> axis = std::nullopt, bool reverse = false,
              SourceLocation loc = SourceLocation::current());
Array cummax(const Array& x, std::optional<int> axis = std::nullopt, bool reverse = false,
             SourceLocation loc = SourceLocation::current());
Array cummin(const Array& x, std::optional<int> axis = std::nullopt, bool reverse = false,
             SourceLocation loc = SourceLocation::current());
Array cumlogsumexp(const Array& x, std::optional<int> axis = std::nullopt, bool reverse = false,
                   SourceLocation loc = SourceLocation::current());

}  // namespace strata
