// --strata-split-reduction-loops: a serial reduction loop nest (a sum or max to one value, the
// dot products of an iterative solver) becomes a parallel loop over chunks of its outer loop,
// each accumulating into a partial of its own, and a short loop combining the partials; the
// algorithm is in Passes.td.
#include <optional>

#include "lowering/BufferAliasing.h"
#include "lowering/LoopNests.h"
#include "lowering/Passes.h"
#include "lowering/Accumulator.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "transforms/EntryFunction.h"

namespace mlir::strata {

#define GEN_PASS_DEF_SPLITREDUCTIONLOOPSPASS
#include "lowering/Passes.h.inc"

namespace {

// One accumulator: `acc[idx] = combine(acc[idx], x)`, idx fixed in the whole nest, or (a
// column accumulator) made of values fixed in it and the induction variables of the nest's
// scf.parallel.
struct Accumulator : AccumulatorStep {
  memref::StoreOp store;
};

// Whether the nest's outer iterations may run in any order and at once, except for the
// accumulators `accs`: nothing else in the nest touches an accumulator's buffer, the other
// stores (`elementwise`: at an index holding the outer induction variable, so each outer
// iteration writes its own elements) touch no buffer of each other, and every load of a buffer
// they write reads the element its own iteration writes.
bool independent(MutableArrayRef<Accumulator> accs, ArrayRef<memref::LoadOp> loads, ArrayRef<memref::StoreOp> stores,
                 ArrayRef<memref::StoreOp> elementwise) {
  auto isAccess = [&](Operation* op) {
    return llvm::any_of(accs, [&](Accumulator& a) { return op == a.load || op == a.store; });
  };
  for (Accumulator& a : accs) {
    Value m = a.store.getMemref();
    for (memref::LoadOp l : loads)
      if (!isAccess(l) && mayShareBytes(l.getMemref(), m)) return false;
    for (memref::StoreOp s : stores)
      if (s != a.store && mayShareBytes(s.getMemref(), m)) return false;
  }
  // (An accumulator's loads need not be excluded here: a buffer an elementwise store shares
  // with an accumulator has failed the check above.)
  return writesOwnElements(elementwise, loads);
}

// The accumulators of the nest `root` when its outer loop's iterations may run in any order and
// at once, except for the accumulators: every store either writes an accumulator (and nothing
// else in the nest touches its buffer) or writes at an index that contains the outer induction
// variable itself (so each outer iteration writes its own elements), and every load of a buffer
// the nest writes reads the element its own iteration writes. Memory effects other than loads
// and stores (calls, copies), and loops other than scf.for/scf.parallel/scf.if, are refused.
std::optional<SmallVector<Accumulator>> accumulatorsOf(scf::ForOp root) {
  if (!root.getInitArgs().empty()) return std::nullopt;
  Value iv = root.getInductionVar();
  SmallVector<memref::LoadOp> loads;
  SmallVector<memref::StoreOp> stores;
  if (!loadsAndStores(root.getBody(), /*nested=*/true, loads, stores)) return std::nullopt;

  SmallVector<Accumulator> accs;
  SmallVector<memref::StoreOp> elementwise;
  for (memref::StoreOp store : stores) {
    if (std::optional<AccumulatorStep> step = matchAccumulatorStep(store, root)) accs.push_back({*step, store});
    else if (llvm::is_contained(store.getIndices(), iv)) elementwise.push_back(store);
    else return std::nullopt;
  }
  if (accs.empty() || !independent(accs, loads, stores, elementwise)) return std::nullopt;
  return accs;
}

// The column accumulators of a column reduction `for i { parallel p { acc[.., p, ..] =
// combine(acc[.., p, ..], x) } }` (the loop's body just the scf.parallel, of static bounds and
// no regions inside), each at a column place (isColumnPlace, at most `mostPlaces` of them);
// the other stores and loads as above.
std::optional<SmallVector<Accumulator>> columnAccumulatorsOf(scf::ForOp root, int64_t mostPlaces) {
  if (!root.getInitArgs().empty() || !llvm::hasSingleElement(root.getBody()->without_terminator()))
    return std::nullopt;
  auto p = dyn_cast<scf::ParallelOp>(root.getBody()->front());
  if (!p || p.getNumResults()) return std::nullopt;
  for (Value v : llvm::concat<Value>(p.getLowerBound(), p.getUpperBound(), p.getStep()))
    if (!getConstantIntValue(v)) return std::nullopt;
  SmallVector<memref::LoadOp> loads;
  SmallVector<memref::StoreOp> stores;
  if (!loadsAndStores(p.getBody(), /*nested=*/false, loads, stores)) return std::nullopt;
  SmallVector<Accumulator> accs;
  SmallVector<memref::StoreOp> elementwise;
  for (memref::StoreOp store : stores) {
    std::optional<AccumulatorStep> step = matchAccumulatorStep(store, store);
    if (step && isColumnPlace(store, p, root, mostPlaces)) accs.push_back({*step, store});
    else if (llvm::is_contained(store.getIndices(), root.getInductionVar())) elementwise.push_back(store);
    else return std::nullopt;
  }
  if (accs.empty() || !independent(accs, loads, stores, elementwise)) return std::nullopt;
  return accs;
}

struct SplitReductionLoopsPass : impl::SplitReductionLoopsPassBase<SplitReductionLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp main = entryFunction(getOperation());
    if (!main) return;
    for (Operation* root : loopNestRoots(main))
      if (auto loop = dyn_cast<scf::ForOp>(root)) split(loop);
  }

