// The stage list of a target and the pieces of the compile path both the API's compiler and
// strata-opt use (Pipeline.h).
#include "backends/Pipeline.h"

#include "backends/Compiler.h"
#include "llvm/Support/raw_ostream.h"
#include "lowering/Dialects.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/DialectRegistry.h"

namespace strata::backends {

llvm::SmallVector<const mlir::strata::Stage*> pipeline(const Target& target) {
  llvm::SmallVector<const mlir::strata::Stage*> out;
  for (const mlir::strata::Stage& s : mlir::strata::sharedStages()) out.push_back(&s);
  for (const mlir::strata::Stage& s : target.stages()) out.push_back(&s);
  return out;
}

const mlir::strata::Stage* find_stage(llvm::ArrayRef<const mlir::strata::Stage*> stages, llvm::StringRef name) {
  for (const mlir::strata::Stage* s : stages)
    if (name == s->name) return s;
  return nullptr;
}

void read_program_results(mlir::ModuleOp module, Program& program) {
  auto i64 = [&](const char* name) {
    auto a = module->getAttrOfType<mlir::IntegerAttr>(name);
    return a ? a.getInt() : 0;
  };
  program.memory.scratch_bytes = i64("strata.scratch_bytes");
  program.memory.temporaries_bytes = i64("strata.temporaries_bytes");
  program.output_aliases.clear();
  const int64_t nc = static_cast<int64_t>(program.consts.size());
  if (auto aliases = module->getAttrOfType<mlir::DenseI64ArrayAttr>("strata.output_aliases"))
    for (int64_t a : aliases.asArrayRef()) program.output_aliases.push_back(a < 0 ? -1 : static_cast<int>(a - nc));
}

void register_dialects(mlir::DialectRegistry& registry, const Target& target) {
  mlir::strata::registerStrataDialects(registry);
  target.register_dialects(registry);
}

mlir::strata::PipelineOptions pipeline_options(const Target& target, const JitOptions& options, int64_t num_consts,
                                               int64_t num_inputs, std::span<const int> donated) {
  mlir::strata::PipelineOptions p;
  target.configure(p);
  p.jit = options;
  p.jit.check_bounds = compiler::check_bounds(options);
  for (int i : donated)
    if (i >= 0 && i < num_inputs) p.donatedArgs.push_back(num_consts + i);
  p.numInputs = num_consts + num_inputs;
  return p;
}

void print_diagnostic(llvm::raw_ostream& os, mlir::Diagnostic& d) {
  std::string where;
  d.getLocation()->walk([&](mlir::Location l) {
    if (auto f = llvm::dyn_cast<mlir::FileLineColLoc>(l)) {
      where = f.getFilename().str() + ":" + std::to_string(f.getLine()) + ":" + std::to_string(f.getColumn()) + ": ";
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  const char* severity = d.getSeverity() == mlir::DiagnosticSeverity::Error     ? "error"
                         : d.getSeverity() == mlir::DiagnosticSeverity::Warning ? "warning"
                                                                                : "note";
  os << where << severity << ": " << d.str() << "\n";
  for (mlir::Diagnostic& note : d.getNotes()) print_diagnostic(os, note);
}

}  // namespace strata::backends
