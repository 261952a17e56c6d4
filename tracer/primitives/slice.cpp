// tracer/primitives/slice.cpp — `slice[start_indices, limit_indices, strides]`: the elements
// start + k * stride below limit in each dimension (StableHLO's slice).
#include "batch_rules.h"
#include "ad_rules.h"
#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("slice", in, 1);
  Shape out = primitives::check(
      "slice", shape_rules::slice(in[0].shape, p.get_ints("start_indices"),
                                  p.get_ints("limit_indices"), p.get_ints("strides")));
  return {AbstractValue{out, in[0].dtype, in[0].weak}};
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  const IntList& start = p.get_ints("start_indices");
  const IntList& step = p.get_ints("strides");
  std::vector<int64_t> in_strides = kernels::contiguous_strides(in[0].shape());
  std::vector<int64_t> strides(in_strides.size());
  int64_t offset = 0;
  for (size_t i = 0; i < strides.size(); ++i) {
    offset += start[i] * in_strides[i];
    strides[i] = in_strides[i] * step[i];
  }
  kernels::strided_copy(in[0].data, offset, strides, out[0].data, out[0].shape(), itemsize(in[0].dtype()));
}

std::vector<Array> jvp(std::span<const Array>, std::span<const Array> t, std::span<const Array>, const Params& p) {
  return {lax::bind1(prim::kSlice, {t[0]}, p)};
}
// The cotangent, padded with zeros back to the operand's shape (interior padding undoes the
// strides).
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  const IntList& start = p.get_ints("start_indices");
  const IntList& step = p.get_ints("strides");
  const Shape& in = x[0].shape();
  const Shape& out = ct[0].shape();
  IntList lo(in.size()), hi(in.size()), interior(in.size());
  for (size_t d = 0; d < in.size(); ++d) {
    lo[d] = start[d];
    interior[d] = step[d] - 1;
    hi[d] = out[d] > 0 ? in[d] - start[d] - (out[d] - 1) * step[d] - 1 : in[d] - start[d];
  }
  return {lax::bind1(prim::kPad, {ct[0], ad::scalar_like(0, ct[0])},
                        Params{{"padding_low", lo}, {"padding_high", hi}, {"padding_interior", interior}})};
}


// Batched: the whole batch dimension, first, with the example's window after it.
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  Array x = batching::front(args, dims);
  IntList start{0}, limit{x.shape(0)}, strides;
  for (int64_t v : p.get_ints("start_indices")) start.push_back(v);
  for (int64_t v : p.get_ints("limit_indices")) limit.push_back(v);
  if (!p.get_ints("strides").empty()) {
    strides.push_back(1);
    for (int64_t v : p.get_ints("strides")) strides.push_back(v);
  }
  return {{lax::slice(x, start, limit, strides)}, {0}};
}

}  // namespace

const Primitive prim::kSlice{
    .name = "slice",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
