// tracer/primitives/scatter_mul.cpp — `scatter_mul[...] operand indices updates`: scatter
// (scatter.cpp) combining each update with mul (JAX's scatter-mul; dropped out-of-bounds
// windows as scatter_add). Differentiable, zeros and
// repeated indices included.
#include "gather_scatter.h"

namespace strata {
namespace {

using namespace gather_scatter;

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  return scatter_rule("scatter_mul", in, p, true);
}
// out = x · P with P the product of the updates written to each place. P and, per update u
// at place p, the product of the others at p (∂out/∂u = x · others): the nonzero updates'
// product over u when u and all others are nonzero; the nonzero product when u is p's only
// zero; 0 when another update at p is zero. Exact with zeros and repeated indices (JAX
// requires unique indices); a dropped update gets 0.
struct Partials {
  Array product, others;
};
Partials partials(std::span<const Array> x, const ScatterDims& s) {
  const Array &operand = x[0], &indices = x[1], &updates = x[2];
  AbstractValue av = detail::aval_of(operand), uv = detail::aval_of(updates);
  av.weak = uv.weak = false;
  Array ones = lax::full(av, 1.0), uzero = lax::zeros(uv), uone = lax::full(uv, 1.0);
  Array is_zero = lax::eq(updates, uzero);
  Array product = lax::scatter(prim::kScatterMul, ones, indices, updates, s);
  Array nonzero_product = gather_windows(lax::scatter(prim::kScatterMul, ones, indices, lax::select(is_zero, uone, updates), s), indices, s, updates.shape());
  Array zeros_here = gather_windows(lax::scatter(prim::kScatterAdd, lax::zeros(av), indices, lax::select(is_zero, uone, uzero), s), indices, s, updates.shape());
  Array when_zero = lax::select(lax::eq(zeros_here, uone), nonzero_product, uzero);
  Array when_nonzero = lax::select(lax::eq(zeros_here, uzero), lax::div(nonzero_product, lax::select(is_zero, uone, updates)), uzero);
  return {product, lax::select(is_zero, when_zero, when_nonzero)};
}

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>, const Params& p) {
  if (!t[0].valid() && !t[2].valid()) return {Array()};
  ScatterDims s = scatter_dims(p);
  Partials d = partials(x, s);
  Array tx = ad::instantiate(t[0], detail::aval_of(x[0])), ty = ad::instantiate(t[2], detail::aval_of(x[2]));
  Array from_updates = lax::scatter(prim::kScatterAdd, lax::zeros(detail::aval_of(tx)), x[1], lax::mul(ty, d.others), s);
  return {lax::add(lax::mul(tx, d.product), lax::mul(x[0], from_updates))};
}

std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  ScatterDims s = scatter_dims(p);
  Partials d = partials(x, s);
  return {lax::mul(ct[0], d.product), Array(), lax::mul(gather_windows(lax::mul(ct[0], x[0]), x[1], s, x[2].shape()), d.others)};
}

}  // namespace

const Primitive prim::kScatterMul{
    .name = "scatter_mul",
    .arity = 3,
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eager = scatter_kernel<Mul>,
    .jvp = jvp,
    .vjp = vjp,
    .batch = scatter_batch_rule<prim::kScatterMul>,
};

}  // namespace strata
