// tracer/primitives/reshape.cpp — `reshape[new_sizes]`: the same elements in row-major order
// under another shape with as many elements.
#include "batch_rules.h"
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


// Batched: each example reshaped, the batch dimension first.
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  Array x = batching::front(args, dims);
  Shape shape{x.shape(0)};
  for (int64_t d : p.get_ints("new_sizes")) shape.push_back(d);
  return {{lax::reshape(x, shape)}, {0}};
}

}  // namespace

const Primitive prim::kReshape{
    .name = "reshape",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
