// --strata-carry-column-accumulators: a narrow column reduction's accumulators become the row
// loop's carried values (its scf.parallel over the places unrolled), so that they stay in
// registers instead of being loaded and stored on every row; the algorithm is in Passes.td.
#include <limits>
#include <optional>
#include <vector>

#include "lowering/Accumulator.h"
#include "lowering/LoopNests.h"
#include "lowering/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::strata {

#define GEN_PASS_DEF_CARRYCOLUMNACCUMULATORSPASS
#include "lowering/Passes.h.inc"

namespace {

struct Column {
  scf::ParallelOp places;
  SmallVector<int64_t> lbs, steps, trips;  // of `places`, constant
  int64_t numPlaces = 1;
  SmallVector<AccumulatorStep> accs;
  SmallVector<memref::StoreOp> stores;  // accs[k]'s store
  SmallVector<int64_t> sets;            // accs[k]'s sets of carried places: 1, or `interleave` if order-free
  int64_t interleave = 1;               // rows per trip of the carrying loop
};

constexpr int64_t kInterleave = 4;

// `loop` as a column reduction whose accumulators may be carried (Passes.td), or nullopt.
std::optional<Column> columnOf(scf::ForOp loop, int64_t mostValues, int64_t fewestBytes, int64_t mostCopiedOps) {
  Block* body = loop.getBody();
  if (!loop.getInitArgs().empty() || !getConstantIntValue(loop.getStep()) || *getConstantIntValue(loop.getStep()) <= 0)
    return std::nullopt;
  Column c;
  c.places = endingParallel(loop);
  if (!c.places) return std::nullopt;
  for (auto [lb, ub, step] : llvm::zip(c.places.getLowerBound(), c.places.getUpperBound(), c.places.getStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb), u = getConstantIntValue(ub), s = getConstantIntValue(step);
    if (!l || !u || !s || *s <= 0) return std::nullopt;
    int64_t n = tripCount(lb, ub, step);
    c.lbs.push_back(*l);
    c.steps.push_back(*s);
    c.trips.push_back(n);
    c.numPlaces *= n;
    if (c.numPlaces > mostValues) return std::nullopt;
  }
  if (c.numPlaces == 0) return std::nullopt;
  SmallVector<memref::LoadOp> loads;
  SmallVector<memref::StoreOp> stores;
  if (!loadsAndStores(c.places.getBody(), /*nested=*/false, loads, stores)) return std::nullopt;
  for (memref::StoreOp store : stores) {
    std::optional<AccumulatorStep> step = matchAccumulatorStep(store, store);
    if (step && isColumnPlace(store, c.places, loop, std::numeric_limits<int64_t>::max()) &&
        aloneOnItsBuffer(store, step->load, loads, stores)) {
      // Fewer places than a vector holds: LLVM vectorises the rows instead, better.
      Type t = store.getValueToStore().getType();
      if (!t.isIntOrFloat() || c.numPlaces * static_cast<int64_t>(t.getIntOrFloatBitWidth()) < 8 * fewestBytes)
        return std::nullopt;
      c.accs.push_back(*step);
      c.stores.push_back(store);
    }
  }
  if (c.accs.empty()) return std::nullopt;
  // Order-free accumulators interleave rows: one chain of dependent combines per set.
  bool orderFree = llvm::any_of(c.accs, [](const AccumulatorStep& a) { return isOrderFree(a); });
  // The body is copied once per place and row of a trip (and once more per place for the rows
  // left after the groups of rows).
  int64_t rowOps = static_cast<int64_t>(body->getOperations().size() - 2) +
                   c.numPlaces * static_cast<int64_t>(c.places.getBody()->getOperations().size() - 1);
  for (c.interleave = orderFree ? kInterleave : 1; c.interleave >= 1; c.interleave /= 2) {
    c.sets.clear();
    int64_t values = 0;
    for (const AccumulatorStep& a : c.accs) {
      c.sets.push_back(isOrderFree(a) ? c.interleave : 1);
      values += c.sets.back() * c.numPlaces;
    }
    int64_t copies = c.interleave > 1 ? c.interleave + 1 : 1;
    if (values <= mostValues && copies * rowOps <= mostCopiedOps) return c;
  }
  return std::nullopt;
}

struct CarryColumnAccumulatorsPass : impl::CarryColumnAccumulatorsPassBase<CarryColumnAccumulatorsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::vector<std::pair<scf::ForOp, Column>> work;
    getOperation().walk([&](scf::ForOp loop) {
      if (std::optional<Column> c = columnOf(loop, mostValues, fewestBytes, mostCopiedOps)) work.push_back({loop, std::move(*c)});
    });
    for (auto& [loop, c] : work) carry(loop, c);
  }

  // Each place's induction variables, in the order the scf.parallel would run them.
  static SmallVector<SmallVector<int64_t>> eachPlace(const Column& c) {
    SmallVector<SmallVector<int64_t>> all{{}};
    for (auto [lb, step, n] : llvm::zip(c.lbs, c.steps, c.trips)) {
      SmallVector<SmallVector<int64_t>> next;
      for (const SmallVector<int64_t>& prefix : all)
        for (int64_t t = 0; t < n; ++t) {
          next.push_back(prefix);
          next.back().push_back(lb + t * step);
        }
      all = std::move(next);
    }
    return all;
  }

  void carry(scf::ForOp loop, Column& c) {
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    MLIRContext* ctx = b.getContext();
    SmallVector<SmallVector<int64_t>> places = eachPlace(c);
    SmallVector<Value> ivs(c.places.getInductionVars());
    SmallVector<SmallVector<Value>> constants;  // per place, one index constant per iv
    for (const SmallVector<int64_t>& at : places) {
      constants.emplace_back();
      for (int64_t v : at) constants.back().push_back(arith::ConstantIndexOp::create(b, loc, v));
    }
    // Place j of a store: its indices with the induction variables constants.
    auto indicesAt = [&](memref::StoreOp store, size_t j) {
      SmallVector<Value> idx;
      for (Value i : store.getIndices()) {
        auto it = llvm::find(ivs, i);
        idx.push_back(it == ivs.end() ? i : constants[j][it - ivs.begin()]);
      }
      return idx;
    };
    // The carried values: accumulator k's set s, place j at first[k] + s * n + j. Set 0 starts
    // from the place's value, the others from the identity.
    size_t n = places.size();
    SmallVector<size_t> first;
    SmallVector<Value> init;
    for (auto [k, store] : llvm::enumerate(c.stores)) {
      first.push_back(init.size());
      for (size_t j = 0; j < n; ++j) init.push_back(memref::LoadOp::create(b, loc, store.getMemref(), indicesAt(store, j)));
      for (int64_t s = 1; s < c.sets[k]; ++s)
        for (size_t j = 0; j < n; ++j) init.push_back(arith::ConstantOp::create(b, loc, c.accs[k].identity));
    }
    // Rows iv, iv + step, ... (`rows` of them) of the loop's body into `acc`: row u into set u
    // of an order-free accumulator, every row into set 0 of the others (in order).
    int64_t step = *getConstantIntValue(loop.getStep());
    auto rowsInto = [&](OpBuilder& fb, Value iv, int64_t rows, ValueRange acc) {
      SmallVector<Value> next(acc);
      for (int64_t u = 0; u < rows; ++u) {
        IRMapping rowMap;
        Value row = u ? arith::AddIOp::create(fb, loc, iv, arith::ConstantIndexOp::create(fb, loc, u * step)) : iv;
        rowMap.map(loop.getInductionVar(), row);
        for (Operation& op : loop.getBody()->without_terminator())
          if (&op != c.places) fb.clone(op, rowMap);
        for (size_t j = 0; j < n; ++j) {
          IRMapping map = rowMap;
          map.map(ivs, constants[j]);
          auto at = [&](size_t k) { return first[k] + (c.sets[k] > 1 ? u : 0) * n + j; };
          for (Operation& op : c.places.getBody()->without_terminator()) {
            auto k = llvm::find_if(c.accs, [&](const AccumulatorStep& a) { return a.load == &op; });
            if (k != c.accs.end()) {
              map.map(op.getResult(0), next[at(k - c.accs.begin())]);
              continue;
            }
            auto s = llvm::find(c.stores, dyn_cast<memref::StoreOp>(&op));
            if (s != c.stores.end()) {
              next[at(s - c.stores.begin())] = map.lookup(s->getValueToStore());
              continue;
            }
            fb.clone(op, map);
          }
        }
      }
      scf::YieldOp::create(fb, loc, next);
    };
    // LLVM's loop vectorizer would take the carried values for reductions over the rows and
    // vectorise the loop by rows, gathering each column; the places are the vectors (SLP).
    auto noVectorizer = LLVM::LoopAnnotationAttr::get(
        ctx, {}, LLVM::LoopVectorizeAttr::get(ctx, b.getBoolAttr(true), {}, {}, {}, {}, {}, {}), {}, {}, {}, {}, {},
        {}, {}, {}, {}, {}, {}, {}, {});
    auto carryRows = [&](Value lo, Value hi, int64_t rows, ValueRange from) {
      auto f = scf::ForOp::create(b, loc, lo, hi, arith::ConstantIndexOp::create(b, loc, rows * step), from,
                                  [&](OpBuilder& fb, Location, Value iv, ValueRange acc) { rowsInto(fb, iv, rows, acc); });
      f->setAttr("loop_annotation", noVectorizer);
      return f;
    };
    Value lo = loop.getLowerBound(), hi = loop.getUpperBound();
    scf::ForOp carried;
    if (c.interleave == 1) {
      carried = carryRows(lo, hi, 1, init);
    } else {  // interleave rows in the whole groups, then the rest one at a time
      Value span = arith::SubIOp::create(b, loc, arith::MaxSIOp::create(b, loc, hi, lo), lo);
      Value group = arith::ConstantIndexOp::create(b, loc, c.interleave * step);
      Value mid = arith::AddIOp::create(
          b, loc, lo, arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, span, group), group));
      scf::ForOp groups = carryRows(lo, mid, c.interleave, init);
      carried = carryRows(mid, hi, 1, groups.getResults());
    }
    b.setInsertionPointAfter(carried);
    for (auto [k, store] : llvm::enumerate(c.stores))
      for (size_t j = 0; j < n; ++j) {
        Value v = carried.getResult(first[k] + j);
        for (int64_t s = 1; s < c.sets[k]; ++s) v = combineWith(b, c.accs[k], v, carried.getResult(first[k] + s * n + j));
        memref::StoreOp::create(b, loc, v, store.getMemref(), indicesAt(store, j));
      }
    loop.erase();
    ++numCarried;
  }
};

}  // namespace
}  // namespace mlir::strata
