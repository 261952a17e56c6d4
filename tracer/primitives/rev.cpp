// tracer/primitives/rev.cpp — `rev[dimensions]`: the operand with the order of the elements
// along each of `dimensions` reversed (jax.lax.rev; StableHLO's reverse). The lhs gradient of a
// convolution flips its kernel with it.
#include "ad_rules.h"
#include "batch_rules.h"
#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("rev", in, 1);
  primitives::check("rev", shape_rules::rev(in[0].shape, p.get_ints("dimensions")));
  return {in[0]};
}

// A strided copy starting at the last element of each reversed dimension, stepping back.
void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  const Shape& s = in[0].shape();
  std::vector<int64_t> strides = kernels::contiguous_strides(s);
  int64_t offset = 0;
  if (in[0].size() > 0)
    for (int64_t d : p.get_ints("dimensions")) {
      offset += (s[static_cast<size_t>(d)] - 1) * strides[static_cast<size_t>(d)];
      strides[static_cast<size_t>(d)] = -strides[static_cast<size_t>(d)];
    }
  kernels::strided_copy(in[0].data, offset, strides, out[0].data, s, itemsize(in[0].dtype()));
}

// Linear and its own transpose.
std::vector<Array> jvp(std::span<const Array>, std::span<const Array> t, std::span<const Array>, const Params& p) {
  return {lax::bind1(prim::kRev, {t[0]}, p)};
}
std::vector<Array> vjp(std::span<const Array>, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  return {lax::bind1(prim::kRev, {ct[0]}, p)};
}

batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  return {{lax::bind1(prim::kRev, {batching::front(args, dims)}, Params{{"dimensions", batching::shifted(p.get_ints("dimensions"))}})},
          {0}};
}

}  // namespace

const Primitive prim::kRev{
    .name = "rev",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
