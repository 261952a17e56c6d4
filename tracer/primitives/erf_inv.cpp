// tracer/primitives/erf_inv.cpp — `erf_inv`: the inverse error function, elementwise (as
// jax.lax.erf_inv): ±inf at ±1, nan for |x| > 1. Giles' polynomials (tracer/erf_inv_poly.h),
// the same ones the compiled code evaluates.
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"
#include "../erf_inv_poly.h"

namespace strata {
namespace {

// Per element in the compute type (bf16/f16 in f32).
struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X> static auto eval(const X& x) {
    return x.unaryExpr([](auto v) { return erf_inv_poly::eval(v); });
  }
};

// g times the derivative sqrt(pi)/2 · exp(y²), y = erf_inv(x) the output.
Array scale(const Array& g, const Array&, const Array& y) {
  return lax::mul(g, lax::mul(ad::scalar_like(0.88622692545275801365, y), lax::exp(lax::mul(y, y))));
}

}  // namespace

const Primitive prim::kErfInv{
    .name = "erf_inv",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("erf_inv", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kErfInv>,
};

}  // namespace strata
