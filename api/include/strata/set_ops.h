// strata/set_ops.h — jax.numpy's set operations: unique (and the Array API's unique_all,
// unique_counts, unique_inverse, unique_values), isin, union1d, intersect1d, setdiff1d,
// setxor1d.
//
// Their results' sizes depend on the values, so, as in JAX, each takes an optional static
// `size`: without it the input must be concrete (under jit, grad or vmap: ConcretizationError
// suggesting size=); with it the result has exactly `size` entries — the first `size` of the
// sorted result, padded with `fill_value` (JAX's defaults where it is not given: unique and
// union1d repeat the smallest value, setdiff1d pads with 0, intersect1d and setxor1d with the
// smallest value of the result) — and the function traces, jits and vmaps.
//
//   st::Array u = st::unique(x);                              // sorted distinct values
//   auto [values, counts] = st::unique_counts(labels, 10);     // traceable: 10 slots
//   st::Unique r = st::unique(x, {.return_inverse = true, .axis = 0});  // distinct rows
//
// Indices (positions, inverse indices, counts) are i32. Floats compare as numbers (-0 == 0); NaNs
// sort last and are one value unless equal_nan is false (unique_all and its relatives: false, as
// the Array API).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata {

// jnp.unique's options: which of the extra results to compute, the axis (none: of the
// flattened array; an axis: its distinct slices, compared whole), NaN equality and size.
struct UniqueOptions {
  bool return_index = false;
  bool return_inverse = false;
  bool return_counts = false;
  std::optional<int> axis = std::nullopt;
  bool equal_nan = true;
  std::optional<int64_t> size = std::nullopt;
  std::optional<Array> fill_value = std::nullopt;
};

// The results of unique: the distinct values (sorted; along the axis), the position of each
// one's first occurrence, for each element (slice) of the input the index of its value in
// `values` (of the input's shape when flattened), and how often each value occurs (0 for
// padding). Those not asked for are null Arrays.
struct Unique {
  Array values, indices, inverse_indices, counts;
};

Unique unique(const Array& x, const UniqueOptions& options, SourceLocation loc = SourceLocation::current());
// The sorted distinct values of the flattened x.
Array unique(const Array& x, std::optional<int64_t> size = std::nullopt, std::optional<Array> fill_value = std::nullopt,
             SourceLocation loc = SourceLocation::current());
// The Array API's forms (equal_nan false; the flattened x).
Unique unique_all(const Array& x, std::optional<int64_t> size = std::nullopt,
                  std::optional<Array> fill_value = std::nullopt, SourceLocation loc = SourceLocation::current());
std::pair<Array, Array> unique_counts(const Array& x, std::optional<int64_t> size = std::nullopt,
                                      std::optional<Array> fill_value = std::nullopt,
                                      SourceLocation loc = SourceLocation::current());
std::pair<Array, Array> unique_inverse(const Array& x, std::optional<int64_t> size = std::nullopt,
                                       std::optional<Array> fill_value = std::nullopt,
                                       SourceLocation loc = SourceLocation::current());
Array unique_values(const Array& x, std::optional<int64_t> size = std::nullopt,
                    std::optional<Array> fill_value = std::nullopt, SourceLocation loc = SourceLocation::current());

// For each element of `element`, whether it occurs in `test_elements` (any shapes; bool of
// element's shape; NaN occurs nowhere); `invert` negates. Traceable (no size needed).
Array isin(const Array& element, const Array& test_elements, bool invert = false,
           SourceLocation loc = SourceLocation::current());

// Sorted distinct values of the flattened inputs: in either; in a but not b; in exactly one.
Array union1d(const Array& a, const Array& b, std::optional<int64_t> size = std::nullopt,
              std::optional<Array> fill_value = std::nullopt, SourceLocation loc = SourceLocation::current());
Array setdiff1d(const Array& a, const Array& b, bool assume_unique = false, std::optional<int64_t> size = std::nullopt,
                std::optional<Array> fill_value = std::nullopt, SourceLocation loc = SourceLocation::current());
Array setxor1d(const Array& a, const Array& b, bool assume_unique = false, std::optional<int64_t> size = std::nullopt,
               std::optional<Array> fill_value = std::nullopt, SourceLocation loc = SourceLocation::current());
// The sorted values in both a and b; with indices, also the position of each one's first
// occurrence in the flattened a and b (padding: a.size and b.size, as JAX).
struct Intersection {
  Array values, a_indices, b_indices;
};
Array intersect1d(const Array& a, const Array& b, bool assume_unique = false, std::optional<int64_t> size = std::nullopt,
                  std::optional<Array> fill_value = std::nullopt, SourceLocation loc = SourceLocation::current());
Intersection intersect1d_indices(const Array& a, const Array& b, bool assume_unique = false,
                                 std::optional<int64_t> size = std::nullopt, std::optional<Array> fill_value = std::nullopt,
                                 SourceLocation loc = SourceLocation::current());

}  // namespace strata
