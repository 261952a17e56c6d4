// tracer/primitives/scatter_min.cpp — `scatter_min[...] operand indices updates`: scatter
// (scatter.cpp) combining each update with min (JAX's scatter-min; dropped out-of-bounds
// windows as scatter_add). Differentiable as JAX's: ties
// between the operand and updates share the tangent equally.
#include "gather_scatter.h"

namespace strata {
namespace {

using namespace gather_scatter;

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  return scatter_rule("scatter_min", in, p, true);
}
// Ties share the tangent equally (gather_scatter.cpp: extremal_jvp), as JAX's.
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>, const Params& p) {
  return extremal_jvp(prim::kScatterMin, x, t, p);
}
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  return extremal_vjp(prim::kScatterMin, x, ct, p);
}

}  // namespace

const Primitive prim::kScatterMin{
    .name = "scatter_min",
    .arity = 3,
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eager = scatter_kernel<Min>,
    .jvp = jvp,
    .vjp = vjp,
    .batch = scatter_batch_rule<prim::kScatterMin>,
};

}  // namespace strata
