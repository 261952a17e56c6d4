// lowering/Accumulator.h — the accumulators of reduction loops: a store of
// `combine(load of the same location, x)`, and the identity of each associative combine (what a
// partial accumulator starts from). Shared by the passes that split reductions across threads
// (SplitReductionLoops) and GPU blocks (GpuMapLoops).
#pragma once

#include <optional>

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace mlir {
class Operation;
namespace strata {

// The identity of `combine` (a two-operand arith op on its result type) when it is associative
// and commutative: add (-0.0 for floats: -0.0 + x == x for every x), mul, max/min (signed,
// unsigned, float maximum/minimum and maxnum/minnum), and/or/xor; null for any other op.
TypedAttr reductionIdentity(Operation* combine);

// One step of an accumulator: `store` writes `combine(load, x)` back where `load` read.
struct AccumulatorStep {
  memref::LoadOp load;
  Operation* combine;
  unsigned loadSide;  // which operand of `combine` is the loaded value
  TypedAttr identity;
};

// `store` as an accumulator step of the loop nest `scope`: the load and the combine (associative,
// with an identity) in the store's block with no other use, the location's indices defined
// outside `scope`.
std::optional<AccumulatorStep> matchAccumulatorStep(memref::StoreOp store, Operation* scope);

// A copy of `step`'s combine at `b` applied to the accumulated value and x, each on its side
// (the loaded value's and the other's): how a partial joins an accumulator.
Value combineWith(OpBuilder& b, const AccumulatorStep& step, Value accumulated, Value x);

}  // namespace strata
}  // namespace mlir
