// tracer/primitives/stop_gradient.cpp — `stop_gradient`: the identity, through which no
// derivative flows.
#include <cstring>

#include "elementwise.h"
#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params&) {
  primitives::expect_arity("stop_gradient", in, 1);
  return {in[0]};
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
  std::memcpy(out[0].data, in[0].data, in[0].aval->nbytes());
}

// Arrays are immutable: eagerly, the operand itself is the result.
std::vector<Array> eval(std::span<const Array> in, const Params&) { return {in[0]}; }

}  // namespace

const Primitive prim::kStopGradient{
    .name = "stop_gradient",
    .arity = 1,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = rule,
    .eager = kernel,
    .eval = eval,
    .batch = elementwise::batch_rule<prim::kStopGradient>,
};

}  // namespace strata
