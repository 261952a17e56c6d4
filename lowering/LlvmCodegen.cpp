// From the LLVM dialect to the host's machine code (LlvmCodegen.h).
#include "lowering/LlvmCodegen.h"
#include "lowering/VectorMath.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "kernels/env_flag.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/SystemLibraries.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopUnrollPass.h"
#include "llvm/TargetParser/Host.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Export.h"

namespace mlir::strata {

void initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Compiler developers can pass LLVM's own options (-enable-epilogue-vectorization=0, …)
    // to every compilation of the process, for experiments.
    if (std::getenv("STRATA_LLVM_OPTIONS")) {
      const char* argv[] = {"strata"};
      llvm::cl::ParseCommandLineOptions(1, argv, "", nullptr, nullptr, "STRATA_LLVM_OPTIONS");
    }
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });
}

namespace {

llvm::CodeGenOptLevel codeGenLevel(int optLevel) {
  switch (optLevel) {
    case 0: return llvm::CodeGenOptLevel::None;
    case 1: return llvm::CodeGenOptLevel::Less;
    case 2: return llvm::CodeGenOptLevel::Default;
    default: return llvm::CodeGenOptLevel::Aggressive;
  }
}

llvm::OptimizationLevel optimizationLevel(int optLevel) {
  switch (optLevel) {
    case 0: return llvm::OptimizationLevel::O0;
    case 1: return llvm::OptimizationLevel::O1;
    case 2: return llvm::OptimizationLevel::O2;
    default: return llvm::OptimizationLevel::O3;
  }
}

}  // namespace

const HostTarget& hostTarget() {
  static const HostTarget host = [] {
    HostTarget h;
    h.triple = llvm::sys::getProcessTriple();
    h.cpu = llvm::sys::getHostCPUName().str();
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    std::vector<std::string> list;
    for (const auto& f : features) list.push_back((f.second ? "+" : "-") + f.first().str());
    std::sort(list.begin(), list.end());
    for (const std::string& f : list) h.features += (h.features.empty() ? "" : ",") + f;
    return h;
  }();
  return host;
}

std::unique_ptr<llvm::TargetMachine> createHostTargetMachine(int optLevel, std::string& error) {
  initializeNativeTarget();
  const HostTarget& host = hostTarget();
  llvm::orc::JITTargetMachineBuilder jtmb{llvm::Triple(host.triple)};
  jtmb.setCPU(host.cpu);
  jtmb.addFeatures(std::vector<std::string>{host.features});
  jtmb.setCodeGenOptLevel(codeGenLevel(optLevel));
  jtmb.setRelocationModel(llvm::Reloc::PIC_);
  jtmb.setCodeModel(llvm::CodeModel::Small);
  // No fusing of a·b + c into an FMA behind the code's back (XLA's CPU backend does): the
  // compiled code keeps the roundings its ops state, and LLVM fuses differently in vector
  // bodies and scalar tails (lgamma(2) in f16 came out 0 in one, 2^-21 in the other, and sign()
  // made that 0 or 1; found by fuzz_differential). FMAs the semantics want are stated as
  // math.fma (complex products, --strata-complex-to-standard).
  auto tm = jtmb.createTargetMachine();
  if (!tm) {
    error = "cannot create a target machine for " + host.triple + " (" + host.cpu +
            "): " + llvm::toString(tm.takeError());
    return nullptr;
  }
  return std::move(*tm);
}

namespace {
struct TargetMachinePool {
  std::mutex mu;
  std::vector<std::unique_ptr<llvm::TargetMachine>> free[4];  // by -O level
};
TargetMachinePool& targetMachinePool() {
  static TargetMachinePool* pool = new TargetMachinePool;  // never destroyed: used at exit too
  return *pool;
}
int poolSlot(int optLevel) { return std::clamp(optLevel, 0, 3); }
}  // namespace

void ReturnTargetMachine::operator()(llvm::TargetMachine* tm) const {
  TargetMachinePool& pool = targetMachinePool();
  std::lock_guard<std::mutex> lock(pool.mu);
  auto& free = pool.free[poolSlot(optLevel)];
  if (free.size() < 32) free.emplace_back(tm);
  else delete tm;
}

PooledTargetMachine acquireHostTargetMachine(int optLevel, std::string& error) {
  TargetMachinePool& pool = targetMachinePool();
  {
    std::lock_guard<std::mutex> lock(pool.mu);
    auto& free = pool.free[poolSlot(optLevel)];
    if (!free.empty()) {
      llvm::TargetMachine* tm = free.back().release();
      free.pop_back();
      return PooledTargetMachine(tm, ReturnTargetMachine{optLevel});
    }
  }
  return PooledTargetMachine(createHostTargetMachine(optLevel, error).release(), ReturnTargetMachine{optLevel});
}

