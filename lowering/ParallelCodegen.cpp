// Optimisation and code generation of one module on several threads (ParallelCodegen.h).
//
// LLVM's IR is not thread-safe within one LLVMContext, so the split is made in the translating
// context (CloneModule with a per-part filter), each part is written as bitcode, and every
// thread reads its part into a context of its own — what LTO's parallel code generation does.
// A definition referenced from another part keeps (or gets) external linkage; one referenced
// only from its own part stays internal, so the inliner can still fold it into its one caller.
#include "lowering/ParallelCodegen.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include "lowering/LlvmCodegen.h"
#include "lowering/VectorMath.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {

namespace {

// Below this cost (cost() below, summed) a module is compiled whole: the split, the bitcode
// round trip and a thread cost more than they save.
constexpr uint64_t kMinSplitCost = 800;
constexpr uint64_t kStaticLoopWeight = 8, kDynamicLoopWeight = 30;

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Whether the loop's exit test compares with a constant (a static trip count: vectorised
// without runtime checks or remainder loops).
bool staticTripCount(const llvm::Loop& loop) {
  const llvm::BasicBlock* latch = loop.getLoopLatch();
  auto* br = latch ? llvm::dyn_cast<llvm::BranchInst>(latch->getTerminator()) : nullptr;
  auto* cmp = br && br->isConditional() ? llvm::dyn_cast<llvm::ICmpInst>(br->getCondition()) : nullptr;
  return cmp && (llvm::isa<llvm::ConstantInt>(cmp->getOperand(0)) || llvm::isa<llvm::ConstantInt>(cmp->getOperand(1)));
}

// What optimising and compiling `f` costs, roughly: innermost loops are vectorised, interleaved
// and unrolled (a few instructions become a few hundred), the more so with a dynamic trip count
// (runtime checks, remainder loops); straight-line code is not.
uint64_t cost(llvm::Function& f) {
  llvm::DominatorTree dt(f);
  llvm::LoopInfo loops(dt);
  llvm::DenseMap<const llvm::Loop*, uint64_t> weight;
  uint64_t c = 0;
  for (llvm::BasicBlock& bb : f) {
    const llvm::Loop* loop = loops.getLoopFor(&bb);
    uint64_t w = 1;
    if (loop && loop->isInnermost()) {
      auto [it, fresh] = weight.try_emplace(loop, 0);
      if (fresh) it->second = staticTripCount(*loop) ? kStaticLoopWeight : kDynamicLoopWeight;
      w = it->second;
    }
    c += bb.size() * w;
  }
  return c;
}

// The part of every definition: groups of functions joined by direct calls, assigned largest
// first to the least loaded part; global variables (constants) go to part 0. Returns the number
// of parts used.
unsigned assignParts(llvm::Module& m, unsigned parts, llvm::DenseMap<const llvm::GlobalValue*, unsigned>& partOf) {
  llvm::SmallVector<llvm::Function*> fns;
  llvm::DenseMap<const llvm::Function*, unsigned> index;
  for (llvm::Function& f : m)
    if (!f.isDeclaration()) {
      index[&f] = fns.size();
      fns.push_back(&f);
    }
  llvm::SmallVector<unsigned> parent(fns.size());
  for (unsigned i = 0; i < parent.size(); ++i) parent[i] = i;
  auto find = [&](unsigned i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (llvm::Function* f : fns)
    for (llvm::Instruction& inst : llvm::instructions(*f))
      if (auto* call = llvm::dyn_cast<llvm::CallBase>(&inst))
        if (llvm::Function* callee = call->getCalledFunction(); callee && !callee->isDeclaration())
          parent[find(index[f])] = find(index[callee]);
  llvm::DenseMap<unsigned, uint64_t> groupSize;
  for (unsigned i = 0; i < fns.size(); ++i) groupSize[find(i)] += cost(*fns[i]);
  llvm::SmallVector<std::pair<uint64_t, unsigned>> groups;
  for (auto [root, size] : groupSize) groups.push_back({size, root});
  std::sort(groups.begin(), groups.end(), [](auto a, auto b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  parts = std::min<unsigned>(parts, static_cast<unsigned>(groups.size()));
  llvm::SmallVector<uint64_t> load(parts, 0);
  llvm::DenseMap<unsigned, unsigned> partOfGroup;
  for (auto [size, root] : groups) {
    unsigned p = static_cast<unsigned>(std::min_element(load.begin(), load.end()) - load.begin());
    partOfGroup[root] = p;
    load[p] += size;
  }
  for (unsigned i = 0; i < fns.size(); ++i) partOf[fns[i]] = partOfGroup[find(i)];
  for (llvm::GlobalVariable& g : m.globals())
    if (!g.isDeclaration()) partOf[&g] = 0;
  return parts;
}

// Whether `v` is used (through constant expressions) from a part other than `part`.
bool usedFromOtherPart(const llvm::Value* v, unsigned part, const llvm::DenseMap<const llvm::GlobalValue*, unsigned>& partOf) {
  for (const llvm::User* u : v->users()) {
    if (auto* inst = llvm::dyn_cast<llvm::Instruction>(u)) {
      if (partOf.lookup(inst->getFunction()) != part) return true;
    } else if (auto* gv = llvm::dyn_cast<llvm::GlobalValue>(u)) {
      if (partOf.lookup(gv) != part) return true;
    } else if (usedFromOtherPart(u, part, partOf)) {
      return true;
    }
  }
  return false;
}

struct PartResult {
  std::string object, ir, error;
  double optimize_ms = 0;
};

// The -O pipeline, the optimised IR's text and the object, for a module compiled whole or one
// part; optimize_ms counts from t0.
void optimizeAndEmit(llvm::Module& module, llvm::TargetMachine& tm, int optLevel,
                     std::chrono::steady_clock::time_point t0, PartResult& r) {
  optimizeModule(module, tm, optLevel);
  r.optimize_ms = since(t0);
  r.ir = printLlvmModule(module);
  llvm::SmallVector<char, 0> object;
  if (emitMachineCode(module, tm, false, object, r.error)) r.object.assign(object.begin(), object.end());
}

// One part, on the calling thread, in a context of its own.
void compilePart(const llvm::SmallVector<char, 0>& bitcode, int optLevel, PartResult& r) {
  auto t0 = std::chrono::steady_clock::now();
  llvm::LLVMContext context;
  llvm::Expected<std::unique_ptr<llvm::Module>> module =
      llvm::parseBitcodeFile(llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()), "part"), context);
  if (!module) {
    r.error = "cannot read a part's bitcode: " + llvm::toString(module.takeError());
    return;
  }
  PooledTargetMachine tm = acquireHostTargetMachine(optLevel, r.error);
  if (tm) optimizeAndEmit(**module, *tm, optLevel, t0, r);
}

}  // namespace

unsigned codegenThreads() {
  static const unsigned n = [] {
    if (const char* v = std::getenv("STRATA_COMPILE_THREADS"); v && std::atoi(v) > 0)
      return static_cast<unsigned>(std::atoi(v));
    return std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
  }();
  return n;
}

LogicalResult compileToObjects(ModuleOp module, int optLevel, unsigned parts, ObjectCode& out) {
  auto t0 = std::chrono::steady_clock::now();
  vectorMathFunctions();  // its one-time set-up, before any thread reads it
  std::string error;
  PooledTargetMachine tm = acquireHostTargetMachine(optLevel, error);
  if (!tm) return module.emitError(error);
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> whole = translateForHost(module, context, *tm);
  if (!whole) return failure();
  uint64_t total = 0;
  for (llvm::Function& f : *whole)
    if (!f.isDeclaration()) total += cost(f);
  llvm::DenseMap<const llvm::GlobalValue*, unsigned> partOf;
  if (parts > 1 && total >= kMinSplitCost) parts = assignParts(*whole, parts, partOf);
  else parts = 1;

  if (parts == 1) {
    PartResult r;
    optimizeAndEmit(*whole, *tm, optLevel, t0, r);
    if (!r.error.empty()) return module.emitError(r.error);
    out.objects.assign(1, std::move(r.object));
    out.ir = std::move(r.ir);
    out.optimize_ms = r.optimize_ms;
    out.total_ms = since(t0);
    return success();
  }

  // Definitions used across parts are linked by name: external, named, and not assumed to be
  // near their users — the JIT may map the parts' objects more than 2 GiB apart, so a direct
  // 32-bit PC-relative reference could not reach; other parts go through the GOT and PLT.
  unsigned unnamed = 0;
  auto expose = [&](llvm::GlobalValue& gv) {
    if (gv.isDeclaration() || !usedFromOtherPart(&gv, partOf.lookup(&gv), partOf)) return;
    if (!gv.hasName()) gv.setName("strata.unnamed." + std::to_string(unnamed++));
    if (gv.hasLocalLinkage()) gv.setLinkage(llvm::GlobalValue::ExternalLinkage);
    gv.setVisibility(llvm::GlobalValue::DefaultVisibility);
    gv.setDSOLocal(false);
  };
  for (llvm::Function& f : *whole) expose(f);
  for (llvm::GlobalVariable& g : whole->globals()) expose(g);

  std::vector<llvm::SmallVector<char, 0>> bitcode(parts);
  for (unsigned p = 0; p < parts; ++p) {
    llvm::ValueToValueMapTy map;
    std::unique_ptr<llvm::Module> part = llvm::CloneModule(*whole, map, [&](const llvm::GlobalValue* gv) {
      auto it = partOf.find(gv);
      return it != partOf.end() && it->second == p;
    });
    llvm::raw_svector_ostream os(bitcode[p]);
    llvm::WriteBitcodeToFile(*part, os);
  }
  whole.reset();

  const double setup_ms = since(t0);  // translation, split and bitcode: before any part
  std::vector<PartResult> results(parts);
  std::vector<std::thread> threads;
  // Each part's PassBuilder holds LLVM's one real file system; create it here, before the
  // threads start, so its first allocation happens-before their reference counting (libLLVM is
  // not instrumented: TSan saw the static's creation race with a worker's release).
  (void)llvm::vfs::getRealFileSystem();
  for (unsigned p = 1; p < parts; ++p)
    threads.emplace_back([&, p] { compilePart(bitcode[p], optLevel, results[p]); });
  compilePart(bitcode[0], optLevel, results[0]);
  for (std::thread& t : threads) t.join();

  out.objects.clear();
  out.ir.clear();
  for (unsigned p = 0; p < parts; ++p) {
    if (!results[p].error.empty()) return module.emitError(results[p].error);
    out.objects.push_back(std::move(results[p].object));
    out.ir += std::string(kPartMarker) + std::to_string(p) + " of " + std::to_string(parts) + "\n" + results[p].ir;
    out.optimize_ms = std::max(out.optimize_ms, setup_ms + results[p].optimize_ms);
  }
  out.total_ms = since(t0);
  return success();
}

}  // namespace mlir::strata
