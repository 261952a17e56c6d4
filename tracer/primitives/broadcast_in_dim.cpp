// tracer/primitives/broadcast_in_dim.cpp — `broadcast_in_dim[shape, broadcast_dimensions]`:
// operand dimension i becomes result dimension broadcast_dimensions[i]; size-1 dimensions and
// new dimensions repeat the data (StableHLO's broadcast_in_dim).
#include <algorithm>

#include "batch_rules.h"
#include "ad_rules.h"
#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("broadcast_in_dim", in, 1);
  Shape out = primitives::check(
      "broadcast_in_dim", shape_rules::broadcast_in_dim(in[0].shape, p.get_ints("shape"),
                                                        p.get_ints("broadcast_dimensions")));
  return {AbstractValue{out, in[0].dtype, in[0].weak}};
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  const IntList& dims = p.get_ints("broadcast_dimensions");
  std::vector<int64_t> in_strides = kernels::contiguous_strides(in[0].shape());
  std::vector<int64_t> strides(out[0].shape().size(), 0);
  for (size_t i = 0; i < dims.size(); ++i)
    if (in[0].shape()[i] != 1) strides[static_cast<size_t>(dims[i])] = in_strides[i];
  kernels::strided_copy(in[0].data, 0, strides, out[0].data, out[0].shape(), itemsize(in[0].dtype()));
}

std::vector<Array> jvp(std::span<const Array>, std::span<const Array> t, std::span<const Array>, const Params& p) {
  return {lax::bind1(prim::kBroadcastInDim, {t[0]}, p)};
}
// Sums the cotangent over the new dimensions and the stretched size-1 ones.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct, const Params& p) {
  const IntList& dims = p.get_ints("broadcast_dimensions");
  const Shape& in = x[0].shape();
  const Shape& out = y[0].shape();
  IntList axes;
  for (size_t d = 0; d < out.size(); ++d) {
    auto it = std::find(dims.begin(), dims.end(), static_cast<int64_t>(d));
    if (it == dims.end() || (in[static_cast<size_t>(it - dims.begin())] == 1 && out[d] != 1)) axes.push_back(static_cast<int64_t>(d));
  }
  return {lax::reshape(lax::reduce_sum(ct[0], axes), in)};
}


// Batched: the batch dimension first; it maps to a new leading dimension of the result.
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  Array x = batching::front(args, dims);
  Shape shape{x.shape(0)};
  for (int64_t d : p.get_ints("shape")) shape.push_back(d);
  return {{lax::broadcast_in_dim(x, shape, batching::shifted(p.get_ints("broadcast_dimensions"), 0))}, {0}};
}

}  // namespace

const Primitive prim::kBroadcastInDim{
    .name = "broadcast_in_dim",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
