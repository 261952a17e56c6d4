// strata/sorting.h — cumulative ops (jax.lax.cumsum, cumprod, cummax, cummin, cumlogsumexp;
// jnp.cumsum's flattening when no axis is given); sort, argsort, top_k, lexsort, partition,
// argpartition, sort_complex.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata {

// Element i is the sum (product, maximum, minimum, log-sum-exp) of elements 0..i along `axis`
// (i..n-1 with `reverse`); over the flattened array when no axis is given. Bools sum and
// multiply as i32 (as jnp); cummax/cummin of bools stay bool; cumlogsumexp promotes integers
// to a float. A nan propagates from where it appears on. cummax/cummin order complex numbers
// by real, then imaginary part (as max/min).
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

// jax.lax.sort: the operands (one shape) sorted together along `dimension` by the first
// `num_keys` of them, lexicographically. Floats order as lax.sort does: -0.0 equals 0.0, every
// nan equals every other and sorts after +inf; `is_stable` keeps equal keys in input order.
// Complex operands are carried along; complex keys are refused (sort their real and imaginary
// parts as two keys, as the overloads below do).
std::vector<Array> sort(const std::vector<Array>& operands, int dimension, bool is_stable, int num_keys = 1,
                        SourceLocation loc = SourceLocation::current());
// jnp.sort along `axis` (the flattened array when none); descending reverses the order.
// Complex arrays sort lexicographically by real, then imaginary part (NumPy's order, nan parts
// last), as do argsort and top_k.
Array sort(const Array& x, std::optional<int> axis = -1, bool descending = false,
           SourceLocation loc = SourceLocation::current());
// jnp.argsort (i32 indices, stable: equal elements keep their order, descending too).
Array argsort(const Array& x, std::optional<int> axis = -1, bool descending = false,
              SourceLocation loc = SourceLocation::current());
// jax.lax.top_k along the last axis: the k largest values (nan counts as largest), in
// descending order, and their i32 indices (the first of equal values first). Built on sort.
std::pair<Array, Array> top_k(const Array& x, int64_t k, SourceLocation loc = SourceLocation::current());

// jnp.lexsort: the indices (i32) that sort along `axis` by the last key, ties broken by the one
// before it, and so on (the keys of one shape; complex keys by real, then imaginary part).
Array lexsort(const std::vector<Array>& keys, int axis = -1, SourceLocation loc = SourceLocation::current());
// jnp.partition / argpartition: along `axis`, the kth+1 smallest elements first (ascending, the
// kth in its sorted place), then the rest. As JAX lays them out: partition gives the rest in
// descending order, argpartition the rest's indices in increasing index order. NaNs sort last
// (they are among the largest). Complex values are refused, as JAX.
Array partition(const Array& x, int64_t kth, int axis = -1, SourceLocation loc = SourceLocation::current());
Array argpartition(const Array& x, int64_t kth, int axis = -1, SourceLocation loc = SourceLocation::current());
// jnp.sort_complex: sorted along the last axis by real, then imaginary part, as a complex array.
Array sort_complex(const Array& x, SourceLocation loc = SourceLocation::current());

}  // namespace strata
