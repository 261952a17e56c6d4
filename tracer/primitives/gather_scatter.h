// tracer/primitives/gather_scatter.h — what gather and the scatter_* primitives share: their
// dimension numbers from params, the lax functions' params, and the walk of the eager kernels.
//
// Both walk a "window-carrying" array R (gather's result, scatter's updates): its batch dims
// follow the indices' batch dims, one index vector each; its window dims map in order onto the
// operand dims that are not collapsed (gather) or inserted (scatter). For each index vector the
// kernels compute the operand box's starts, then move the window element by element.
// Out-of-bounds starts follow JAX: gather clamps (mode clip) or fills zeros (mode fill, only
// used by scatter's transpose); scatter drops an update whose window would leave the operand.
#pragma once

#include <algorithm>
#include <vector>

#include "../array_impl.h"
#include "../gather_rules.h"
#include "../kernels/complex_math.h"
#include "../kernels/ieee_minmax.h"
#include "../kernels/wrapping.h"
#include "ad_rules.h"
#include "batch_rules.h"
#include "common.h"

namespace strata::gather_scatter {

using shape_rules::GatherDims;
using shape_rules::ScatterDims;

inline GatherDims gather_dims(const Params& p) {
  return {p.get_ints("offset_dims"), p.get_ints("collapsed_slice_dims"), p.get_ints("start_index_map"),
          p.get_int("index_vector_dim")};
}
inline ScatterDims scatter_dims(const Params& p) {
  return {p.get_ints("update_window_dims"), p.get_ints("inserted_window_dims"), p.get_ints("scatter_dims_to_operand_dims"),
          p.get_int("index_vector_dim")};
}
inline Params gather_params(const GatherDims& g, const IntList& slice_sizes, int64_t mode) {
  return Params{{"offset_dims", g.offset_dims},
                {"collapsed_slice_dims", g.collapsed_slice_dims},
                {"start_index_map", g.start_index_map},
                {"index_vector_dim", g.index_vector_dim},
                {"slice_sizes", slice_sizes},
                {"mode", mode}};
}
inline Params scatter_params(const ScatterDims& s) {
  return Params{{"update_window_dims", s.update_window_dims},
                {"inserted_window_dims", s.inserted_window_dims},
                {"scatter_dims_to_operand_dims", s.scatter_dims_to_operand_dims},
                {"index_vector_dim", s.index_vector_dim}};
}
// The scatter whose updates are a gather's result (same indices): gather's transpose.
inline ScatterDims scatter_of(const GatherDims& g) {
  return {g.offset_dims, g.collapsed_slice_dims, g.start_index_map, g.index_vector_dim};
}
// The gather that reads back a scatter's windows: its updates' shape are the result.
inline GatherDims gather_of(const ScatterDims& s) {
  return {s.update_window_dims, s.inserted_window_dims, s.scatter_dims_to_operand_dims, s.index_vector_dim};
}
// The window size on each operand dim: 1 on the collapsed/inserted dims, else R's window dim.
inline IntList window_sizes(const Shape& operand, const Shape& r, const IntList& window_dims, const IntList& dropped_dims) {
  IntList sizes(operand.size(), 1);
  size_t k = 0;
  for (size_t d = 0; d < operand.size(); ++d)
    if (std::find(dropped_dims.begin(), dropped_dims.end(), static_cast<int64_t>(d)) == dropped_dims.end())
      sizes[d] = r[static_cast<size_t>(window_dims[k++])];
  return sizes;
}

constexpr int64_t kModeClip = 0;  // gather: starts clamped into the operand (JAX's default)
constexpr int64_t kModeFill = 1;  // gather: a window leaving the operand reads zeros

// The eager kernels' walk over R's batch and window elements (offsets in elements).
struct Walk {
  std::vector<int64_t> r_window, x_window;  // per window element: offset in R, in the operand
  Shape batch_shape;
  std::vector<int64_t> r_batch_stride, idx_batch_stride;
  int64_t idx_vector_stride = 0;

