// --strata-block-float-sums: a long float sum accumulates in blocks, each from a fresh
// accumulator, and the block sums join a running total with compensation (TwoSum), so that no
// vector lane (or column of a column sum) adds more than a block's share of terms in a row; the
// algorithm is in Passes.td.
#include <optional>

#include "lowering/Accumulator.h"
#include "lowering/LoopNests.h"
#include "lowering/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::strata {

#define GEN_PASS_DEF_BLOCKFLOATSUMSPASS
#include "lowering/Passes.h.inc"

namespace {

// A float sum's place: `memref[indices]`, fixed in the loop.
struct Sum {
  Value memref;
  SmallVector<Value> indices;
  FloatType type;
};

Sum sumAt(memref::StoreOp store) {
  return {store.getMemref(), SmallVector<Value>(store.getIndices()), cast<FloatType>(store.getValueToStore().getType())};
}

// The places of a column sum hold at most this many elements: their running totals and
// compensations live on the stack of the function running the loop.
constexpr int64_t kMostColumnPlaces = 8192;
// A column adds at least this many rows in a row before its block joins the total.
constexpr int64_t kFewestColumnRows = 32;

// The float sums of a column sum's loop: `for i { parallel p { acc[.., p, ..] += x } }`, the
// loop's body the scf.parallel after pure ops (a split chunk's row index; the parallel loop's
// bounds defined outside the loop, no regions in it), each sum at a column place
// (isColumnPlace) whose buffer nothing else in the loop touches; empty otherwise.
SmallVector<Sum> columnSumsOf(scf::ForOp loop) {
  SmallVector<Sum> sums;
  scf::ParallelOp p = endingParallel(loop);
  auto outside = [&](Value v) { return !loop->isAncestor(v.getParentRegion()->getParentOp()); };
  if (!p || !llvm::all_of(p.getLowerBound(), outside) ||
      !llvm::all_of(p.getUpperBound(), outside) || !llvm::all_of(p.getStep(), outside))
    return sums;
  SmallVector<memref::LoadOp> loads;
  SmallVector<memref::StoreOp> stores;
  if (!loadsAndStores(p.getBody(), /*nested=*/false, loads, stores)) return sums;
  for (memref::StoreOp store : stores) {
    std::optional<AccumulatorStep> step = matchAccumulatorStep(store, store);
    if (step && isReassociableFloatSum(*step) && isColumnPlace(store, p, loop, kMostColumnPlaces) &&
        aloneOnItsBuffer(store, step->load, loads, stores))
      sums.push_back(sumAt(store));
  }
  return sums;
}

// The float sums of `loop` (reassociable adds into a place fixed in it, whose buffer nothing
// else in the loop touches); empty when its body has ops whose memory effects are not plain
// loads and stores, or regions other than scf.for/scf.parallel/scf.if.
SmallVector<Sum> sumsOf(scf::ForOp loop) {
  SmallVector<memref::LoadOp> loads;
  SmallVector<memref::StoreOp> stores;
  SmallVector<Sum> sums;
  if (!loadsAndStores(loop.getBody(), /*nested=*/true, loads, stores)) return sums;
  for (memref::StoreOp store : stores) {
    std::optional<AccumulatorStep> step = matchAccumulatorStep(store, loop);
    if (step && isReassociableFloatSum(*step) && aloneOnItsBuffer(store, step->load, loads, stores))
      sums.push_back(sumAt(store));
  }
  return sums;
}

struct BlockFloatSumsPass : impl::BlockFloatSumsPassBase<BlockFloatSumsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Every loop is judged on the program as it was: blocking a loop adds loads and stores of
    // its sums' places around it, which an enclosing loop's analysis would see as other uses.
    // So are the trips per block (an inner loop once blocked has bounds that are not static).
    struct Work {
      scf::ForOp loop;
      int64_t trips;
      SmallVector<Sum> sums;
      bool columns;
    };
    SmallVector<Work> work;
    getOperation().walk([&](scf::ForOp loop) {
      if (!staticBounds(loop)) return;
      if (SmallVector<Sum> sums = sumsOf(loop); !sums.empty()) {
        if (std::optional<int64_t> trips = blockTrips(loop, loopIterations(loop.getRegion()), 1))
          work.push_back({loop, *trips, std::move(sums), false});
      } else if (SmallVector<Sum> sums = columnSumsOf(loop); !sums.empty()) {
        // A column sum's lanes are its places (the parallel loop's bounds may not be static).
        int64_t places = 1;
        for (const Sum& s : sums) places = std::max(places, cast<MemRefType>(s.memref.getType()).getNumElements());
        if (std::optional<int64_t> trips = blockTrips(loop, places, kFewestColumnRows))
          work.push_back({loop, *trips, std::move(sums), true});
      }
    });
    for (Work& w : work) {
      if (w.columns) blockColumns(w.loop, w.trips, w.sums);
      else block(w.loop, w.trips, w.sums);
    }
  }

  static bool staticBounds(scf::ForOp loop) {
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    return getConstantIntValue(loop.getLowerBound()) && getConstantIntValue(loop.getUpperBound()) && step &&
           *step > 0 && loop.getInitArgs().empty();
  }

  // Trips per block of `loop`, whose trips each run `inner` iterations: `block-iterations`
  // iterations (and at least `fewest` trips), a divisor of its trips when one comes within
  // half of that; nullopt when the loop is not worth blocking (fewer than two blocks).
  std::optional<int64_t> blockTrips(scf::ForOp loop, int64_t inner, int64_t fewest) {
    int64_t trips = tripCount(loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
    int64_t most = std::max<int64_t>(fewest, blockIterations / inner);
    if (trips * inner < 2 * blockIterations || trips < 2 * most) return std::nullopt;
    int64_t divisor = largestDivisor(trips, most);
    return 2 * divisor >= most ? divisor : most;
  }

  // `for blk (init) { for i in blk's trips { loop's body, moved } }` in place of `loop`, with
  // no terminator yet in the outer loop: its callers add what each block does around the inner
  // loop, and the yield.
  static std::pair<scf::ForOp, scf::ForOp> stripMine(scf::ForOp loop, int64_t bt, ValueRange init) {
    int64_t lb = *getConstantIntValue(loop.getLowerBound()), ub = *getConstantIntValue(loop.getUpperBound()),
            step = *getConstantIntValue(loop.getStep());
    int64_t trips = tripCount(loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    auto index = [&](OpBuilder& ob, int64_t v) -> Value { return arith::ConstantIndexOp::create(ob, loc, v); };
    scf::ForOp inner;
    auto outer = scf::ForOp::create(
        b, loc, index(b, 0), index(b, (trips + bt - 1) / bt), index(b, 1), init,
        [&](OpBuilder& ob, Location, Value blk, ValueRange) {
          Value lo = arith::AddIOp::create(ob, loc, index(ob, lb), arith::MulIOp::create(ob, loc, blk, index(ob, bt * step)));
          Value hi = arith::AddIOp::create(ob, loc, lo, index(ob, bt * step));
          if (trips % bt) hi = arith::MinSIOp::create(ob, loc, hi, index(ob, ub));
          inner = scf::ForOp::create(ob, loc, lo, hi, loop.getStep());
        });
    Block* from = loop.getBody();
    Block* to = inner.getBody();
    to->getOperations().splice(to->getTerminator()->getIterator(), from->getOperations(), from->begin(),
                               std::prev(from->end()));
    loop.getInductionVar().replaceAllUsesWith(inner.getInductionVar());
    loop.erase();
    return {outer, inner};
  }

  static Value negativeZero(OpBuilder& b, Location loc, FloatType t) {
    return arith::ConstantOp::create(b, loc, FloatAttr::get(t, -0.0));
  }

  // for blk (s, c) { sum = -0; for i in blk's trips { body }; (s, c) = TwoSum(s, c, sum) };
  // sum = s + c, for each sum at once.
  void block(scf::ForOp loop, int64_t bt, ArrayRef<Sum> sums) {
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    SmallVector<Value> init;
    for (const Sum& s : sums) init.push_back(memref::LoadOp::create(b, loc, s.memref, s.indices));
    for (const Sum& s : sums) init.push_back(negativeZero(b, loc, s.type));  // -0.0: s + c == s exactly
    auto [outer, inner] = stripMine(loop, bt, init);
    OpBuilder ob(inner);
    for (const Sum& s : sums) memref::StoreOp::create(ob, loc, negativeZero(ob, loc, s.type), s.memref, s.indices);
    ob.setInsertionPointAfter(inner);
    SmallVector<Value> next(sums.size() * 2);
    for (auto [k, s] : llvm::enumerate(sums)) {
      Value x = memref::LoadOp::create(ob, loc, s.memref, s.indices);
      std::tie(next[k], next[sums.size() + k]) =
          compensatedAdd(ob, loc, outer.getRegionIterArgs()[k], outer.getRegionIterArgs()[sums.size() + k], x);
    }
    scf::YieldOp::create(ob, loc, next);
    b.setInsertionPointAfter(outer);
    for (auto [k, s] : llvm::enumerate(sums))
      memref::StoreOp::create(b, loc, compensatedTotal(b, loc, outer.getResult(k), outer.getResult(sums.size() + k)),
                              s.memref, s.indices);
    ++numBlocked;
  }

  // The column form: each place's running total and compensation in buffers of the places'
  // shape (on the stack of the function: each thread running the loop has its own), joined
  // after each block by a parallel loop like the column sum's own.
  void blockColumns(scf::ForOp loop, int64_t bt, ArrayRef<Sum> sums) {
    Location loc = loop.getLoc();
    scf::ParallelOp p = endingParallel(loop);
    SmallVector<Value> lbs(p.getLowerBound()), ubs(p.getUpperBound()), steps(p.getStep());
    SmallVector<Value> ivs(p.getInductionVars());
    auto fn = loop->getParentOfType<FunctionOpInterface>();
    OpBuilder entry = OpBuilder::atBlockBegin(&fn.getFunctionBody().front());
    SmallVector<Value> totals, comps;
    for (const Sum& s : sums) {
      auto t = MemRefType::get(cast<MemRefType>(s.memref.getType()).getShape(), s.type);
      totals.push_back(memref::AllocaOp::create(entry, loc, t));
      comps.push_back(memref::AllocaOp::create(entry, loc, t));
    }
    // parallel p { what(place indices, sum k) } over the column sum's places.
    auto overPlaces = [&](OpBuilder& ob, llvm::function_ref<void(OpBuilder&, ValueRange, size_t)> what) {
      auto each = scf::ParallelOp::create(ob, loc, lbs, ubs, steps);
      OpBuilder in = OpBuilder::atBlockTerminator(each.getBody());
      IRMapping map;
      map.map(ivs, each.getInductionVars());
      for (auto [k, s] : llvm::enumerate(sums)) {
        SmallVector<Value> at;
        for (Value i : s.indices) at.push_back(map.lookupOrDefault(i));
        what(in, at, k);
      }
    };
    // One pass over the places before the blocks and one after each (which also starts the
    // next block from -0.0).
    OpBuilder b(loop);
    overPlaces(b, [&](OpBuilder& in, ValueRange at, size_t k) {
      Value neg0 = negativeZero(in, loc, sums[k].type);
      memref::StoreOp::create(in, loc, memref::LoadOp::create(in, loc, sums[k].memref, at), totals[k], at);
      memref::StoreOp::create(in, loc, neg0, comps[k], at);
      memref::StoreOp::create(in, loc, neg0, sums[k].memref, at);
    });
    auto [outer, inner] = stripMine(loop, bt, {});
    OpBuilder ob = OpBuilder::atBlockEnd(outer.getBody());
    overPlaces(ob, [&](OpBuilder& in, ValueRange at, size_t k) {
      Value x = memref::LoadOp::create(in, loc, sums[k].memref, at);
      auto [t, c] = compensatedAdd(in, loc, memref::LoadOp::create(in, loc, totals[k], at),
                                   memref::LoadOp::create(in, loc, comps[k], at), x);
      memref::StoreOp::create(in, loc, t, totals[k], at);
      memref::StoreOp::create(in, loc, c, comps[k], at);
      memref::StoreOp::create(in, loc, negativeZero(in, loc, sums[k].type), sums[k].memref, at);
    });
    scf::YieldOp::create(ob, loc);
    b.setInsertionPointAfter(outer);
    overPlaces(b, [&](OpBuilder& in, ValueRange at, size_t k) {
      Value total = compensatedTotal(in, loc, memref::LoadOp::create(in, loc, totals[k], at),
                                     memref::LoadOp::create(in, loc, comps[k], at));
      memref::StoreOp::create(in, loc, total, sums[k].memref, at);
    });
    ++numBlocked;
  }
};

}  // namespace
}  // namespace mlir::strata
