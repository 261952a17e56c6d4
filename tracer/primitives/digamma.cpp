// tracer/primitives/digamma.cpp — `digamma`: ψ(x) = Γ'(x)/Γ(x), elementwise (jax.lax.digamma);
// nan at the poles 0, -1, -2, .... The Lanczos approximation of tracer/gamma_lanczos.h, the
// one the compiled code evaluates (and JAX's).
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"
#include "../array_impl.h"
#include "../gamma_lanczos.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X> static auto eval(const X& x) {
    return x.unaryExpr([](auto v) { return gamma_lanczos::digamma(v); });
  }
};

// The trigamma function ψ₁(x) = ψ'(x) from primitives (so that it differentiates again):
// ψ₁(z) = Σ_{k<10} 1/(z+k)² + the asymptotic series at w = z + 10 (error below 1e-15
// relative), for z = x, or z = 1 - x below 1/2 with the reflection
// ψ₁(x) = π²/sin²(πx) - ψ₁(1 - x).
Array trigamma(const Array& x) {
  auto c = [&](double v) { return ad::scalar_like(v, x); };
  Array reflect = lax::lt(x, c(0.5));
  Array z = lax::select(reflect, lax::sub(c(1.0), x), x);
  Array acc = lax::zeros(detail::aval_of(x));
  for (int k = 0; k < 10; ++k) {
    Array zk = lax::add(z, c(k));
    acc = lax::add(acc, lax::div(c(1.0), lax::mul(zk, zk)));
  }
  Array w = lax::add(z, c(10.0));
  Array r = lax::div(c(1.0), w), r2 = lax::mul(r, r);
  // 1/w + 1/(2w²) + Σ B₂ₖ / w^(2k+1), k = 1..6.
  const double bernoulli[] = {1.0 / 6, -1.0 / 30, 1.0 / 42, -1.0 / 30, 5.0 / 66, -691.0 / 2730};
  Array series = c(0.0);
  for (int k = 5; k >= 0; --k) series = lax::mul(lax::add(series, c(bernoulli[k])), r2);
  Array psi1 = lax::add(acc, lax::add(lax::add(r, lax::mul(c(0.5), r2)), lax::mul(series, r)));
  // sin²(πx) at x moved by a whole number into [-1/2, 1/2]; where the reflection is not taken
  // it is evaluated at 1/4, so that its derivative there is finite (0 · inf would be nan).
  Array xr = lax::select(reflect, x, lax::full(detail::aval_of(x), 0.25));
  Array s = lax::sin(lax::mul(c(M_PI), lax::sub(xr, lax::floor(lax::add(xr, c(0.5))))));
  Array reflection = lax::sub(lax::div(c(M_PI * M_PI), lax::mul(s, s)), psi1);
  return lax::select(reflect, reflection, psi1);
}

Array scale(const Array& g, const Array& x, const Array&) { return lax::mul(g, trigamma(x)); }

}  // namespace

const Primitive prim::kDigamma{
    .name = "digamma",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("digamma", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kDigamma>,
};

}  // namespace strata
