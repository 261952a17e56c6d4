// --strata-split-row-reductions: rows with few, long loops (f32[8, 1M] summed along its rows, a
// softmax or layer norm over such rows) run each loop in chunks of the row, a GPU block or a
// CPU task each, the reductions into partials the row then combines; the algorithm is in
// Passes.td.
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

// How one row loop splits: the parallel loop over rows `p` holding one loop `f` of `trips`
// trips (lo, lo + st, ...) cut into `chunks` chunks; its accumulators; what it uses of the
// row ahead of it (`needed`, in program order).
struct Plan {
  scf::ParallelOp p;
  scf::ForOp f;
  SmallVector<Accumulator> accs;
  llvm::SetVector<Operation*> needed;
  int64_t lo = 0, st = 1, trips = 0, chunks = 1;
};

// An op without regions or memory effects (computed again wherever it is needed).
bool isPureLeaf(Operation* op) { return op->getNumRegions() == 0 && isMemoryEffectFree(op); }

// A load of memory that none of `stores` (a row's) writes: read again, it reads the same.
bool readsAnInput(Operation* op, ArrayRef<memref::StoreOp> stores) {
  auto load = dyn_cast<memref::LoadOp>(op);
  return load && llvm::none_of(stores, [&](memref::StoreOp s) { return mayShareBytes(load.getMemref(), s.getMemref()); });
}

// The top-level ops of `body` that `users` (nested ops included) use, and those they use in
// turn, leaving out the ops `own` claims: each to be computed again beside the users, so each
// must be pure or read memory none of `stores` (the row's) writes; nullopt when one is not.
// In program order.
std::optional<llvm::SetVector<Operation*>> recomputed(ArrayRef<Operation*> users, Block* body,
                                                      llvm::function_ref<bool(Operation*)> own,
                                                      ArrayRef<memref::StoreOp> stores) {
  llvm::SmallPtrSet<Operation*, 16> found;
  SmallVector<Value> work;
  for (Operation* op : users) op->walk([&](Operation* in) { llvm::append_range(work, in->getOperands()); });
  while (!work.empty()) {
    Operation* def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body || own(def) || !found.insert(def).second) continue;
    if (!isPureLeaf(def) && !readsAnInput(def, stores)) return std::nullopt;
    llvm::append_range(work, def->getOperands());
  }
  llvm::SetVector<Operation*> inOrder;
  for (Operation& op : body->without_terminator())
    if (found.contains(&op)) inOrder.insert(&op);
  return inOrder;
}

