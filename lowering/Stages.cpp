// The stage list (Stages.h): one line of kStages per stage.
#include "lowering/Stages.h"

#include "lowering/CpuPipeline.h"

#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "transforms/BufferAssignment.h"
#include "transforms/Passes.h"

namespace mlir::strata {
namespace {

void addCanonicalize(OpPassManager& pm, const PipelineOptions&) { pm.addPass(createCanonicalizerPass()); }
void addCse(OpPassManager& pm, const PipelineOptions&) { pm.addPass(createCSEPass()); }
// Fusion off (JitOptions::fuse): the stage is the program unchanged, every op its own loop nest.
void addFuse(OpPassManager& pm, const PipelineOptions& options) {
  if (options.jit.fuse) pm.addPass(createStrataFuse());
}
void addAssignBuffers(OpPassManager& pm, const PipelineOptions& options) {
  StrataAssignBuffersOptions assign;
  assign.share = options.jit.assign_buffers;
  pm.addPass(createStrataAssignBuffers(assign));
}

// The recipe. Order matters: canonicalization folds constants and identities first, so that
// CSE then sees the ops that are really left and merges the duplicates among them; fusion
// then groups what remains (a duplicate left unmerged would be computed twice); buffers are
// assigned once bufferization has made every temporary an allocation.
const Stage kStages[] = {
    // 1. The program as parsed (.mlir) or lowered from the jaxpr.
    {"strata", "the program in the strata dialect, as parsed or lowered", nullptr},
    // 2. Constant folding, identities (x + 0, x * 1, transpose of transpose, ...), DCE.
    {"canonicalized", "after canonicalization (folders and patterns)", addCanonicalize},
    // 3. Common subexpressions merged.
    {"cse", "after common subexpression elimination", addCse},
    // 4. Ops grouped into strata.fusion regions, one loop nest each (JitOptions::fuse off: none).
    {"fused", "ops grouped into strata.fusion regions (transforms/Fuse.cpp)", addFuse},
    // 5-11. The CPU pipeline (lowering/CpuPipeline.h), with buffer assignment after
    //       bufferization.
    {"linalg", "linalg/arith/math/tensor, one loop nest per fusion region", addLinalgPasses},
    {"bufferized", "buffers; results written into out-params", addBufferizePasses},
    {"buffers", "every temporary's offset in the scratch arena (BufferAssignment)", addAssignBuffers,
     nullptr, recordedBufferAssignment},
    {"loops", "scf loops, runtime GEMM calls, parallel loops outlined, scratch arena", addLoopsPasses},
    {"llvm-dialect", "the LLVM dialect, with the entry point strata_entry", addLlvmDialectPasses},
    {"llvm-ir", "LLVM IR after LLVM's -O pipeline for the host CPU", nullptr, translateToLlvmIr},
    {"asm", "the host CPU's assembly", nullptr, translateToAssembly},
};

}  // namespace

llvm::ArrayRef<Stage> stages() { return kStages; }

const Stage* findStage(llvm::StringRef name) {
  for (const Stage& s : kStages)
    if (name == s.name) return &s;
  return nullptr;
}

LogicalResult runStages(ModuleOp module, const PipelineOptions& options, llvm::StringRef last,
                        llvm::function_ref<void(const Stage&, const std::string* translated)> emit,
                        llvm::function_ref<LogicalResult(PassManager&)> configure) {
  for (const Stage& stage : kStages) {
    if (stage.addPasses) {
      PassManager pm(module.getContext());
      stage.addPasses(pm, options);
      if (configure && failed(configure(pm))) return failure();
      if (failed(pm.run(module))) return failure();
    }
    std::string text;
    if (stage.translate && failed(stage.translate(module, options, text))) return failure();
    emit(stage, stage.translate ? &text : nullptr);
    if (last == stage.name) break;
  }
  return success();
}

std::string printStage(ModuleOp module, const Stage& stage, bool locations) {
  std::string text = printStage(module, locations);
  if (stage.annotate) text += stage.annotate(module);
  return text;
}

std::string printStage(ModuleOp module, bool locations) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  if (locations) flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  module->print(os, flags);
  return text;
}

}  // namespace mlir::strata
