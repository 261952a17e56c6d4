// --strata-split-column-reductions: a reduction over a leading axis (a column sum) becomes
// a coalesced GPU reduction over chunks of rows and a short combine; the algorithm is in
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

#define GEN_PASS_DEF_SPLITCOLUMNREDUCTIONSPASS
#include "lowering/Passes.h.inc"

namespace {

struct Accumulator : AccumulatorStep {
  memref::StoreOp store;
};

struct SplitColumnReductionsPass : impl::SplitColumnReductionsPassBase<SplitColumnReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp main = entryFunction(getOperation());
    if (!main || !main.getBody().hasOneBlock()) return;
    SmallVector<scf::ForOp> fors;
    for (Operation& op : main.getBody().front())
      if (auto f = dyn_cast<scf::ForOp>(op)) fors.push_back(f);
    for (scf::ForOp f : fors) split(f);
  }

  // The accumulators of `p` (the body of a column reduction): every store writes
  // combine(load of the same place, x) at a place that every induction variable of p indexes,
  // and nothing else in p touches those buffers; or nullopt.
  static std::optional<SmallVector<Accumulator>> accumulatorsOf(scf::ParallelOp p) {
    SmallVector<Accumulator> accs;
    SmallVector<memref::LoadOp> loads;
    for (Operation& op : p.getBody()->without_terminator()) {
      if (op.getNumRegions()) return std::nullopt;
      if (auto l = dyn_cast<memref::LoadOp>(op)) {
        loads.push_back(l);
      } else if (auto s = dyn_cast<memref::StoreOp>(op)) {
        // The place's indices are checked here (the store itself as the scope: no limit there).
        std::optional<AccumulatorStep> step = matchAccumulatorStep(s, s);
        if (!step || p->isAncestor(s.getMemref().getParentRegion()->getParentOp())) return std::nullopt;
        for (Value iv : p.getInductionVars())
          if (!llvm::is_contained(s.getIndices(), iv)) return std::nullopt;
        for (Value i : s.getIndices())
          if (!llvm::is_contained(p.getInductionVars(), i) && p->isAncestor(i.getParentRegion()->getParentOp()))
            return std::nullopt;
        accs.push_back({*step, s});
      } else if (!isMemoryEffectFree(&op)) {
        return std::nullopt;
      }
    }
    if (accs.empty()) return std::nullopt;
    for (Accumulator& a : accs) {
      for (memref::LoadOp l : loads)
        if (l != a.load && mayShareBytes(l.getMemref(), a.store.getMemref())) return std::nullopt;
      for (Accumulator& b : accs)
        if (&a != &b && mayShareBytes(a.store.getMemref(), b.store.getMemref())) return std::nullopt;
    }
    return accs;
  }

  void split(scf::ForOp f) {
    std::optional<int64_t> lo = getConstantIntValue(f.getLowerBound()), hi = getConstantIntValue(f.getUpperBound()),
                           st = getConstantIntValue(f.getStep());
    if (!lo || !hi || !st || *st <= 0 || f.getNumRegionIterArgs() != 0) return;
    if (!llvm::hasSingleElement(f.getBody()->without_terminator())) return;
    auto p = dyn_cast<scf::ParallelOp>(f.getBody()->front());
    if (!p || p.getNumResults() != 0) return;
    int64_t outputs = 1;
    for (auto [l, u, s] : llvm::zip(p.getLowerBound(), p.getUpperBound(), p.getStep())) {
      std::optional<int64_t> pl = getConstantIntValue(l), pu = getConstantIntValue(u), ps = getConstantIntValue(s);
      if (pl != 0 || ps != 1 || !pu || *pu <= 0) return;
      outputs *= *pu;
    }
    const int64_t rows = (*hi - *lo + *st - 1) / *st;
    if (rows < minRows) return;
    std::optional<SmallVector<Accumulator>> accs = accumulatorsOf(p);
    if (!accs) return;
    // C chunks of K rows, C dividing the rows: about `threads` threads in all, K >= min-rows.
    const int64_t c = largestDivisor(rows, std::max<int64_t>(1, std::min((threads + outputs - 1) / outputs, rows / minRows)));
    const int64_t k = rows / c;

    Location loc = f.getLoc();
    OpBuilder b(f);
    auto index = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(b, loc, v); };
    SmallVector<Value> partials;
    SmallVector<int64_t> shape{c};
    for (Value u : p.getUpperBound()) shape.push_back(*getConstantIntValue(u));
    if (c > 1)
      for (Accumulator& a : *accs)
        partials.push_back(memref::AllocOp::create(b, loc, MemRefType::get(shape, a.store.getValueToStore().getType())));

    // Phase 1: parallel (chunk, outputs...) { fold the chunk's rows in registers }.
    SmallVector<Value> lbs{index(0)}, ubs{index(c)}, steps{index(1)};
    for (unsigned d = 0; d < p.getNumLoops(); ++d) {
      lbs.push_back(index(0));
      ubs.push_back(p.getUpperBound()[d]);
      steps.push_back(index(1));
    }
    auto chunks = scf::ParallelOp::create(b, loc, lbs, ubs, steps);
    b.setInsertionPointToStart(chunks.getBody());
    Value chunk = chunks.getInductionVars()[0];
    SmallVector<Value> outs(ValueRange(chunks.getInductionVars()).drop_front());
    SmallVector<Value> inits;
    for (Accumulator& a : *accs) inits.push_back(arith::ConstantOp::create(b, loc, a.identity));
    auto fold = scf::ForOp::create(b, loc, index(0), index(k), index(1), inits);
    {
      OpBuilder in = OpBuilder::atBlockBegin(fold.getBody());
      auto at = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(in, loc, v); };
      Value n = arith::AddIOp::create(in, loc, arith::MulIOp::create(in, loc, chunk, at(k)), fold.getInductionVar());
      Value row = arith::AddIOp::create(in, loc, at(*lo), arith::MulIOp::create(in, loc, n, at(*st)));
      IRMapping map;
      map.map(f.getInductionVar(), row);
      for (auto [from, to] : llvm::zip(p.getInductionVars(), outs)) map.map(from, to);
      for (auto [a, carried] : llvm::zip(*accs, fold.getRegionIterArgs())) map.map(a.load.getResult(), carried);
      SmallVector<Value> next;
      for (Operation& op : p.getBody()->without_terminator()) {
        if (llvm::any_of(*accs, [&](Accumulator& a) { return &op == a.load || &op == a.store; })) continue;
        in.clone(op, map);
      }
      for (Accumulator& a : *accs) next.push_back(map.lookup(a.combine->getResult(0)));
      scf::YieldOp::create(in, loc, next);
    }
    // The accumulator at output `at` combined with `part`, by load and store.
    auto combineInto = [&](OpBuilder& ob, Accumulator& a, ValueRange at, Value part) {
      IRMapping map;
      for (auto [from, to] : llvm::zip(p.getInductionVars(), at)) map.map(from, to);
      SmallVector<Value> idx;
      for (Value i : a.store.getIndices()) idx.push_back(map.lookupOrDefault(i));
      Value old = memref::LoadOp::create(ob, loc, a.store.getMemref(), idx);
      memref::StoreOp::create(ob, loc, combineWith(ob, a, old, part), a.store.getMemref(), idx);
    };
    b.setInsertionPointAfter(fold);
    for (auto [i, a] : llvm::enumerate(*accs)) {
      if (c == 1) {
        combineInto(b, a, outs, fold.getResult(i));
        continue;
      }
      SmallVector<Value> at{chunk};
      at.append(outs);
      memref::StoreOp::create(b, loc, fold.getResult(i), partials[i], at);
    }
    // Phase 2: parallel (outputs...) { for chunk: acc = combine(acc, partial[chunk, ...]) }.
    if (c > 1) {
      b.setInsertionPointAfter(chunks);
      auto combine = scf::ParallelOp::create(b, loc, ValueRange(lbs).drop_front(), ValueRange(ubs).drop_front(),
                                             ValueRange(steps).drop_front());
      b.setInsertionPointToStart(combine.getBody());
      auto over = scf::ForOp::create(b, loc, index(0), index(c), index(1));
      OpBuilder in = OpBuilder::atBlockTerminator(over.getBody());
      SmallVector<Value> ivs = combine.getInductionVars();
      SmallVector<Value> at{over.getInductionVar()};
      at.append(ivs.begin(), ivs.end());
      for (auto [i, a] : llvm::enumerate(*accs))
        combineInto(in, a, ivs, memref::LoadOp::create(in, loc, partials[i], at));
    }
    f.erase();
    ++numSplit;
  }
};

}  // namespace
}  // namespace mlir::strata
