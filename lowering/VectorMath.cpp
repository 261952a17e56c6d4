// glibc's libmvec for the host's loops, one variant per function (VectorMath.h).
#include "lowering/VectorMath.h"
#include "lowering/LlvmCodegen.h"

#include <dlfcn.h>

#include <algorithm>
#include <string_view>

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

namespace mlir::strata {

namespace {

struct VectorMath {
  std::vector<VectorMathFunction> functions;
  std::vector<std::pair<std::string, void*>> symbols;
  std::vector<std::string> abis;      // storage for descs' vector ABI prefixes
  std::vector<llvm::VecDesc> descs;   // scalar and intrinsic name -> the variant
  llvm::StringMap<size_t> byName;     // scalar and intrinsic name -> functions index
};

const VectorMath& vectorMath() {
  static const VectorMath math = [] {
    VectorMath m;
    // The host the JIT compiles for (LlvmCodegen.h), its triple and features parsed once there.
    const HostTarget& host = hostTarget();
    const llvm::Triple triple(host.triple);
    if (!triple.isX86() || !triple.isArch64Bit()) return m;
    void* library = ::dlopen("libmvec.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return m;
    // x86-64's libmvec variants: SSE (b: 2 doubles, 4 floats), AVX2 (d: 4, 8) and AVX-512
    // (e: 8, 16). The widest the CPU runs is the one every lane calls: on an AVX-512 host the
    // loops are 512 bits wide, and glibc's 16-lane log1pf/expf/sinf take 20-30% less time per
    // element than two calls of the 8-lane ones (jit's log1p over 16M floats was 10% behind
    // eager's 16-lane Eigen packets).
    const bool avx2 = host.features.find("+avx2") != std::string::npos;
    const bool avx512 = host.features.find("+avx512f") != std::string::npos;
    auto add = [&](std::string_view base, unsigned arity) {
      const std::string params(arity, 'v');
      for (bool f32 : {true, false}) {
        const std::string scalar = std::string(base) + (f32 ? "f" : "");
        std::string chosen;
        unsigned chosenLanes = 0;
        for (char isa : {'b', 'd', 'e'}) {
          const unsigned lanes = (isa == 'b' ? 2u : isa == 'd' ? 4u : 8u) * (f32 ? 2u : 1u);
          const std::string vector = "_ZGV" + std::string(1, isa) + "N" + std::to_string(lanes) + params + "_" + scalar;
          void* address = ::dlsym(library, vector.c_str());
          if (!address) continue;
          m.symbols.emplace_back(vector, address);
          if (isa == 'b' || (isa == 'd' && avx2) || (isa == 'e' && avx512)) chosen = vector, chosenLanes = lanes;
        }
        if (chosen.empty()) continue;
        VectorMathFunction f;
        f.scalar = scalar;
        f.intrinsic = "llvm." + std::string(base) + (f32 ? ".f32" : ".f64");
        f.vector = chosen;
        f.lanes = chosenLanes;
        f.arity = arity;
        f.f32 = f32;
        m.functions.push_back(std::move(f));
      }
    };
    // LLVM's own LIBMVEC table (llvm/Analysis/VecFuncs.def), then the libm calls of
    // --strata-math-to-libm-calls (LibmCalls.def) that glibc's libmvec has (glibc >= 2.35).
    for (std::string_view f : {"sin", "cos", "tan", "exp", "log"}) add(f, 1);
    add("pow", 2);
#define STRATA_LIBM(OpClass, name) \
  if (std::string_view(#name) != "tan") add(#name, 1);
#define STRATA_LIBM2(OpClass, name) add(#name, 2);
#include "lowering/LibmCalls.def"
#undef STRATA_LIBM2
#undef STRATA_LIBM
    m.abis.reserve(m.functions.size());
    for (size_t i = 0; i < m.functions.size(); ++i) {
      const VectorMathFunction& f = m.functions[i];
      m.abis.push_back("_ZGV_LLVM_N" + std::to_string(f.lanes) + std::string(f.arity, 'v'));
      for (const std::string* name : {&f.scalar, &f.intrinsic}) {
        m.descs.emplace_back(*name, f.vector, llvm::ElementCount::getFixed(f.lanes), false, m.abis.back(), std::nullopt);
        m.byName[*name] = i;
      }
    }
    return m;
  }();
  return math;
}

// `call` (a scalar, or a vector of any width) through `f`'s variant, lane for lane.
llvm::Value* callVariant(llvm::IRBuilder<>& b, llvm::CallInst* call, const VectorMathFunction& f) {
  llvm::Module& module = *call->getModule();
  llvm::Type* type = call->getType();
  llvm::Type* element = type->getScalarType();
  auto* vectorType = llvm::FixedVectorType::get(element, f.lanes);
  llvm::FunctionCallee variant = module.getOrInsertFunction(
      f.vector, llvm::FunctionType::get(vectorType, llvm::SmallVector<llvm::Type*, 2>(f.arity, vectorType), false));
  auto emit = [&](llvm::ArrayRef<llvm::Value*> args) {
    llvm::CallInst* v = b.CreateCall(variant, args);
    v->setDoesNotAccessMemory();
    v->setDoesNotThrow();
    return v;
  };
  auto* wide = llvm::dyn_cast<llvm::FixedVectorType>(type);
  if (!wide) {
    llvm::SmallVector<llvm::Value*, 2> args;
    for (llvm::Value* a : call->args()) args.push_back(b.CreateVectorSplat(f.lanes, a));
    return b.CreateExtractElement(emit(args), uint64_t{0});
  }
  const int n = static_cast<int>(wide->getNumElements()), w = static_cast<int>(f.lanes);
  llvm::Value* result = nullptr;
  for (int c = 0; c < n; c += w) {
    // Lanes c .. c+w-1; past the end, copies of the last lane (a value the function is defined on).
    llvm::SmallVector<int, 16> pick(w);
    for (int j = 0; j < w; ++j) pick[j] = std::min(c + j, n - 1);
    llvm::SmallVector<llvm::Value*, 2> args;
    for (llvm::Value* a : call->args()) args.push_back(b.CreateShuffleVector(a, pick));
    llvm::Value* part = emit(args);
    if (n == w) return part;
    llvm::SmallVector<int, 16> widen(n), merge(n);
    for (int i = 0; i < n; ++i) {
      const bool mine = i >= c && i < c + w;
      widen[i] = mine ? i - c : -1;
      merge[i] = mine ? n + i : i;
    }
    llvm::Value* spread = b.CreateShuffleVector(part, widen);
    result = result ? b.CreateShuffleVector(result, spread, merge) : spread;
  }
  return result;
}

}  // namespace

const std::vector<VectorMathFunction>& vectorMathFunctions() { return vectorMath().functions; }

const std::vector<std::pair<std::string, void*>>& vectorMathLibrary() { return vectorMath().symbols; }

void addVectorMathFunctions(llvm::TargetLibraryInfoImpl& tlii) { tlii.addVectorizableFunctions(vectorMath().descs); }

unsigned callOneVectorMathVariant(llvm::Module& module) {
  const VectorMath& math = vectorMath();
  if (math.functions.empty()) return 0;
  llvm::SmallVector<std::pair<llvm::CallInst*, const VectorMathFunction*>, 16> calls;
  for (llvm::Function& fn : module) {
    if (fn.isDeclaration()) continue;
    for (llvm::BasicBlock& block : fn)
      for (llvm::Instruction& inst : block) {
        auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
        llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
        if (!callee) continue;
        llvm::Type* element = call->getType()->getScalarType();
        if (!element->isFloatTy() && !element->isDoubleTy()) continue;
        std::string name = callee->getName().str();
        // A vector intrinsic, llvm.exp.v8f32: by its scalar name, llvm.exp.f32.
        if (call->getType()->isVectorTy()) {
          if (!callee->isIntrinsic()) continue;
          name = name.substr(0, name.rfind('.')) + (element->isFloatTy() ? ".f32" : ".f64");
        }
        auto it = math.byName.find(name);
        if (it == math.byName.end()) continue;
        const VectorMathFunction& f = math.functions[it->second];
        if (f.f32 != element->isFloatTy() || call->arg_size() != f.arity) continue;
        calls.push_back({call, &f});
      }
  }
  llvm::SmallPtrSet<llvm::Function*, 8> replaced;
  for (auto [call, f] : calls) {
    llvm::IRBuilder<> b(call);
    llvm::Value* value = callVariant(b, call, *f);
    replaced.insert(call->getCalledFunction());
    call->replaceAllUsesWith(value);
    call->eraseFromParent();
  }
  for (llvm::Function* fn : replaced)
    if (fn->use_empty()) fn->eraseFromParent();  // the scalar function's declaration
  return static_cast<unsigned>(calls.size());
}

}  // namespace mlir::strata
