// transforms/InlineCalls.h — calls of the module's own functions inlined into their callers.
#pragma once

#include <cstdint>

#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {

// Every func.call of a function defined in the module (one block: what the jaxpr lowering
// makes of custom_jvp_call's and custom_vjp_call's `fun`, custom_linear_solve's solvers, and
// StableHLO's private helpers) replaced by the callee's body, until none is left; private
// functions then unused are erased. Returns the number of calls inlined.
int64_t inlineCalls(ModuleOp module);

}  // namespace mlir::strata
