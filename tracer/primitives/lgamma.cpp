// tracer/primitives/lgamma.cpp — `lgamma`: log|Γ(x)|, elementwise (jax.lax.lgamma). The Lanczos
// approximation of tracer/gamma_lanczos.h (JAX's; a series where it crosses 0), the one the
// compiled code evaluates.
#include "ad_rules.h"
#include "elementwise.h"
#include "../gamma_lanczos.h"

namespace strata {
namespace {

// Per element in the compute type (bf16/f16 in f32).
struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X> static auto eval(const X& x) {
    return x.unaryExpr([](auto v) { return gamma_lanczos::lgamma(v); });
  }
};

// g times the derivative ψ(x) (digamma), as JAX.
Array scale(const Array& g, const Array& x, const Array&) { return lax::mul(g, lax::bind1(prim::kDigamma, {x})); }

}  // namespace

const Primitive prim::kLgamma{
    .name = "lgamma",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("lgamma", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kLgamma>,
};

}  // namespace strata
