// tracer/primitives/bitcast_convert_type.cpp — `bitcast_convert_type[new_dtype]`: reinterprets
// each element's bits as another dtype (jax.lax.bitcast_convert_type): of the same width, the
// same shape (i32 ↔ f32); to a narrower dtype, a last dimension of the ratio of the widths is
// added (f32[3] → u8[3, 4], bytes in memory order) and from one removed. bool and complex only
// to themselves, as in JAX; a sub-byte number only to another of its width (i4 ↔ u4 ↔
// f4_e2m1fn: the byte's low bits are the same). The bytes stay as they are, so the kernel is a copy.
#include <cstring>

#include "elementwise.h"
#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("bitcast_convert_type", in, 1);
  DType from = in[0].dtype, to = p.get_dtype("new_dtype");
  if (from == to) return {AbstractValue{in[0].shape, to, false}};
  if (is_complex(to) || is_complex(from) || is_bool(to) || is_bool(from))
    throw DTypeError("bitcast_convert_type: does not reinterpret bool or complex values unless the operand and "
                     "result dtypes match (as jax.lax), but got " + in[0].str() + " to " + std::string(short_name(to)));
  if ((bit_width(from) < 8 || bit_width(to) < 8) && bit_width(from) != bit_width(to))
    throw DTypeError("bitcast_convert_type: reinterprets a 2-, 4- or 6-bit number only as another of its width "
                     "(i4 <-> u4 <-> f4_e2m1fn, i2 <-> u2), but got " + in[0].str() + " to " + std::string(short_name(to)) +
                     "; convert_element_type changes the width");
  std::size_t wi = itemsize(from), wo = itemsize(to);
  Shape shape = in[0].shape;
  if (wi > wo) {
    shape.push_back(static_cast<int64_t>(wi / wo));
  } else if (wi < wo) {
    int64_t ratio = static_cast<int64_t>(wo / wi);
    if (shape.empty() || shape.back() != ratio)
      throw ShapeError("bitcast_convert_type: " + std::string(short_name(from)) + " to " + std::string(short_name(to)) +
                       " expects a last dimension of " + std::to_string(ratio) + " (the ratio of their widths), but got " +
                       in[0].str());
    shape.pop_back();
  }
  return {AbstractValue{shape, to, false}};
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
