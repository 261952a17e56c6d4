// tracer/primitives/optimization_barrier.cpp — `optimization_barrier`: its operands, unchanged
// (jax.lax.optimization_barrier, StableHLO's optimization_barrier). No compiler pass moves a
// computation across it: what it returns is not known to equal what it was given, so CSE does
// not merge a recomputation (jax.checkpoint's, in the backward pass) with the forward's value,
// and fusion does not merge the computations on either side. Any number of operands, any
// dtypes.
#include <cstring>

#include "ad_rules.h"
#include "batch_rules.h"
#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params&) {
  return {in.begin(), in.end()};
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
  for (size_t i = 0; i < in.size(); ++i) std::memcpy(out[i].data, in[i].data, in[i].aval->nbytes());
}

// Arrays are immutable: eagerly, the operands themselves are the results.
std::vector<Array> eval(std::span<const Array> in, const Params&) { return {in.begin(), in.end()}; }

std::vector<Array> barrier(std::span<const Array> xs) {
  if (xs.empty()) return {};
  return lax::bind(prim::kOptimizationBarrier, xs, {});
}

// The tangents (and, transposed, the cotangents) through a barrier of their own, as JAX's rules
// put the tangents behind one with the primals.
std::vector<Array> jvp(std::span<const Array>, std::span<const Array> t, std::span<const Array>, const Params&) {
  return barrier(t);
}
std::vector<Array> vjp(std::span<const Array>, std::span<const Array>, std::span<const Array> ct, const Params&) {
  return barrier(ct);
}

batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params&) {
  return {barrier(args), std::vector<int>(dims.begin(), dims.end())};
}

}  // namespace

const Primitive prim::kOptimizationBarrier{
    .name = "optimization_barrier",
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eager = kernel,
    .eval = eval,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
