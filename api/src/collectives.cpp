// Collectives over a named axis (strata/collectives.h): each resolves its axis name among
// those in scope (vmap's or a mesh's, tracer/collectives.h) into the primitive's params, and
// moves the dimension it works on to the front (the primitives' leading-dimension forms).
#include "strata/collectives.h"

#include "collectives.h"
#include "op_helpers.h"
#include "batching.h"

namespace strata {
namespace {

namespace cr = collective_rules;

const collectives::AxisFrame& resolve(std::string_view op, const std::string& name) {
  const collectives::AxisFrame* f = collectives::find_axis(name);
  if (!f)
    throw ValueError(std::string(op) + ": unbound axis name '" + name + "' (axes in scope: " + collectives::bound_axes() +
                     "); a collective runs inside st::vmap(f, in_axes, out_axes, \"" + name +
                     "\") or st::shard_map over a mesh with that axis");
  return *f;
}

Params params_of(const collectives::AxisFrame& f) {
  return Params{{"axis_name", f.name}, {"axis_size", f.size}, {"mesh", f.group.mesh}, {"mesh_dims", f.group.dims}};
}

Array apply(const Primitive& p, std::string_view op, const Array& x, const std::string& name, Params extra = {}) {
  Params params = params_of(resolve(op, name));
  for (const auto& [k, v] : extra.items()) params.set(k, v);
  return lax::bind1(p, {x}, params);
}

// x with dimension `from` moved to `to`.
Array move(const Array& x, int from, int to) { return batching::move_dim(x, from, to); }

}  // namespace

Array psum(const Array& x, const std::string& axis_name) { return apply(prim::kPsum, "psum", x, axis_name); }
Array pmax(const Array& x, const std::string& axis_name) { return apply(prim::kPmax, "pmax", x, axis_name); }
Array pmin(const Array& x, const std::string& axis_name) { return apply(prim::kPmin, "pmin", x, axis_name); }

Array pmean(const Array& x, const std::string& axis_name) {
  const AbstractValue& av = api::aval(x, "pmean");
  Array f = is_inexact(av.dtype) ? x : lax::convert_element_type(x, DType::f32);
  int64_t n = resolve("pmean", axis_name).size;
  return lax::div(psum(f, axis_name), lax::scalar(static_cast<double>(n), f.dtype()));
}

int64_t axis_size(const std::string& axis_name) { return resolve("axis_size", axis_name).size; }

Array axis_index(const std::string& axis_name) {
  return lax::bind(prim::kAxisIndex, std::span<const Array>(), params_of(resolve("axis_index", axis_name)))[0];
}

Array all_gather(const Array& x, const std::string& axis_name, int axis, bool tiled) {
  const AbstractValue& av = api::aval(x, "all_gather");
  const int64_t n = resolve("all_gather", axis_name).size;
  // The new dimension may go at any position 0..ndim; tiled concatenates along an existing one.
  AbstractValue out_rank = av;
  if (!tiled) out_rank.shape.push_back(1);
  int d = api::normalize_axis("all_gather", axis, out_rank);
  Array y = move(apply(prim::kAllGather, "all_gather", x, axis_name), 0, d);
  if (!tiled) return y;
  Shape s = av.shape;
  s[static_cast<size_t>(d)] *= n;
  return lax::reshape(y, s);
}

Array psum_scatter(const Array& x, const std::string& axis_name, int scatter_dimension, bool tiled) {
  const AbstractValue& av = api::aval(x, "psum_scatter");
  const int64_t n = resolve("psum_scatter", axis_name).size;
  int d = api::normalize_axis("psum_scatter", scatter_dimension, av);
  int64_t size = av.shape[static_cast<size_t>(d)];
  Array blocks = x;
  if (tiled) {
    if (size % n != 0)
      throw ShapeError("psum_scatter: dimension " + std::to_string(d) + " of " + av.str() + " (size " +
                       std::to_string(size) + ") does not split into " + std::to_string(n) + " blocks of axis '" +
                       axis_name + "'");
    Shape s = av.shape;
    s[static_cast<size_t>(d)] = size / n;
    s.insert(s.begin() + d, n);
    blocks = lax::reshape(x, s);
  } else if (size != n) {
    throw ShapeError("psum_scatter: dimension " + std::to_string(d) + " of " + av.str() + " has size " +
                     std::to_string(size) + ", but axis '" + axis_name + "' has size " + std::to_string(n) +
                     " (or pass tiled = true)");
  }
  // Untiled, dimension d is gone; tiled, the block keeps it (size / n) at d.
  return apply(prim::kPsumScatter, "psum_scatter", move(blocks, d, 0), axis_name);
}

Array all_to_all(const Array& x, const std::string& axis_name, int split_axis, int concat_axis, bool tiled) {
  const AbstractValue& av = api::aval(x, "all_to_all");
  const int64_t n = resolve("all_to_all", axis_name).size;
  int split = api::normalize_axis("all_to_all", split_axis, av);
  int concat = api::normalize_axis("all_to_all", concat_axis, av);
  int64_t size = av.shape[static_cast<size_t>(split)];
  if (tiled ? size % n != 0 : size != n)
    throw ShapeError("all_to_all: split dimension " + std::to_string(split) + " of " + av.str() + " has size " +
                     std::to_string(size) + ", which " + (tiled ? "does not split into " : "is not ") +
                     std::to_string(n) + (tiled ? " blocks" : "") + " (the size of axis '" + axis_name + "')");
  Array blocks;
  if (tiled) {
    Shape s = av.shape;
    s[static_cast<size_t>(split)] = size / n;
    s.insert(s.begin() + split, n);
    blocks = move(lax::reshape(x, s), split, 0);
  } else {
    blocks = move(x, split, 0);
  }
  Array y = apply(prim::kAllToAll, "all_to_all", blocks, axis_name);  // [n (source), block...]
  // Untiled, the block lost the split dimension and the sources form one at concat_axis.
  if (!tiled) return move(y, 0, concat);
  Array z = move(y, 0, concat);  // [..., n, block's concat dimension, ...]
  Shape s = av.shape;
  s[static_cast<size_t>(split)] = size / n;
  s[static_cast<size_t>(concat)] *= n;
  return lax::reshape(z, s);
}

Array ppermute(const Array& x, const std::string& axis_name, const std::vector<std::pair<int, int>>& perm) {
  IntList pairs;
  for (auto [s, d] : perm) pairs.insert(pairs.end(), {s, d});
  return apply(prim::kPpermute, "ppermute", x, axis_name, Params{{"perm", pairs}});
}

}  // namespace strata
