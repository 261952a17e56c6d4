// The CPU pipeline's stages (CpuPipeline.h). Each function is a recipe; the comments say why
// the order matters.
#include "lowering/CpuPipeline.h"

#include "lowering/Canonicalize.h"
#include "dialect/ElementTypes.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"
#include "lowering/LlvmCodegen.h"
#include "lowering/Passes.h"
#include "lowering/Stages.h"
#include "lowering/StrataToLinalg.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "transforms/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/RuntimeOpVerification.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::strata {

void addLinalgPasses(OpPassManager& pm, const PipelineOptions& options) {
  // 1. Every strata op becomes linalg/tensor/arith/math (custom_vjp calls inlined first);
  //    on the CPU, convolutions become calls of the runtime's kernel.
  StrataToLinalgPassOptions toLinalg;
  toLinalg.runtimeConvolution = options.runtimeConvolution;
  pm.addPass(createStrataToLinalgPass(toLinalg));
  //    Each strata.fusion region becomes one loop nest there (the fusion decisions are the
  //    `fused` stage's; with fusion off every op is its own loop nest).
  // 2. Dead values go, duplicates merge (tensor.empty of one shape: a loop's output may then
  //    share the buffer of the input it consumes). Fills merged by CSE are split again, one per
  //    use: two GEMM results or reduction accumulators sharing one zero fill would bufferize to
  //    a copy, and the runtime-GEMM pass recognises a GEMM by the fill just before it.
  pm.addPass(createCachedCanonicalizerPass());
  pm.addPass(createCSEPass());
  // 3. Loop-invariant values (a loop body's ops on constants and on values from outside the
  //    loop) move out of scf.while/scf.for bodies and scf.if branches' loops: computed once.
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createUnshareFillsPass());
  // 4. A loop carry that a reduction nest rewrites element by element is read through the
  //    nest's output, so that it is updated in its own buffer (no copy per trip).
  pm.addPass(createCarriesInPlacePass());
  // 5. Each runtime call (convolution, linalg, sort, collectives) reads its tensors just before
  //    it: CSE, LICM and the canonicalizer may have merged, hoisted or folded those reads
  //    away from the call, and bufferization would not see that the call reads them there.
  pm.addPass(createRuntimeReadsAtCallsPass());
}

namespace {
double bytes(Type t) {
  auto s = dyn_cast<ShapedType>(t);
  if (!s || !s.hasStaticShape()) return 0;
  return static_cast<double>(storageBytes(s));
}
}  // namespace

void measureLinalgBytes(ModuleOp module, StageCost& cost) {
  double total = 0;
  module.walk([&](Operation* op) {
    if (auto l = dyn_cast<linalg::LinalgOp>(op)) {
      for (Value v : l.getDpsInputs()) total += bytes(v.getType());
      for (Value v : op->getResults()) total += bytes(v.getType());
    } else if (auto s = dyn_cast<tensor::InsertSliceOp>(op)) {
      total += 2 * bytes(s.getSource().getType());
    } else if (auto s = dyn_cast<tensor::ExtractSliceOp>(op)) {
      total += 2 * bytes(s.getType());
    }
  });
  cost.bytes_accessed = total;
}

void addAssignBuffersPasses(OpPassManager& pm, const PipelineOptions& options) {
  StrataAssignBuffersOptions assign;
  assign.share = options.jit.assign_buffers;
  pm.addPass(createStrataAssignBuffers(assign));
}

void addBufferizePasses(OpPassManager& pm, const PipelineOptions& options) {
  // 1. Inputs belong to the caller: never written in place.
  pm.addPass(createMarkReadOnlyInputsPass());
  //    The copies of values overwritten in place but read afterwards are made first: made by
  //    the analysis, each would cost it a search exponential in the loops behind the value.
  pm.addPass(createCopyOverwrittenValuesPass());
  // 2. Tensors become buffers across the whole module; contiguous (identity) layouts at
  //    function boundaries, so that @main takes plain row-major buffers.
  //    A loop's new carry is computed in the carry's own buffer where the analysis allows:
  //    the tensor.empty its op would fill becomes the carry (empty-tensor elimination of the
  //    materialize_in_destination ControlFlowToScf.cpp puts before each yield).
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion = bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // 3. Results become out-params written in place (destination passing): the allocation of a
  //    returned buffer is replaced by the caller's output buffer.
  bufferization::BufferResultsToOutParamsPassOptions out;
  out.hoistStaticAllocs = true;
  out.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(out));
  pm.addPass(createCachedCanonicalizerPass());
  // 4. Results returned through a reshape are computed in the output buffer too.
  pm.addPass(createForwardOutputsPass());
  // 5. Outputs take over the buffers of donated inputs (after 4, which settles where each
  //    output is written).
  DonateInputsPassOptions donate;
  donate.args = options.donatedArgs;
  donate.numInputs = options.numInputs;
  pm.addPass(createDonateInputsPass(donate));
}

