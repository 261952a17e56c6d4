// tracer/primitives/convert_element_type.cpp — `convert_element_type[new_dtype]`: converts
// each element (floats to ints truncate toward zero and saturate, nan → 0; to bool is != 0).
#include "elementwise.h"
#include "ad_rules.h"
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

// Derivatives pass through conversions between float and complex types (complex to real keeps
// the real part, whose transpose is ct + 0i; real to complex adds 0i, whose transpose is
// real(ct)); to or from integers they vanish.
std::vector<Array> jvp(std::span<const Array>, std::span<const Array> t, std::span<const Array> y, const Params& p) {
  if (!t[0].valid() || !is_inexact(y[0].dtype())) return {Array()};
  return {lax::bind1(prim::kConvertElementType, {t[0]}, p)};
}
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params&) {
  if (!is_inexact(x[0].dtype())) return {Array()};
  return {lax::bind1(prim::kConvertElementType, {ct[0]}, Params{{"new_dtype", x[0].dtype()}, {"weak_type", x[0].weak_type()}})};
}

}  // namespace

const Primitive prim::kConvertElementType{
    .name = "convert_element_type",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kConvertElementType>,
};

}  // namespace strata