namespace {

// Loads and stores of an iN with N < 8 (bool, the sub-byte integers) as byte accesses. Each
// element takes a byte either way, its bits above N zero (an iN store writes them so, an iN
// load assumes it), but LLVM's vectoriser keeps the memory accesses of such irregular types
// scalar: an int4 chain ran 12x slower than the same in int8. As bytes, the loads, the stores
// and the truncations and extensions between them vectorise.
void widenSubByteAccesses(llvm::Module& m) {
  llvm::Type* i8 = llvm::Type::getInt8Ty(m.getContext());
  auto narrow = [](llvm::Type* t) { return t->isIntegerTy() && t->getIntegerBitWidth() < 8; };
  auto copyAliasInfo = [](llvm::Instruction& to, const llvm::Instruction& from) {
    for (unsigned kind : {llvm::LLVMContext::MD_alias_scope, llvm::LLVMContext::MD_noalias, llvm::LLVMContext::MD_nontemporal})
      if (llvm::MDNode* md = from.getMetadata(kind)) to.setMetadata(kind, md);
  };
  for (llvm::Function& f : m)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& inst : llvm::make_early_inc_range(bb)) {
        if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&inst)) {
          if (narrow(gep->getSourceElementType()) && gep->getNumIndices() == 1) {  // alloc size 1 either way
            gep->setSourceElementType(i8);
            gep->setResultElementType(i8);
          }
        } else if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
          if (!load->isSimple() || !narrow(load->getType())) continue;
          llvm::IRBuilder<> b(load);
          llvm::LoadInst* wide = b.CreateAlignedLoad(i8, load->getPointerOperand(), load->getAlign());
          copyAliasInfo(*wide, *load);
          load->replaceAllUsesWith(b.CreateTrunc(wide, load->getType()));
          load->eraseFromParent();
        } else if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
          if (!store->isSimple() || !narrow(store->getValueOperand()->getType())) continue;
          llvm::IRBuilder<> b(store);
          llvm::StoreInst* wide =
              b.CreateAlignedStore(b.CreateZExt(store->getValueOperand(), i8), store->getPointerOperand(), store->getAlign());
          copyAliasInfo(*wide, *store);
          store->eraseFromParent();
        }
      }
}

}  // namespace

std::unique_ptr<llvm::Module> translateForHost(ModuleOp module, llvm::LLVMContext& context, llvm::TargetMachine& tm) {
  std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(module, context, "strata");
  if (!llvmModule) {
    module.emitError("cannot translate the LLVM dialect to LLVM IR");
    return nullptr;
  }
  llvmModule->setDataLayout(tm.createDataLayout());
  llvmModule->setTargetTriple(tm.getTargetTriple());
  widenSubByteAccesses(*llvmModule);
  const HostTarget& host = hostTarget();
  for (llvm::Function& f : *llvmModule) {
    if (f.isDeclaration()) continue;
    f.addFnAttr("target-cpu", host.cpu);
    f.addFnAttr("target-features", host.features);
    f.addFnAttr(llvm::Attribute::NoUnwind);
    // Whole AVX-512 registers where the CPU has them (LLVM prefers 256 bits on most x86).
    if (host.features.find("+avx512f") != std::string::npos) f.addFnAttr("prefer-vector-width", "512");
  }
  std::string message;
  llvm::raw_string_ostream os(message);
  if (llvm::verifyModule(*llvmModule, &os)) {
    module.emitError("invalid LLVM IR: ") << message;
    return nullptr;
  }
  return llvmModule;
}

void optimizeModule(llvm::Module& llvmModule, llvm::TargetMachine& tm, int optLevel) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = optLevel >= 2;
  tuning.SLPVectorization = optLevel >= 2;
  // No unrolling after vectorisation: the vectoriser already interleaves (up to 4 vectors per
  // iteration), and fully unrolling a vector loop of constant trip count (a 1024-wide row: 64
  // copies of the body) made kernels 3-4x larger and code generation that much slower, for no
  // measured gain (bench_compile --run: softmax, ops50, MLP step, seed line). The full unroll
  // of small loops before vectorisation stays (added back below where the pipeline has it): a
  // window's few taps unrolled let the loop around them vectorise, in order.
  // STRATA_LLVM_UNROLL=1 turns the late unroll back on, for comparisons.
  const bool lateUnroll = ::strata::kernels::env_flag("STRATA_LLVM_UNROLL");
  tuning.LoopUnrolling = optLevel >= 2 && lateUnroll;
  llvm::PassBuilder pb(&tm, tuning);
  // Vectorised loops call libmvec's exp, log, sin, ... rather than the scalar functions, one
  // variant per function (VectorMath.h).
  llvm::TargetLibraryInfoImpl tlii(llvmModule.getTargetTriple());
  addVectorMathFunctions(tlii);
  fam.registerPass([&] { return llvm::TargetLibraryAnalysis(tlii); });
  if (optLevel >= 2 && !lateUnroll)
    pb.registerLoopOptimizerEndEPCallback([](llvm::LoopPassManager& lpm, llvm::OptimizationLevel level) {
      lpm.addPass(llvm::LoopFullUnrollPass(static_cast<int>(level.getSpeedupLevel()), /*OnlyWhenForced=*/false,
                                           /*ForgetSCEV=*/false));
    });
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = optLevel == 0
                                    ? pb.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
                                    : pb.buildPerModuleDefaultPipeline(optimizationLevel(optLevel));
  mpm.run(llvmModule, mam);
  // The calls the vectoriser left scalar (remainders, loops it kept scalar) and vector
  // intrinsics go through the same variant as the vectorised lanes: one result per input.
  // (Without the vectoriser, -O0 and -O1, every call is libm's scalar one already.)
  if (tuning.LoopVectorization) callOneVectorMathVariant(llvmModule);
}

