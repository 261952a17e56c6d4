// --strata-split-row-reductions: a reduction along rows with few, long rows (f32[8, 1M] summed
// along its rows) becomes chunks of each row reduced into partials, a GPU block each, then a
// short combine; the algorithm is in Passes.td.
#include <optional>

#include "lowering/Accumulator.h"
#include "lowering/BufferAliasing.h"
#include "lowering/LoopNests.h"
#include "lowering/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "transforms/EntryFunction.h"

namespace mlir::strata {

#define GEN_PASS_DEF_SPLITROWREDUCTIONSPASS
#include "lowering/Passes.h.inc"

namespace {

struct Accumulator : AccumulatorStep {
  memref::StoreOp store;
};

// The stores of the parallel loop `p`'s body, its reduction loop included.
SmallVector<memref::StoreOp> storesOf(scf::ParallelOp p) {
  SmallVector<memref::StoreOp> stores;
  p.getBody()->walk([&](memref::StoreOp s) { stores.push_back(s); });
  return stores;
}

// True when `load` reads memory that no store of `p` writes (so it reads the same whether the
// row's reduction runs before the rest of the row or with it).
bool readsOnlyInputs(memref::LoadOp load, ArrayRef<memref::StoreOp> stores) {
  return llvm::none_of(stores, [&](memref::StoreOp s) { return mayShareBytes(load.getMemref(), s.getMemref()); });
}

// The accumulators of the row loop `f` (in `p`): every store in it is an accumulator step of a
// place fixed in f whose buffer nothing else in f touches; its other loads read only memory
// that nothing in p writes; its only regions are scf.for and scf.if; nothing else has memory
// effects. Or nullopt.
std::optional<SmallVector<Accumulator>> accumulatorsOf(scf::ForOp f, ArrayRef<memref::StoreOp> stores) {
  SmallVector<Accumulator> accs;
  SmallVector<memref::LoadOp> loads;
  bool ok = true;
  f.getBody()->walk([&](Operation* op) {
    if (auto l = dyn_cast<memref::LoadOp>(op)) {
      loads.push_back(l);
    } else if (auto s = dyn_cast<memref::StoreOp>(op)) {
      std::optional<AccumulatorStep> step = matchAccumulatorStep(s, f);
      if (step) accs.push_back({*step, s});
      else ok = false;
    } else if (op->getNumRegions() ? !isa<scf::ForOp, scf::IfOp>(op) : !isMemoryEffectFree(op)) {
      ok = false;
    }
  });
  if (!ok || accs.empty()) return std::nullopt;
  for (memref::LoadOp l : loads) {
    if (llvm::any_of(accs, [&](Accumulator& a) { return a.load == l; })) continue;
    if (!readsOnlyInputs(l, stores)) return std::nullopt;  // the accumulators' buffers included
  }
  for (Accumulator& a : accs)
    for (Accumulator& b : accs)
      if (&a != &b && mayShareBytes(a.store.getMemref(), b.store.getMemref())) return std::nullopt;
  return accs;
}

struct SplitRowReductionsPass : impl::SplitRowReductionsPassBase<SplitRowReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp main = entryFunction(getOperation());
    if (!main) return;
    for (Operation* root : loopNestRoots(main))
      if (auto p = dyn_cast<scf::ParallelOp>(root)) split(p);
  }

