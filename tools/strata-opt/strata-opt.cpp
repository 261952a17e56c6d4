// strata-opt: MLIR's opt driver with the `strata` dialect, the upstream dialects and passes the
// pipelines use, and the stage view:
//
//   strata-opt --emit=STAGE file.{mlir,jaxpr}   the program after one stage
//   strata-opt --emit=all file.{mlir,jaxpr}     every stage in order, each under a header
//   strata-opt --emit=stablehlo file.{mlir,jaxpr}  the program (after cse) as StableHLO text
//     for --target=NAME (cpu), whose stages follow the shared ones (backends/Pipeline.h), with
//     the compiler's switches (JitOptions) for the pipelines: --opt-level=N, --parallel=BOOL,
//     --fuse=BOOL, --assign-buffers=BOOL, --donate=i,j (entry arguments)
//   strata-opt [mlir-opt flags] file.jaxpr      the jaxpr lowered to `strata`, then as mlir-opt
//
// Every other flag is mlir-opt's (--pass-pipeline, --split-input-file, --verify-diagnostics,
// --mlir-print-ir-after-all, ...). Malformed input gets a diagnostic with file:line:col and a
// non-zero exit, never a crash.
#include <memory>
#include <string>

#include "backends/Pipeline.h"
#include "dialect/StablehloCompat.h"
#include "jaxpr_parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "lowering/Dialects.h"
#include "lowering/JaxprToStrata.h"
#include "lowering/Passes.h"
#include "lowering/Stages.h"
#include "transforms/EntryFunction.h"
#include "transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

using namespace mlir;

static llvm::cl::opt<std::string> emitStage(
    "emit",
    llvm::cl::desc("Print the program after the named stage, or every stage ('all'); stages: "
                   "jaxpr (for a .jaxpr input), strata, canonicalized, cse, fused, then the target's "
                   "(cpu: linalg, bufferized, buffers, loops, llvm-dialect, llvm-ir, asm); or stablehlo: "
                   "the program after cse as StableHLO text"),
    llvm::cl::value_desc("stage"), llvm::cl::init(""));
static llvm::cl::opt<std::string> targetName("target", llvm::cl::desc("The target whose stages --emit runs"),
                                             llvm::cl::value_desc("name"), llvm::cl::init("cpu"));

// The compiler's switches for --emit (JitOptions, lowering/PipelineOptions.h).
static llvm::cl::OptionCategory pipelineCategory("strata pipeline options (with --emit)");
static llvm::cl::opt<int> optLevel("opt-level", llvm::cl::desc("LLVM optimisation level (0-3) of the llvm-ir and asm stages"),
                                   llvm::cl::init(3), llvm::cl::cat(pipelineCategory));
static llvm::cl::opt<bool> parallel("parallel", llvm::cl::desc("Split large loops and GEMMs across the thread pool"),
                                    llvm::cl::init(true), llvm::cl::cat(pipelineCategory));
static llvm::cl::opt<bool> fuse("fuse", llvm::cl::desc("Group ops into strata.fusion regions (the fused stage)"),
                                llvm::cl::init(true), llvm::cl::cat(pipelineCategory));
static llvm::cl::opt<bool> assignBuffers("assign-buffers",
                                         llvm::cl::desc("Temporaries whose live ranges do not overlap share bytes"),
                                         llvm::cl::init(true), llvm::cl::cat(pipelineCategory));
static llvm::cl::opt<bool> checkBounds("check-bounds",
                                       llvm::cl::desc("Bounds checks on every memref load, store and view (llvm-dialect on)"),
                                       llvm::cl::init(false), llvm::cl::cat(pipelineCategory));
static llvm::cl::list<int64_t> donate("donate",
                                      llvm::cl::desc("Entry-function arguments whose buffers outputs may take over"),
                                      llvm::cl::CommaSeparated, llvm::cl::cat(pipelineCategory));

