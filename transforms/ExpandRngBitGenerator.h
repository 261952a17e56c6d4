// transforms/ExpandRngBitGenerator.h — strata.rng_bit_generator written as strata integer ops.
#pragma once

#include <cstdint>

#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {

// Every strata.rng_bit_generator of the module replaced by XLA's expansion of its algorithm
// (THREE_FRY: strata.threefry2x32 of counters; PHILOX and DEFAULT: Philox-4x32-10 in elementwise
// integer ops), the bits and states equal to JAX's. Returns the number of ops expanded.
int64_t expandRngBitGenerators(ModuleOp module);

}  // namespace mlir::strata
