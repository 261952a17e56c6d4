// lowering/CudaPipeline.h — the cuda target's stages after `fused`:
//   linalg        as the CPU's (CpuPipeline.h), after refusing control flow (not yet supported)
//   bufferized, buffers   as the CPU's: one loop nest per fusion region
//   loops         scf loops (GEMMs too), adjacent loops fused, the scratch arena
//   gpu           each loop nest one kernel: gpu.launch_func on the host, gpu.module kernels
//   nvvm          the kernels in the NVVM/LLVM dialects (bare-pointer arguments)
//   ptx           the kernels' PTX for PipelineOptions::gpuChip (LLVM's NVPTX backend)
// The host side never reaches LLVM: backends/cuda reads the gpu stage's @main as a list of
// steps (launches and copies).
#pragma once

#include <string>

#include "lowering/PipelineOptions.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class DialectRegistry;
class ModuleOp;
class OpPassManager;
}  // namespace mlir

namespace mlir::strata {

// --strata-reject-control-flow, then the CPU's linalg passes.
void addCudaLinalgPasses(OpPassManager& pm, const PipelineOptions& options);
void addCudaLoopsPasses(OpPassManager& pm, const PipelineOptions& options);
void addGpuKernelPasses(OpPassManager& pm, const PipelineOptions& options);
void addNvvmPasses(OpPassManager& pm, const PipelineOptions& options);

// The PTX of every kernel of a module in the nvvm stage's form (one gpu.module), optimised at
// LLVM's -O`options.jit.opt_level`, libdevice linked where a kernel calls it.
LogicalResult translateToPtx(ModuleOp module, const PipelineOptions& options, std::string& ptx);

void registerCudaPipelineInterfaces(DialectRegistry& registry);

}  // namespace mlir::strata
