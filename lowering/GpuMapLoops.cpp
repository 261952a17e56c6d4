// --strata-gpu-map-loops: every loop nest of the entry function becomes one GPU kernel's grid;
// the algorithm is in Passes.td.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "lowering/Passes.h"
#include "lowering/Accumulator.h"
#include "lowering/GpuMapping.h"
#include "lowering/GpuTransposeTiles.h"
#include "lowering/GpuWideAccesses.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "transforms/EntryFunction.h"

namespace mlir::strata {

#define GEN_PASS_DEF_GPUMAPLOOPSPASS
#include "lowering/Passes.h.inc"

namespace {

// What the host itself runs of a cuda program: constants, views (pointer arithmetic), whole
// buffer copies (a copy step) and the loops handed to the GPU.
bool runsOnHost(Operation* op) {
  return isa<arith::ConstantOp, complex::ConstantOp, memref::ViewOp, memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
             memref::ReinterpretCastOp, memref::CastOp, memref::GetGlobalOp, memref::CopyOp, func::ReturnOp,
             scf::ParallelOp, memref::ExtractAlignedPointerAsIndexOp, func::CallOp>(op);
}

// A combining op of a reduction the block can do together (gpu.all_reduce), with its identity.
struct Combiner {
  gpu::AllReduceOperation op;
  TypedAttr identity;
};
std::optional<Combiner> combinerOf(Operation* op) {
  Type t = op->getResult(0).getType();
  if (!(t.isF32() || t.isF64() || t.isInteger(32) || t.isInteger(64))) return std::nullopt;
  TypedAttr identity = reductionIdentity(op);
  if (!identity) return std::nullopt;
  using R = gpu::AllReduceOperation;
  auto kind = [&]() -> std::optional<R> {
    if (isa<arith::AddFOp, arith::AddIOp>(op)) return R::ADD;
    if (isa<arith::MulFOp, arith::MulIOp>(op)) return R::MUL;
    if (isa<arith::MaximumFOp>(op)) return R::MAXIMUMF;
    if (isa<arith::MinimumFOp>(op)) return R::MINIMUMF;
    if (isa<arith::MaxNumFOp>(op)) return R::MAXNUMF;
    if (isa<arith::MinNumFOp>(op)) return R::MINNUMF;
    if (isa<arith::MaxSIOp>(op)) return R::MAXSI;
    if (isa<arith::MinSIOp>(op)) return R::MINSI;
    if (isa<arith::MaxUIOp>(op)) return R::MAXUI;
    if (isa<arith::MinUIOp>(op)) return R::MINUI;
    if (isa<arith::AndIOp>(op)) return R::AND;
    if (isa<arith::OrIOp>(op)) return R::OR;
    if (isa<arith::XOrIOp>(op)) return R::XOR;
    return std::nullopt;
  }();
  if (!kind) return std::nullopt;
  return Combiner{*kind, identity};
}

// One accumulator of a reduction loop: `acc[i] = combine(acc[i], x)` with i fixed in the loop.
struct Accumulator {
  memref::LoadOp load;
  Operation* combine;
  memref::StoreOp store;
  Value x;  // the combined value (the loaded one is the other operand)
  Combiner c;
};

// The accumulators of `loop` (each a load, a combine and a store of one location that does not
// depend on the loop), or failure when the loop touches that location otherwise.
FailureOr<SmallVector<Accumulator>> accumulatorsOf(scf::ForOp loop) {
  SmallVector<Accumulator> accs;
  for (Operation& op : loop.getBody()->without_terminator()) {
    auto store = dyn_cast<memref::StoreOp>(op);
    if (!store) continue;
    std::optional<AccumulatorStep> step = matchAccumulatorStep(store, loop);
    if (!step) continue;
    std::optional<Combiner> c = combinerOf(step->combine);
    if (!c) continue;
    accs.push_back({step->load, step->combine, store, step->combine->getOperand(1 - step->loadSide), *c});
  }
  // Any other access to an accumulator's buffer inside the loop: not a plain reduction.
  for (Accumulator& a : accs) {
    WalkResult r = loop.getBody()->walk([&](Operation* op) {
      if (op == a.load || op == a.store) return WalkResult::advance();
      for (Value v : op->getOperands())
        if (v == a.load.getMemref()) return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (r.wasInterrupted()) return failure();
  }
  return accs;
}

struct GpuMapLoopsPass : impl::GpuMapLoopsPassBase<GpuMapLoopsPass> {
  using Base::Base;

  // 0'. `for j { parallel p { body } }` (a reduction over a leading axis: the accumulator is
  //     indexed by p, the sum runs over j) becomes `parallel p { for j { body } }` when no
  //     iteration p can see another's writes: every store indexes with all of p's induction
  //     variables in the same places, and every load of a stored buffer uses the same indices.
  bool interchange(scf::ForOp f) {
    Block* fb = f.getBody();
    if (f.getNumRegionIterArgs() != 0 || !llvm::hasSingleElement(fb->without_terminator())) return false;
    auto p = dyn_cast<scf::ParallelOp>(fb->front());
    if (!p || p.getNumReductions() != 0) return false;
    for (Value v : llvm::concat<Value>(p.getLowerBound(), p.getUpperBound(), p.getStep()))
      if (!v.getParentRegion()->isProperAncestor(&f.getRegion())) return false;
    SmallVector<memref::StoreOp> stores;
    bool ok = true;
    p.getBody()->walk([&](Operation* op) {
      if (auto st = dyn_cast<memref::StoreOp>(op)) stores.push_back(st);
      else if (!isa<memref::LoadOp>(op) && !isMemoryEffectFree(op) && !isa<scf::ForOp, scf::IfOp, scf::YieldOp>(op))
        ok = false;
    });
    if (!ok || stores.empty()) return false;
    for (memref::StoreOp st : stores)
      for (Value iv : p.getInductionVars())
        if (!llvm::is_contained(st.getIndices(), iv)) return false;
    WalkResult r = p.getBody()->walk([&](memref::LoadOp load) {
      for (memref::StoreOp st : stores)
        if (st.getMemref() == load.getMemref() && st.getIndices() != load.getIndices()) return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (r.wasInterrupted()) return false;
    OpBuilder b(f);
    auto outer = scf::ParallelOp::create(b, p.getLoc(), p.getLowerBound(), p.getUpperBound(), p.getStep());
    b.setInsertionPointToStart(outer.getBody());
    auto inner = scf::ForOp::create(b, f.getLoc(), f.getLowerBound(), f.getUpperBound(), f.getStep());
    IRMapping map;
    map.map(f.getInductionVar(), inner.getInductionVar());
    for (auto [from, to] : llvm::zip(p.getInductionVars(), outer.getInductionVars())) map.map(from, to);
    b.setInsertionPoint(inner.getBody()->getTerminator());
    for (Operation& op : p.getBody()->without_terminator()) b.clone(op, map);
    f.erase();
    return true;
  }

  // 1. Moves [first, last] (top-level ops of `block`) into `scf.parallel (0) to (1)`.
  LogicalResult serialize(Operation* first, Operation* last) {
    OpBuilder b(first);
    Location loc = first->getLoc();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0), one = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ParallelOp::create(b, loc, ValueRange{zero}, ValueRange{one}, ValueRange{one});
    Block* body = loop.getBody();
    std::vector<Operation*> ops;
    for (Operation* op = first;; op = op->getNextNode()) {
      ops.push_back(op);
      if (op == last) break;
    }
    for (Operation* op : ops) {
      for (Value r : op->getResults())
        for (Operation* user : r.getUsers())
          if (!llvm::any_of(ops, [&](Operation* o) { return o->isAncestor(user); }))
            return op->emitError("strata-gpu-map-loops: a value computed on the device is used by the host");
    }
    for (Operation* op : ops) {
      op->moveBefore(body->getTerminator());
    }
    ++numSerial;
    return success();
  }

  // 2'. A 1-d parallel loop over rows whose body reduces along each row (scf.for loops that
  //     accumulate into a location of the row: softmax, layer norm, sums over the last axis)
  //     runs one row per block: the block's threads split each row loop (thread t takes
  //     iterations t, t + B, ...), combine their partial results with gpu.all_reduce, and one
  //     thread stores the row's result; the other statements of the row run once (thread 0)
  //     and a barrier follows each step, so that every thread sees what the step wrote.
  //     Returns false (and changes nothing) when the loop is not of that form.
  bool mapRows(scf::ParallelOp loop) {
    if (loop.getNumLoops() != 1) return false;
    Block* body = loop.getBody();
    int64_t longest = 0;
    bool reduces = false;
    for (Operation& op : body->without_terminator()) {
      if (auto f = dyn_cast<scf::ForOp>(op)) {
        std::optional<int64_t> lo = getConstantIntValue(f.getLowerBound()),
                               hi = getConstantIntValue(f.getUpperBound()), st = getConstantIntValue(f.getStep());
        if (!lo || !hi || !st || *st <= 0 || f.getNumRegionIterArgs() != 0) return false;
        FailureOr<SmallVector<Accumulator>> accs = accumulatorsOf(f);
        if (failed(accs)) return false;
        // Every other store of the loop writes a location of its own iteration (split across
        // threads, no two write one place).
        WalkResult own = f.getBody()->walk([&](memref::StoreOp st) {
          if (llvm::any_of(*accs, [&](Accumulator& a) { return a.store == st; })) return WalkResult::advance();
          bool perIteration = llvm::any_of(st.getIndices(), [&](Value v) {
            return v == f.getInductionVar() || (v.getDefiningOp() && f->isAncestor(v.getDefiningOp()));
          });
          return perIteration ? WalkResult::advance() : WalkResult::interrupt();
        });
        if (own.wasInterrupted()) return false;
        reduces = reduces || !accs->empty();
        longest = std::max(longest, (*hi - *lo + *st - 1) / *st);
        continue;
      }
      if (isa<memref::StoreOp, memref::LoadOp>(op) || isMemoryEffectFree(&op)) {
        if (op.getNumRegions()) return false;
        continue;
      }
      return false;
    }
    if (!reduces || longest < 64) return false;
    int64_t block = std::min<int64_t>(blockSize, (longest + 31) / 32 * 32);

    MLIRContext* ctx = &getContext();
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    auto outer = scf::ParallelOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
    b.setInsertionPointToStart(outer.getBody());
    Value zero = arith::ConstantIndexOp::create(b, loc, 0), one = arith::ConstantIndexOp::create(b, loc, 1),
          threads = arith::ConstantIndexOp::create(b, loc, block);
    auto inner = scf::ParallelOp::create(b, loc, ValueRange{zero}, ValueRange{threads}, ValueRange{one});
    Value tid = inner.getInductionVars()[0];
    b.setInsertionPointToStart(inner.getBody());
    IRMapping map;
    map.map(loop.getInductionVars()[0], outer.getInductionVars()[0]);
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zero);
    auto barrier = [&] { gpu::BarrierOp::create(b, loc); };
    for (Operation& op : body->without_terminator()) {
      if (auto store = dyn_cast<memref::StoreOp>(op)) {  // once per row, then seen by all
        auto guard = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
        OpBuilder g = guard.getThenBodyBuilder();
        g.clone(op, map);
        barrier();
        continue;
      }
      auto f = dyn_cast<scf::ForOp>(op);
      if (!f) {
        b.clone(op, map);
        continue;
      }
      SmallVector<Accumulator> accs = *accumulatorsOf(f);
      // for c = lo + t*step to hi step B*step, carrying one partial result per accumulator.
      Value lo = map.lookupOrDefault(f.getLowerBound()), step = map.lookupOrDefault(f.getStep());
      Value start = arith::AddIOp::create(b, loc, lo, arith::MulIOp::create(b, loc, tid, step));
      Value stride = arith::MulIOp::create(b, loc, threads, step);
      SmallVector<Value> inits;
      for (const Accumulator& a : accs) inits.push_back(arith::ConstantOp::create(b, loc, a.c.identity));
      auto split = scf::ForOp::create(b, loc, start, map.lookupOrDefault(f.getUpperBound()), stride, inits);
      {
        OpBuilder in = OpBuilder::atBlockBegin(split.getBody());
        IRMapping m2 = map;
        m2.map(f.getInductionVar(), split.getInductionVar());
        for (auto [k, a] : llvm::enumerate(accs)) m2.map(a.load.getResult(), split.getRegionIterArgs()[k]);
        SmallVector<Value> next(accs.size());
        for (Operation& inner_op : f.getBody()->without_terminator()) {
          auto acc = llvm::find_if(accs, [&](Accumulator& a) {
            return &inner_op == a.load.getOperation() || &inner_op == a.store.getOperation();
          });
          if (acc != accs.end()) continue;  // the accumulator lives in the loop-carried value
          Operation* copy = in.clone(inner_op, m2);
          for (auto [k, a] : llvm::enumerate(accs))
            if (&inner_op == a.combine) next[k] = copy->getResult(0);
        }
        if (!accs.empty()) scf::YieldOp::create(in, loc, next);  // else the builder made one
      }
      for (auto [k, a] : llvm::enumerate(accs)) {
        Value total = gpu::AllReduceOp::create(b, loc, split.getResult(k),
                                               gpu::AllReduceOperationAttr::get(ctx, a.c.op), /*uniform=*/UnitAttr::get(ctx))
                          .getResult();
        auto guard = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
        OpBuilder g = guard.getThenBodyBuilder();
        IRMapping m3 = map;
        Value old = g.clone(*a.load, m3)->getResult(0);
        Operation* combined = g.clone(*a.combine, m3);
        combined->setOperands({old, total});
        Operation* st = g.clone(*a.store, m3);
        st->setOperand(0, combined->getResult(0));
      }
      barrier();
    }
    (void)gpu::setMappingAttr(outer, {processorMapping(ctx, gpu::Processor::BlockX)});
    (void)gpu::setMappingAttr(inner, {processorMapping(ctx, gpu::Processor::ThreadX)});
    loop.erase();
    ++numRowKernels;
    return true;
  }

  // The pure ops of `f`'s body ahead of its one inner loop, used only inside it, move into it,
  // so that the two make a perfect nest (a chunk of a split reduction computes its outer index
  // first: --strata-split-reduction-loops).
  static void sinkIntoInnerLoop(scf::ForOp f) {
    scf::ForOp inner;
    SmallVector<Operation*> prefix;
    for (Operation& op : f.getBody()->without_terminator()) {
      if (auto g = dyn_cast<scf::ForOp>(op)) {
        if (inner) return;
        inner = g;
        continue;
      }
      if (inner || !isMemoryEffectFree(&op) || op.getNumRegions()) return;
      prefix.push_back(&op);
    }
    if (!inner || prefix.empty() || inner.getNumRegionIterArgs()) return;
    for (Operation* op : prefix)
      for (Operation* user : op->getUsers())
        if (!inner->isProperAncestor(user) && !llvm::is_contained(prefix, user)) return;
    Operation* first = &inner.getBody()->front();
    for (Operation* op : prefix) op->moveBefore(first);
    sinkIntoInnerLoop(inner);
  }

  // 2. Collapses, tiles and maps one top-level parallel loop.
  LogicalResult map(scf::ParallelOp loop) {
    MLIRContext* ctx = &getContext();
    IRRewriter rewriter(ctx);
    unsigned n = loop.getNumLoops();
    int64_t trips = 1;
    for (unsigned d = 0; d < n; ++d) {
      std::optional<int64_t> lo = getConstantIntValue(loop.getLowerBound()[d]),
                             hi = getConstantIntValue(loop.getUpperBound()[d]), st = getConstantIntValue(loop.getStep()[d]);
      if (!lo || !hi || !st || *st <= 0)
        return loop.emitError("strata-gpu-map-loops: a parallel loop with dynamic bounds");
      trips *= std::max<int64_t>(0, (*hi - *lo + *st - 1) / *st);
    }
    // Transposing loops go through shared memory in tiles (already mapped when they do).
    if (transposeTiles && tileTranspose(loop)) {
      ++numTransposeKernels;
      return success();
    }
    // Elementwise loops move 8 or 16 bytes a thread access (a no-op for anything else).
    if (vectorLanes > 1 && trips >= kMinWideTrips)
      if (scf::ParallelOp wide = widenAccesses(loop, vectorLanes)) {
        loop = wide;
        trips /= vectorLanes;
        ++numWideKernels;
      }
    if (n > 1) {
      std::vector<unsigned> all(n);
      std::iota(all.begin(), all.end(), 0u);
      // The collapsed loop is created just before the original, which is erased.
      Operation* next = loop->getNextNode();
      rewriter.setInsertionPoint(loop);
      collapseParallelLoops(rewriter, loop, {all});
      loop = cast<scf::ParallelOp>(next->getPrevNode());
    }
    // Perfect nests of sequential loops in the body (a reduction over several axes) become one
    // loop, so that a row's reduction, or a full reduction's single row, splits across a block.
    if (rowReductions) {
      SmallVector<scf::ForOp> nests;
      for (Operation& op : loop.getBody()->without_terminator())
        if (auto f = dyn_cast<scf::ForOp>(op)) {
          sinkIntoInnerLoop(f);
          if (isa<scf::ForOp>(f.getBody()->front())) nests.push_back(f);
        }
      for (scf::ForOp f : nests) (void)coalescePerfectlyNestedSCFForLoops(f);
    }
    if (rowReductions && mapRows(loop)) return success();
    int64_t block = std::min<int64_t>(blockSize, std::max<int64_t>(32, (trips + 31) / 32 * 32));
    if ((trips + block - 1) / block > kMaxGpuBlocks) {
      if (loop.getNumResults() != 0 || loop.getNumLoops() != 1)
        return loop.emitError("strata-gpu-map-loops: a reduction over ") << trips << " elements is too large for one grid";
      loop = strided(loop, trips, kMaxGpuBlocks * block);
    }
    auto [outer, inner] = scf::tileParallelLoop(loop, {block}, /*noMinMaxBounds=*/true);
    if (failed(gpu::setMappingAttr(outer, {processorMapping(ctx, gpu::Processor::BlockX)})) ||
        failed(gpu::setMappingAttr(inner, {processorMapping(ctx, gpu::Processor::ThreadX)})))
      return failure();
    // 3. Nested parallel loops run in their thread.
    inner.getBody()->walk([&](scf::ParallelOp nested) {
      SmallVector<gpu::ParallelLoopDimMappingAttr> seq(nested.getNumLoops(),
                                                       processorMapping(ctx, gpu::Processor::Sequential));
      (void)gpu::setMappingAttr(nested, seq);
    });
    ++numKernels;
    return success();
  }

  // More blocks than a grid should have (kMaxGpuBlocks):
  // `parallel i in [lo, lo + trips·step)` becomes `parallel p in [0, width)` over strided
  // chunks, `for c { i = lo + (c·width + p)·step; if i is in range: body }`.
  static constexpr int64_t kMinWideTrips = 1024;  // below, the launch costs more than the accesses
  scf::ParallelOp strided(scf::ParallelOp loop, int64_t trips, int64_t width) {
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    auto c = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(b, loc, v); };
    Value lo = loop.getLowerBound()[0], step = loop.getStep()[0];
    Value zero = c(0), one = c(1), w = c(width), n = c(trips), chunks = c((trips + width - 1) / width);
    auto p = scf::ParallelOp::create(b, loc, ValueRange{zero}, ValueRange{w}, ValueRange{one});
    b.setInsertionPointToStart(p.getBody());
    auto f = scf::ForOp::create(b, loc, zero, chunks, one);
    b.setInsertionPointToStart(f.getBody());
    Value flat = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, f.getInductionVar(), w),
                                       p.getInductionVars()[0]);
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, flat, n);
    auto guard = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
    b.setInsertionPointToStart(guard.thenBlock());
    IRMapping map;
    map.map(loop.getInductionVars()[0],
            arith::AddIOp::create(b, loc, lo, arith::MulIOp::create(b, loc, flat, step)).getResult());
    for (Operation& op : loop.getBody()->without_terminator()) b.clone(op, map);
    loop.erase();
    return p;
  }

