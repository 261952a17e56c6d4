// tracer/primitives/broadcast_in_dim.cpp — `broadcast_in_dim[shape, broadcast_dimensions]`:
// operand dimension i becomes result dimension broadcast_dimensions[i]; size-1 dimensions and
// new dimensions repeat the data (StableHLO's broadcast_in_dim).
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

}  // namespace

const Primitive prim::kBroadcastInDim{
    .name = "broadcast_in_dim",
    .traits = kShapeOnly | kCheap,
    .shape_rule = rule,
    .eager = kernel,
};

}  // namespace strata