void addLoopsPasses(OpPassManager& pm, const PipelineOptions& options) {
  // 1. GEMMs become runtime calls while they are still recognisable ops.
  RuntimeGemmPassOptions gemm;
  gemm.parallel = options.jit.parallel;
  pm.addPass(createRuntimeGemmPass(gemm));
  pm.addPass(createExpandStridedCopiesPass());
  // 2. Transposes are tiled (so that each tile stays in cache), then everything becomes loops: scf.parallel over parallel dimensions, scf.for over
  //    reductions (innermost, as StrataToLinalg orders them).
  pm.addPass(createTileTransposesPass());
  pm.addPass(createConvertLinalgToParallelLoopsPass());
  pm.addPass(createCachedCanonicalizerPass());
  // 3. Adjacent loops over one iteration space that depend only iteration by iteration become
  //    one (an input fusion's fill, reduction and epilogue: one nest). Part of fusion: with
  //    fusion off every op keeps its own loop nest.
  //    On the CPU also loops that share their outer (row) dimensions: a row reduction and the
  //    elementwise loop over its rows (softmax) become one nest per row.
  if (options.jit.fuse) pm.addPass(createFuseParallelLoopsPass(FuseParallelLoopsPassOptions{/*rows=*/true}));
  //    A column reduction with batch dimensions in front of its rows runs batch by batch
  //    (each batch streams its own rows), when the batches are enough to keep the pool busy.
  BatchColumnReductionsPassOptions batches;
  batches.fewestBatches = options.jit.parallel ? 4 * options.cpuThreads : 1;
  pm.addPass(createBatchColumnReductionsPass(batches));
  // 4. Large loops are outlined for the thread pool (unless parallel loops are off); then
  //    temporaries move into the scratch arena (last, so that it sees every allocation,
  //    including the GEMM's workspace).
  //    Serial reductions to a few values (a dot product, a norm) first become parallel loops
  //    over chunks, each with partials of its own; so do reductions along fewer rows than
  //    the pool could run at once (each row then splits into chunks).
  if (options.jit.parallel) {
    SplitRowReductionsPassOptions rows;
    rows.fissionRows = options.cpuThreads;
    pm.addPass(createSplitRowReductionsPass(rows));
    SplitReductionLoopsPassOptions split;
    split.columnPlaces = 16 * options.cpuThreads;  // column sums too narrow to split by columns
    pm.addPass(createSplitReductionLoopsPass(split));
    pm.addPass(createOutlineParallelLoopsPass());
  }
  //    Long float sums (the chunks above, long rows) accumulate in blocks joined with
  //    compensation: the error of a sum vectorised lane by lane grows with each lane's terms.
  pm.addPass(createBlockFloatSumsPass());
  //    A narrow column reduction's accumulators (one per column) are carried by its row loop
  //    (its blocks' loops), not loaded and stored on every row.
  pm.addPass(createCarryColumnAccumulatorsPass());
  ScratchArenaPassOptions arena;
  arena.share = options.jit.assign_buffers;
  pm.addPass(createScratchArenaPass(arena));
  pm.addPass(createCachedCanonicalizerPass());
  // 5. Outlined functions that repeat (one per layer of a repeated block) are kept once: LLVM
  //    optimises and compiles each distinct loop nest once.
  pm.addPass(createMergeIdenticalFunctionsPass());
}

void addLlvmDialectPasses(OpPassManager& pm, const PipelineOptions& options) {
  // 0. JitOptions::check_bounds: every memref load, store and view checks its indices against
  //    the buffer's shape (cf.assert: prints the op and its location, then aborts).
  if (options.jit.check_bounds) pm.addPass(createGenerateRuntimeVerificationPass());
  // 1. Views (subview, reshape) become explicit offsets and strides; loops become branches;
  //    math functions without an accurate LLVM intrinsic become libm calls.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  //    Complex arithmetic becomes arith and math on the parts (MLIR's formulas: Smith's
  //    division, the careful abs, log1p, expm1; products as XLA's fused multiply-adds);
  //    creating and taking parts stays for LLVM.
  pm.addPass(createComplexToStandardPass());
  pm.addPass(createExpandFloat8Pass());  // before arith-to-llvm: LLVM has no 8-bit float
  pm.addPass(createMathToLibmCallsPass());
  // 2. Each dialect to LLVM; casts between the partial conversions cancel out at the end.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertComplexToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // 3. The runtime's view: parallel loops launched through parallel_for, one entry point.
  pm.addPass(createParallelLaunchPass());
  pm.addPass(createCpuEntryPass());
  // No canonicalizer here: LLVM's -O pipeline folds the same constants and dead code, and on
  // the LLVM dialect it was the stage's costliest pass (2.7 of 16 ms for ops50; same LLVM IR).
}

namespace {

LogicalResult translate(ModuleOp module, int level, bool assembly, std::string& text) {
  std::string error;
  std::unique_ptr<llvm::TargetMachine> tm = createHostTargetMachine(level, error);
  if (!tm) return module.emitError(error);
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule = translateAndOptimize(module, context, *tm, level);
  if (!llvmModule) return failure();
  if (!assembly) {
    text = printLlvmModule(*llvmModule);
    return success();
  }
  llvm::SmallVector<char, 0> out;
  if (!emitMachineCode(*llvmModule, *tm, true, out, error)) return module.emitError(error);
  text.assign(out.begin(), out.end());
  return success();
}

}  // namespace

LogicalResult translateToLlvmIr(ModuleOp module, const PipelineOptions& options, std::string& text) {
  return translate(module, options.jit.opt_level, false, text);
}
LogicalResult translateToAssembly(ModuleOp module, const PipelineOptions& options, std::string& text) {
  return translate(module, options.jit.opt_level, true, text);
}

void registerCpuPipelineInterfaces(DialectRegistry& registry) {
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  memref::registerRuntimeVerifiableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

}  // namespace mlir::strata
