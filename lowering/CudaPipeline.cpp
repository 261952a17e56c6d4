// The cuda target's stages (CudaPipeline.h). Each function is a recipe; the comments say why
// the order matters.
#include "lowering/CudaPipeline.h"

#include "lowering/Canonicalize.h"

#include <mutex>

#include "llvm-c/Target.h"

#include "lowering/CpuPipeline.h"
#include "lowering/LlvmCodegen.h"
#include "lowering/Passes.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::strata {

void addCudaLinalgPasses(OpPassManager& pm, const PipelineOptions& options) {
  // The host program is a flat list of steps: a loop or branch around kernels cannot run yet.
  pm.addPass(createRejectControlFlowPass());
  addLinalgPasses(pm, options);
}

// Below this many iterations a reduction's one block is as quick as splitting it.
constexpr int64_t kGpuSplitMinIterations = int64_t{1} << 16;

void addCudaLoopsPasses(OpPassManager& pm, const PipelineOptions& options) {
  // 1. Strided copies become loops (a kernel each); whole-buffer copies stay copies (a
  //    device-to-device copy step). Every linalg op becomes loops: scf.parallel over parallel
  //    dimensions, scf.for over reductions (innermost, as StrataToLinalg orders them).
  // 0. GEMMs of f32, bf16 and f16 become library calls (cuBLASLt: a gemm step of the host
  //    program) while they are still recognisable ops.
  RuntimeGemmPassOptions gemm;
  gemm.parallel = false;
  gemm.types = {"f32", "bf16", "f16"};
  gemm.halfWorkspace = false;
  gemm.libraryEpilogues = true;
  pm.addPass(createRuntimeGemmPass(gemm));
  pm.addPass(createExpandStridedCopiesPass());
  pm.addPass(createConvertLinalgToParallelLoopsPass());
  pm.addPass(createCachedCanonicalizerPass());
  // 2. Adjacent loops over one iteration space become one (one kernel instead of several), as
  //    on the CPU.
  if (options.jit.fuse) pm.addPass(createFuseParallelLoopsPass());
  // 3. A reduction to a few values (a full sum, a norm) becomes a parallel loop over up to
  //    1024 chunks, each a block of its own (strata-gpu-map-loops maps each chunk's loop across
  //    a block), then one block combining the partials; unsplit, one block would do it all.
  SplitReductionLoopsPassOptions split;
  split.minIterations = kGpuSplitMinIterations;
  split.maxChunks = 1024;
  split.combineInMemory = true;
  pm.addPass(createSplitReductionLoopsPass(split));
  //    A reduction over leading axes (a column sum) folds chunks of rows, a thread per output
  //    and chunk (coalesced), then combines the chunks' partials.
  pm.addPass(createSplitColumnReductionsPass());
  //    A reduction along few long rows (f32[8, 1M] summed along its rows) reduces chunks of
  //    each row, a block each, then combines each row's partials.
  SplitRowReductionsPassOptions rows;
  rows.blocks = 1024;   // about a wave of 256-thread blocks on an H200 (132 SMs, 8 blocks each)
  rows.minChunk = 8192; // 32 elements a thread
  rows.fissionRows = rows.blocks;  // a softmax row's loops each stream the row anyway
  pm.addPass(createSplitRowReductionsPass(rows));
  // 4. Temporaries (the partials too) move into the scratch arena (device memory).
  ScratchArenaPassOptions arena;
  arena.share = options.jit.assign_buffers;
  pm.addPass(createScratchArenaPass(arena));
  pm.addPass(createCachedCanonicalizerPass());
}

