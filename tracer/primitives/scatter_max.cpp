// tracer/primitives/scatter_max.cpp — `scatter_max[...] operand indices updates`: scatter
// (scatter.cpp) combining each update with max (JAX's scatter-max; dropped out-of-bounds
// windows as scatter_add). No derivative rule yet: differentiating it raises a clear error.
#include "gather_scatter.h"

namespace strata {
namespace {

using namespace gather_scatter;

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  return scatter_rule("scatter_max", in, p, true);
}
std::vector<Array> jvp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params&) {
  return no_jvp("scatter_max");
}
std::vector<Array> vjp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params&) {
  return no_jvp("scatter_max");
}

}  // namespace

const Primitive prim::kScatterMax{
    .name = "scatter_max",
    .arity = 3,
    .shape_rule = rule,
    .eager = scatter_kernel<Max>,
    .jvp = jvp,
    .vjp = vjp,
    .batch = scatter_batch_rule<prim::kScatterMax>,
};

}  // namespace strata
