// backends/cuda/HostSteps.h — the host program (HostProgram.h) of a module in the gpu or nvvm
// stage: its entry function, read as steps. MLIR types: compiler side only.
#pragma once

#include "absl/status/statusor.h"
#include "backends/cuda/HostProgram.h"

namespace mlir {
class ModuleOp;
}

namespace strata::backends::cuda {

// The entry function's arguments are the constants, inputs, outputs and the scratch arena, in
// that order. An error names the first operation the host cannot run.
absl::StatusOr<HostProgram> host_program(mlir::ModuleOp module, int num_consts, int num_inputs, int num_outputs);

}  // namespace strata::backends::cuda
