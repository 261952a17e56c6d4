// tracer/primitives/reshape.cpp — `reshape[new_sizes]`: the same elements in row-major order
// under another shape with as many elements.
#include "ad_rules.h"
#include <cstring>

#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("reshape", in, 1);
  Shape out = primitives::check("reshape", shape_rules::reshape(in[0].shape, p.get_ints("new_sizes")));
  return {AbstractValue{out, in[0].dtype, in[0].weak}};
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
  std::memcpy(out[0].data, in[0].data, in[0].aval->nbytes());
}

std::vector<Array> jvp(std::span<const Array>, std::span<const Array> t, std::span<const Array>, const Params& p) {
  return {lax::bind1(prim::kReshape, {t[0]}, p)};
}
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params&) {
  return {lax::reshape(ct[0], x[0].shape())};
}

}  // namespace

const Primitive prim::kReshape{
    .name = "reshape",
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
};

}  // namespace strata
