// strata/collectives.h — collectives over a named axis, as jax.lax's: psum, pmean, pmax, pmin,
// all_gather, psum_scatter, all_to_all, ppermute, axis_index.
//
// An axis name is bound by st::vmap(f, in_axes, out_axes, "i") (the collective then runs over
// the examples of the batch) or by st::shard_map over a mesh (strata/distributed.h: it runs
// between processes, over MPI). Outside both, a collective is a ValueError naming the axis.
//
//   auto normalize = [](const st::Array& x) { return x / st::psum(x, "i"); };
//   st::vmap(normalize, {}, 0, "i")(xs);                        // over the batch
//   st::shard_map(normalize, mesh, {{"data"}}, {{"data"}})(xs);  // over the processes
//
// They trace, jit, differentiate and vmap like every op: per process (as jax.pmap's), the
// transpose of psum is psum and of all_gather psum_scatter, so a gradient computed inside is
// that process's own, averaged across processes with pmean.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "strata/array.h"
#include "strata/pytree.h"

namespace strata {

// The sum (max, min, mean) over the axis of x's value on each member; every member gets it.
// pmean of an integer array is a float one (as jnp.mean).
Array psum(const Array& x, const std::string& axis_name);
Array pmax(const Array& x, const std::string& axis_name);
Array pmin(const Array& x, const std::string& axis_name);
Array pmean(const Array& x, const std::string& axis_name);
// (Over several axes: one after the other, psum(psum(x, "x"), "y").)

// The members' x stacked along a new dimension `axis` (of the axis size n), or concatenated
// along existing dimension `axis` with tiled.
Array all_gather(const Array& x, const std::string& axis_name, int axis = 0, bool tiled = false);
// The sum over members, of which each keeps its own block along `scatter_dimension`: that
// dimension (of size n) is removed, or divided by n with tiled.
Array psum_scatter(const Array& x, const std::string& axis_name, int scatter_dimension = 0, bool tiled = false);
// x split into n blocks along split_axis, block k sent to member k, and the blocks received
// stacked along a new concat_axis (split_axis has size n), or concatenated with tiled.
Array all_to_all(const Array& x, const std::string& axis_name, int split_axis, int concat_axis, bool tiled = false);
// Member `source` sends x to member `destination` for each pair; a member that receives
// nothing gets zeros. Each member is a source at most once and a destination at most once.
Array ppermute(const Array& x, const std::string& axis_name, const std::vector<std::pair<int, int>>& perm);
// This member's index along the axis (an i32 0-d array), and the axis size.
Array axis_index(const std::string& axis_name);
int64_t axis_size(const std::string& axis_name);

// The same over every leaf of a pytree (a struct of gradients).
template <class T>
  requires(!std::is_convertible_v<T, Array>)
T psum(const T& tree, const std::string& axis_name) {
  return tree_map(tree, [&](const Array& a) { return psum(a, axis_name); });
}
template <class T>
  requires(!std::is_convertible_v<T, Array>)
T pmean(const T& tree, const std::string& axis_name) {
  return tree_map(tree, [&](const Array& a) { return pmean(a, axis_name); });
}

}  // namespace strata
