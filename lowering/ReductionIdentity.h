// lowering/ReductionIdentity.h — the associative ops a reduction loop may combine partial
// results with, and each one's identity (what a partial accumulator starts from).
#pragma once

#include "mlir/IR/BuiltinAttributes.h"

namespace mlir {
class Operation;
namespace strata {

// The identity of `combine` (a two-operand arith op on its result type) when it is associative
// and commutative: add (-0.0 for floats: -0.0 + x == x for every x), mul, max/min (signed,
// unsigned, float maximum/minimum and maxnum/minnum), and/or/xor; null for any other op.
TypedAttr reductionIdentity(Operation* combine);

}  // namespace strata
}  // namespace mlir
