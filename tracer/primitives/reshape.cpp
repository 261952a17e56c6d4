// tracer/primitives/reshape.cpp — `reshape[new_sizes]`: the same elements in row-major order
// under another shape with as many elements.
#include <cstring>

#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("reshape", in, 1);
  Shape out = primitives::check("reshape", shape_rules::reshape(in[0].shape, p.get_ints("new_sizes")));
  return {AbstractValue{out, in[0].dtype, in[0].weak}};
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
  std::memcpy(out[0].data, in[0].data, in[0].aval->nbytes());
}

}  // namespace

const Primitive prim::kReshape{
    .name = "reshape",
    .traits = kShapeOnly | kCheap,
    .shape_rule = rule,
    .eager = kernel,
};

}  // namespace strata
