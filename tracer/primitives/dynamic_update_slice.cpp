// tracer/primitives/dynamic_update_slice.cpp — `dynamic_update_slice operand update
// *start_indices`: the operand with `update` written at run-time starts (one 0-d i32 a
// dimension), each clamped to [0, dim - size] so that the box stays inside (JAX's
// lax.dynamic_update_slice, StableHLO's dynamic_update_slice).
#include "dynamic_slice_common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params&) {
  if (in.size() < 2)
    throw ValueError("dynamic_update_slice: expects an operand, an update and start indices, but got " +
                     std::to_string(in.size()) + " operands");
  const AbstractValue& x = in[0];
  const AbstractValue& u = in[1];
  if (u.dtype != x.dtype)
    throw DTypeError("dynamic_update_slice: expects an update of the operand's dtype, but got " + u.str() + " for " + x.str());
  bool fits = u.shape.size() == x.shape.size();
  for (size_t d = 0; fits && d < x.shape.size(); ++d) fits = u.shape[d] <= x.shape[d];
  if (!fits)
    throw ShapeError("dynamic_update_slice: expects an update of the operand's rank and no larger, but got " + u.str() +
                     " for " + x.str());
  dynamic_slicing::check_starts("dynamic_update_slice", x, in.subspan(2));
  return {x};
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
  const Shape& xs = in[0].shape();
  const Shape& us = in[1].shape();
  size_t item = itemsize(in[0].dtype());
  std::memcpy(out[0].data, in[0].data, static_cast<size_t>(in[0].size()) * item);
  if (in[1].size() == 0) return;
  std::vector<int64_t> starts = dynamic_slicing::clamped_starts(in.subspan(2), xs, us);
  // Row by row of the update's innermost dimension.
  std::vector<int64_t> xstride = kernels::contiguous_strides(xs);
  size_t rank = xs.size();
  int64_t row = rank ? us[rank - 1] : 1;
  int64_t rows = in[1].size() / row;
  std::vector<int64_t> idx(rank, 0);
  auto* dst = static_cast<char*>(out[0].data);
  const auto* src = static_cast<const char*>(in[1].data);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t o = 0;
    for (size_t d = 0; d < rank; ++d) o += (starts[d] + idx[d]) * xstride[d];
    std::memcpy(dst + static_cast<size_t>(o) * item, src + static_cast<size_t>(r * row) * item, static_cast<size_t>(row) * item);
    for (size_t d = rank >= 1 ? rank - 1 : 0; d-- > 0;) {
      if (++idx[d] < us[d]) break;
      idx[d] = 0;
    }
  }
}

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>, const Params&) {
  if (!t[0].valid() && !t[1].valid()) return {Array()};
  std::vector<Array> starts(x.begin() + 2, x.end());
  return {lax::dynamic_update_slice(ad::instantiate(t[0], detail::aval_of(x[0])),
                                    ad::instantiate(t[1], detail::aval_of(x[1])), starts)};
}

// The operand's cotangent is the output's with the box zeroed; the update's is the box.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params&) {
  std::vector<Array> r(x.size());
  std::vector<Array> starts(x.begin() + 2, x.end());
  const AbstractValue& u = detail::aval_of(x[1]);
  r[0] = lax::dynamic_update_slice(ct[0], lax::zeros(AbstractValue{u.shape, ct[0].dtype(), false}), starts);
  r[1] = lax::dynamic_slice(ct[0], starts, IntList(u.shape.begin(), u.shape.end()));
  return r;
}

// Unbatched starts: operand and update with the batch dimension first (an unbatched one
// repeated), the box spanning the whole batch.
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params&) {
  dynamic_slicing::refuse_batched_starts("dynamic_update_slice", dims.subspan(2));
  int64_t n = batching::batch_size(args.first(2), dims.first(2));
  auto batched = [&](size_t i) { return batching::front_or_repeat(args, dims, i, n); };
  std::vector<Array> starts{lax::scalar(0, DType::i32)};
  starts.insert(starts.end(), args.begin() + 2, args.end());
  return {{lax::dynamic_update_slice(batched(0), batched(1), starts)}, {0}};
}

}  // namespace

const Primitive prim::kDynamicUpdateSlice{
    .name = "dynamic_update_slice",
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
