// libFuzzer target: what strata-opt does with a `.mlir` file — parse and verify it with every
// target's dialects registered; if it verifies (and holds an entry function), run every stage
// of the CPU target on it, verifying the module after each. Malformed input must end in a
// diagnostic: a crash, an exception or a module that no longer verifies after a stage that
// succeeded is a bug. Seeded from the lit tests' inputs (tests/fuzz/corpus/fuzz_strata_opt).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "backends/Pipeline.h"
#include "backends/Target.h"
#include "llvm/Support/raw_ostream.h"
#include "lowering/PipelineOptions.h"
#include "lowering/Stages.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "transforms/EntryFunction.h"

namespace {

const mlir::DialectRegistry& registry() {
  static const mlir::DialectRegistry* r = [] {
    auto* reg = new mlir::DialectRegistry;
    for (const strata::backends::Target* t : strata::backends::all_targets()) strata::backends::register_dialects(*reg, *t);
    return reg;
  }();
  return *r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  mlir::MLIRContext context(registry(), mlir::MLIRContext::Threading::DISABLED);
  int diagnostics = 0;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic&) {
    ++diagnostics;
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(
      llvm::StringRef(text.data(), text.size()), &context);
  if (!module) {
    if (diagnostics == 0) std::abort();  // a refusal says why
    return 0;
  }
  if (mlir::failed(mlir::verify(*module))) return 0;
  // Only programs the compile path could have produced go through the stages: an entry
  // function whose arguments and results are tensors (the strata stage).
  mlir::func::FuncOp main = mlir::strata::entryFunction(*module);
  if (!main || main.isExternal()) return 0;
  for (mlir::Type t : main.getFunctionType().getInputs())
    if (!llvm::isa<mlir::RankedTensorType>(t) || !llvm::cast<mlir::RankedTensorType>(t).hasStaticShape()) return 0;
  for (mlir::Type t : main.getFunctionType().getResults())
    if (!llvm::isa<mlir::RankedTensorType>(t) || !llvm::cast<mlir::RankedTensorType>(t).hasStaticShape()) return 0;
  int ops = 0;
  module->walk([&](mlir::Operation* op) {
    ++ops;
    // Only the strata, func and builtin ops the lowering produces.
    llvm::StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
    if (ns != "strata" && ns != "func" && ns != "builtin") ops = 1 << 20;
  });
  if (ops > 200) return 0;
  const strata::backends::Target* target = strata::backends::find_target(strata::DeviceKind::cpu);
  mlir::strata::PipelineOptions options;
  target->configure(options);
  options.jit.device = strata::Device{strata::DeviceKind::cpu, 0};
  options.numInputs = main.getNumArguments();
  llvm::SmallVector<const mlir::strata::Stage*> stages;
  for (const mlir::strata::Stage* s : strata::backends::pipeline(*target))
    if (!s->translate) stages.push_back(s);
  (void)mlir::strata::runStages(*module, stages, options, {}, {}, [&](const mlir::strata::Stage& stage, const std::string*) {
    if (mlir::failed(mlir::verify(*module))) {
      llvm::errs() << "the module does not verify after stage " << stage.name << "\n";
      std::abort();
    }
  });
  return 0;
}
