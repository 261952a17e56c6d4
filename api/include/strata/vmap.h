// strata/vmap.h — vmap: a function of one example becomes a function of a batch.
//
//   auto f = [](const st::Array& x, const st::Array& w) { return st::tanh(st::matmul(w, x)); };
//   st::Array ys = st::vmap(f, {0, std::nullopt})(xs, w);   // xs: [B, n]; w shared; ys: [B, m]
//   auto per_example = st::vmap(st::grad(loss), {std::nullopt, 0, 0})(params, xs, ys);
//
// in_axes names, per argument, the axis its array leaves are mapped along (negative axes count
// from the end; std::nullopt: the argument is the same for every example); empty means axis 0
// for every argument. Every output has the batch along out_axes. f is traced once on one
// example's shapes, and each primitive of the trace runs through its batching rule, so vmap
// composes with jit and grad in any order. Static (non-Array) arguments pass through.
//
// axis_name names the mapped axis for the collectives (strata/collectives.h), as JAX's does:
//   st::vmap([](const st::Array& x) { return x / st::psum(x, "i"); }, {}, 0, "i")(xs)
// divides each example by the sum over the batch.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "strata/array.h"
#include "strata/errors.h"
#include "strata/ops.h"
#include "strata/jaxpr.h"
#include "strata/pytree.h"
#include "strata/transforms.h"

namespace strata {

namespace detail {
// Placeholders with one example's shape of each leaf (mapped along axes[i], or unmapped),
// after checking the axes and that every mapped axis has one size; `dims` receives each
// leaf's axis, normalised (-1: unmapped).
std::vector<Array> vmap_examples(const std::vector<Array>& leaves, const std::vector<std::optional<int>>& axes,
                                 std::vector<int>& dims);
// The traced example program run on the batch; outputs with their batch along out_axes.
std::vector<Array> vmap_run(const Jaxpr& j, const std::vector<Array>& leaves, const std::vector<int>& dims,
                            int out_axes, const std::string& axis_name = {});
// Binds axis_name (if not empty) to the batch size while the example is traced.
class VmapAxis {
 public:
  VmapAxis(const std::string& name, const std::vector<Array>& leaves, const std::vector<int>& dims);
  ~VmapAxis();
  VmapAxis(const VmapAxis&) = delete;
  VmapAxis& operator=(const VmapAxis&) = delete;

 private:
  std::shared_ptr<void> scope_;
};
}  // namespace detail

template <class F>
auto vmap(F f, std::vector<std::optional<int>> in_axes = {}, int out_axes = 0, std::string axis_name = {}) {
  return [f = std::move(f), in_axes = std::move(in_axes), out_axes,
          axis_name = std::move(axis_name)](const auto&... args) mutable {
    if (!in_axes.empty() && in_axes.size() != sizeof...(args))
      throw ValueError("vmap: in_axes names " + std::to_string(in_axes.size()) + " arguments, but the function was called with " +
                       std::to_string(sizeof...(args)));
    std::vector<Array> leaves;
    std::vector<std::optional<int>> axes;
    std::size_t index = 0;
    auto add = [&](const auto& a) {
      tree::Tree<std::decay_t<decltype(a)>>::flatten(a, leaves);
      axes.resize(leaves.size(), in_axes.empty() ? std::optional<int>(0) : in_axes[index]);
      ++index;
    };
    (add(args), ...);
    std::vector<int> dims;
    std::vector<Array> examples = detail::vmap_examples(leaves, axes, dims);
    Jaxpr j{nullptr};
    auto out = [&] {
      detail::VmapAxis axis(axis_name, leaves, dims);
      detail::TraceScope scope;
      std::vector<Array> tracers = scope.inputs(examples);
      const Array* it = tracers.data();
      std::tuple<std::decay_t<decltype(args)>...> traced{tree::Tree<std::decay_t<decltype(args)>>::unflatten(args, it)...};
      auto o = std::apply(f, traced);
      j = scope.finish(tree_flatten(o));
      return o;
    }();
    std::vector<Array> outs = detail::vmap_run(j, leaves, dims, out_axes, axis_name);
    return tree_unflatten(tree_strip(out), outs);
  };
}

// jnp.apply_along_axis: f (a 1-d Array -> Array function) applied to every 1-d slice of arr along
// `axis`, by one vmap over the other axes; f's output dimensions take the axis' place.
template <class F>
Array apply_along_axis(F f, int axis, const Array& arr) {
  const Shape s = arr.shape();
  const int nd = static_cast<int>(s.size());
  if (nd == 0) throw ValueError("apply_along_axis: expects an array of rank >= 1");
  const int a = axis < 0 ? axis + nd : axis;
  if (a < 0 || a >= nd) throw ValueError("apply_along_axis: axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(nd));
  std::vector<int> to_last;
  Shape outer;
  for (int d = 0; d < nd; ++d)
    if (d != a) {
      to_last.push_back(d);
      outer.push_back(s[static_cast<size_t>(d)]);
    }
  to_last.push_back(a);
  int64_t m = 1;
  for (int64_t d : outer) m *= d;
  Array rows = reshape(transpose(arr, to_last), {m, s[static_cast<size_t>(a)]});
  Array r = vmap([&f](const Array& row) { return Array(f(row)); })(rows);
  Shape out = outer;
  const Shape rs = r.shape();
  out.insert(out.end(), rs.begin() + 1, rs.end());
  r = reshape(r, out);
  // [pre..., post..., o...] -> [pre..., o..., post...]
  const int no = static_cast<int>(rs.size()) - 1;
  std::vector<int> perm;
  for (int d = 0; d < a; ++d) perm.push_back(d);
  for (int d = 0; d < no; ++d) perm.push_back(nd - 1 + d);
  for (int d = a; d < nd - 1; ++d) perm.push_back(d);
  return transpose(r, perm);
}

}  // namespace strata
