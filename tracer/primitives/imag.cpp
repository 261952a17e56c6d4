// tracer/primitives/imag.cpp — `imag`: the imaginary part of a complex number, elementwise
// (c64 -> f32, c128 -> f64).
#include "ad_rules.h"
#include "complex_parts.h"

namespace strata {
namespace {

// Linear (JAX's rules): the tangent's imaginary part; the transpose is 0 - i·ct.
std::vector<Array> jvp(std::span<const Array>, std::span<const Array> t, std::span<const Array>, const Params&) {
  return {lax::imag(t[0])};
}
std::vector<Array> vjp(std::span<const Array>, std::span<const Array>, std::span<const Array> ct, const Params&) {
  return {lax::complex(ad::scalar_like(0, ct[0]), lax::neg(ct[0]))};
}

}  // namespace

const Primitive prim::kImag{
    .name = "imag",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) { return complex_parts::part_rule("imag", in); },
    .eager = [](std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
      complex_parts::map_complex(in[0], out[0], [](auto z) { return z.imag(); });
    },
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kImag>,
};

}  // namespace strata
