// lowering/ScalarOps.h — the scalar semantics of the `strata` elementwise ops, as arith/math
// code: what each element of a linalg.generic computes. The single place where the eager
// kernels' rules (tracer/primitives/*.cpp) are restated for the compiler:
//  - integer div x/0 = -1, INT_MIN/-1 = INT_MIN; rem x%0 = x, INT_MIN%-1 = 0 (no trap);
//  - float → int conversion truncates and saturates, nan → 0; to bool is `!= 0`;
//  - max/min propagate nan; sign keeps ±0 and nan; shift_right_logical by ≥ width gives 0;
//  - bf16 and f16 compute in f32 and round to nearest even on store (toStorage), with one
//    rounding for f64/int → bf16/f16 (through f32 rounded to odd, as kernels::convert_value).
// Internal to lowering/.
#pragma once

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::strata {

// The type an element of `storage` type is computed in: f32 for bf16 and f16, else itself.
Type computeType(Type storage);
// A stored element as its compute type (exact).
Value toCompute(OpBuilder& b, Location loc, Value stored);
// A computed value rounded to `storage` (bf16/f16: nearest even; others: unchanged).
Value toStorage(OpBuilder& b, Location loc, Value computed, Type storage);

// Whether `op` is a `strata` op emitScalar knows (the elementwise ops).
bool hasScalarSemantics(Operation* op);

// The scalar result of the elementwise `op` applied to `args` (each in the compute type of
// the corresponding operand's element type); the result is in the compute type of op's result
// element type. `reassociate` lets float add/multiply be reassociated (reduction bodies, so
// that LLVM can vectorise them). Returns null for ops without scalar semantics.
Value emitScalar(OpBuilder& b, Location loc, Operation* op, ValueRange args,
                 bool reassociate = false);

// Element conversion with convert_element_type's rules, from a value of compute type of
// `from` to the compute type of `to`.
Value emitConvert(OpBuilder& b, Location loc, Value v, Type from, Type to);

}  // namespace mlir::strata