std::unique_ptr<llvm::Module> translateAndOptimize(ModuleOp module, llvm::LLVMContext& context,
                                                   llvm::TargetMachine& tm, int optLevel) {
  std::unique_ptr<llvm::Module> llvmModule = translateForHost(module, context, tm);
  if (llvmModule) optimizeModule(*llvmModule, tm, optLevel);
  return llvmModule;
}

std::unique_lock<std::mutex> lockCodegenOptions() {
  static std::mutex mutex;
  return std::unique_lock<std::mutex>(mutex);
}

namespace {

// LLVM's loop strength reduction is left out of the host's code generation: it took a third of
// it in profiles (4-5 ms of an ~11 ms GEMM-epilogue kernel; first calls 10-30% faster without
// it) and bought nothing measurable at run time — x86's base + index·scale + offset addressing
// does what it would. LLVM has no per-target switch, only the global -disable-lsr that its
// TargetPassConfig reads while it builds the pipeline; so the host builds its pipeline with it
// set, under lockCodegenOptions(), and restores it (the NVPTX backend keeps LSR). A value given
// in STRATA_LLVM_OPTIONS stays; STRATA_LLVM_LSR=1 keeps LSR on the host too.
llvm::cl::opt<bool>* disableLsrOption() {
  static llvm::cl::opt<bool>* option = [] {
    auto& options = llvm::cl::getRegisteredOptions();
    auto it = options.find("disable-lsr");
    return it == options.end() ? nullptr : static_cast<llvm::cl::opt<bool>*>(it->second);
  }();
  return option;
}
bool hostKeepsLsr() {
  static const bool keep = ::strata::kernels::env_flag("STRATA_LLVM_LSR");
  return keep;
}

}  // namespace

bool emitMachineCode(llvm::Module& module, llvm::TargetMachine& tm, bool assembly,
                     llvm::SmallVectorImpl<char>& out, std::string& error) {
  llvm::raw_svector_ostream os(out);
  llvm::legacy::PassManager pm;
  bool failed;
  {
    std::unique_lock<std::mutex> lock = lockCodegenOptions();
    llvm::cl::opt<bool>* noLsr = disableLsrOption();
    bool before = noLsr && noLsr->getValue();
    if (noLsr && !hostKeepsLsr()) noLsr->setValue(true);
    failed = tm.addPassesToEmitFile(pm, os, nullptr,
                                    assembly ? llvm::CodeGenFileType::AssemblyFile : llvm::CodeGenFileType::ObjectFile);
    if (noLsr) noLsr->setValue(before);
  }
  if (failed) {
    error = "the target cannot emit this file type";
    return false;
  }
  pm.run(module);
  return true;
}

std::string printLlvmModule(const llvm::Module& module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  return text;
}

}  // namespace mlir::strata

namespace mlir::strata {

bool assemblyFromLlvmIr(const std::string& ir, int optLevel, std::string& assembly, std::string& error) {
  std::unique_ptr<llvm::TargetMachine> tm = createHostTargetMachine(optLevel, error);
  if (!tm) return false;
  assembly.clear();
  // One module, or the parts of a parallel compilation, each after its kPartMarker line.
  llvm::StringRef rest(ir);
  while (!rest.empty()) {
    size_t next = rest.find(kPartMarker, 1);
    llvm::StringRef part = rest.substr(0, next);
    rest = next == llvm::StringRef::npos ? llvm::StringRef() : rest.substr(next);
    llvm::LLVMContext context;
    llvm::SMDiagnostic diagnostic;
    const std::string text = part.str();  // the IR lexer reads up to a NUL
    std::unique_ptr<llvm::Module> module =
        llvm::parseIR(llvm::MemoryBufferRef(text, "strata.ll"), diagnostic, context);
    if (!module) {
      error = "cannot parse the llvm-ir stage: " + diagnostic.getMessage().str();
      return false;
    }
    llvm::SmallVector<char, 0> out;
    if (!emitMachineCode(*module, *tm, true, out, error)) return false;
    if (part.starts_with(kPartMarker)) assembly += part.take_until([](char c) { return c == '\n'; }).str() + "\n";
    assembly.append(out.begin(), out.end());
  }
  return true;
}

}  // namespace mlir::strata
