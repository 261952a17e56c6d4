// lowering/Accumulator.h — the accumulators of reduction loops: a store of
// `combine(load of the same location, x)`, and the identity of each associative combine (what a
// partial accumulator starts from); compensated addition, for joining the partial sums of
// floats. Shared by the passes that split reductions across threads (SplitReductionLoops) and
// GPU blocks (GpuMapLoops), and that block long float sums (BlockFloatSums).
#pragma once

#include <optional>
#include <utility>

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

// The loads and stores of a loop body `body` — with those of its scf.for/scf.parallel/scf.if
// when `nested` — into `loads` and `stores`; false when it holds any other op with memory
// effects (a call, a copy) or any other region (not nested: any region at all).
bool loadsAndStores(Block* body, bool nested, SmallVectorImpl<memref::LoadOp>& loads,
                    SmallVectorImpl<memref::StoreOp>& stores);

// Whether nothing but `store` and `load` (an accumulator step) among `loads` and `stores` touches
// the step's buffer.
bool aloneOnItsBuffer(memref::StoreOp store, memref::LoadOp load, ArrayRef<memref::LoadOp> loads,
                      ArrayRef<memref::StoreOp> stores);

// The scf.parallel (without results) that ends `loop`'s body when every op before it is pure and
// has no regions (a split chunk's row index): a column reduction's loop over its places; null
// otherwise.
scf::ParallelOp endingParallel(scf::ForOp loop);

// Whether the stores `elementwise` (each at indices that single out one iteration of the nest)
// write their own elements only: no two share bytes, and every load among `loads` of bytes one
// of them writes reads that store's buffer at its indices.
bool writesOwnElements(ArrayRef<memref::StoreOp> elementwise, ArrayRef<memref::LoadOp> loads);

// Whether `store` writes a place of a column reduction `for i { p: parallel (...) { ... } }`
// (the nest `scope`): its buffer defined outside the nest, of a static shape of at most
// `mostPlaces` elements, indexed by every induction variable of `p` and otherwise by values
// defined outside the nest (each of p's iterations has a place of its own, fixed in the nest).
bool isColumnPlace(memref::StoreOp store, scf::ParallelOp p, Operation* scope, int64_t mostPlaces);

// A copy of `step`'s combine at `b` applied to the accumulated value and x, each on its side
// (the loaded value's and the other's): how a partial joins an accumulator.
Value combineWith(OpBuilder& b, const AccumulatorStep& step, Value accumulated, Value x);

// Compensated summation of floats: `s + x` rounded to t, its rounding error e (t + e == s + x
// exactly, by TwoSum: no fast-math flags, so that nothing reassociates it) added into the
// compensation c; returns (t, c + e). Start c at -0.0 (then s + c is s exactly).
std::pair<Value, Value> compensatedAdd(OpBuilder& b, Location loc, Value s, Value c, Value x);

// The compensated sum's value: s + c, or s when c is nan (an infinity or nan went through s).
Value compensatedTotal(OpBuilder& b, Location loc, Value s, Value c);

// Whether the value `step` accumulates is the same in any order of its terms, bit for bit:
// integer add, mul (without overflow flags), and, or, xor, min, max; float max and min.
bool isOrderFree(const AccumulatorStep& step);

// Whether `step` is a float sum that may be reassociated (an addf with `reassoc`).
bool isReassociableFloatSum(const AccumulatorStep& step);

}  // namespace strata
}  // namespace mlir