  void split(scf::ParallelOp p) {
    if (p.getNumResults() != 0) return;
    int64_t rows = 1;
    SmallVector<int64_t> extents;
    for (auto [l, u, s] : llvm::zip(p.getLowerBound(), p.getUpperBound(), p.getStep())) {
      std::optional<int64_t> pl = getConstantIntValue(l), pu = getConstantIntValue(u), ps = getConstantIntValue(s);
      if (pl != 0 || ps != 1 || !pu || *pu <= 0) return;
      extents.push_back(*pu);
      rows *= *pu;
    }
    if (rows >= blocks) return;
    // One reduction loop in the row, everything else without regions.
    scf::ForOp f;
    for (Operation& op : p.getBody()->without_terminator()) {
      if (auto g = dyn_cast<scf::ForOp>(op)) {
        if (f) return;
        f = g;
      } else if (op.getNumRegions()) {
        return;
      }
    }
    if (!f || f.getNumRegionIterArgs() != 0) return;
    std::optional<int64_t> lo = getConstantIntValue(f.getLowerBound()), hi = getConstantIntValue(f.getUpperBound()),
                           st = getConstantIntValue(f.getStep());
    if (!lo || !hi || !st || *st <= 0) return;
    const int64_t trips = (*hi - *lo + *st - 1) / *st;
    const int64_t perTrip = loopIterations(f.getRegion());
    if (trips * perTrip < 2 * minChunk) return;
    SmallVector<memref::StoreOp> stores = storesOf(p);
    std::optional<SmallVector<Accumulator>> accs = accumulatorsOf(f, stores);
    if (!accs) return;
    // What the reduction uses of the row ahead of it (index arithmetic, reads of inputs) is
    // computed again by each chunk: pure ops and loads of memory p does not write.
    llvm::SetVector<Operation*> needed;
    SmallVector<Value> work;
    f.walk([&](Operation* op) {
      for (Value v : op->getOperands()) work.push_back(v);
    });
    while (!work.empty()) {
      Operation* def = work.pop_back_val().getDefiningOp();
      if (!def || def->getBlock() != p.getBody() || needed.contains(def)) continue;
      auto load = dyn_cast<memref::LoadOp>(def);
      if (load ? !readsOnlyInputs(load, stores) : !isMemoryEffectFree(def)) return;
      needed.insert(def);
      for (Value v : def->getOperands()) work.push_back(v);
    }
    // C chunks of K trips, C dividing the trips: about `blocks` chunks in all, each at least
    // `min-chunk` iterations.
    const int64_t c = largestDivisor(trips, std::min((blocks + rows - 1) / rows, trips * perTrip / minChunk));
    if (c < 2) return;
    const int64_t k = trips / c;

    Location loc = f.getLoc();
    OpBuilder b(p);
    auto index = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(b, loc, v); };
    SmallVector<int64_t> shape(extents);
    shape.push_back(c);
    SmallVector<Value> partials;
    for (Accumulator& a : *accs)
      partials.push_back(memref::AllocOp::create(b, loc, MemRefType::get(shape, a.store.getValueToStore().getType())));

    // Phase 1: parallel (chunk, rows...) { partial[rows..., chunk] = the chunk's reduction }.
    // The chunks lead: the CPU's thread pool splits a loop's outermost dimension.
    SmallVector<Value> lbs{index(0)}, ubs{index(c)}, steps{index(1)};
    llvm::append_range(lbs, p.getLowerBound());
    llvm::append_range(ubs, p.getUpperBound());
    llvm::append_range(steps, p.getStep());
    auto chunks = scf::ParallelOp::create(b, loc, lbs, ubs, steps);
    b.setInsertionPointToStart(chunks.getBody());
    Value chunk = chunks.getInductionVars().front();
    SmallVector<Value> at(ValueRange(chunks.getInductionVars()).drop_front());
    at.push_back(chunk);
    IRMapping map;
    for (auto [from, to] : llvm::zip(p.getInductionVars(), at)) map.map(from, to);  // at: rows..., chunk
    for (Operation& op : p.getBody()->without_terminator())
      if (needed.contains(&op)) b.clone(op, map);
    for (auto [a, part] : llvm::zip(*accs, partials))
      memref::StoreOp::create(b, loc, arith::ConstantOp::create(b, loc, a.identity), part, at);
    auto fold = scf::ForOp::create(b, loc, index(0), index(k), index(1));
    b.setInsertionPointToStart(fold.getBody());
    Value n = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, chunk, index(k)), fold.getInductionVar());
    map.map(f.getInductionVar(), arith::AddIOp::create(b, loc, index(*lo), arith::MulIOp::create(b, loc, n, index(*st))));
    for (Operation& op : f.getBody()->without_terminator()) b.clone(op, map);
    // The accumulator steps, cloned, read and write the chunk's partial instead.
    for (auto [a, part] : llvm::zip(*accs, partials)) {
      Operation* load = map.lookup(a.load.getOperation());
      Operation* store = map.lookup(a.store.getOperation());
      OpBuilder lb(load), sb(store);
      load->replaceAllUsesWith(memref::LoadOp::create(lb, loc, part, at));
      load->erase();
      memref::StoreOp::create(sb, loc, store->getOperand(0), part, at);
      store->erase();
    }

    // Phase 2: the row as it was, its reduction loop now `for chunk: acc = combine(acc,
    // partial[rows..., chunk])` (by load and store: strata-gpu-map-loops splits it across a
    // block when it is long).
    b.setInsertionPoint(f);
    auto combine = scf::ForOp::create(b, loc, index(0), index(c), index(1));
    b.setInsertionPoint(combine.getBody()->getTerminator());
    SmallVector<Value> place(p.getInductionVars());
    place.push_back(combine.getInductionVar());
    for (auto [a, part] : llvm::zip(*accs, partials)) {
      Value old = memref::LoadOp::create(b, loc, a.store.getMemref(), a.store.getIndices());
      Value partial = memref::LoadOp::create(b, loc, part, place);
      memref::StoreOp::create(b, loc, combineWith(b, a, old, partial), a.store.getMemref(), a.store.getIndices());
    }
    f.erase();
    ++numSplit;
  }
};

}  // namespace
}  // namespace mlir::strata
