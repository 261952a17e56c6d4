// strata/reduce.h — jax.lax.reduce with the user's combiner: reduce(operands, init_values,
// computation, dimensions) folds the operands over `dimensions` with computation(a, b), for
// any associative computation (a max with its index, a log-sum-exp pair, a product of 2x2
// matrices held as four arrays, ...). operands is an Array or a pytree of Arrays of one shape;
// computation takes and returns that pytree and is applied elementwise to whole slices (as
// associative_scan's fn), pairing neighbours in a tree of log2(n) levels — the order of the
// operands is kept, so it need not commute. init_values (0-d, one per leaf) is combined once,
// in front: the result is init ⊕ x0 ⊕ x1 ⊕ …, as XLA computes it for an identity init.
// Traced like any function: compiles, vmaps and differentiates.
//
//   auto [m, i] = st::reduce(std::make_pair(x, idx), std::make_pair(neg_inf, big),
//                            [](auto a, auto b) { ... }, {1});
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "strata/array.h"
#include "strata/control_flow.h"
#include "strata/pytree.h"

namespace strata {

namespace detail {
// Each leaf with the reduced dimensions moved last and flattened into one: [kept..., n]; checks
// the dimensions (sorted, unique, in range) and that all leaves share a shape.
std::vector<Array> reduce_prepare(const std::vector<Array>& leaves, const std::vector<int>& dims, Shape& kept);
// x[..., start:stop:stride] along the last axis.
Array last_axis_slice(const Array& x, int64_t start, std::optional<int64_t> stop, int64_t stride);
Array last_axis_concat(const Array& a, const Array& b);
// The init values broadcast to `kept` (checked 0-d, of the leaves' dtypes).
std::vector<Array> reduce_inits(const std::vector<Array>& inits, const std::vector<Array>& leaves, const Shape& kept);
}  // namespace detail

template <class T, class F>
T reduce(const T& operands, const T& init_values, F computation, const std::vector<int>& dimensions) {
  static_assert(!is_static_v<T>, "reduce: the operands must be a pytree of Arrays");
  const T proto = tree_strip(operands);
  Shape kept;
  std::vector<Array> xs = detail::reduce_prepare(tree_flatten(operands), dimensions, kept);
  auto combine = [&](const std::vector<Array>& a, const std::vector<Array>& b) {
    T r = computation(tree_unflatten(proto, a), tree_unflatten(proto, b));
    detail::check_same_tree("reduce", "the computation's result", detail::describe(r, "operands"), "operands",
                            detail::describe(tree_unflatten(proto, a), "operands"));
    return tree_flatten(r);
  };
  int64_t n = xs.empty() ? 0 : xs[0].shape().back();
  std::vector<Array> inits = detail::reduce_inits(tree_flatten(init_values), xs, kept);
  if (n == 0) return tree_unflatten(proto, inits);
  // Neighbours paired level by level; an odd one out is carried to the next level at the end.
  while (n > 1) {
    const int64_t pairs = n / 2;
    std::vector<Array> even, odd, rest;
    for (const Array& x : xs) {
      even.push_back(detail::last_axis_slice(x, 0, 2 * pairs, 2));
      odd.push_back(detail::last_axis_slice(x, 1, 2 * pairs, 2));
      if (n % 2) rest.push_back(detail::last_axis_slice(x, n - 1, n, 1));
    }
    xs = combine(even, odd);
    for (size_t i = 0; i < rest.size(); ++i) xs[i] = detail::last_axis_concat(xs[i], rest[i]);
    n = pairs + n % 2;
  }
  for (Array& x : xs) x = reshape(x, kept);
  return tree_unflatten(proto, combine(inits, xs));
}

}  // namespace strata
