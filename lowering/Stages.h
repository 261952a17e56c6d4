// lowering/Stages.h — the stages of the compiler, in order, each a pass pipeline applied to
// the previous stage's output. strata-opt --emit=STAGE, Lowered::as_text(STAGE) and the dump
// directory all print the program after a stage named here.
//
// The first stage, `jaxpr`, exists only when the input was a jaxpr; it is the tracer's text,
// not MLIR, so it is not in this table. Appending a stage is one line in Stages.cpp.
#pragma once

#include <string>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "lowering/PipelineOptions.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class ModuleOp;
class OpPassManager;
class PassManager;
}  // namespace mlir

namespace mlir::strata {

inline constexpr llvm::StringLiteral kJaxprStage = "jaxpr";

struct Stage {
  const char* name;
  const char* summary;
  // Adds the passes that turn the previous stage's output into this stage's, each given its
  // options from `options`; null for the `strata` stage (the program as parsed or lowered).
  void (*addPasses)(OpPassManager& pm, const PipelineOptions& options);
  // Stages past MLIR (llvm-ir, asm) print another language: `translate` renders their text
  // from the module, which stays as the previous stage left it. Null for MLIR stages.
  LogicalResult (*translate)(ModuleOp module, const PipelineOptions& options, std::string& text) = nullptr;
  // Text appended to an MLIR stage's module, as `//` comments (the `buffers` stage's
  // BufferAssignment); null for none.
  std::string (*annotate)(ModuleOp module) = nullptr;
};

// Every stage after `jaxpr`, in order (MLIR stages, then llvm-ir and asm).
llvm::ArrayRef<Stage> stages();
const Stage* findStage(llvm::StringRef name);

// Runs the stages on `module` in order with `options`, calling `emit` after each, and stops after `last`
// (empty: run them all) or at the first pipeline that fails (its diagnostics emitted).
// `emit` gets the text of a translating stage; for MLIR stages (null) it prints the module.
// `configure` may adjust each stage's pass manager (strata-opt applies its CLI flags there).
LogicalResult runStages(ModuleOp module, const PipelineOptions& options, llvm::StringRef last,
                        llvm::function_ref<void(const Stage&, const std::string* translated)> emit,
                        llvm::function_ref<LogicalResult(PassManager&)> configure = {});

// The module as a stage prints it; `locations` adds loc(...) to every op. With `stage`, its
// annotation follows the module.
std::string printStage(ModuleOp module, bool locations = false);
std::string printStage(ModuleOp module, const Stage& stage, bool locations = false);

}  // namespace mlir::strata
