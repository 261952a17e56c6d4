// --strata-batch-column-reductions: a column reduction with batch dimensions in front of its
// reduced axis (a sum over axis 1 of [batch, rows, columns]) runs batch by batch, `parallel
// batches { for rows { parallel columns } }`, so that each batch streams its own rows; the
// algorithm is in Passes.td.
#include <limits>
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
#include "transforms/EntryFunction.h"

namespace mlir::strata {

#define GEN_PASS_DEF_BATCHCOLUMNREDUCTIONSPASS
#include "lowering/Passes.h.inc"

namespace {

// The batch dimensions of `root` = `for r { p: parallel (ivs) { body } }`: how many leading
// induction variables of p index, in order, the dimensions in front of r in every load that r
// indexes (0: none, or the nest is not a column reduction whose iterations may be reordered).
// Reordering is safe when every store is an accumulator step at a place indexed by all of p's
// induction variables (alone on its buffer) or writes at indices holding r and all of them (its
// own element), and every other load of a written buffer reads its own iteration's element.
size_t batchDims(scf::ForOp root) {
  if (!root.getInitArgs().empty() || !llvm::hasSingleElement(root.getBody()->without_terminator())) return 0;
  auto p = dyn_cast<scf::ParallelOp>(root.getBody()->front());
  if (!p || p.getNumResults() || p.getNumLoops() < 2) return 0;
  SmallVector<memref::LoadOp> loads;
  SmallVector<memref::StoreOp> stores;
  if (!loadsAndStores(p.getBody(), /*nested=*/false, loads, stores)) return 0;
  Value r = root.getInductionVar();
  SmallVector<Value> ivs(p.getInductionVars());
  SmallVector<memref::LoadOp> accLoads;
  SmallVector<memref::StoreOp> elementwise;
  for (memref::StoreOp s : stores) {
    std::optional<AccumulatorStep> step = matchAccumulatorStep(s, s);
    if (step && isColumnPlace(s, p, root, std::numeric_limits<int64_t>::max()) &&
        aloneOnItsBuffer(s, step->load, loads, stores)) {
      accLoads.push_back(step->load);
      continue;
    }
    auto at = s.getIndices();
    if (!llvm::is_contained(at, r) || !llvm::all_of(ivs, [&](Value iv) { return llvm::is_contained(at, iv); }))
      return 0;
    elementwise.push_back(s);
  }
  if (accLoads.empty() || !writesOwnElements(elementwise, loads)) return 0;
  size_t k = ivs.size() - 1;  // at least one column dimension stays inside
  bool rowLoad = false;
  for (memref::LoadOp l : loads) {
    if (llvm::is_contained(accLoads, l)) continue;
    auto at = l.getIndices();
    auto pos = llvm::find(at, r);
    if (pos == at.end()) continue;
    rowLoad = true;
    size_t lead = 0;
    while (lead < static_cast<size_t>(pos - at.begin()) && lead < ivs.size() && at[lead] == ivs[lead]) ++lead;
    k = std::min(k, static_cast<size_t>(pos - at.begin()) == lead ? lead : 0);
  }
  return rowLoad ? k : 0;
}

struct BatchColumnReductionsPass : impl::BatchColumnReductionsPassBase<BatchColumnReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp main = entryFunction(getOperation());
    if (!main) return;
    for (Operation* root : loopNestRoots(main))
      if (auto loop = dyn_cast<scf::ForOp>(root))
        if (size_t k = batchDims(loop)) batch(loop, k);
  }

  // parallel (ivs[0..k)) { for r { parallel (ivs[k..)) { body } } } in place of `root`, when
  // the batches are at least `fewest-batches`.
  void batch(scf::ForOp root, size_t k) {
    auto p = cast<scf::ParallelOp>(root.getBody()->front());
    int64_t batches = 1;
    for (size_t d = 0; d < k; ++d) batches *= tripCount(p.getLowerBound()[d], p.getUpperBound()[d], p.getStep()[d]);
    if (batches < fewestBatches) return;
    Location loc = root.getLoc();
    OpBuilder b(root);
    auto outer = scf::ParallelOp::create(b, loc, p.getLowerBound().take_front(k), p.getUpperBound().take_front(k),
                                         p.getStep().take_front(k));
    b.setInsertionPointToStart(outer.getBody());
    auto rows = scf::ForOp::create(b, loc, root.getLowerBound(), root.getUpperBound(), root.getStep());
    b.setInsertionPointToStart(rows.getBody());
    auto inner = scf::ParallelOp::create(b, loc, p.getLowerBound().drop_front(k), p.getUpperBound().drop_front(k),
                                         p.getStep().drop_front(k));
    IRMapping map;
    map.map(root.getInductionVar(), rows.getInductionVar());
    for (size_t d = 0; d < p.getNumLoops(); ++d)
      map.map(p.getInductionVars()[d], d < k ? outer.getInductionVars()[d] : inner.getInductionVars()[d - k]);
    b.setInsertionPoint(inner.getBody()->getTerminator());
    for (Operation& op : p.getBody()->without_terminator()) b.clone(op, map);
    root.erase();
    ++numBatched;
  }
};

}  // namespace
}  // namespace mlir::strata