namespace {

// The pipeline options from the flags above; the entry function's arguments are all inputs
// (`module` is at the strata stage).
mlir::strata::PipelineOptions pipelineOptions(ModuleOp module, const ::strata::backends::Target& target) {
  mlir::strata::PipelineOptions options;
  target.configure(options);
  options.jit.device = ::strata::Device{target.kind(), 0};
  options.jit.opt_level = optLevel;
  options.jit.parallel = parallel;
  options.jit.fuse = fuse;
  options.jit.assign_buffers = assignBuffers;
  options.jit.check_bounds = checkBounds;
  options.donatedArgs.assign(donate.begin(), donate.end());
  if (func::FuncOp main = mlir::strata::entryFunction(module)) options.numInputs = main.getNumArguments();
  return options;
}

bool looksLikeJaxpr(llvm::StringRef filename, llvm::StringRef text) {
  return filename.ends_with(".jaxpr") || text.ltrim().starts_with("{ lambda");
}

// The input as a module of the `strata` dialect: parsed, or (for a jaxpr) lowered from the
// parsed jaxpr, whose text is then returned in `jaxprText`.
OwningOpRef<ModuleOp> readProgram(llvm::SourceMgr& sourceMgr, MLIRContext& context, bool jaxpr,
                                  std::string& jaxprText) {
  if (!jaxpr) {
    // StableHLO's generic-form ops become strata ops (its pretty forms already are).
    // Verified after the import: StableHLO forms strata's verifiers refuse (0-d clamp bounds,
    // bitcasts between widths) are rewritten by it.
    OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context, /*verifyAfterParse=*/false));
    if (!module || failed(mlir::strata::importGenericOps(*module)) || failed(verify(*module))) return {};
    return module;
  }
  const llvm::MemoryBuffer* buffer = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  std::string filename = buffer->getBufferIdentifier().str();
  ::strata::ParsedJaxpr parsed = ::strata::parse_jaxpr(buffer->getBuffer(), filename);
  if (!parsed.jaxpr) {
    emitError(FileLineColLoc::get(&context, filename, parsed.error.line, parsed.error.column))
        << parsed.error.message;
    return {};
  }
  jaxprText = parsed.jaxpr->str() + "\n";
  auto module = mlir::strata::lowerJaxprToStrata(context, *parsed.jaxpr,
                                           FileLineColLoc::get(&context, filename, 1, 1));
  if (module && failed(verify(*module))) return {};
  return module;
}

// --emit: the program after each stage up to the one asked for.
LogicalResult emitStages(llvm::raw_ostream& os, llvm::SourceMgr& sourceMgr, MLIRContext& context,
                         bool jaxpr, const ::strata::backends::Target& target) {
  bool all = emitStage == "all";
  std::string jaxprText;
  OwningOpRef<ModuleOp> module = readProgram(sourceMgr, context, jaxpr, jaxprText);
  if (!module) return failure();
  bool first = true;
  auto header = [&](llvm::StringRef name) {
    if (all) os << (first ? "" : "\n") << "// ===== stage: " << name << " =====\n";
    first = false;
  };
  if (jaxpr && (all || emitStage == mlir::strata::kJaxprStage)) {
    header(mlir::strata::kJaxprStage);
    os << jaxprText;
    if (!all) return success();
  }
  auto emit = [&](const mlir::strata::Stage& stage, const std::string* translated) {
    if (!all && emitStage != stage.name) return;
    header(stage.name);
    os << (translated ? *translated : mlir::strata::printStage(*module, stage));
  };
  // mlir-opt's pass manager flags (--mlir-print-ir-*, --mlir-timing: each stage's pass
  // manager reports its own passes' times) apply to the stages' pass managers too.
  auto configure = [](PassManager& pm) {
    applyDefaultTimingPassManagerCLOptions(pm);
    return applyPassManagerCLOptions(pm);
  };
  if (emitStage == "stablehlo") {  // the program after cse (before fusion), as StableHLO
    auto none = [](const mlir::strata::Stage&, const std::string*) {};
    if (failed(mlir::strata::runStages(*module, ::strata::backends::pipeline(target), pipelineOptions(*module, target), {},
                                       mlir::strata::kCacheKeyStage, none, configure)))
      return failure();
    return mlir::strata::exportStablehlo(*module, os);
  }
  return mlir::strata::runStages(*module, ::strata::backends::pipeline(target), pipelineOptions(*module, target), {},
                                 all ? "" : emitStage.getValue(), emit, configure);
}