  void split(scf::ForOp root) {
    std::optional<int64_t> lb = getConstantIntValue(root.getLowerBound()),
                           ub = getConstantIntValue(root.getUpperBound()),
                           step = getConstantIntValue(root.getStep());
    if (!lb || !ub || !step || *step <= 0) return;
    int64_t trips = tripCount(root.getLowerBound(), root.getUpperBound(), root.getStep());
    if (trips * loopIterations(root.getRegion()) < minIterations) return;
    int64_t t = chunks(trips);
    if (t < 2) return;
    std::optional<SmallVector<Accumulator>> accs = accumulatorsOf(root);
    bool columns = false;
    if (!accs && columnPlaces > 0 && !combineInMemory) {
      accs = columnAccumulatorsOf(root, columnPlaces);
      columns = accs.has_value();
    }
    if (!accs) return;
    int64_t c = trips / t, rest = trips - t * c;

    Location loc = root.getLoc();
    OpBuilder b(root);
    auto index = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(b, loc, v); };
    // The partials: one per chunk, or one per chunk and place of a column accumulator.
    auto placesOf = [](Accumulator& a) { return cast<MemRefType>(a.store.getMemref().getType()).getShape(); };
    SmallVector<Value> partials;
    for (Accumulator& a : *accs) {
      SmallVector<int64_t> shape{t};
      if (columns) llvm::append_range(shape, placesOf(a));
      partials.push_back(memref::AllocOp::create(b, loc, MemRefType::get(shape, a.store.getValueToStore().getType())));
    }
    // `what(builder, place)` for every place of a column accumulator, in a parallel loop.
    auto overPlaces = [&](OpBuilder& ob, Accumulator& a, llvm::function_ref<void(OpBuilder&, ValueRange)> what) {
      SmallVector<Value> lbs, ubs, steps;
      for (int64_t d : placesOf(a)) {
        lbs.push_back(arith::ConstantIndexOp::create(ob, loc, 0));
        ubs.push_back(arith::ConstantIndexOp::create(ob, loc, d));
        steps.push_back(arith::ConstantIndexOp::create(ob, loc, 1));
      }
      auto each = scf::ParallelOp::create(ob, loc, lbs, ubs, steps);
      OpBuilder in = OpBuilder::atBlockTerminator(each.getBody());
      what(in, each.getInductionVars());
    };
    // Chunk k runs outer iterations [k·c, (k+1)·c), its partials starting from the identity.
    auto par = scf::ParallelOp::create(b, loc, ValueRange{index(0)}, ValueRange{index(t)}, ValueRange{index(1)});
    b.setInsertionPointToStart(par.getBody());
    Value k = par.getInductionVars()[0];
    for (auto [a, p] : llvm::zip(*accs, partials)) {
      if (!columns) {
        memref::StoreOp::create(b, loc, arith::ConstantOp::create(b, loc, a.identity), p, ValueRange{k});
        continue;
      }
      overPlaces(b, a, [&](OpBuilder& in, ValueRange at) {
        SmallVector<Value> idx{k};
        llvm::append_range(idx, at);
        memref::StoreOp::create(in, loc, arith::ConstantOp::create(in, loc, a.identity), p, idx);
      });
    }
    auto inner = scf::ForOp::create(b, loc, index(0), index(c), index(1));
    b.setInsertionPointToStart(inner.getBody());
    Value n = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, k, index(c)), inner.getInductionVar());
    Value i = arith::AddIOp::create(b, loc, index(*lb), arith::MulIOp::create(b, loc, n, index(*step)));
    IRMapping map;
    map.map(root.getInductionVar(), i);
    for (Operation& op : root.getBody()->without_terminator()) b.clone(op, map);
    for (auto [a, p] : llvm::zip(*accs, partials)) {
      auto load = cast<memref::LoadOp>(map.lookup(a.load.getOperation()));
      auto store = cast<memref::StoreOp>(map.lookup(a.store.getOperation()));
      SmallVector<Value> idx{k};
      if (columns) llvm::append_range(idx, store.getIndices());
      OpBuilder lb(load), sb(store);
      load->replaceAllUsesWith(memref::LoadOp::create(lb, loc, p, idx));
      load->erase();
      memref::StoreOp::create(sb, loc, store.getValueToStore(), p, idx);
      store->erase();
    }
    // The partials, in order, combined into the accumulator (which keeps its initial value); a
    // column accumulator's at each of its places.
    b.setInsertionPointAfter(par);
    for (auto [a, p] : llvm::zip(*accs, partials)) {
      Value m = a.store.getMemref();
      if (combineInMemory) {  // acc = combine(acc, partial[j]) by load and store, as a GPU block splits
        auto combine = scf::ForOp::create(b, loc, index(0), index(t), index(1));
        OpBuilder fb = OpBuilder::atBlockTerminator(combine.getBody());
        Value old = memref::LoadOp::create(fb, loc, m, a.store.getIndices());
        Value part = memref::LoadOp::create(fb, loc, p, ValueRange{combine.getInductionVar()});
        memref::StoreOp::create(fb, loc, combineWith(fb, a, old, part), m, a.store.getIndices());
        continue;
      }
      auto combineAt = [&](OpBuilder& ob, ValueRange at, ValueRange place) {
        auto partial = [&](OpBuilder& fb, Value j) {
          SmallVector<Value> idx{j};
          llvm::append_range(idx, place);
          return memref::LoadOp::create(fb, loc, p, idx);
        };
        Value start = memref::LoadOp::create(ob, loc, m, at);
        Value zero = arith::ConstantIndexOp::create(ob, loc, 0), one = arith::ConstantIndexOp::create(ob, loc, 1),
              chunks = arith::ConstantIndexOp::create(ob, loc, t);
        Value total;
        if (isReassociableFloatSum(a)) {  // compensated: partials of a long sum are large
          Value c0 = arith::ConstantOp::create(ob, loc, FloatAttr::get(start.getType(), -0.0));
          auto combine = scf::ForOp::create(ob, loc, zero, chunks, one, ValueRange{start, c0},
                                            [&](OpBuilder& fb, Location, Value j, ValueRange acc) {
                                              auto [s, c] = compensatedAdd(fb, loc, acc[0], acc[1], partial(fb, j));
                                              scf::YieldOp::create(fb, loc, ValueRange{s, c});
                                            });
          total = compensatedTotal(ob, loc, combine.getResult(0), combine.getResult(1));
        } else {
          auto combine = scf::ForOp::create(ob, loc, zero, chunks, one, ValueRange{start},
                                            [&](OpBuilder& fb, Location, Value j, ValueRange acc) {
                                              scf::YieldOp::create(fb, loc, combineWith(fb, a, acc[0], partial(fb, j)));
                                            });
          total = combine.getResult(0);
        }
        memref::StoreOp::create(ob, loc, total, m, at);
      };
      if (columns) overPlaces(b, a, [&](OpBuilder& in, ValueRange at) { combineAt(in, at, at); });
      else combineAt(b, a.store.getIndices(), {});
    }
    // The trips after the chunks' run as the original loop, into the accumulators themselves.
    if (rest) root.setLowerBound(index(*lb + t * c * *step));
    else root.erase();
    ++numSplit;
  }

  // How many chunks: the trips' largest divisor up to max-chunks when it is at least half of
  // that; otherwise (a prime number of rows...) the count in [max-chunks / 2, max-chunks] that
  // leaves the fewest trips after its whole chunks (run after them, serially). The GPU's split
  // (combine-in-memory) takes divisors only.
  int64_t chunks(int64_t trips) {
    int64_t most = std::min(trips, static_cast<int64_t>(maxChunks));
    int64_t t = largestDivisor(trips, most);
    if (combineInMemory || 2 * t >= most || most < 2) return t;
    t = most;
    for (int64_t u = most - 1; 2 * u >= most; --u)
      if (trips % u < trips % t) t = u;
    return t;
  }
};

}  // namespace
}  // namespace mlir::strata