  // 0. A value the host would compute from device memory for a loop (a 0-d input read once,
  //    as pad's padding value): the read, and the pure ops on it, are cloned into each loop
  //    that uses it. Only reads of the function's arguments (inputs are never written).
  void sinkReads(Block& body) {
    llvm::SetVector<Operation*> sinkable;
    for (Operation& op : body) {
      bool ok = false;
      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        Value m = load.getMemref();
        while (Operation* def = m.getDefiningOp()) {
          if (!isa<memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp, memref::CastOp>(def)) break;
          m = def->getOperand(0);
        }
        ok = isa<BlockArgument>(m);
      } else if (isMemoryEffectFree(&op) && op.getNumRegions() == 0 && !isa<arith::ConstantOp, complex::ConstantOp>(op) &&
                 op.getNumResults() == 1 && !isa<MemRefType>(op.getResult(0).getType())) {
        ok = llvm::any_of(op.getOperands(), [&](Value v) { return v.getDefiningOp() && sinkable.count(v.getDefiningOp()); });
      }
      if (ok) sinkable.insert(&op);
    }
    for (Operation* op : llvm::reverse(sinkable)) {
      llvm::SetVector<Operation*> loops;
      for (Operation* user : op->getUsers())
        if (auto loop = user->getParentOfType<scf::ParallelOp>()) {
          while (auto outer = loop->getParentOfType<scf::ParallelOp>()) loop = outer;
          loops.insert(loop);
        }
      for (Operation* loop : loops) {
        OpBuilder b(&cast<scf::ParallelOp>(loop).getBody()->front());
        Operation* copy = b.clone(*op);
        op->getResult(0).replaceUsesWithIf(copy->getResult(0),
                                           [&](OpOperand& use) { return loop->isProperAncestor(use.getOwner()); });
      }
      if (op->use_empty()) op->erase();
    }
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp main = entryFunction(module);
    if (!main) {
      module.emitError("strata-gpu-map-loops: expects a function @main (or one public function)");
      return signalPassFailure();
    }
    if (!main.getBody().hasOneBlock()) {
      main.emitError("strata-gpu-map-loops: expects a function of one block");
      return signalPassFailure();
    }
    Block& body = main.getBody().front();
    sinkReads(body);
    SmallVector<scf::ForOp> fors;
    for (Operation& op : body)
      if (auto f = dyn_cast<scf::ForOp>(op)) fors.push_back(f);
    for (scf::ForOp f : fors) interchange(f);
    // 1. Runs of device work outside parallel loops.
    std::vector<std::pair<Operation*, Operation*>> runs;
    Operation* start = nullptr;
    for (Operation& op : body) {
      bool device = !runsOnHost(&op);
      if (device && !start) start = &op;
      if (!device && start) {
        runs.push_back({start, op.getPrevNode()});
        start = nullptr;
      }
    }
    for (auto [first, last] : runs)
      if (failed(serialize(first, last))) return signalPassFailure();
    // 2. Every top-level parallel loop.
    std::vector<scf::ParallelOp> loops;
    for (Operation& op : body)
      if (auto p = dyn_cast<scf::ParallelOp>(op)) loops.push_back(p);
    for (scf::ParallelOp p : loops)
      if (failed(map(p))) return signalPassFailure();
  }
};

}  // namespace

}  // namespace mlir::strata
