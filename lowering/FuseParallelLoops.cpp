// --strata-fuse-parallel-loops: adjacent top-level scf.parallel loops of @main over the same
// iteration space become one loop when, iteration by iteration, the second touches only what
// the same iteration of the first wrote, or memory the first does not write (and the reverse).
// So each fusion region runs as one loop nest: an input fusion's accumulator fill, reduction
// and epilogue on the reduced values become one nest per kept index.
//
// Memory: each memref is traced through views to its base (mayShareBytes): an argument of
// @main, a global, or an allocation, which buffer assignment placed at a byte range of the
// scratch arena (strata.offset: allocations at one offset are the same memory). Two accesses conflict when
// one of them writes and their bases may share bytes; a conflict is allowed only between
// accesses of the same base and element type at the same linear element index, an affine
// function of the parallel loop indices that uses all of them (each iteration its own element).
// Loop bodies may hold only loads, stores, pure ops, scf.for and scf.if. With fusion off
// (JitOptions::fuse) the pipeline leaves this pass out.
// REQUIRES: bufferized, loops; before the scratch arena (allocations carry strata.offset).
#include <optional>

#include "lowering/CpuPasses.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "transforms/BufferAssignment.h"

namespace mlir::strata {
namespace {

// A memref's base buffer, and whether the chain of views to it keeps row-major linear indices
// (reshapes of identity layouts only).
struct Base {
  Value value;
  bool linear = true;
};

bool identityLayout(Value v) {
  auto t = dyn_cast<MemRefType>(v.getType());
  return t && t.hasStaticShape() && t.getLayout().isIdentity();
}

Base baseOf(Value v) {
  Base b{v, identityLayout(v)};
  while (Operation* def = v.getDefiningOp()) {
    if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(def)) {
      v = def->getOperand(0);
      b.linear = b.linear && identityLayout(v);
    } else if (isa<memref::SubViewOp, memref::CastOp, memref::ReinterpretCastOp, memref::ViewOp>(def)) {
      v = def->getOperand(0);
      b.linear = false;
    } else {
      break;
    }
  }
  b.value = v;
  return b;
}

// [offset, end) of an allocation placed in the arena.
std::optional<std::pair<int64_t, int64_t>> arenaRange(Value base) {
  auto alloc = base.getDefiningOp<memref::AllocOp>();
  if (!alloc) return std::nullopt;
  auto offset = alloc->getAttrOfType<IntegerAttr>(kOffsetAttr);
  if (!offset) return std::nullopt;
  return std::make_pair(offset.getInt(), offset.getInt() + byteSize(alloc.getType()));
}

bool isFunctionArgument(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  return arg && isa<func::FuncOp>(arg.getOwner()->getParentOp());
}

// The same memory at the same address: one buffer, or two allocations at one arena offset.
bool sameStart(Value a, Value b) {
  if (a == b) return true;
  auto ra = arenaRange(a), rb = arenaRange(b);
  return ra && rb && ra->first == rb->first;
}

bool basesMayShareBytes(Value a, Value b) {
  if (a == b) return true;
  if (isFunctionArgument(a) && isFunctionArgument(b)) return false;  // distinct buffers (donation
                                                                     // rewrites uses to one)
  auto ra = arenaRange(a), rb = arenaRange(b);
  if (ra && rb) return ra->first < rb->second && rb->first < ra->second;
  // A global is its own storage: it shares bytes only with the same global.
  auto globalA = a.getDefiningOp<memref::GetGlobalOp>(), globalB = b.getDefiningOp<memref::GetGlobalOp>();
  if (globalA && globalB) return globalA.getName() == globalB.getName();
  bool allocA = a.getDefiningOp<memref::AllocOp>() != nullptr, allocB = b.getDefiningOp<memref::AllocOp>() != nullptr;
  bool otherA = allocA || isFunctionArgument(a), otherB = allocB || isFunctionArgument(b);
  if ((globalA && otherB) || (globalB && otherA)) return false;
  // A fresh allocation is distinct from the arguments and from other allocations (those not yet
  // placed are placed by liveness on the final schedule).
  if ((allocA && otherB) || (allocB && otherA)) return false;
  return true;  // anything else (an unknown producer): assume it may
}

struct Access {
  Value base;
  Type element;
  AffineExpr index;  // the linear element index in the loop's indices; null when not affine
  bool write;
};

// `v` as an affine expression of the loop's induction variables, or null.
AffineExpr indexExpr(Value v, scf::ParallelOp loop) {
  MLIRContext* ctx = loop.getContext();
  for (auto [k, iv] : llvm::enumerate(loop.getInductionVars()))
    if (v == iv) return getAffineDimExpr(static_cast<unsigned>(k), ctx);
  if (auto c = getConstantIntValue(v)) return getAffineConstantExpr(*c, ctx);
  return {};
}

// The row-major linear index of `indices` into `memref`, or null.
AffineExpr linearIndex(Value memref, ValueRange indices, scf::ParallelOp loop, bool linearChain) {
  if (!linearChain) return {};
  auto shape = cast<MemRefType>(memref.getType()).getShape();
  AffineExpr e = getAffineConstantExpr(0, loop.getContext());
  for (auto [k, i] : llvm::enumerate(indices)) {
    AffineExpr x = indexExpr(i, loop);
    if (!x) return {};
    e = e * shape[k] + x;
  }
  return e;
}

// The loads and stores of `loop`, or nullopt when its body holds anything else with a memory
// effect (or a nested parallel loop).
std::optional<SmallVector<Access>> accesses(scf::ParallelOp loop) {
  SmallVector<Access> out;
  bool simple = true;
  loop.getBody()->walk([&](Operation* op) {
    auto record = [&](Value memref, ValueRange indices, bool write) {
      Base b = baseOf(memref);
      out.push_back({b.value, cast<MemRefType>(memref.getType()).getElementType(),
                     linearIndex(memref, indices, loop, b.linear), write});
    };
    if (auto l = dyn_cast<memref::LoadOp>(op)) {
      record(l.getMemRef(), l.getIndices(), false);
    } else if (auto s = dyn_cast<memref::StoreOp>(op)) {
      record(s.getMemRef(), s.getIndices(), true);
    } else if (isa<scf::ParallelOp>(op) || !(isa<scf::ForOp, scf::IfOp, scf::YieldOp, scf::ReduceOp>(op) ||
                                              (isMemoryEffectFree(op) && op->getNumRegions() == 0))) {
      simple = false;
    }
  });
  if (!simple) return std::nullopt;
  return out;
}

bool sameIterationSpace(scf::ParallelOp a, scf::ParallelOp b) {
  if (a.getNumLoops() != b.getNumLoops()) return false;
  auto same = [](ValueRange x, ValueRange y) {
    for (auto [u, v] : llvm::zip(x, y)) {
      auto cu = getConstantIntValue(u), cv = getConstantIntValue(v);
      if (u != v && !(cu && cv && *cu == *cv)) return false;
    }
    return true;
  };
  return same(a.getLowerBound(), b.getLowerBound()) && same(a.getUpperBound(), b.getUpperBound()) &&
         same(a.getStep(), b.getStep());
}

bool usesEveryIndex(AffineExpr e, unsigned loops) {
  for (unsigned k = 0; k < loops; ++k)
    if (!e.isFunctionOfDim(k)) return false;
  return true;
}

bool fusible(scf::ParallelOp first, scf::ParallelOp second) {
  if (!first.getInitVals().empty() || !second.getInitVals().empty() || !sameIterationSpace(first, second))
    return false;
  auto a = accesses(first), b = accesses(second);
  if (!a || !b) return false;
  unsigned loops = static_cast<unsigned>(first.getNumLoops());
  for (const Access& x : *a)
    for (const Access& y : *b) {
      if (!(x.write || y.write) || !basesMayShareBytes(x.base, y.base)) continue;
      bool sameElement = sameStart(x.base, y.base) && x.element == y.element && x.index && x.index == y.index &&
                         usesEveryIndex(x.index, loops);
      if (!sameElement) return false;
    }
  return true;
}

// `first`'s body, then `second`'s, in `second`; `first` erased.
void merge(scf::ParallelOp first, scf::ParallelOp second) {
  IRMapping map;
  map.map(first.getInductionVars(), second.getInductionVars());
  OpBuilder b = OpBuilder::atBlockBegin(second.getBody());
  for (Operation& op : first.getBody()->without_terminator()) b.clone(op, map);
  first.erase();
}

// Ops that may stand between two loops being fused (the first's body moves past them).
bool transparent(Operation& op) {
  return op.getNumRegions() == 0 && (isMemoryEffectFree(&op) || isa<memref::AllocOp>(op));
}

struct FuseParallelLoopsPass : PassWrapper<FuseParallelLoopsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FuseParallelLoopsPass)
  StringRef getArgument() const override { return "strata-fuse-parallel-loops"; }
  StringRef getDescription() const override {
    return "Fuse adjacent parallel loops of @main over one iteration space where each iteration "
           "depends only on the same iteration";
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp main = entryFunction(module);
    if (!main) return;
    scf::ParallelOp previous;
    for (Operation& op : llvm::make_early_inc_range(main.getBody().front())) {
      if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
        if (previous && fusible(previous, loop)) merge(previous, loop);
        previous = loop;
      } else if (!transparent(op)) {
        previous = {};
      }
    }
  }
};

}  // namespace

bool mayShareBytes(Value a, Value b) { return basesMayShareBytes(baseOf(a).value, baseOf(b).value); }

bool sameBuffer(Value a, Value b) { return a == b || (a.getType() == b.getType() && sameStart(a, b)); }

bool noTwoShareBytes(ArrayRef<Value> values) {
  SmallVector<Value> buffers;
  for (Value v : values)
    if (isa<MemRefType>(v.getType())) buffers.push_back(v);
  for (size_t i = 0; i < buffers.size(); ++i)
    for (size_t j = i + 1; j < buffers.size(); ++j)
      if (mayShareBytes(buffers[i], buffers[j])) return false;
  return true;
}

std::unique_ptr<Pass> createFuseParallelLoopsPass() { return std::make_unique<FuseParallelLoopsPass>(); }

}  // namespace mlir::strata
