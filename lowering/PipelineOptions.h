// lowering/PipelineOptions.h — what the pass pipelines (Stages.h, CpuPipeline.h) are told about
// one compilation. Plain C++ with LLVM's small containers: no MLIR header.
//
// Each pipeline builder hands these to the passes through the passes' declared options
// (lowering/Passes.td, transforms/Passes.td); no pass reads them from the module. What passes
// leave on the module for the compiler to read back are results, not options:
//   strata.scratch_bytes, strata.temporaries_bytes (i64)  the scratch arena's size, and the
//       temporaries' total before sharing (strata-assign-buffers, strata-scratch-arena)
//   strata.output_aliases (i64 array)  per output, the donated argument whose buffer it is
//       written into, or -1 (strata-donate-inputs)
#pragma once

#include <cstdint>
#include <string>

#include "llvm/ADT/SmallVector.h"
#include "strata/jit_options.h"

namespace mlir::strata {

struct PipelineOptions {
  // The user's switches: parallel, fuse, assign_buffers, opt_level, ...
  ::strata::JitOptions jit;
  // Entry-function arguments whose buffers outputs may take over (JitOptions::donate, as
  // positions among the entry function's arguments: constants come first).
  llvm::SmallVector<int64_t> donatedArgs;
  // Entry arguments before the outputs (-1: unknown).
  int64_t numInputs = -1;
  // What the target's code generation accepts, for the shared stages' decisions (set by
  // Target::configure): the element types of the dots whose GEMM runs a fused epilogue on each
  // output block.
  llvm::SmallVector<std::string> dotEpilogueTypes;
  // Whether float convolutions call the runtime's kernel (the CPU target; issue 13) rather than
  // lowering to im2col + GEMM in linalg (the cuda target).
  bool runtimeConvolution = false;
  // The cuda target's GPU architecture ("sm_90") and PTX version feature ("+ptx80"), and the
  // CUDA toolkit its kernels link libdevice from and whose ptxas makes cubins.
  std::string gpuChip = "sm_90";
  std::string gpuFeatures = "+ptx80";
  std::string cudaToolkit = "/usr/local/cuda";
  // The CPU's thread pool size the code is compiled for (CpuTarget::configure): a row of
  // several loops is cut into a parallel loop per loop only when there are fewer rows than
  // threads (strata-split-row-reductions' fission-rows; cutting costs the row's locality).
  int64_t cpuThreads = 1;
  // The verifier after every pass (strata-opt, the tests), or only after each stage (the jit's
  // compile path: verifying after each of ~40 passes cost ~6% of a first call).
  bool verifyEachPass = true;
};

}  // namespace mlir::strata
