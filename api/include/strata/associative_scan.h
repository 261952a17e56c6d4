// strata/associative_scan.h — jax.lax.associative_scan: all prefix combinations
//   out[i] = elems[0] ⊕ elems[1] ⊕ ... ⊕ elems[i]
// of an associative fn, along `axis`, in O(log n) sequential depth (the work-efficient
// odd/even recursion JAX uses), not the n steps of scan. elems is an Array or a pytree of
// Arrays of one length along `axis`; fn(a, b) takes and returns that pytree, elementwise over
// the slices it is given (it is called on whole halves at once). Traced like any function:
// compiles, vmaps and differentiates.
//
//   st::Array prefix = st::associative_scan([](st::Array a, st::Array b) { return a + b; }, x);
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "strata/array.h"
#include "strata/pytree.h"

namespace strata {

namespace detail {
// elems[start:stop:stride] along axis (stop may be negative: from the end).
Array slice_along(const Array& x, int axis, int64_t start, std::optional<int64_t> stop, int64_t stride);
// a and b interleaved along axis (a[0], b[0], a[1], ...): |a| is |b| or |b| + 1.
Array interleave(const Array& a, const Array& b, int axis);
Array reverse_along(const Array& x, int axis);
Array concat_along(const Array& a, const Array& b, int axis);
int scan_axis(const std::vector<Array>& leaves, int axis, int64_t& length);

template <class F, class T>
std::vector<Array> associative_scan_leaves(F& fn, const T& proto, const std::vector<Array>& elems, int axis) {
  const int64_t n = elems[0].shape()[static_cast<size_t>(axis)];
  if (n < 2) return elems;
  auto combine = [&](const std::vector<Array>& a, const std::vector<Array>& b) {
    return tree_flatten(fn(tree_unflatten(proto, a), tree_unflatten(proto, b)));
  };
  auto each = [&](const std::vector<Array>& xs, int64_t start, std::optional<int64_t> stop, int64_t stride) {
    std::vector<Array> r;
    for (const Array& x : xs) r.push_back(slice_along(x, axis, start, stop, stride));
    return r;
  };
  // Pairs combined, the half-length scan recursively, then the even positions from it.
  std::vector<Array> reduced = combine(each(elems, 0, -1, 2), each(elems, 1, std::nullopt, 2));
  std::vector<Array> odd = associative_scan_leaves(fn, proto, reduced, axis);
  std::vector<Array> even = n % 2 == 0 ? combine(each(odd, 0, -1, 1), each(elems, 2, std::nullopt, 2))
                                       : combine(odd, each(elems, 2, std::nullopt, 2));
  std::vector<Array> out;
  for (size_t k = 0; k < elems.size(); ++k)
    out.push_back(interleave(concat_along(slice_along(elems[k], axis, 0, 1, 1), even[k], axis), odd[k], axis));
  return out;
}
}  // namespace detail

template <class F, class T>
T associative_scan(F fn, const T& elems, bool reverse = false, int axis = 0) {
  std::vector<Array> leaves = tree_flatten(elems);
  if (leaves.empty()) return elems;
  int64_t length = 0;
  int ax = detail::scan_axis(leaves, axis, length);
  if (reverse)
    for (Array& x : leaves) x = detail::reverse_along(x, ax);
  T proto = tree_strip(elems);
  std::vector<Array> out = detail::associative_scan_leaves(fn, proto, leaves, ax);
  if (reverse)
    for (Array& x : out) x = detail::reverse_along(x, ax);
  return tree_unflatten(proto, out);
}

}  // namespace strata