// One input (or one --split-input-file chunk).
LogicalResult processBuffer(llvm::raw_ostream& os, std::unique_ptr<llvm::MemoryBuffer> buffer,
                            DialectRegistry& registry, const MlirOptMainConfig& config,
                            bool jaxpr, const ::strata::backends::Target& target) {
  // A jaxpr without --emit: lowered, then handed to mlir-opt's driver with its locations.
  if (jaxpr && emitStage.empty()) {
    MLIRContext context(registry);
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    std::string jaxprText;
    OwningOpRef<ModuleOp> module = readProgram(sourceMgr, context, true, jaxprText);
    if (!module) return failure();
    // Named apart from the .jaxpr, so diagnostics at its locations show the jaxpr's lines.
    std::string name = sourceMgr.getMemoryBuffer(1)->getBufferIdentifier().str() + ".strata.mlir";
    auto lowered =
        llvm::MemoryBuffer::getMemBufferCopy(mlir::strata::printStage(*module, true), name);
    MlirOptMainConfig inner = config;
    inner.splitInputFile("");
    return MlirOptMain(os, std::move(lowered), registry, inner);
  }

  MLIRContext context(registry);
  context.allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
  // As mlir-opt: expected-* lines name the diagnostics, not the notes that print the op.
  context.printOpOnDiagnostic(!config.shouldVerifyDiagnostics());
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  if (!config.shouldVerifyDiagnostics()) {
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    return emitStages(os, sourceMgr, context, jaxpr, target);
  }
  SourceMgrDiagnosticVerifierHandler handler(sourceMgr, &context,
                                             config.verifyDiagnosticsLevel());
  (void)emitStages(os, sourceMgr, context, jaxpr, target);
  return handler.verify();
}

}  // namespace

int main(int argc, char** argv) {
  DialectRegistry registry;
  for (const ::strata::backends::Target* t : ::strata::backends::all_targets()) ::strata::backends::register_dialects(registry, *t);
  registerAllPasses();
  mlir::strata::registerStrataLoweringPasses();
  mlir::strata::registerStrataTransformsPasses();
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "strata-opt: the strata compiler's stages, and mlir-opt", registry);

  const ::strata::backends::Target* target = ::strata::backends::find_target(std::string_view(targetName.getValue()));
  if (!target) {
    std::string names;
    for (const ::strata::backends::Target* t : ::strata::backends::all_targets()) names += (names.empty() ? "" : ", ") + std::string(t->name());
    llvm::errs() << "strata-opt: expects --target to name a target (" << names << "), but got '" << targetName << "'\n";
    return 1;
  }
  if (!emitStage.empty() && emitStage != "all" && emitStage != mlir::strata::kJaxprStage && emitStage != "stablehlo" &&
      !::strata::backends::find_stage(::strata::backends::pipeline(*target), emitStage)) {
    std::string names = mlir::strata::kJaxprStage.str();
    for (const mlir::strata::Stage* s : ::strata::backends::pipeline(*target)) names += std::string(", ") + s->name;
    llvm::errs() << "strata-opt: expects --emit=all or a stage (" << names << "), but got '"
                 << emitStage << "'\n";
    return 1;
  }

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << "strata-opt: " << error << "\n";
    return 1;
  }
  bool jaxpr = looksLikeJaxpr(inputFilename, input->getBuffer());
  // Plain MLIR without --emit: exactly mlir-opt (stdin, already read, is handed over).
  if (emitStage.empty() && !jaxpr && inputFilename != "-") {
    input.reset();
    return asMainReturnCode(MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  }
  if (emitStage == mlir::strata::kJaxprStage && !jaxpr) {
    llvm::errs() << "strata-opt: expects a .jaxpr input for --emit=jaxpr, but got "
                 << inputFilename << "\n";
    return 1;
  }

  std::unique_ptr<llvm::ToolOutputFile> output = openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << "strata-opt: " << error << "\n";
    return 1;
  }
  const MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (emitStage.empty() && !jaxpr) {
    if (failed(MlirOptMain(output->os(), std::move(input), registry, config))) return 1;
    output->keep();
    return 0;
  }
  auto chunk = [&](std::unique_ptr<llvm::MemoryBuffer> buffer, llvm::raw_ostream& os) {
    return processBuffer(os, std::move(buffer), registry, config, jaxpr, *target);
  };
  if (failed(splitAndProcessBuffer(std::move(input), NoSourceChunkBufferHandler(chunk), output->os(),
                                   config.inputSplitMarker(), config.outputSplitMarker())))
    return 1;
  output->keep();
  return 0;
}
