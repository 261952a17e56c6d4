// strata/indexing.h — reading and updating parts of arrays, as JAX does: NumPy indexing
// (x[i], x[{i, j}], slices with steps, integer-array indices), jnp.take / take_along_axis,
// JAX's functional updates x.at(idx).set(v) / add / mul / min / max, and lax.dynamic_slice /
// dynamic_update_slice.
//
//   Array row = x[2];                                   // x[2]: drops axis 0
//   Array last = x[{-1, -1}];                            // x[-1, -1]: a 0-d array
//   Array odd = x[{st::all(), st::Slice(1, st::none, 2)}]; // x[:, 1::2]
//   Array rev = x[st::Slice(st::none, st::none, -1)];    // x[::-1]
//   Array rows = x[idx];                                 // x[idx], idx an integer Array (a gather)
//   Array y = x.at({0, st::all()}).add(1.0f);              // x.at[0, :].add(1.0)
//
// An index is a list of entries, one per leading axis (missing ones are st::all()): an integer
// (negative from the end; out of range is a ValueError), a Slice (NumPy's start/stop/step, any
// of them st::none, negative steps allowed), st::all(), or one integer Array (its shape replaces
// the axis; more than one array entry is not supported yet).
//
// Out-of-range positions never read or write outside an array; they follow JAX:
//  - dynamic_slice / dynamic_update_slice: a negative start counts from the end of its
//    dimension, then every start is clamped so that the box stays inside the operand.
//  - integer-array indices (reading) and take / take_along_axis (gathers): a negative index counts from the end, then indices are
//    clamped into the axis (JAX's mode "clip"; jnp.take's default "fill" gives nan instead).
#pragma once

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata {

// A missing start, stop or step of a Slice (Python's None).
inline constexpr std::nullopt_t none = std::nullopt;

// start:stop:step along one axis, NumPy's rules: negative values count from the end, out-of-range
// ones clamp, a missing start/stop is the axis' end in the step's direction.
struct Slice {
  Slice(std::optional<int64_t> start = none, std::optional<int64_t> stop = none, int64_t step = 1)
      : start(start), stop(stop), step(step) {}
  std::optional<int64_t> start, stop;
  int64_t step;
};
// The whole axis (Python's `:`), as xtensor spells it: st::all() (st::all(x) is the reduction).
inline Slice all() { return Slice{}; }

// One entry of an index: an integer, a Slice, or an integer Array.
struct Index {
  Index(int i) : value(static_cast<int64_t>(i)) {}  // NOLINT: implicit on purpose
  Index(int64_t i) : value(i) {}                      // NOLINT
  Index(Slice s) : value(s) {}                        // NOLINT
  Index(Array a) : value(std::move(a)) {}             // NOLINT
  std::variant<int64_t, Slice, Array> value;
};

// x[idx] (Array::operator[] calls it).
Array index(const Array& x, const std::vector<Index>& idx, SourceLocation loc = SourceLocation::current());

// x.at(idx): new arrays with the indexed elements replaced or combined with `v` (broadcast to
// x[idx]'s shape, converted to x's dtype). Integer-array entries out of range (after negative
// ones wrap) are dropped, as JAX's updates do; repeated ones all apply (add adds each).
class At {
 public:
  At(Array x, std::vector<Index> idx) : x_(std::move(x)), idx_(std::move(idx)) {}
  Array get(SourceLocation loc = SourceLocation::current()) const { return index(x_, idx_, loc); }
  Array set(const Array& v, SourceLocation loc = SourceLocation::current()) const;
  Array add(const Array& v, SourceLocation loc = SourceLocation::current()) const;
  Array mul(const Array& v, SourceLocation loc = SourceLocation::current()) const;
  Array min(const Array& v, SourceLocation loc = SourceLocation::current()) const;
  Array max(const Array& v, SourceLocation loc = SourceLocation::current()) const;

 private:
  Array x_;
  std::vector<Index> idx_;
};

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
