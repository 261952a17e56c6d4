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
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "transforms/EntryFunction.h"

namespace mlir::strata {

#define GEN_PASS_DEF_SPLITREDUCTIONLOOPSPASS
#include "lowering/Passes.h.inc"

namespace {

// One accumulator: `acc[idx] = combine(acc[idx], x)` with idx fixed in the whole nest.
struct Accumulator : AccumulatorStep {
  memref::StoreOp store;
};

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
  bool ok = true;
  root.getBody()->walk([&](Operation* op) {
    if (auto l = dyn_cast<memref::LoadOp>(op)) loads.push_back(l);
    else if (auto s = dyn_cast<memref::StoreOp>(op)) stores.push_back(s);
    else if (op->getNumRegions() ? !isa<scf::ForOp, scf::ParallelOp, scf::IfOp>(op)
                                 : !isMemoryEffectFree(op))
      ok = false;
  });
  if (!ok) return std::nullopt;

  SmallVector<Accumulator> accs;
  SmallVector<memref::StoreOp> elementwise;
  for (memref::StoreOp store : stores) {
    if (std::optional<AccumulatorStep> step = matchAccumulatorStep(store, root)) accs.push_back({*step, store});
    else if (llvm::is_contained(store.getIndices(), iv)) elementwise.push_back(store);
    else return std::nullopt;
  }
  if (accs.empty()) return std::nullopt;
  auto isAccess = [&](Operation* op) {
    return llvm::any_of(accs, [&](Accumulator& a) { return op == a.load || op == a.store; });
  };
  for (Accumulator& a : accs) {
    Value m = a.store.getMemref();
    for (memref::LoadOp l : loads)
      if (!isAccess(l) && mayShareBytes(l.getMemref(), m)) return std::nullopt;
    for (memref::StoreOp s : stores)
      if (s != a.store && mayShareBytes(s.getMemref(), m)) return std::nullopt;
  }
  for (memref::StoreOp s : elementwise) {
    for (memref::LoadOp l : loads)
      if (!isAccess(l) && mayShareBytes(l.getMemref(), s.getMemref()) &&
          (l.getMemref() != s.getMemref() || l.getIndices() != s.getIndices()))
        return std::nullopt;
    for (memref::StoreOp o : elementwise)
      if (o != s && mayShareBytes(o.getMemref(), s.getMemref())) return std::nullopt;
  }
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
    int64_t t = largestDivisor(trips, maxChunks);
    if (t < 2) return;
    std::optional<SmallVector<Accumulator>> accs = accumulatorsOf(root);
    if (!accs) return;
    int64_t c = trips / t;

    Location loc = root.getLoc();
    OpBuilder b(root);
    auto index = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(b, loc, v); };
    SmallVector<Value> partials;
    for (Accumulator& a : *accs)
      partials.push_back(memref::AllocOp::create(
          b, loc, MemRefType::get({t}, a.store.getValueToStore().getType())));
    // Chunk k runs outer iterations [k·c, (k+1)·c), its partials starting from the identity.
    auto par = scf::ParallelOp::create(b, loc, ValueRange{index(0)}, ValueRange{index(t)}, ValueRange{index(1)});
    b.setInsertionPointToStart(par.getBody());
    Value k = par.getInductionVars()[0];
    for (auto [a, p] : llvm::zip(*accs, partials))
      memref::StoreOp::create(b, loc, arith::ConstantOp::create(b, loc, a.identity), p, ValueRange{k});
    auto inner = scf::ForOp::create(b, loc, index(0), index(c), index(1));
    b.setInsertionPointToStart(inner.getBody());
    Value n = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, k, index(c)), inner.getInductionVar());
    Value i = arith::AddIOp::create(b, loc, index(*lb), arith::MulIOp::create(b, loc, n, index(*step)));
    IRMapping map;
    map.map(root.getInductionVar(), i);
    for (Operation& op : root.getBody()->without_terminator()) b.clone(op, map);
    for (auto [a, p] : llvm::zip(*accs, partials)) {
      Operation* load = map.lookup(a.load.getOperation());
      Operation* store = map.lookup(a.store.getOperation());
      OpBuilder lb(load), sb(store);
      load->replaceAllUsesWith(memref::LoadOp::create(lb, loc, p, ValueRange{k}));
      load->erase();
      memref::StoreOp::create(sb, loc, store->getOperand(0), p, ValueRange{k});
      store->erase();
    }
    // The partials, in order, combined into the accumulator (which keeps its initial value).
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
      Value start = memref::LoadOp::create(b, loc, m, a.store.getIndices());
      if (isReassociableFloatSum(a)) {  // compensated: partials of a long sum are large
        Value c0 = arith::ConstantOp::create(b, loc, FloatAttr::get(start.getType(), -0.0));
        auto combine = scf::ForOp::create(
            b, loc, index(0), index(t), index(1), ValueRange{start, c0},
            [&](OpBuilder& fb, Location fl, Value j, ValueRange acc) {
              Value part = memref::LoadOp::create(fb, fl, p, ValueRange{j});
              auto [s, c] = compensatedAdd(fb, fl, acc[0], acc[1], part);
              scf::YieldOp::create(fb, fl, ValueRange{s, c});
            });
        memref::StoreOp::create(b, loc, compensatedTotal(b, loc, combine.getResult(0), combine.getResult(1)), m,
                                a.store.getIndices());
        continue;
      }
      auto combine = scf::ForOp::create(
          b, loc, index(0), index(t), index(1), ValueRange{start},
          [&](OpBuilder& fb, Location fl, Value j, ValueRange acc) {
            Value part = memref::LoadOp::create(fb, fl, p, ValueRange{j});
            scf::YieldOp::create(fb, fl, combineWith(fb, a, acc[0], part));
          });
      memref::StoreOp::create(b, loc, combine.getResult(0), m, a.store.getIndices());
    }
    root.erase();
    ++numSplit;
  }
};

}  // namespace
}  // namespace mlir::strata