// The accumulators of the row loop `f` (in `p`), or nullopt unless its iterations can run in
// chunks at once, before the rest of the row: every store in f is an accumulator step (a place
// fixed in f, a buffer nothing else in f touches) or writes at an index holding f's induction
// variable (an elementwise output: its buffer touched by nothing of the row before f, by no
// other store of f, and read in f only at the element the iteration writes); every other load
// reads memory nothing in p writes (`stores`: p's); regions are scf.for and scf.if; nothing
// else has effects.
std::optional<SmallVector<Accumulator>> accumulatorsOf(scf::ForOp f, scf::ParallelOp p,
                                                      ArrayRef<memref::StoreOp> stores) {
  SmallVector<Accumulator> accs;
  SmallVector<memref::LoadOp> loads;
  SmallVector<memref::StoreOp> elementwise;
  bool ok = true;
  f.getBody()->walk([&](Operation* op) {
    if (auto l = dyn_cast<memref::LoadOp>(op)) {
      loads.push_back(l);
    } else if (auto s = dyn_cast<memref::StoreOp>(op)) {
      if (std::optional<AccumulatorStep> step = matchAccumulatorStep(s, f)) accs.push_back({*step, s});
      else if (llvm::is_contained(s.getIndices(), f.getInductionVar())) elementwise.push_back(s);
      else ok = false;
    } else if (op->getNumRegions() ? !isa<scf::ForOp, scf::IfOp>(op) : !isMemoryEffectFree(op)) {
      ok = false;
    }
  });
  if (!ok || (accs.empty() && elementwise.empty())) return std::nullopt;
  auto isAcc = [&](Operation* op) {
    return llvm::any_of(accs, [&](Accumulator& a) { return op == a.load || op == a.store; });
  };
  for (memref::LoadOp l : loads) {
    if (isAcc(l)) continue;
    for (memref::StoreOp s : stores) {
      if (!mayShareBytes(l.getMemref(), s.getMemref())) continue;
      bool ownElement = llvm::is_contained(elementwise, s) && s.getMemref() == l.getMemref() &&
                        s.getIndices() == l.getIndices();
      if (!ownElement) return std::nullopt;  // the accumulators' buffers included
    }
  }
  for (Accumulator& a : accs)
    for (Accumulator& b : accs)
      if (&a != &b && mayShareBytes(a.store.getMemref(), b.store.getMemref())) return std::nullopt;
  for (memref::StoreOp e : elementwise) {
    for (memref::StoreOp s : stores)  // f's other stores: accumulators and elementwise outputs
      if (s != e && f->isAncestor(s) && mayShareBytes(s.getMemref(), e.getMemref())) return std::nullopt;
    // Nothing of the row before f touches it: that part of the row now runs after f's chunks.
    for (Operation* op = &p.getBody()->front(); op != f; op = op->getNextNode()) {
      WalkResult r = op->walk([&](Operation* in) {
        Value m = isa<memref::LoadOp>(in)    ? cast<memref::LoadOp>(in).getMemref()
                  : isa<memref::StoreOp>(in) ? cast<memref::StoreOp>(in).getMemref()
                                             : Value();
        return m && mayShareBytes(m, e.getMemref()) ? WalkResult::interrupt() : WalkResult::advance();
      });
      if (r.wasInterrupted()) return std::nullopt;
    }
  }
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

  // The rows of `p` (its iterations) when it has static bounds from 0, step 1, no results and
  // fewer than `blocks` iterations, its body one or more scf.for and no other regions.
  std::optional<int64_t> fewRows(scf::ParallelOp p) {
    if (p.getNumResults() != 0) return std::nullopt;
    int64_t rows = 1;
    for (auto [l, u, s] : llvm::zip(p.getLowerBound(), p.getUpperBound(), p.getStep())) {
      std::optional<int64_t> pl = getConstantIntValue(l), pu = getConstantIntValue(u), ps = getConstantIntValue(s);
      if (pl != 0 || ps != 1 || !pu || *pu <= 0) return std::nullopt;
      rows *= *pu;
    }
    if (rows >= blocks) return std::nullopt;
    for (Operation& op : p.getBody()->without_terminator())
      if (op.getNumRegions() && !isa<scf::ForOp>(op)) return std::nullopt;
    return rows;
  }

  // How `p`'s one loop splits, or nullopt (too short, or its iterations cannot run apart).
  std::optional<Plan> plan(scf::ParallelOp p, int64_t rows) {
    Plan pl{p, {}, {}, {}};
    for (Operation& op : p.getBody()->without_terminator())
      if (auto g = dyn_cast<scf::ForOp>(op)) {
        if (pl.f) return std::nullopt;
        pl.f = g;
      }
    scf::ForOp f = pl.f;
    if (!f || f.getNumRegionIterArgs() != 0) return std::nullopt;
    std::optional<int64_t> lo = getConstantIntValue(f.getLowerBound()), hi = getConstantIntValue(f.getUpperBound()),
                           st = getConstantIntValue(f.getStep());
    if (!lo || !hi || !st || *st <= 0) return std::nullopt;
    pl.lo = *lo;
    pl.st = *st;
    pl.trips = (*hi - *lo + *st - 1) / *st;
    const int64_t iterations = pl.trips * loopIterations(f.getRegion());
    if (iterations < 2 * minChunk) return std::nullopt;
    SmallVector<memref::StoreOp> stores;
    p.getBody()->walk([&](memref::StoreOp s) { stores.push_back(s); });
    std::optional<SmallVector<Accumulator>> accs = accumulatorsOf(f, p, stores);
    if (!accs) return std::nullopt;
    pl.accs = std::move(*accs);
    // What f uses of the row ahead of it (index arithmetic, reads of inputs) is computed again
    // by each chunk.
    Operation* loop = f;
    std::optional<llvm::SetVector<Operation*>> needed =
        recomputed(ArrayRef<Operation*>(loop), p.getBody(), [](Operation*) { return false; }, stores);
    if (!needed) return std::nullopt;
    pl.needed = std::move(*needed);
    // C chunks of K trips, C dividing the trips: about `blocks` chunks in all, each at least
    // `min-chunk` iterations.
    pl.chunks = largestDivisor(pl.trips, std::min((blocks + rows - 1) / rows, iterations / minChunk));
    if (pl.chunks < 2) return std::nullopt;
    return pl;
  }

  void split(scf::ParallelOp p) {
    std::optional<int64_t> rows = fewRows(p);
    if (!rows) return;
    SmallVector<SmallVector<Operation*>> pieces = cut(p);
    if (pieces.empty()) return;
    if (pieces.size() == 1) {
      if (std::optional<Plan> pl = plan(p, *rows)) apply(*pl);
      return;
    }
    if (*rows >= fissionRows) return;
    // Several loops in a row (softmax: a max, a sum of exponentials using it, the output
    // using both), or a loop reading what the row wrote ahead of it: one parallel loop a
    // piece, each loop split, or none.
    SmallVector<scf::ParallelOp> made = fission(p, pieces);
    if (made.empty()) return;
    SmallVector<Plan> plans;
    for (scf::ParallelOp piece : made) {
      if (llvm::none_of(piece.getBody()->without_terminator(), [](Operation& op) { return isa<scf::ForOp>(op); }))
        continue;  // the row's own work between two loops
      std::optional<Plan> pl = plan(piece, *rows);
      if (!pl) {
        for (scf::ParallelOp q : made) q.erase();
        return;
      }
      plans.push_back(std::move(*pl));
    }
    for (Plan& pl : plans) apply(pl);
    p.erase();
    ++numFissioned;
  }

  // The pieces of p's row: each loop with the ops ahead of it since the previous loop (the ops
  // after the last loop go with it), those ops a piece of their own when the loop reads memory
  // they write (the chunks would run before them). Empty when the row has no loop.
  static SmallVector<SmallVector<Operation*>> cut(scf::ParallelOp p) {
    SmallVector<SmallVector<Operation*>> pieces(1);
    for (Operation& op : p.getBody()->without_terminator()) {
      auto f = dyn_cast<scf::ForOp>(op);
      if (f && !pieces.back().empty()) {
        SmallVector<Value> written;
        for (Operation* ahead : pieces.back())
          ahead->walk([&](memref::StoreOp s) { written.push_back(s.getMemref()); });
        // An accumulator's own load is not such a read: the row's part ahead (its init) runs
        // before the partials are combined into it.
        llvm::SmallPtrSet<Operation*, 4> accLoads;
        f.walk([&](memref::StoreOp s) {
          if (std::optional<AccumulatorStep> step = matchAccumulatorStep(s, f)) accLoads.insert(step->load);
        });
        WalkResult reads = f.walk([&](memref::LoadOp l) {
          if (accLoads.contains(l)) return WalkResult::advance();
          bool clash = llvm::any_of(written, [&](Value m) { return mayShareBytes(m, l.getMemref()); });
          return clash ? WalkResult::interrupt() : WalkResult::advance();
        });
        if (reads.wasInterrupted()) pieces.emplace_back();
      }
      pieces.back().push_back(&op);
      if (f) pieces.emplace_back();
    }
    auto hasLoop = [](ArrayRef<Operation*> ops) { return llvm::any_of(ops, [](Operation* op) { return isa<scf::ForOp>(op); }); };
    if (pieces.size() == 1) return {};  // no loop
    if (!hasLoop(pieces.back())) {
      SmallVector<Operation*> tail = pieces.pop_back_val();
      llvm::append_range(pieces.back(), tail);
    }
    return pieces;
  }

  // `pieces` of p's row as one parallel loop each over p's rows, created before p; what a
  // piece uses of an earlier one is computed again (pure ops and reads of inputs only, or no
  // loops are made). Rows are independent (a parallel loop), so row i's pieces still run in
  // order.
  SmallVector<scf::ParallelOp> fission(scf::ParallelOp p, ArrayRef<SmallVector<Operation*>> pieces) {
    Block* body = p.getBody();
    DenseMap<Operation*, unsigned> pieceOf;
    for (auto [i, ops] : llvm::enumerate(pieces))
      for (Operation* op : ops) pieceOf[op] = i;
    SmallVector<memref::StoreOp> stores;
    body->walk([&](memref::StoreOp s) { stores.push_back(s); });
    SmallVector<llvm::SetVector<Operation*>> again;
    for (auto [i, ops] : llvm::enumerate(pieces)) {
      std::optional<llvm::SetVector<Operation*>> used =
          recomputed(ops, body, [&, i = i](Operation* def) { return pieceOf.lookup(def) == i; }, stores);
      if (!used) return {};
      again.push_back(std::move(*used));
    }
    OpBuilder b(p);
    SmallVector<scf::ParallelOp> made;
    for (auto [i, ops] : llvm::enumerate(pieces)) {
      auto q = scf::ParallelOp::create(b, p.getLoc(), p.getLowerBound(), p.getUpperBound(), p.getStep());
      OpBuilder in = OpBuilder::atBlockBegin(q.getBody());
      IRMapping map;
      for (auto [from, to] : llvm::zip(p.getInductionVars(), q.getInductionVars())) map.map(from, to);
      for (Operation& op : body->without_terminator())
        if (again[i].contains(&op) || pieceOf[&op] == i) in.clone(op, map);
      made.push_back(q);
    }
    return made;
  }

  void apply(Plan& pl) {
    scf::ParallelOp p = pl.p;
    scf::ForOp f = pl.f;
    const int64_t c = pl.chunks, k = pl.trips / c;
    Location loc = f.getLoc();
    OpBuilder b(p);
    auto index = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(b, loc, v); };
    SmallVector<int64_t> shape;
    for (Value u : p.getUpperBound()) shape.push_back(*getConstantIntValue(u));
    shape.push_back(c);
    SmallVector<Value> partials;
    for (Accumulator& a : pl.accs)
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
    for (Operation* op : pl.needed) b.clone(*op, map);
    for (auto [a, part] : llvm::zip(pl.accs, partials))
      memref::StoreOp::create(b, loc, arith::ConstantOp::create(b, loc, a.identity), part, at);
    auto fold = scf::ForOp::create(b, loc, index(0), index(k), index(1));
    b.setInsertionPointToStart(fold.getBody());
    Value n = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, chunk, index(k)), fold.getInductionVar());
    map.map(f.getInductionVar(), arith::AddIOp::create(b, loc, index(pl.lo), arith::MulIOp::create(b, loc, n, index(pl.st))));
    for (Operation& op : f.getBody()->without_terminator()) b.clone(op, map);
    // The accumulator steps, cloned, read and write the chunk's partial instead.
    for (auto [a, part] : llvm::zip(pl.accs, partials)) {
      Operation* load = map.lookup(a.load.getOperation());
      Operation* store = map.lookup(a.store.getOperation());
      OpBuilder lb(load), sb(store);
      load->replaceAllUsesWith(memref::LoadOp::create(lb, loc, part, at));
      load->erase();
      memref::StoreOp::create(sb, loc, store->getOperand(0), part, at);
      store->erase();
    }

    // Phase 2: the row as it was, its loop now `for chunk: acc = combine(acc, partial[rows...,
    // chunk])` (by load and store: strata-gpu-map-loops splits it across a block when it is
    // long), or gone when it only wrote elementwise outputs.
    if (!pl.accs.empty()) {
      b.setInsertionPoint(f);
      auto combine = scf::ForOp::create(b, loc, index(0), index(c), index(1));
      b.setInsertionPoint(combine.getBody()->getTerminator());
      SmallVector<Value> place(p.getInductionVars());
      place.push_back(combine.getInductionVar());
      for (auto [a, part] : llvm::zip(pl.accs, partials)) {
        Value old = memref::LoadOp::create(b, loc, a.store.getMemref(), a.store.getIndices());
        Value partial = memref::LoadOp::create(b, loc, part, place);
        memref::StoreOp::create(b, loc, combineWith(b, a, old, partial), a.store.getMemref(), a.store.getIndices());
      }
    }
    f.erase();
    if (llvm::all_of(p.getBody()->without_terminator(), [](Operation& op) { return isPureLeaf(&op); })) p.erase();
    ++numSplit;
  }
};

}  // namespace
}  // namespace mlir::strata
