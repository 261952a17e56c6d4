// tracer/primitives/bitcast_convert_type.cpp — `bitcast_convert_type[new_dtype]`: reinterprets
// each element's bits as another dtype of the same width (e.g. i32 ↔ f32).
#include <cstring>

#include "elementwise.h"
#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("bitcast_convert_type", in, 1);
  DType to = p.get_dtype("new_dtype");
  if (is_complex(to) || is_complex(in[0].dtype))
    throw DTypeError("bitcast_convert_type: does not reinterpret complex numbers yet, but got " + in[0].str() + " to " +
                     std::string(short_name(to)));
  if (itemsize(to) != itemsize(in[0].dtype) || to == DType::bool_ || in[0].dtype == DType::bool_)
    throw DTypeError("bitcast_convert_type: expects a non-bool dtype of the operand's width (" +
                     std::to_string(itemsize(in[0].dtype) * 8) + " bits), but got " +
                     std::string(short_name(to)) + " for " + in[0].str());
  return {AbstractValue{in[0].shape, to, false}};
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
  std::memcpy(out[0].data, in[0].data, in[0].aval->nbytes());
}

}  // namespace

const Primitive prim::kBitcastConvertType{
    .name = "bitcast_convert_type",
    .arity = 1,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = rule,
    .eager = kernel,
    .batch = elementwise::batch_rule<prim::kBitcastConvertType>,
};

}  // namespace strata
