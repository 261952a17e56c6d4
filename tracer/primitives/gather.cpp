// tracer/primitives/gather.cpp — `gather[offset_dims collapsed_slice_dims start_index_map
// index_vector_dim slice_sizes mode] operand indices`: one `slice_sizes` box of the operand per
// index vector (StableHLO's gather; JAX's lax.gather without operand batching dims). mode 0
// (clip, JAX's default) clamps each start so the box stays inside; mode 1 (fill) reads zeros
// for a box that would leave the operand (used by the scatters' transposes).
#include "gather_scatter.h"

namespace strata {
namespace {

using namespace gather_scatter;

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("gather", in, 2);
  if (!is_integer(in[1].dtype)) throw DTypeError("gather: expects integer indices, but got " + in[1].str());
  int64_t mode = p.get_int("mode");
  if (mode != kModeClip && mode != kModeFill) throw ValueError("gather: expects mode 0 (clip) or 1 (fill), but got " + std::to_string(mode));
  Shape out = primitives::check("gather", shape_rules::gather(in[0].shape, in[1].shape, gather_dims(p), p.get_ints("slice_sizes")));
  return {AbstractValue{out, in[0].dtype, in[0].weak}};
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  GatherDims g = gather_dims(p);
  const IntList& sizes = p.get_ints("slice_sizes");
  bool fill = p.get_int("mode") == kModeFill;
  const Shape& xs = in[0].shape();
  if (out[0].size() == 0) return;
  Walk walk(xs, in[1].shape(), out[0].shape(), g.offset_dims, g.collapsed_slice_dims, g.index_vector_dim);
  std::vector<int64_t> xstride = kernels::contiguous_strides(xs);
  size_t item = itemsize(in[0].dtype());
  const char* x = static_cast<const char*>(in[0].data);
  char* y = static_cast<char*>(out[0].data);
  walk.for_each_batch([&](int64_t r_base, int64_t idx_base) {
    int64_t x_base = 0;
    bool inside = true;
    for (size_t j = 0; j < g.start_index_map.size(); ++j) {
      size_t d = static_cast<size_t>(g.start_index_map[j]);
      int64_t hi = xs[d] - sizes[d];
      int64_t s = index_at(in[1], idx_base, static_cast<int64_t>(j), walk.idx_vector_stride);
      inside = inside && s >= 0 && s <= hi;
      x_base += std::clamp<int64_t>(s, 0, hi) * xstride[d];
    }
    for (size_t w = 0; w < walk.r_window.size(); ++w) {
      char* dst = y + static_cast<size_t>(r_base + walk.r_window[w]) * item;
      if (fill && !inside) std::memset(dst, 0, item);
      else std::memcpy(dst, x + static_cast<size_t>(x_base + walk.x_window[w]) * item, item);
    }
  });
}

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>, const Params& p) {
  if (!t[0].valid()) return {Array()};
  return {lax::bind1(prim::kGather, {t[0], x[1]}, p)};
}

// The cotangent added back where each box was read: scatter_add at the boxes' (clamped) starts.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  GatherDims g = gather_dims(p);
  Array idx = x[1];
  if (p.get_int("mode") == kModeClip)
    idx = clamp_indices(idx, g.index_vector_dim, x[0].shape(), g.start_index_map, p.get_ints("slice_sizes"));
  Array zeros = lax::zeros(AbstractValue{x[0].shape(), ct[0].dtype(), false});
  return {lax::scatter(prim::kScatterAdd, zeros, idx, ct[0], scatter_of(g)), Array()};
}

// JAX's _gather_batching_rule: a batched operand gets a window over the batch; batched
// indices add a batch dim of the result; both: each index vector also names its example.
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  GatherDims g = gather_dims(p);
  IntList sizes = p.get_ints("slice_sizes");
  int64_t mode = p.get_int("mode");
  if (dims[1] == not_mapped) {
    Array x = batching::front(args, dims);
    GatherDims b{batching::shifted(g.offset_dims, 0), batching::shifted(g.collapsed_slice_dims),
                 batching::shifted(g.start_index_map), g.index_vector_dim};
    IntList bs{x.shape(0)};
    bs.insert(bs.end(), sizes.begin(), sizes.end());
    return {{lax::gather(x, args[1], b, bs, mode)}, {0}};
  }
  // Batch dim first: the example's dim k is now k + 1.
  Array idx = vector_dim_last(batching::move_dim(args[1], dims[1], 0), g.index_vector_dim + 1);
  if (dims[0] == not_mapped) {
    GatherDims b{batching::shifted(g.offset_dims), g.collapsed_slice_dims, g.start_index_map, idx.ndim() - 1};
    return {{lax::gather(args[0], idx, b, sizes, mode)}, {0}};
  }
  Array x = batching::front(args, dims);
  GatherDims b{batching::shifted(g.offset_dims), batching::shifted(g.collapsed_slice_dims, 0),
               batching::shifted(g.start_index_map, 0), idx.ndim() - 1};
  IntList bs{1};
  bs.insert(bs.end(), sizes.begin(), sizes.end());
  return {{lax::gather(x, with_example_index(idx), b, bs, mode)}, {0}};
}

}  // namespace

const Primitive prim::kGather{
    .name = "gather",
    .arity = 2,
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
