// The compiler behind the public API: lowers a traced jaxpr through every stage and returns
// the texts, with MLIR diagnostics turned into a message (no exception crosses MLIR frames).
#include "lowering/Lower.h"

#include "jaxpr.h"
#include "llvm/Support/raw_ostream.h"
#include "lowering/Dialects.h"
#include "lowering/JaxprToStrata.h"
#include "lowering/Stages.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

namespace strata::lowering {
namespace {

// "demo.cpp:12:9: error: message", the first file location found in `loc`.
void printDiagnostic(llvm::raw_ostream& os, mlir::Diagnostic& d) {
  std::string where;
  d.getLocation()->walk([&](mlir::Location l) {
    if (auto f = llvm::dyn_cast<mlir::FileLineColLoc>(l)) {
      where = (f.getFilename().str() + ":" + std::to_string(f.getLine()) + ":" +
               std::to_string(f.getColumn()) + ": ");
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  const char* severity = d.getSeverity() == mlir::DiagnosticSeverity::Error     ? "error"
                         : d.getSeverity() == mlir::DiagnosticSeverity::Warning ? "warning"
                                                                                : "note";
  os << where << severity << ": " << d.str() << "\n";
  for (mlir::Diagnostic& note : d.getNotes()) printDiagnostic(os, note);
}

}  // namespace

std::vector<std::string> stage_names() {
  std::vector<std::string> names{mlir::strata::kJaxprStage.str()};
  for (const mlir::strata::Stage& s : mlir::strata::stages()) names.emplace_back(s.name);
  return names;
}

LowerResult lower(const JaxprImpl& jaxpr, bool with_locations, const Options& options, std::string_view last) {
  LowerResult result;
  std::string jaxpr_text = jaxpr.str() + "\n";
  result.stages.push_back({mlir::strata::kJaxprStage.str(), jaxpr_text, jaxpr_text});
  const llvm::StringRef lastStage(last.data(), last.size());
  if (lastStage == mlir::strata::kJaxprStage) return result;

  mlir::DialectRegistry registry;
  mlir::strata::registerStrataDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  llvm::raw_string_ostream errors(result.error);
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic& d) {
    printDiagnostic(errors, d);
    return mlir::success();
  });

  auto module = mlir::strata::lowerJaxprToStrata(context, jaxpr, mlir::UnknownLoc::get(&context));
  if (!module || failed(mlir::verify(*module))) {
    if (result.error.empty()) result.error = "lowering failed";
    return result;
  }
  mlir::strata::PipelineOptions pipeline;
  pipeline.jit.parallel = options.parallel;
  pipeline.jit.fuse = options.fuse;
  pipeline.jit.assign_buffers = options.assign_buffers;
  pipeline.jit.opt_level = options.opt_level;
  auto emit = [&](const mlir::strata::Stage& stage, const std::string* translated) {
    if (translated) {
      result.stages.push_back({stage.name, *translated, with_locations ? *translated : ""});
      return;
    }
    result.stages.push_back({stage.name, mlir::strata::printStage(*module, stage),
                             with_locations ? mlir::strata::printStage(*module, stage, true) : ""});
  };
  if (failed(mlir::strata::runStages(*module, pipeline, lastStage, emit)) && result.error.empty())
    result.error = "a pipeline failed";
  return result;
}

}  // namespace strata::lowering