  Walk(const Shape& operand, const Shape& indices, const Shape& r, const IntList& window_dims, const IntList& dropped_dims,
       int64_t ivd) {
    std::vector<int64_t> xs = kernels::contiguous_strides(operand), rs = kernels::contiguous_strides(r);
    std::vector<int64_t> is = kernels::contiguous_strides(indices);
    std::vector<size_t> wdim;  // operand dim of each window dim
    for (size_t d = 0; d < operand.size(); ++d)
      if (std::find(dropped_dims.begin(), dropped_dims.end(), static_cast<int64_t>(d)) == dropped_dims.end()) wdim.push_back(d);
    Shape wshape;
    for (int64_t d : window_dims) wshape.push_back(r[static_cast<size_t>(d)]);
    int64_t n = 1;
    for (int64_t s : wshape) n *= s;
    std::vector<int64_t> w(wshape.size(), 0);
    for (int64_t e = 0; e < n; ++e) {
      int64_t ro = 0, xo = 0;
      for (size_t k = 0; k < w.size(); ++k) {
        ro += w[k] * rs[static_cast<size_t>(window_dims[k])];
        xo += w[k] * xs[wdim[k]];
      }
      r_window.push_back(ro);
      x_window.push_back(xo);
      for (size_t k = w.size(); k-- > 0;) {
        if (++w[k] < wshape[k]) break;
        w[k] = 0;
      }
    }
    for (size_t d = 0; d < r.size(); ++d)
      if (std::find(window_dims.begin(), window_dims.end(), static_cast<int64_t>(d)) == window_dims.end()) {
        batch_shape.push_back(r[d]);
        r_batch_stride.push_back(rs[d]);
      }
    for (size_t d = 0; d < indices.size(); ++d)
      if (static_cast<int64_t>(d) != ivd) idx_batch_stride.push_back(is[d]);
      else idx_vector_stride = is[d];
  }

  // f(r_base, idx_base) for each index vector, in row-major order of the batch dims.
  template <class F>
  void for_each_batch(F&& f) const {
    int64_t n = 1;
    for (int64_t s : batch_shape) n *= s;
    std::vector<int64_t> b(batch_shape.size(), 0);
    for (int64_t e = 0; e < n; ++e) {
      int64_t ro = 0, io = 0;
      for (size_t k = 0; k < b.size(); ++k) {
        ro += b[k] * r_batch_stride[k];
        io += b[k] * idx_batch_stride[k];
      }
      f(ro, io);
      for (size_t k = b.size(); k-- > 0;) {
        if (++b[k] < batch_shape[k]) break;
        b[k] = 0;
      }
    }
  }
};

// Index vector entry j at idx_base, as int64 (a u64 above INT64_MAX saturates: it is out of
// bounds either way).
inline int64_t index_at(const KernelArg& indices, int64_t idx_base, int64_t j, int64_t vector_stride) {
  int64_t o = idx_base + j * vector_stride;
  switch (indices.dtype()) {
    case DType::i32: return indices.as<int32_t>()[o];
    case DType::i64: return indices.as<int64_t>()[o];
    default: {
      int64_t v;
      kernels::convert_elements(indices.as<char>() + o * static_cast<int64_t>(itemsize(indices.dtype())),
                                indices.dtype(), &v, DType::i64, 1);
      if (indices.dtype() == DType::u64 && v < 0) v = INT64_MAX;
      return v;
    }
  }
}

// The checks every scatter's rule makes; returns the operand.
std::vector<AbstractValue> scatter_rule(std::string_view op, std::span<const AbstractValue> in, const Params& p,
                                        bool numeric_only);

}  // namespace strata::gather_scatter

namespace strata::gather_scatter {

// Indices with their index-vector dim last (a trailing 1 added when it was the rank): the
// form the batching rules extend with an index into the batch.
Array vector_dim_last(const Array& indices, int64_t ivd);
// `indices` (batch dim first, index-vector dim last) with the example number prepended to
// each index vector: what lets one gather or scatter address every example's operand.
Array with_example_index(const Array& indices);
// Gather's clip semantics made explicit: each index-vector entry j clamped to
// [0, operand[map[j]] - size[map[j]]] (the transpose of a clipping gather scatters there).
Array clamp_indices(const Array& indices, int64_t ivd, const Shape& operand, const IntList& map, const IntList& sizes);

}  // namespace strata::gather_scatter

