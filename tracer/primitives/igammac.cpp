// tracer/primitives/igammac.cpp — `igammac`: the regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x), elementwise
// (jax.lax.igammac; the first operand is a). The algorithm of tracer/incomplete_gamma.h, the one
// the compiled code evaluates (and JAX's).
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"
#include "../incomplete_gamma.h"

namespace strata {
namespace {

struct Fn {
  template <class T> T operator()(T a, T x) const { return incomplete_gamma::igammac(a, x); }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class A, class X> static auto eval(const A& a, const X& x) { return a.binaryExpr(x, Fn{}); }
};

// ∂P/∂x = xᵃ⁻¹ e⁻ˣ / Γ(a) (the density of Gamma(a, 1)); ∂P/∂a = igamma_grad_a (as JAX).
Array density(const Array& a, const Array& x) {
  Array one = ad::scalar_like(1.0, a);
  return lax::exp(lax::sub(lax::sub(lax::mul(lax::sub(a, one), lax::log(x)), x), lax::bind1(prim::kLgamma, {a})));
}
Array da(const Array& a, const Array& x, const Array&) { return lax::neg(lax::bind1(prim::kIgammaGradA, {a, x})); }
Array dx(const Array& a, const Array& x, const Array&) { return lax::neg(density(a, x)); }
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y, const Params&) {
  return ad::binary_jvp(x, t, y, da, dx);
}
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct, const Params&) {
  return ad::binary_vjp(x, y, ct, da, dx);
}

}  // namespace

const Primitive prim::kIgammac{
    .name = "igammac",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("igammac", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::binary_kernel<Op>,
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kIgammac>,
};

}  // namespace strata
