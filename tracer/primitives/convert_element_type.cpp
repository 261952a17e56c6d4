// tracer/primitives/convert_element_type.cpp — `convert_element_type[new_dtype]`: converts
// each element (floats to ints truncate toward zero and saturate, nan → 0; to bool is != 0).
#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("convert_element_type", in, 1);
  bool weak = p.has("weak_type") && p.get<bool>("weak_type");
  return {AbstractValue{in[0].shape, p.get_dtype("new_dtype"), weak}};
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
  kernels::convert_elements(in[0].data, in[0].dtype(), out[0].data, out[0].dtype(), in[0].size());
}

}  // namespace

const Primitive prim::kConvertElementType{
    .name = "convert_element_type",
    .traits = kElementwise | kCheap,
    .shape_rule = rule,
    .eager = kernel,
};

}  // namespace strata
