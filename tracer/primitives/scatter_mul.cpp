// tracer/primitives/scatter_mul.cpp — `scatter_mul[...] operand indices updates`: scatter
// (scatter.cpp) combining each update with mul (JAX's scatter-mul; dropped out-of-bounds
// windows as scatter_add). No derivative rule yet: differentiating it raises a clear error.
#include "gather_scatter.h"

namespace strata {
namespace {

using namespace gather_scatter;

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  return scatter_rule("scatter_mul", in, p, true);
}
std::vector<Array> jvp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params&) {
  return no_jvp("scatter_mul");
}
std::vector<Array> vjp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params&) {
  return no_jvp("scatter_mul");
}

}  // namespace

const Primitive prim::kScatterMul{
    .name = "scatter_mul",
    .arity = 3,
    .shape_rule = rule,
    .eager = scatter_kernel<Mul>,
    .jvp = jvp,
    .vjp = vjp,
    .batch = scatter_batch_rule<prim::kScatterMul>,
};

}  // namespace strata
