// tracer/primitives/scatter_add.cpp — `scatter_add[update_window_dims inserted_window_dims
// scatter_dims_to_operand_dims index_vector_dim] operand indices updates`: the operand with each
// update window added at its index vector's start (StableHLO's scatter with an add body, JAX's
// scatter-add). An update whose window would leave the operand is dropped (JAX's FILL_OR_DROP).
#include "gather_scatter.h"

namespace strata {
namespace {

using namespace gather_scatter;

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  return scatter_rule("scatter_add", in, p, true);
}

// Linear in (operand, updates).
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>, const Params& p) {
  if (!t[0].valid() && !t[2].valid()) return {Array()};
  return {lax::scatter(prim::kScatterAdd, ad::instantiate(t[0], detail::aval_of(x[0])), x[1],
                       ad::instantiate(t[2], detail::aval_of(x[2])), scatter_dims(p))};
}

// The operand's cotangent is the output's; each update's is the output's at its window, zero
// for a dropped one (a gather in fill mode).
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  ScatterDims s = scatter_dims(p);
  IntList sizes = window_sizes(x[0].shape(), x[2].shape(), s.update_window_dims, s.inserted_window_dims);
  return {ct[0], Array(), lax::gather(ct[0], x[1], gather_of(s), sizes, kModeFill)};
}

}  // namespace

const Primitive prim::kScatterAdd{
    .name = "scatter_add",
    .arity = 3,
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eager = scatter_kernel<Add>,
    .jvp = jvp,
    .vjp = vjp,
    .batch = scatter_batch_rule<prim::kScatterAdd>,
};

}  // namespace strata