namespace strata::gather_scatter {

// The scatter kernel: the operand copied, then each update whose window stays inside combined
// into it, in row-major order of the index vectors (the last of equal indices wins for
// replace). C::apply(old, update) works on compute types (bf16/f16 in f32) and on complex
// numbers (min and max in the lexicographic order, kernels::complex_extremum).
template <class C>
void scatter_kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  ScatterDims s = scatter_dims(p);
  const Shape& xs = in[0].shape();
  size_t item = itemsize(in[0].dtype());
  std::memcpy(out[0].data, in[0].data, static_cast<size_t>(in[0].size()) * item);
  if (in[2].size() == 0) return;
  Walk walk(xs, in[1].shape(), in[2].shape(), s.update_window_dims, s.inserted_window_dims, s.index_vector_dim);
  IntList wsize = window_sizes(xs, in[2].shape(), s.update_window_dims, s.inserted_window_dims);
  std::vector<int64_t> xstride = kernels::contiguous_strides(xs);
  auto run = [&](auto tag) {
    using S = typename decltype(tag)::type;
    using T = typename kernels::ComputeOf<S>::type;
    S* y = out[0].as<S>();
    const S* u = in[2].as<S>();
    walk.for_each_batch([&](int64_t r_base, int64_t idx_base) {
      int64_t x_base = 0;
      for (size_t j = 0; j < s.scatter_dims_to_operand_dims.size(); ++j) {
        size_t d = static_cast<size_t>(s.scatter_dims_to_operand_dims[j]);
        int64_t v = index_at(in[1], idx_base, static_cast<int64_t>(j), walk.idx_vector_stride);
        if (v < 0 || v > xs[d] - wsize[d]) return;  // the window would leave the operand: dropped
        x_base += v * xstride[d];
      }
      for (size_t w = 0; w < walk.r_window.size(); ++w) {
        S& dst = y[x_base + walk.x_window[w]];
        dst = static_cast<S>(C::apply(static_cast<T>(dst), static_cast<T>(u[r_base + walk.r_window[w]])));
      }
    });
  };
  kernels::dispatch_any(in[0].dtype(), run);
}

struct Replace {
  template <class T> static T apply(T, T u) { return u; }
};
struct Add {
  template <class T> static T apply(T a, T u) {
    return kernels::WrappingAdd{}(a, u);
  }
};
struct Mul {
  template <class T> static T apply(T a, T u) {
    return kernels::WrappingMul{}(a, u);
  }
};
// max and min propagate nan (as the elementwise max/min).
struct Max {
  template <class T> static T apply(T a, T u) {
    if constexpr (kernels::is_complex_storage<T>) {
      return kernels::complex_extremum<true>(a, u);
    } else if constexpr (std::is_floating_point_v<T>) {
      return kernels::ieee_max(a, u);  // nan wins, +0 over -0: the compiled maximumf
    } else {
      return a < u ? u : a;
    }
  }
};
struct Min {
  template <class T> static T apply(T a, T u) {
    if constexpr (kernels::is_complex_storage<T>) {
      return kernels::complex_extremum<false>(a, u);
    } else if constexpr (std::is_floating_point_v<T>) {
      return kernels::ieee_min(a, u);  // nan wins, -0 under +0: the compiled minimumf
    } else {
      return u < a ? u : a;
    }
  }
};

// ---- Derivatives (gather_scatter.cpp) ----
// a's windows at the scatter's indices, shaped like its updates (zeros for a dropped update).
Array gather_windows(const Array& a, const Array& indices, const ScatterDims& s, const Shape& updates_shape);
// Per update element: whether it is the one that stayed where it was written (the last in
// row-major order of the index vectors, as the kernels write), found as JAX does by
// scattering ids; false for dropped updates.
Array updates_that_won(const Array& operand, const Array& indices, const Array& updates, const ScatterDims& s);
// scatter_min and scatter_max (JAX's _scatter_extremal_jvp): the tangent of each result is the
// average of the tangents of the values that equal it (the operand's and every update's).
std::vector<Array> extremal_jvp(const Primitive& p, std::span<const Array> x, std::span<const Array> t, const Params& params);
std::vector<Array> extremal_vjp(const Primitive& p, std::span<const Array> x, std::span<const Array> ct, const Params& params);

}  // namespace strata::gather_scatter

namespace strata::gather_scatter {

// JAX's _scatter_batching_rule: operand and updates batch dim first (an unbatched one
// repeated); unbatched indices make the batch a window dim, batched ones name each example.
template <const Primitive& P>
batching::Out scatter_batch_rule(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  ScatterDims s = scatter_dims(p);
  int64_t n = batching::batch_size(args, dims);
  auto batched = [&](size_t i) { return batching::front_or_repeat(args, dims, i, n); };
  Array x = batched(0), u = batched(2);
  if (dims[1] == not_mapped) {
    ScatterDims b{batching::shifted(s.update_window_dims, 0), batching::shifted(s.inserted_window_dims),
                  batching::shifted(s.scatter_dims_to_operand_dims), s.index_vector_dim};
    return {{lax::scatter(P, x, args[1], u, b)}, {0}};
  }
  Array idx = with_example_index(vector_dim_last(batching::move_dim(args[1], dims[1], 0), s.index_vector_dim + 1));
  ScatterDims b{batching::shifted(s.update_window_dims), batching::shifted(s.inserted_window_dims, 0),
                batching::shifted(s.scatter_dims_to_operand_dims, 0), idx.ndim() - 1};
  return {{lax::scatter(P, x, idx, u, b)}, {0}};
}

}  // namespace strata::gather_scatter
