// lowering/CpuPipeline.h — the CPU stages after `cse` (Stages.cpp lists them):
//   linalg        strata → linalg/arith/math/tensor, elementwise fusion
//   bufferized    one-shot bufferization; results become out-params (destination passing)
//   loops         runtime GEMM calls, scf loops, outlined parallel loops, scratch arena
//   llvm-dialect  the LLVM dialect, with the entry point strata_entry (CpuAbi.h)
//   llvm-ir       LLVM IR after LLVM's -O pipeline for the host CPU
//   asm           the host's assembly
#pragma once

#include <string>

#include "lowering/PipelineOptions.h"
#include "lowering/Stages.h"
#include "transforms/BufferAssignment.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class DialectRegistry;
class ModuleOp;
class OpPassManager;
}  // namespace mlir

namespace mlir::strata {


// The stages linalg, bufferized and buffers, which the cuda target shares.
void addLinalgPasses(OpPassManager& pm, const PipelineOptions& options);
// The linalg stage's measure: bytes read and written by the kernels of the (fused) linalg
// program (each linalg op reads its inputs and writes its results; slices copy theirs).
void measureLinalgBytes(ModuleOp module, StageCost& cost);
void addBufferizePasses(OpPassManager& pm, const PipelineOptions& options);
// Buffers assigned (BufferAssignment; JitOptions::assign_buffers off: nothing shares).
void addAssignBuffersPasses(OpPassManager& pm, const PipelineOptions& options);
void addLoopsPasses(OpPassManager& pm, const PipelineOptions& options);

// The stages linalg, bufferized and buffers, as both targets list them. Buffers are assigned
// once bufferization has made every temporary an allocation; each target's loops stage then
// places them in the scratch arena.
inline constexpr Stage kLinalgStage{"linalg", "linalg/arith/math/tensor, one loop nest per fusion region",
                                    addLinalgPasses, nullptr, nullptr, measureLinalgBytes};
inline constexpr Stage kBufferizedStage{"bufferized", "buffers; results written into out-params",
                                        addBufferizePasses};
inline constexpr Stage kBuffersStage{"buffers", "every temporary's offset in the scratch arena (BufferAssignment)",
                                     addAssignBuffersPasses, nullptr, recordedBufferAssignment};
void addLlvmDialectPasses(OpPassManager& pm, const PipelineOptions& options);

// The llvm-ir and asm stages' texts, from a module in the LLVM dialect, at LLVM's
// -O`options.jit.opt_level`.
LogicalResult translateToLlvmIr(ModuleOp module, const PipelineOptions& options, std::string& text);
LogicalResult translateToAssembly(ModuleOp module, const PipelineOptions& options, std::string& text);

// The interfaces the pipeline needs (bufferization models, LLVM IR translation).
void registerCpuPipelineInterfaces(DialectRegistry& registry);

}  // namespace mlir::strata
