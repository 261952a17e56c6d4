// tracer/primitives/clamp.cpp — `clamp`: min(max(operand, lo), hi) elementwise, operands in
// jax.lax.clamp's order (lo, operand, hi); lo and hi are 0-d or of the operand's shape. A nan
// in any operand gives nan (StableHLO's clamp with IEEE maximum/minimum).
#include "ad_rules.h"
#include "common.h"
#include "elementwise.h"
#include "../array_impl.h"
#include "../kernels/ieee_minmax.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params&) {
  primitives::expect_arity("clamp", in, 3);
  for (int k : {0, 2})
    if (!in[k].shape.empty() && in[k].shape != in[1].shape)
      throw ShapeError("clamp: expects bounds that are 0-d or of the operand's shape, but got " + in[0].str() +
                       ", " + in[1].str() + " and " + in[2].str());
  std::vector<AbstractValue> r = elementwise::rule("clamp", in, elementwise::Accepts::kOrdered, false);
  r[0].weak = in[1].weak;
  return r;
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
  bool ls = in[0].shape().empty(), hs = in[2].shape().empty();
  kernels::dispatch(out[0].dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = typename kernels::ComputeOf<S>::type;
    const S *lo = in[0].as<S>(), *x = in[1].as<S>(), *hi = in[2].as<S>();
    S* o = out[0].as<S>();
    kernels::parallel_for(out[0].size(), kernels::kElementwiseGrain, [&](int64_t a, int64_t b) {
      for (int64_t i = a; i < b; ++i) {
        C v = kernels::ieee_max(static_cast<C>(x[i]), static_cast<C>(lo[ls ? 0 : i]));
        o[i] = static_cast<S>(kernels::ieee_min(v, static_cast<C>(hi[hs ? 0 : i])));
      }
    });
  });
}

// Where each operand is the one passed through (jax's clamp derivative rules): the operand
// strictly inside (lo, hi), lo where it is above the operand and below hi, hi where it is
// below the operand.
std::array<Array, 3> masks(std::span<const Array> x) {
  return {lax::and_(lax::gt(x[0], x[1]), lax::lt(x[0], x[2])),
          lax::and_(lax::gt(x[1], x[0]), lax::lt(x[1], x[2])), lax::lt(x[2], x[1])};
}

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y, const Params&) {
  const AbstractValue& out = detail::aval_of(y[0]);
  std::array<Array, 3> m = masks(x);
  Array zero = lax::zeros(out), r;
  for (int k = 0; k < 3; ++k) {
    if (!t[k].valid()) continue;
    Array c = lax::select(m[k], t[k], zero);
    r = r.valid() ? lax::add(r, c) : c;
  }
  return {r};
}

std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct, const Params&) {
  std::array<Array, 3> m = masks(x);
  Array zero = lax::zeros(detail::aval_of(y[0]));
  std::vector<Array> r;
  for (int k = 0; k < 3; ++k) r.push_back(ad::unbroadcast(lax::select(m[k], ct[0], zero), x[k]));
  return r;
}

}  // namespace

const Primitive prim::kClamp{
    .name = "clamp",
    .arity = 3,
    .traits = kElementwise,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kClamp>,
};

}  // namespace strata
