// tracer/primitives/scatter_min.cpp — `scatter_min[...] operand indices updates`: scatter
// (scatter.cpp) combining each update with min (JAX's scatter-min; dropped out-of-bounds
// windows as scatter_add). No derivative rule yet: differentiating it raises a clear error.
#include "gather_scatter.h"

namespace strata {
namespace {

using namespace gather_scatter;

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  return scatter_rule("scatter_min", in, p, true);
}
std::vector<Array> jvp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params&) {
  return no_jvp("scatter_min");
}
std::vector<Array> vjp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params&) {
  return no_jvp("scatter_min");
}

}  // namespace

const Primitive prim::kScatterMin{
    .name = "scatter_min",
    .arity = 3,
    .shape_rule = rule,
    .eager = scatter_kernel<Min>,
    .jvp = jvp,
    .vjp = vjp,
    .batch = scatter_batch_rule<prim::kScatterMin>,
};

}  // namespace strata
