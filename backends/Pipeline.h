// backends/Pipeline.h — the MLIR side of the one compile path, shared by backends/Compiler.cpp
// (jit, Lowered) and strata-opt: a target's stage list, the context its programs live in, and
// diagnostics printed with the user's file:line:col.
#pragma once

#include <span>
#include <string>

#include "backends/Target.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "lowering/PipelineOptions.h"
#include "lowering/Stages.h"

namespace llvm {
class raw_ostream;
}
namespace mlir {
class Diagnostic;
class ModuleOp;
}

namespace strata::backends {

// Every stage after `jaxpr` for `target`, in order: the shared stages (lowering/Stages.h), then
// the target's own.
llvm::SmallVector<const mlir::strata::Stage*> pipeline(const Target& target);
// The stage `name` of `stages`, or null.
const mlir::strata::Stage* find_stage(llvm::ArrayRef<const mlir::strata::Stage*> stages, llvm::StringRef name);

// The dialects and interfaces the shared stages and `target`'s need.
void register_dialects(mlir::DialectRegistry& registry, const Target& target);

// The pipeline's options for a program of `target` with `num_consts` constants and
// `num_inputs` inputs (the entry function's arguments, in that order, before the outputs),
// `donated` naming inputs.
mlir::strata::PipelineOptions pipeline_options(const Target& target, const JitOptions& options, int64_t num_consts,
                                               int64_t num_inputs, std::span<const int> donated);

// What the stages left on the module for the executable (lowering/PipelineOptions.h): the
// scratch arena's size, the temporaries' total, each output's donated input.
void read_program_results(mlir::ModuleOp module, Program& program);

// "demo.cpp:12:9: error: message" (the first file location found), then its notes.
void print_diagnostic(llvm::raw_ostream& os, mlir::Diagnostic& d);

}  // namespace strata::backends
