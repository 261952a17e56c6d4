// --strata-scratch-arena: every temporary buffer of @main becomes a view into one scratch
// arena, a trailing argument of @main, so that the generated code never allocates.
//
// 1. Each memref.alloc gets a live range over the top-level ops of @main: from the alloc to
//    the last op that uses it or a view of it (uses inside nested regions and calls count at
//    the enclosing top-level op).
// 2. Offsets are assigned first-fit in order of allocation, 64-byte aligned, so buffers whose
//    live ranges do not overlap share memory.
// 3. Each alloc becomes memref.view %scratch[offset]; @main gains the argument
//    `%scratch: memref<Sxi8>` and the attribute strata.entry_arg_types (its arguments' types,
//    for the entry point); the module records strata.scratch_bytes (S) and
//    strata.temporaries_bytes (the sum of all temporaries, before sharing).
// REQUIRES: bufferized, results turned into out-params, static shapes.
#include <algorithm>

#include "lowering/CpuPasses.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::strata {
namespace {

constexpr int64_t kAlign = 64;
int64_t alignUp(int64_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

int64_t byteSize(MemRefType t) {
  int64_t bits = t.getElementTypeBitWidth();
  return t.getNumElements() * std::max<int64_t>(1, bits / 8);
}

struct Temp {
  memref::AllocOp alloc;
  int64_t start = 0, end = 0, size = 0, offset = 0;
};

// The index of the top-level op of `block` that contains `op`.
int64_t positionIn(Block& block, Operation* op, const DenseMap<Operation*, int64_t>& index) {
  Operation* top = block.findAncestorOpInBlock(*op);
  auto it = index.find(top);
  return it == index.end() ? 0 : it->second;
}

// The last position at which `v` or a memref derived from it is used.
int64_t lastUse(Value v, Block& block, const DenseMap<Operation*, int64_t>& index) {
  int64_t last = 0;
  SmallVector<Value> work{v};
  while (!work.empty()) {
    Value cur = work.pop_back_val();
    for (Operation* user : cur.getUsers()) {
      last = std::max(last, positionIn(block, user, index));
      for (Value r : user->getResults())
        if (isa<MemRefType>(r.getType())) work.push_back(r);
    }
  }
  return last;
}

struct ScratchArenaPass : PassWrapper<ScratchArenaPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ScratchArenaPass)
  StringRef getArgument() const override { return "strata-scratch-arena"; }
  StringRef getDescription() const override {
    return "Place @main's temporary buffers in one scratch arena argument";
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp main = entryFunction(module);
    if (!main) {
      module.emitError("strata-scratch-arena: expects a function @main (or one public function)");
      return signalPassFailure();
    }
    bool stray = false;
    module.walk([&](memref::AllocOp a) {
      if (a->getParentOfType<func::FuncOp>() != main) {
        a.emitError("strata-scratch-arena: expects allocations only in @main");
        stray = true;
      }
    });
    if (stray) return signalPassFailure();

    Block& block = main.getBody().front();
    DenseMap<Operation*, int64_t> index;
    int64_t i = 0;
    for (Operation& op : block) index[&op] = i++;
    std::vector<Temp> temps;
    bool dynamic = false;
    main.walk([&](memref::AllocOp a) {
      if (!a.getType().hasStaticShape() || !a.getType().getLayout().isIdentity()) {
        a.emitError("strata-scratch-arena: expects static, contiguous allocations");
        dynamic = true;
        return;
      }
      Temp t;
      t.alloc = a;
      t.start = positionIn(block, a, index);
      t.end = std::max(t.start, lastUse(a.getResult(), block, index));
      t.size = alignUp(byteSize(a.getType()));
      temps.push_back(t);
    });
    if (dynamic) return signalPassFailure();

    // First fit, in order of allocation: the lowest offset that overlaps no live buffer.
    int64_t total = 0, sum = 0;
    std::vector<const Temp*> placed;
    for (Temp& t : temps) {
      sum += t.size;
      std::vector<std::pair<int64_t, int64_t>> busy;
      for (const Temp* p : placed)
        if (p->start <= t.end && t.start <= p->end) busy.push_back({p->offset, p->offset + p->size});
      std::sort(busy.begin(), busy.end());
      int64_t offset = 0;
      for (auto [lo, hi] : busy) {
        if (offset + t.size <= lo) break;
        offset = std::max(offset, hi);
      }
      t.offset = offset;
      total = std::max(total, offset + t.size);
      placed.push_back(&t);
    }

    MLIRContext* ctx = &getContext();
    auto scratchType = MemRefType::get({total}, IntegerType::get(ctx, 8));
    unsigned argIndex = main.getNumArguments();
    if (failed(main.insertArgument(argIndex, scratchType, {}, main.getLoc())))
      return signalPassFailure();
    Value scratch = main.getArgument(argIndex);
    for (Temp& t : temps) {
      OpBuilder b(t.alloc);
      Value offset = arith::ConstantOp::create(b, t.alloc.getLoc(), b.getIndexAttr(t.offset));
      Value view = memref::ViewOp::create(b, t.alloc.getLoc(), t.alloc.getType(), scratch, offset,
                                         ValueRange{});
      for (Operation* user : llvm::make_early_inc_range(t.alloc->getUsers()))
        if (isa<memref::DeallocOp>(user)) user->erase();
      t.alloc.replaceAllUsesWith(view);
      t.alloc.erase();
    }
    SmallVector<Attribute> types;
    for (Type ty : main.getArgumentTypes()) types.push_back(TypeAttr::get(ty));
    main->setAttr("strata.entry_arg_types", ArrayAttr::get(ctx, types));
    Builder b(ctx);
    module->setAttr("strata.scratch_bytes", b.getI64IntegerAttr(total));
    module->setAttr("strata.temporaries_bytes", b.getI64IntegerAttr(sum));
  }
};

}  // namespace

std::unique_ptr<Pass> createScratchArenaPass() { return std::make_unique<ScratchArenaPass>(); }

}  // namespace mlir::strata
