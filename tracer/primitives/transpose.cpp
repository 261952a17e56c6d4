// tracer/primitives/transpose.cpp — `transpose[permutation]`: result dimension i is operand
// dimension permutation[i].
#include "batch_rules.h"
#include "ad_rules.h"
#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("transpose", in, 1);
  Shape out = primitives::check("transpose", shape_rules::transpose(in[0].shape, p.get_ints("permutation")));
  return {AbstractValue{out, in[0].dtype, in[0].weak}};
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  const IntList& perm = p.get_ints("permutation");
  std::vector<int64_t> in_strides = kernels::contiguous_strides(in[0].shape());
  std::vector<int64_t> strides(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) strides[i] = in_strides[static_cast<size_t>(perm[i])];
  kernels::strided_copy(in[0].data, 0, strides, out[0].data, out[0].shape(), itemsize(in[0].dtype()));
}

std::vector<Array> jvp(std::span<const Array>, std::span<const Array> t, std::span<const Array>, const Params& p) {
  return {lax::bind1(prim::kTranspose, {t[0]}, p)};
}
std::vector<Array> vjp(std::span<const Array>, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  const IntList& perm = p.get_ints("permutation");
  IntList inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inverse[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  return {lax::bind1(prim::kTranspose, {ct[0]}, Params{{"permutation", inverse}})};
}


// Batched: the batch dimension first, and stays first.
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  return {{lax::transpose(batching::front(args, dims), batching::shifted(p.get_ints("permutation"), 0))}, {0}};
}

}  // namespace

const Primitive prim::kTranspose{
    .name = "transpose",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
