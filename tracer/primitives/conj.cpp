// tracer/primitives/conj.cpp — `conj`: the complex conjugate x - iy, elementwise. As
// jax.lax.conj, a real operand gives a complex result (f64 -> c128, else c64) with 0i; the
// API's st::conj returns a real array as it is.
#include "ad_rules.h"
#include "complex_parts.h"

namespace strata {
namespace {

// Linear (JAX's rules): the conjugate of the tangent; the transpose conjugates the cotangent
// (its real part for a real operand).
std::vector<Array> jvp(std::span<const Array>, std::span<const Array> t, std::span<const Array>, const Params&) {
  return {lax::conj(t[0])};
}
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params&) {
  if (!is_complex(x[0].dtype())) return {lax::convert_element_type(lax::real(ct[0]), x[0].dtype())};
  return {lax::conj(ct[0])};
}

}  // namespace

const Primitive prim::kConj{
    .name = "conj",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      std::vector<AbstractValue> r = elementwise::rule("conj", in, elementwise::Accepts::kInexact, false);
      r[0].dtype = complex_dtype(in[0].dtype);
      r[0].weak = false;
      return r;
    },
    .eager = [](std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
      if (!is_complex(in[0].dtype())) {  // a real operand: its value, 0i
        kernels::convert_elements(in[0].data, in[0].dtype(), out[0].data, out[0].dtype(), in[0].size());
        return;
      }
      complex_parts::map_complex(in[0], out[0], [](auto z) { return std::conj(z); });
    },
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kConj>,
};

}  // namespace strata
