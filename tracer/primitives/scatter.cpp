// tracer/primitives/scatter.cpp — `scatter[update_window_dims inserted_window_dims
// scatter_dims_to_operand_dims index_vector_dim] operand indices updates`: the operand with each
// update window written at its index vector's start (StableHLO's scatter whose body returns the
// update; JAX's scatter). Windows that would leave the operand are dropped; of updates to one
// place, the last in row-major order of the index vectors wins (JAX leaves it unspecified).
#include "gather_scatter.h"

namespace strata {
namespace {

using namespace gather_scatter;

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  return scatter_rule("scatter", in, p, false);
}

// The same writes of the tangents: linear in (operand, updates) for fixed indices.
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>, const Params& p) {
  if (!t[0].valid() && !t[2].valid()) return {Array()};
  return {lax::scatter(prim::kScatter, ad::instantiate(t[0], detail::aval_of(x[0])), x[1],
                       ad::instantiate(t[2], detail::aval_of(x[2])), scatter_dims(p))};
}

// The operand's cotangent is the output's with the written places zeroed; each update's is the
// output's at its window if it is the update that stayed there (with repeated indices, the
// last one; JAX tells them apart by scattering ids, as updates_that_won does), else zero.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  ScatterDims s = scatter_dims(p);
  Array zeros = lax::zeros(AbstractValue{x[2].shape(), ct[0].dtype(), false});
  Array won = updates_that_won(x[0], x[1], x[2], s);
  return {lax::scatter(prim::kScatter, ct[0], x[1], zeros, s), Array(),
          lax::select(won, gather_windows(ct[0], x[1], s, x[2].shape()), zeros)};
}

}  // namespace

const Primitive prim::kScatter{
    .name = "scatter",
    .arity = 3,
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eager = scatter_kernel<Replace>,
    .jvp = jvp,
    .vjp = vjp,
    .batch = scatter_batch_rule<prim::kScatter>,
};

}  // namespace strata
