// lowering/LoopNests.h — the loop nests of the entry function once it is loops (after
// ConvertLinalgToParallelLoops): where they are and how many iterations they run. Shared by the
// passes that split and outline them for the thread pool.
#pragma once

#include <cstdint>

#include "llvm/ADT/SmallVector.h"

namespace mlir {
class Operation;
class Region;
class Value;
namespace func {
class FuncOp;
}

namespace strata {

// The scf.parallel and scf.for nests of `main` at its top level and inside its control flow
// (scf.while, scf.if, scf.index_switch bodies: an iterative solver's loops), not inside another
// loop nest; in program order.
llvm::SmallVector<Operation*> loopNestRoots(func::FuncOp main);

// Trips of a loop with these bounds (an affine.min upper bound counts as its smallest constant:
// a partial tile); 1 when unknown.
int64_t tripCount(Value lb, Value ub, Value step);

// Iterations of the deepest loop nest in `region` (1 when it has no loops).
int64_t loopIterations(Region& region);

// The largest divisor of n in [1, most]: how many equal chunks a loop of n trips splits into.
int64_t largestDivisor(int64_t n, int64_t most);

}  // namespace strata
}  // namespace mlir
