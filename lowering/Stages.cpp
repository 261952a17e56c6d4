// The shared stages (Stages.h) and the loop that runs a stage list.
#include "lowering/Stages.h"

#include "lowering/Canonicalize.h"

#include "mlir/IR/Verifier.h"

#include "dialect/StrataOps.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "transforms/Passes.h"

namespace mlir::strata {
namespace {

// Calls inlined first (fusion does not cross a call), then folders and patterns.
void addCanonicalize(OpPassManager& pm, const PipelineOptions&) {
  pm.addPass(createStrataInlineCalls());
  pm.addPass(createCachedCanonicalizerPass());
}
void addCse(OpPassManager& pm, const PipelineOptions&) { pm.addPass(createCSEPass()); }
// rng_bit_generator written first as the elementwise ops fusion merges (after cse, whose
// program --emit=stablehlo exports with the op StableHLO has). Fusion off (JitOptions::fuse):
// the stage is otherwise the program unchanged, every op its own loop nest. Which dots take an
// epilogue is the target's to say (PipelineOptions::dotEpilogueTypes).
void addFuse(OpPassManager& pm, const PipelineOptions& options) {
  pm.addPass(createStrataExpandRngBitGenerator());
  if (!options.jit.fuse) return;
  StrataFuseOptions fuse;
  fuse.dotEpilogueTypes.assign(options.dotEpilogueTypes.begin(), options.dotEpilogueTypes.end());
  pm.addPass(createStrataFuse(fuse));
}

double elements(Type t) {
  auto s = dyn_cast<ShapedType>(t);
  return s && s.hasStaticShape() ? static_cast<double>(s.getNumElements()) : 1.0;
}

// Flops of the strata program: 2·M·N·K per batch for dot_general, one per element for
// elementwise ops and random bits, one per input element for reductions.
void measureFlops(ModuleOp module, StageCost& cost) {
  double flops = 0;
  module.walk([&](Operation* op) {
    if (auto dot = dyn_cast<DotGeneralOp>(op)) {
      auto lhs = cast<RankedTensorType>(dot.getLhs().getType());
      double k = 1;
      for (int64_t d : dot.getLhsContractingDimensions()) k *= static_cast<double>(lhs.getDimSize(d));
      flops += 2 * elements(dot.getType()) * k;
    } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
      flops += elements(reduce.getInputs()[0].getType());
    } else if (op->getParentOfType<ReduceOp>()) {
      // counted by the reduce
    } else if (op->hasTrait<OpTrait::Elementwise>() || isa<Threefry2x32Op>(op)) {
      if (!isa<BitcastConvertOp>(op)) flops += elements(op->getResult(0).getType());
    }
  });
  cost.flops = flops;
}

// The recipe. Order matters: canonicalization folds constants and identities first, so that
// CSE then sees the ops that are really left and merges the duplicates among them; fusion
// then groups what remains (a duplicate left unmerged would be computed twice).
const Stage kShared[] = {
    // 1. The program as parsed (.mlir) or lowered from the jaxpr.
    {"strata", "the program in the strata dialect, as parsed or lowered", nullptr},
    // 2. Calls inlined; constant folding, identities (x + 0, x * 1, transpose of transpose,
    //    ...), DCE.
    {"canonicalized", "after inlining calls and canonicalization (folders and patterns)", addCanonicalize},
    // 3. Common subexpressions merged; the program's flops are counted here.
    {"cse", "after common subexpression elimination", addCse, nullptr, nullptr, measureFlops},
    // 4. Ops grouped into strata.fusion regions, one loop nest each (JitOptions::fuse off: none).
    {"fused", "ops grouped into strata.fusion regions (transforms/Fuse.cpp)", addFuse},
};

}  // namespace

llvm::ArrayRef<Stage> sharedStages() { return kShared; }

LogicalResult runStages(ModuleOp module, llvm::ArrayRef<const Stage*> stages, const PipelineOptions& options,
                        llvm::StringRef from, llvm::StringRef last,
                        llvm::function_ref<void(const Stage&, const std::string* translated)> emit,
                        llvm::function_ref<LogicalResult(PassManager&)> configure) {
  bool running = from.empty();
  for (const Stage* stage : stages) {
    if (!running) {
      running = from == stage->name;
      continue;
    }
    if (stage->addPasses) {
      PassManager pm(module.getContext());
      pm.enableVerifier(options.verifyEachPass);
      stage->addPasses(pm, options);
      if (configure && failed(configure(pm))) return failure();
      if (failed(pm.run(module))) return failure();
      if (!options.verifyEachPass && failed(verify(module))) return failure();
    }
    std::string text;
    if (stage->translate && failed(stage->translate(module, options, text))) return failure();
    emit(*stage, stage->translate ? &text : nullptr);
    if (last == stage->name) break;
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
