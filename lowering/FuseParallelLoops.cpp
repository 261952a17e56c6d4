// --strata-fuse-parallel-loops: adjacent top-level scf.parallel loops of the entry function over
// the same iteration space become one loop when, iteration by iteration, each touches only what
// the same iteration of the other wrote, or memory the other does not write. The algorithm is
// in Passes.td.
#include <algorithm>
#include <optional>

#include "lowering/BufferAliasing.h"
#include "lowering/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "transforms/EntryFunction.h"

namespace mlir::strata {

#define GEN_PASS_DEF_FUSEPARALLELLOOPSPASS
#include "lowering/Passes.h.inc"

namespace {

// A memref's base buffer, and whether the chain of views to it keeps row-major linear indices
// (reshapes of identity layouts only).
struct ViewBase {
  Value value;
  bool linear = true;
};

bool identityLayout(Value v) {
  auto t = dyn_cast<MemRefType>(v.getType());
  return t && t.hasStaticShape() && t.getLayout().isIdentity();
}

ViewBase baseOf(Value v) {
  ViewBase b{v, identityLayout(v)};
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
      ViewBase b = baseOf(memref);
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

// Whether a and b have the same bounds and steps in their k outer dimensions.
bool sameBounds(scf::ParallelOp a, scf::ParallelOp b, unsigned k) {
  auto same = [&](ValueRange x, ValueRange y) {
    for (unsigned d = 0; d < k; ++d) {
      auto cu = getConstantIntValue(x[d]), cv = getConstantIntValue(y[d]);
      if (x[d] != y[d] && !(cu && cv && *cu == *cv)) return false;
    }
    return true;
  };
  return same(a.getLowerBound(), b.getLowerBound()) && same(a.getUpperBound(), b.getUpperBound()) &&
         same(a.getStep(), b.getStep());
}

bool sameIterationSpace(scf::ParallelOp a, scf::ParallelOp b) {
  return a.getNumLoops() == b.getNumLoops() && sameBounds(a, b, static_cast<unsigned>(a.getNumLoops()));
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

// Row fusion (option `rows`): loops whose iteration spaces share their k outer dimensions,
// one of them with more (a row reduction, then an elementwise loop over the rows' elements).
// Outer iteration i runs the first body's iterations with those outer indices, then the
// second's; so every pair of conflicting accesses (one writes, their bases may share bytes)
// must touch only "row i" of one buffer: the same base through reshapes only, the same
// element type, the same k leading dimensions, indexed by the k outer induction variables.
struct RowAccess {
  ViewBase base;
  Type element;
  SmallVector<int64_t> leading;  // the k leading dimensions; empty when not indexed by the k outer IVs
  bool write;
};

std::optional<SmallVector<RowAccess>> rowAccesses(scf::ParallelOp loop, unsigned k) {
  if (!accesses(loop)) return std::nullopt;  // the same body restrictions
  SmallVector<RowAccess> out;
  loop.getBody()->walk([&](Operation* op) {
    auto record = [&](Value memref, ValueRange indices, bool write) {
      auto type = cast<MemRefType>(memref.getType());
      RowAccess a{baseOf(memref), type.getElementType(), {}, write};
      bool rows = type.getRank() >= k;
      for (unsigned d = 0; rows && d < k; ++d) rows = indices[d] == loop.getInductionVars()[d];
      if (rows) a.leading.assign(type.getShape().begin(), type.getShape().begin() + k);
      out.push_back(a);
    };
    if (auto l = dyn_cast<memref::LoadOp>(op)) record(l.getMemRef(), l.getIndices(), false);
    else if (auto st = dyn_cast<memref::StoreOp>(op)) record(st.getMemRef(), st.getIndices(), true);
  });
  return out;
}

// The number of shared outer dimensions when `first` and `second` fuse by rows, or 0.
unsigned rowFusible(scf::ParallelOp first, scf::ParallelOp second) {
  unsigned n1 = static_cast<unsigned>(first.getNumLoops()), n2 = static_cast<unsigned>(second.getNumLoops());
  unsigned k = std::min(n1, n2);
  if (n1 == n2 || !first.getInitVals().empty() || !second.getInitVals().empty() || !sameBounds(first, second, k))
    return 0;
  auto a = rowAccesses(first, k), b = rowAccesses(second, k);
  if (!a || !b) return 0;
  for (const RowAccess& x : *a)
    for (const RowAccess& y : *b) {
      if (!(x.write || y.write) || !basesMayShareBytes(x.base.value, y.base.value)) continue;
      bool sameRow = x.base.value == y.base.value && x.base.linear && y.base.linear && x.element == y.element &&
                     !x.leading.empty() && x.leading == y.leading;
      if (!sameRow) return 0;
    }
  return k;
}

// `loop`'s body for outer indices `outer` at `b`: its inner dimensions (from k on) as an scf.for
// nest.
void cloneRows(OpBuilder& b, scf::ParallelOp loop, unsigned k, ValueRange outer) {
  IRMapping map;
  for (unsigned d = 0; d < k; ++d) map.map(loop.getInductionVars()[d], outer[d]);
  OpBuilder::InsertionGuard guard(b);
  for (unsigned d = k; d < loop.getNumLoops(); ++d) {
    auto inner = scf::ForOp::create(b, loop.getLoc(), loop.getLowerBound()[d], loop.getUpperBound()[d], loop.getStep()[d]);
    map.map(loop.getInductionVars()[d], inner.getInductionVar());
    b.setInsertionPoint(inner.getBody()->getTerminator());
  }
  for (Operation& op : loop.getBody()->without_terminator()) b.clone(op, map);
}

// One loop over the k shared dimensions in place of `second`: `first`'s rows, then `second`'s.
scf::ParallelOp mergeRows(scf::ParallelOp first, scf::ParallelOp second, unsigned k) {
  OpBuilder b(second);
  auto fused = scf::ParallelOp::create(b, second.getLoc(), second.getLowerBound().take_front(k),
                                       second.getUpperBound().take_front(k), second.getStep().take_front(k));
  b.setInsertionPoint(fused.getBody()->getTerminator());
  cloneRows(b, first, k, fused.getInductionVars());
  cloneRows(b, second, k, fused.getInductionVars());
  first.erase();
  second.erase();
  return fused;
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

struct FuseParallelLoopsPass : impl::FuseParallelLoopsPassBase<FuseParallelLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp main = entryFunction(module);
    if (!main) return;
    scf::ParallelOp previous;
    for (Operation& op : llvm::make_early_inc_range(main.getBody().front())) {
      if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
        if (previous && fusible(previous, loop)) {
          merge(previous, loop);
          ++numFused;
        } else if (unsigned k = previous && rows ? rowFusible(previous, loop) : 0) {
          loop = mergeRows(previous, loop, k);
          ++numRowFused;
        }
        previous = loop;
      } else if (!transparent(op)) {
        previous = {};
      }
    }
  }
};

}  // namespace
}  // namespace mlir::strata
