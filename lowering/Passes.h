// lowering/Passes.h — strata's own passes of the CPU pipeline, declared in Passes.td: their
// create functions, option structs and registerStrataLoweringPasses() are generated.
// Compiler-side only.
#pragma once

#include <memory>

#include "lowering/CpuAbi.h"  // the default of outline-parallel-loops' min-iterations
#include "mlir/Pass/Pass.h"

namespace mlir::strata {

#define GEN_PASS_DECL
#include "lowering/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "lowering/Passes.h.inc"

}  // namespace mlir::strata
