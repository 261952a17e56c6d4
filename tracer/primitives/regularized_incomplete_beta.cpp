// tracer/primitives/regularized_incomplete_beta.cpp — `regularized_incomplete_beta`: I_x(a, b),
// the regularized incomplete beta function, elementwise (jax.lax.betainc; operands a, b, x).
// The continued fraction of tracer/incomplete_beta.h, the one the compiled code evaluates (and
// JAX's).
#include <cmath>

#include "ad_rules.h"
#include "common.h"
#include "elementwise.h"
#include "../array_impl.h"
#include "../incomplete_beta.h"

namespace strata {
namespace {

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
  const bool s0 = in[0].shape().empty(), s1 = in[1].shape().empty(), s2 = in[2].shape().empty();
  kernels::dispatch(out[0].dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    if constexpr (elementwise::kIsFloat<S>) {
      using C = typename kernels::ComputeOf<S>::type;
      const S *a = in[0].as<S>(), *b = in[1].as<S>(), *x = in[2].as<S>();
      S* o = out[0].as<S>();
      kernels::parallel_for(out[0].size(), kernels::kElementwiseGrain, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i)
          o[i] = static_cast<S>(incomplete_beta::betainc(static_cast<C>(a[s0 ? 0 : i]), static_cast<C>(b[s1 ? 0 : i]),
                                                         static_cast<C>(x[s2 ? 0 : i])));
      });
    } else {
      throw Error("internal: unsupported dtype in regularized_incomplete_beta");
    }
  });
}

// ∂I/∂x = x^(a-1) (1-x)^(b-1) / B(a, b) (as JAX). The derivatives in a and b are not
// implemented (JAX raises): nan, never a silent zero.
Array dx(std::span<const Array> x) {
  const Array &a = x[0], &b = x[1], &v = x[2];
  Array one = ad::scalar_like(1.0, a);
  auto lgamma = [](const Array& z) { return lax::bind1(prim::kLgamma, {z}); };
  Array lbeta = lax::sub(lax::add(lgamma(a), lgamma(b)), lgamma(lax::add(a, b)));
  return lax::exp(lax::sub(lax::add(lax::mul(lax::sub(b, one), lax::log1p(lax::neg(v))), lax::mul(lax::sub(a, one), lax::log(v))),
                           lbeta));
}

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y, const Params&) {
  const AbstractValue& out = detail::aval_of(y[0]);
  Array r;
  auto add = [&](const Array& c) { r = r.valid() ? lax::add(r, c) : c; };
  for (int k = 0; k < 2; ++k)
    if (t[k].valid()) add(lax::mul(ad::broadcast_scalar(t[k], out.shape), lax::full(out, NAN)));
  if (t[2].valid()) add(lax::mul(ad::broadcast_scalar(t[2], out.shape), ad::broadcast_scalar(dx(x), out.shape)));
  return {r};
}

std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct, const Params&) {
  const AbstractValue& out = detail::aval_of(y[0]);
  Array nan_ct = lax::mul(ct[0], lax::full(out, NAN));
  return {ad::unbroadcast(nan_ct, x[0]), ad::unbroadcast(nan_ct, x[1]),
          ad::unbroadcast(lax::mul(ct[0], ad::broadcast_scalar(dx(x), out.shape)), x[2])};
}

}  // namespace

const Primitive prim::kRegularizedIncompleteBeta{
    .name = "regularized_incomplete_beta",
    .arity = 3,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("regularized_incomplete_beta", in, elementwise::Accepts::kFloat, false);
    },
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kRegularizedIncompleteBeta>,
};

}  // namespace strata
