// libFuzzer target: what strata-opt and strata-run do with a `.mlir` file — parse and verify it
// with every target's dialects registered; if it verifies (and holds an entry function of
// tensors), run every stage of the CPU target on it, verifying the module after each; if all
// succeed, generate code and run it on small deterministic inputs, with the generated code's
// bounds checks on. Malformed input must end in a diagnostic: a crash, an exception, a module
// that no longer verifies after a stage that succeeded, or code generation failing (or the
// program failing) after every stage succeeded, is a bug.
//
// Structure-aware: LLVMFuzzerCustomMutator parses the input and makes one random change to its
// IR (mutate_mlir.h) — a type, an operand, an op, an attribute — so the fuzzer explores programs
// near the valid seeds (tests/fuzz/corpus/fuzz_strata_opt: strata programs with a @main, from
// the lit tests) rather than bytes that never parse. Text that does not parse gets libFuzzer's
// byte mutations. LLVMFuzzerCustomCrossOver copies one op of another input into a module.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "backends/Pipeline.h"
#include "backends/Target.h"
#include "llvm/Support/raw_ostream.h"
#include "lowering/JaxprToStrata.h"
#include "lowering/PipelineOptions.h"
#include "lowering/Stages.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "strata/strata.h"
#include "transforms/EntryFunction.h"
#ifndef STRATA_FUZZ_REPLAY
#include "tests/fuzz/mutate_mlir.h"
#endif

namespace {

const mlir::DialectRegistry& registry() {
  static const mlir::DialectRegistry* r = [] {
    auto* reg = new mlir::DialectRegistry;
    for (const strata::backends::Target* t : strata::backends::all_targets()) strata::backends::register_dialects(*reg, *t);
    return reg;
  }();
  return *r;
}

// STRATA_FUZZ_TRACE=1: how far each input went (for choosing seeds, judging the mutator).
int trace(const char* how_far) {
  if (std::getenv("STRATA_FUZZ_TRACE")) llvm::errs() << how_far << "\n";
  return 0;
}

[[noreturn]] void bug(const std::string& what, const std::string& diagnostics) {
  llvm::errs() << "fuzz_strata_opt: " << what << "\n" << diagnostics;
  std::abort();
}

// The type of a value the entry function takes or returns, if strata can pass it.
std::optional<strata::AbstractValue> abstractValue(mlir::Type t) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(t);
  if (!tensor || !tensor.hasStaticShape()) return std::nullopt;
  std::optional<strata::DType> dtype = mlir::strata::dtypeOf(tensor.getElementType());
  if (!dtype) return std::nullopt;
  return strata::AbstractValue{strata::Shape(tensor.getShape().begin(), tensor.getShape().end()), *dtype, false};
}

// Small deterministic values of `av`'s type: -5..5 (0..10 unsigned, halves for floats).
strata::Array input(const strata::AbstractValue& av, size_t which) {
  std::vector<double> v(static_cast<size_t>(av.size()));
  for (size_t i = 0; i < v.size(); ++i) {
    double x = static_cast<double>((i * 7 + which * 3 + 5) % 11);
    if (av.dtype == strata::bool_) x = static_cast<double>((i + which) % 2);
    else if (strata::is_floating(av.dtype)) x = (x - 5) * 0.5;
    else if (!strata::is_unsigned_integer(av.dtype)) x -= 5;
    v[i] = x;
  }
  return strata::array(v, av.shape, av.dtype);
}

// Whether running the program is bounded in time and memory: no loop whose trip count the
// fuzzer controls, no tensor over 2^20 elements.
bool runnable(mlir::ModuleOp module) {
  bool ok = true;
  module->walk([&](mlir::Operation* op) {
    if (op->getName().getStringRef() == "strata.while") ok = false;
    for (mlir::Type t : op->getResultTypes())
      if (auto s = llvm::dyn_cast<mlir::ShapedType>(t); s && s.hasStaticShape() && s.getNumElements() > (1 << 20)) ok = false;
  });
  return ok;
}

}  // namespace

