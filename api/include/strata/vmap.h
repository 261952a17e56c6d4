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
#pragma once

#include <optional>
#include <tuple>
#include <vector>

#include "strata/array.h"
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
                            int out_axes);
}  // namespace detail

template <class F>
auto vmap(F f, std::vector<std::optional<int>> in_axes = {}, int out_axes = 0) {
  return [f = std::move(f), in_axes = std::move(in_axes), out_axes](const auto&... args) mutable {
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
    detail::TraceScope scope;
    std::vector<Array> tracers = scope.inputs(examples);
    const Array* it = tracers.data();
    std::tuple<std::decay_t<decltype(args)>...> traced{tree::Tree<std::decay_t<decltype(args)>>::unflatten(args, it)...};
    auto out = std::apply(f, traced);
    Jaxpr j = scope.finish(tree_flatten(out));
    std::vector<Array> outs = detail::vmap_run(j, leaves, dims, out_axes);
    return tree_unflatten(tree_strip(out), outs);
  };
}

}  // namespace strata
