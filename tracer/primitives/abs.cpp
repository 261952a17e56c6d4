// tracer/primitives/abs.cpp — `abs`: absolute value, elementwise.
#include "ad_rules.h"
#include "complex_parts.h"
#include "elementwise.h"
#include "../kernels/complex_math.h"
#include "../kernels/wrapping.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S>;
  template <class X> static auto eval(const X& x) {
    if constexpr (std::is_integral_v<typename X::Scalar>) return x.unaryExpr(kernels::WrappingAbs{});
    else return x.abs();
  }
};

// g times the derivative at x (y is the output): g where x >= 0, -g elsewhere, so the
// derivative at 0 is 1, as JAX's.
Array scale(const Array& g, const Array& x, const Array&) {
  return lax::select(lax::ge(x, ad::scalar_like(0.0, x)), g, lax::neg(g));
}

// Of a complex x (JAX's rules): d|x| = Re(w·t) with w = conj(x) / |x| (0 at x = 0), whose
// transpose is ct·w.
Array direction(const Array& x, const Array& y) {
  Array zero = ad::scalar_like(0, y);
  Array safe = lax::select(lax::eq(y, zero), ad::scalar_like(1, y), y);
  Array w = lax::div(lax::conj(x), lax::convert_element_type(safe, x.dtype()));
  return lax::select(lax::eq(y, zero), ad::scalar_like(0, x), w);
}
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y, const Params&) {
  if (!is_complex(x[0].dtype())) return {scale(t[0], x[0], y[0])};
  return {lax::real(lax::mul(direction(x[0], y[0]), t[0]))};
}
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct, const Params&) {
  if (!is_complex(x[0].dtype())) return {scale(ct[0], x[0], y[0])};
  return {lax::mul(direction(x[0], y[0]), lax::convert_element_type(ct[0], x[0].dtype()))};
}

// |z| of a complex z is real (c64 -> f32): the compiled code's formula (kernels/complex_math.h;
// scaled against overflow, nan for a nan part as in JAX).
void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  if (!is_complex(in[0].dtype())) return elementwise::unary_kernel<Op>(in, out, p);
  complex_parts::map_complex(in[0], out[0], [](auto z) { return kernels::complex_abs(z); });
}

}  // namespace

const Primitive prim::kAbs{
    .name = "abs",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      std::vector<AbstractValue> r = elementwise::rule("abs", in, elementwise::Accepts::kNumeric, false);
      r[0].dtype = real_dtype(r[0].dtype);
      return r;
    },
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kAbs>,
};

}  // namespace strata