// An allocation that cannot succeed returns null under ASan too (a strata::Error for the
// user, as in the sanitized test suite), rather than ASan aborting on the size.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A copy ending in '\0', as strata-opt's files and the API's strings: MLIR's lexer relies on
  // one after its buffer (an identifier ending the text runs on into what follows).
  const std::string text(reinterpret_cast<const char*>(data), size);
  mlir::MLIRContext context(registry(), mlir::MLIRContext::Threading::DISABLED);
  std::string diagnostics;
  llvm::raw_string_ostream ds(diagnostics);
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic& d) {
    strata::backends::print_diagnostic(ds, d);
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(
      llvm::StringRef(text.data(), text.size()), &context);
  if (!module) {
    if (diagnostics.empty()) std::abort();  // a refusal says why
    return trace("parse-error");
  }
  if (mlir::failed(mlir::verify(*module))) return trace("invalid");
  // Only programs the compile path could have produced go through the stages: an entry
  // function whose arguments and results are tensors (the strata stage).
  mlir::func::FuncOp main = mlir::strata::entryFunction(*module);
  if (!main || main.isExternal()) return trace("no-entry");
  strata::backends::Program program;
  for (mlir::Type t : main.getFunctionType().getInputs()) {
    std::optional<strata::AbstractValue> av = abstractValue(t);
    if (!av) return trace("not-tensors");
    program.inputs.push_back(*av);
  }
  for (mlir::Type t : main.getFunctionType().getResults()) {
    std::optional<strata::AbstractValue> av = abstractValue(t);
    if (!av) return trace("not-tensors");
    program.outputs.push_back(*av);
  }
  int ops = 0;
  module->walk([&](mlir::Operation* op) {
    ++ops;
    // Only the strata, func and builtin ops the lowering produces.
    llvm::StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
    if (ns != "strata" && ns != "func" && ns != "builtin") ops = 1 << 20;
  });
  if (ops > 200) return trace("too-large");
  const bool run = runnable(*module);
  const strata::backends::Target* target = strata::backends::find_target(strata::DeviceKind::cpu);
  strata::JitOptions jit;
  jit.device = strata::Device{strata::DeviceKind::cpu, 0};
  jit.check_bounds = true;  // generated code is not instrumented by ASan
  mlir::strata::PipelineOptions options =
      strata::backends::pipeline_options(*target, jit, 0, static_cast<int64_t>(program.inputs.size()), {});
  llvm::SmallVector<const mlir::strata::Stage*> stages;
  for (const mlir::strata::Stage* s : strata::backends::pipeline(*target))
    if (!s->translate) stages.push_back(s);
  if (mlir::failed(mlir::strata::runStages(*module, stages, options, {}, {}, [&](const mlir::strata::Stage& stage, const std::string*) {
        if (mlir::failed(mlir::verify(*module))) bug("the module does not verify after stage " + std::string(stage.name), diagnostics);
      })))
    return trace("stage-refused");  // with a diagnostic
  if (!diagnostics.empty() && diagnostics.find("error") != std::string::npos)
    bug("the stages succeeded with an error diagnostic", diagnostics);
  if (!run) return trace("staged");
  // Every stage succeeded: code generation must too, and the program must run.
  std::string payload;
  absl::StatusOr<std::shared_ptr<const strata::Executable>> exe = target->compile(*module, program, jit, payload);
  if (!exe.ok()) bug("code generation failed after every stage succeeded: " + std::string(exe.status().message()), diagnostics);
  std::vector<strata::Array> ins, outs;
  std::vector<const void*> in_ptrs;
  std::vector<void*> out_ptrs;
  for (size_t i = 0; i < program.inputs.size(); ++i) {
    ins.push_back(input(program.inputs[i], i));
    in_ptrs.push_back(ins.back().data());
  }
  for (const strata::AbstractValue& av : program.outputs) {
    outs.push_back(strata::zeros(av.shape, av.dtype));
    out_ptrs.push_back(const_cast<void*>(outs.back().data()));  // a fresh array of its own
  }
  absl::Status status = (*exe)->execute(in_ptrs.data(), out_ptrs.data());
  if (!status.ok()) bug("the program failed: " + std::string(status.message()), diagnostics);
  return trace("ran");
}

#ifndef STRATA_FUZZ_REPLAY
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

// One structural change to the module the input parses to (1 in 8: byte mutations anyway, so
// the parser keeps seeing broken text too).
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  if (seed % 8 != 0) {
    std::optional<std::string> text =
        strata::fuzz::mutate_mlir(registry(), std::string_view(reinterpret_cast<const char*>(data), size), seed / 8);
    if (text && !text->empty() && text->size() <= max_size) {
      std::memcpy(data, text->data(), text->size());
      return text->size();
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}
#endif

#ifndef STRATA_FUZZ_REPLAY
// One op of the second input copied into the first (its operands rewired to values in scope).
extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2,
                                            uint8_t* out, size_t max_out_size, unsigned int seed) {
  std::optional<std::string> text = strata::fuzz::crossover_mlir(
      registry(), std::string_view(reinterpret_cast<const char*>(data1), size1),
      std::string_view(reinterpret_cast<const char*>(data2), size2), seed);
  if (!text || text->empty() || text->size() > max_out_size) return 0;
  std::memcpy(out, text->data(), text->size());
  return text->size();
}
#endif
