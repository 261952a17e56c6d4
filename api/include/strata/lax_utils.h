// strata/lax_utils.h — jax.lax's conveniences over strata's ops: map (sequential, or vmap'd in
// batches), select_n, the *_in_dim slicing helpers, collapse, broadcasted_iota, lax.pad's
// (low, high, interior) form, sort_key_val, batch_matmul, reduce_and/or/xor and
// approx_max_k / approx_min_k (exact, as JAX computes them on CPU). Each is the op(s) it is
// written with: they trace, compile, vmap and differentiate as those do.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "strata/array.h"
#include "strata/control_flow.h"
#include "strata/indexing.h"
#include "strata/ops.h"
#include "strata/pytree.h"
#include "strata/vmap.h"

namespace strata {

// jax.lax.select_n: cases[which] elementwise; which is bool (two cases: false picks cases[0])
// or an integer array in [0, cases.size()) of the cases' shape (or 0-d).
Array select_n(const Array& which, const std::vector<Array>& cases, SourceLocation loc = SourceLocation::current());

// x[start:limit:stride] along axis (jax.lax.slice_in_dim; limit none = the end).
Array slice_in_dim(const Array& x, int64_t start, std::optional<int64_t> limit = std::nullopt, int64_t stride = 1,
                   int axis = 0, SourceLocation loc = SourceLocation::current());
// Element `index` along axis, the axis kept (size 1) or dropped (jax.lax.index_in_dim).
Array index_in_dim(const Array& x, int64_t index, int axis = 0, bool keepdims = true,
                   SourceLocation loc = SourceLocation::current());
// The run-time-start forms (jax.lax.dynamic_*_in_dim): start clamped as dynamic_slice clamps.
Array dynamic_slice_in_dim(const Array& x, const Array& start, int64_t size, int axis = 0,
                           SourceLocation loc = SourceLocation::current());
Array dynamic_index_in_dim(const Array& x, const Array& index, int axis = 0, bool keepdims = true,
                           SourceLocation loc = SourceLocation::current());
Array dynamic_update_slice_in_dim(const Array& x, const Array& update, const Array& start, int axis,
                                  SourceLocation loc = SourceLocation::current());
// update has x's shape without `axis` (or with it of size 1).
Array dynamic_update_index_in_dim(const Array& x, const Array& update, const Array& index, int axis,
                                  SourceLocation loc = SourceLocation::current());

// Dimensions [start, stop) merged into one (jax.lax.collapse; stop none = the last).
Array collapse(const Array& x, int start, std::optional<int> stop = std::nullopt,
               SourceLocation loc = SourceLocation::current());
// The indices along `dimension`, broadcast to `shape` (jax.lax.broadcasted_iota).
Array broadcasted_iota(DType dtype, const Shape& shape, int dimension, SourceLocation loc = SourceLocation::current());

// jax.lax.pad: per dimension (low, high, interior): `interior` padding values between
// neighbours, then low / high at the ends — negative low / high crop.
Array pad(const Array& x, const Array& padding_value, const std::vector<std::array<int64_t, 3>>& config,
          SourceLocation loc = SourceLocation::current());

// jax.lax.sort_key_val: keys sorted along `dimension`, values carried along.
std::pair<Array, Array> sort_key_val(const Array& keys, const Array& values, int dimension = -1, bool is_stable = true,
                                     SourceLocation loc = SourceLocation::current());

// jax.lax.batch_matmul: [..., m, k] × [..., k, n] with equal batch dimensions (no broadcasting).
Array batch_matmul(const Array& lhs, const Array& rhs, SourceLocation loc = SourceLocation::current());

// Logical / bitwise and, or, xor over `axes` (jax.lax.reduce_and / reduce_or / reduce_xor) of
// a bool or integer array.
Array reduce_and(const Array& x, const std::vector<int>& axes, SourceLocation loc = SourceLocation::current());
Array reduce_or(const Array& x, const std::vector<int>& axes, SourceLocation loc = SourceLocation::current());
Array reduce_xor(const Array& x, const std::vector<int>& axes, SourceLocation loc = SourceLocation::current());

// jax.lax.approx_max_k / approx_min_k along reduction_dimension: the k largest (smallest) and
// their indices. JAX computes them exactly off TPU, and so does strata (recall is 1).
std::pair<Array, Array> approx_max_k(const Array& x, int64_t k, int reduction_dimension = -1,
                                     SourceLocation loc = SourceLocation::current());
std::pair<Array, Array> approx_min_k(const Array& x, int64_t k, int reduction_dimension = -1,
                                     SourceLocation loc = SourceLocation::current());

// jax.lax.map(f, xs, batch_size): f over the leading axis of xs (a pytree) one slice at a time
// in a scan (memory for one call, not all); with batch_size, vmap(f) over batches of that many
// in the scan and over the remainder after it. Returns f's results stacked.
template <class F, class X>
auto map(F f, const X& xs, std::optional<int64_t> batch_size = std::nullopt) {
  std::vector<Array> leaves = tree_flatten(xs);
  if (leaves.empty()) throw ValueError("map: xs has no arrays to map over");
  const int64_t n = leaves[0].ndim() == 0 ? -1 : leaves[0].shape()[0];
  for (const Array& l : leaves)
    if (l.ndim() == 0 || l.shape()[0] != n)
      throw ShapeError("map: every leaf of xs needs the same leading axis, but got " + shape_string(leaves[0].shape()) +
                       " and " + shape_string(l.shape()));
  if (!batch_size || n == 0) {
    auto step = [&](const std::tuple<>&, const X& x) { return std::make_pair(std::tuple<>{}, f(x)); };
    return scan(step, std::tuple<>{}, xs).second;
  }
  const int64_t b = *batch_size;
  if (b < 1) throw ValueError("map: batch_size must be at least 1, but got " + std::to_string(b));
  const int64_t full = n / b, rem = n % b;
  const X proto = tree_strip(xs);
  auto part = [&](int64_t start, int64_t stop, bool split) {
    std::vector<Array> out;
    for (const Array& l : leaves) {
      Array s = l[Slice(start, stop)];
      if (split) {
        Shape sh = s.shape();
        sh[0] = b;
        sh.insert(sh.begin(), full);
        s = reshape(s, sh);
      }
      out.push_back(s);
    }
    return tree_unflatten(proto, out);
  };
  using Y = std::decay_t<decltype(vmap(f)(std::declval<const X&>()))>;
  std::optional<Y> head, tail;
  if (full > 0) {
    auto step = [&](const std::tuple<>&, const X& x) { return std::make_pair(std::tuple<>{}, vmap(f)(x)); };
    auto ys = scan(step, std::tuple<>{}, part(0, full * b, true)).second;  // [full, b, ...]
    std::vector<Array> flat = tree_flatten(ys);
    for (Array& y : flat) {
      Shape sh = y.shape();
      sh.erase(sh.begin());
      sh[0] = full * b;
      y = reshape(y, sh);
    }
    head = tree_unflatten(tree_strip(ys), flat);
  }
  if (rem > 0) tail = vmap(f)(part(full * b, n, false));
  if (!head) return *tail;
  if (!tail) return *head;
  std::vector<Array> a = tree_flatten(*head), c = tree_flatten(*tail);
  for (size_t i = 0; i < a.size(); ++i) a[i] = concatenate({a[i], c[i]}, 0);
  return tree_unflatten(tree_strip(*head), a);
}

}  // namespace strata