void addGpuKernelPasses(OpPassManager& pm, const PipelineOptions&) {
  // 1. Loop nests are mapped onto blocks and threads (and host-side stragglers into one-thread
  //    loops), 2. become gpu.launch regions, 3. are outlined into one gpu.module of kernels,
  //    constants sunk into them; the host keeps views, copies and launches.
  pm.addPass(createGpuMapLoopsPass());
  pm.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createGpuWorkgroupBuffersPass());  // a transpose's tiles into shared memory
  pm.addPass(createCachedCanonicalizerPass());
  // Constants sink into the kernels: a kernel dividing by a known extent compiles to a
  // multiply and shift, not a 64-bit division by an argument.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createGpuMergeKernelsPass());  // one module: one cubin a program
  pm.addPass(createCSEPass());
}

void addNvvmPasses(OpPassManager& pm, const PipelineOptions& options) {
  // 1. The kernels' module is told its target (chip, PTX version, -O level for LLVM later).
  GpuNVVMAttachTargetOptions target;
  target.chip = options.gpuChip;
  target.features = options.gpuFeatures;
  target.optLevel = options.jit.opt_level;
  pm.addPass(createGpuNVVMAttachTarget(target));
  // 2. Inside it: loops become branches, views explicit offsets, then every dialect becomes
  //    NVVM/LLVM. Kernel arguments are bare pointers (static shapes), so the host passes one
  //    pointer per buffer; math functions become libdevice calls (__nv_expf …).
  OpPassManager& kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createSCFToControlFlowPass());
  kernels.addPass(memref::createExpandStridedMetadataPass());
  kernels.addPass(createLowerAffinePass());
  // Complex arithmetic as float arithmetic on the parts (as on the CPU); what builds and takes
  // apart complex values becomes LLVM structs after the NVVM conversion.
  kernels.addPass(createComplexToStandardPass());
  kernels.addPass(createExpandFloat8Pass());  // LLVM has no 8-bit float (as on the CPU)
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = true;
  kernels.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  // Integer math (absi, ctpop, ctlz) has no libdevice call: LLVM's intrinsics, which NVPTX has.
  kernels.addPass(createConvertMathToLLVMPass());
  kernels.addPass(createConvertComplexToLLVMPass());
  kernels.addPass(createCachedCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
}

LogicalResult translateToPtx(ModuleOp module, const PipelineOptions& options, std::string& ptx) {
  // The NVPTX backend is registered here, not by the host's JIT set-up (which registers the
  // native target only); without it the serializer produces nothing.
  static std::once_flag nvptx;
  std::call_once(nvptx, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  // gpu-module-to-binary (format isa) runs LLVM's NVPTX backend on each gpu.module, linking
  // libdevice from the toolkit; it replaces the module with a gpu.binary, so it runs on a copy.
  OwningOpRef<ModuleOp> copy(cast<ModuleOp>(module->clone()));
  PassManager pm(module->getContext());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  binary.toolkitPath = options.cudaToolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  {
    // NVPTX builds its pipeline with LLVM's options as the user left them (LlvmCodegen.h).
    std::unique_lock<std::mutex> lock = lockCodegenOptions();
    if (failed(pm.run(*copy))) return failure();
  }
  ptx.clear();
  WalkResult r = copy->walk([&](gpu::BinaryOp b) {
    for (Attribute a : b.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(a);
      if (!object) return WalkResult::interrupt();
      ptx += object.getObject().getValue().str();
    }
    return WalkResult::advance();
  });
  if (r.wasInterrupted()) return module.emitError("the gpu binary holds an object of another kind");
  bool kernels = !module.getOps<gpu::GPUModuleOp>().empty();
  if (kernels && ptx.find(".version") == std::string::npos)
    return module.emitError("LLVM's NVPTX backend produced no PTX");
  return success();
}

void registerCudaPipelineInterfaces(DialectRegistry& registry) {
  registerCpuPipelineInterfaces(registry);  // bufferization models, builtin/LLVM translation
  registry.insert<gpu::GPUDialect, NVVM::NVVMDialect, LLVM::LLVMDialect>();
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);  // wide loads and stores in kernels
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

}  // namespace mlir::strata
