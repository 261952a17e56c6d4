// --strata-outline-parallel-loops: large top-level parallel loops of the entry function become
// calls of outlined functions over a range of their outer dimension, for the runtime's
// parallel_for (--strata-parallel-launch). The algorithm is in Passes.td.
#include <algorithm>

#include "lowering/BufferAliasing.h"
#include "lowering/LoopNests.h"
#include "lowering/OutlinedFunction.h"
#include "lowering/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "transforms/EntryFunction.h"

namespace mlir::strata {

#define GEN_PASS_DEF_OUTLINEPARALLELLOOPSPASS
#include "lowering/Passes.h.inc"

namespace {

std::optional<int64_t> constant(Value v) { return getConstantIntValue(v); }

bool cloneable(Value v) {
  Operation* def = v.getDefiningOp();
  return def && (isa<arith::ConstantOp, memref::GetGlobalOp>(def));
}

struct OutlineParallelLoopsPass : impl::OutlineParallelLoopsPassBase<OutlineParallelLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp main = entryFunction(module);
    if (!main) return;
    // Loop nests at the top level and inside control flow (a while loop's body: an iterative
    // solver's stencils and updates run in parallel on each trip); not inside another loop nest.
    SmallVector<Operation*> roots = loopNestRoots(main);
    int counter = 0;
    for (Operation* root : roots) outline(module, main, root, counter);
  }

  // The parallel loop to split for `root`: root itself, or the one scf.parallel that makes up
  // the body of a serial loop around it (reductions along a leading axis: for k { parallel n }),
  // whose chunks of n can run the whole k loop independently.
  static scf::ParallelOp splittable(Operation* root, int64_t& outerTrips) {
    outerTrips = 1;
    if (auto p = dyn_cast<scf::ParallelOp>(root)) return p;
    auto f = dyn_cast<scf::ForOp>(root);
    if (!f || !f.getInitArgs().empty()) return {};
    scf::ParallelOp inner;
    for (Operation& op : f.getBody()->without_terminator()) {
      if (auto p = dyn_cast<scf::ParallelOp>(op); p && !inner) inner = p;
      else if (!isa<arith::ConstantOp>(op)) return {};
    }
    if (inner) outerTrips = tripCount(f.getLowerBound(), f.getUpperBound(), f.getStep());
    return inner;
  }

  void outline(ModuleOp module, func::FuncOp main, Operation* root, int& counter) {
    int64_t outerTrips = 1;
    scf::ParallelOp loop = splittable(root, outerTrips);
    if (!loop || !loop.getInitVals().empty()) return;
    size_t rank = loop.getNumLoops();
    SmallVector<int64_t> trips;
    for (size_t d = 0; d < rank; ++d)
      trips.push_back(tripCount(loop.getLowerBound()[d], loop.getUpperBound()[d], loop.getStep()[d]));
    int64_t total = outerTrips;
    for (int64_t t : trips) total *= t;
    total *= loopIterations(loop.getRegion());
    if (total < minIterations) return;
    size_t p = 0;
    while (p < rank && trips[p] < 2) ++p;
    if (p == rank || !constant(loop.getLowerBound()[p]) || !constant(loop.getUpperBound()[p]) ||
        !constant(loop.getStep()[p]))
      return;
    int64_t perIteration = std::max<int64_t>(1, total / trips[p]);
    int64_t grain = std::max<int64_t>(1, (minIterations / 2 + perIteration - 1) / perIteration);

    // Values the loop nest reads from outside: its bounds and what its bodies use.
    SetVector<Value> used;
    for (Region& r : root->getRegions()) getUsedValuesDefinedAbove(r, used);
    for (Value v : root->getOperands()) used.insert(v);
    // Two allocations that buffer assignment put at one offset (an op writing in place over its
    // input) are one buffer: captured once, so that the function sees one pointer.
    SmallVector<Value> captured, cloned;
    SmallVector<std::pair<Value, Value>> sameAs;
    for (Value v : used) {
      if (cloneable(v)) {
        cloned.push_back(v);
        continue;
      }
      auto earlier = llvm::find_if(captured, [&](Value c) { return sameBuffer(c, v); });
      if (earlier != captured.end()) sameAs.emplace_back(v, *earlier);
      else captured.push_back(v);
    }

    OpBuilder b(module.getContext());
    IRMapping map;
    std::string name = (main.getName() + "_parallel_" + Twine(counter++)).str();
    func::FuncOp fn = createOutlinedFunction(b, main, loop.getLoc(), name, 2, cloned, captured, map);
    fn->setAttr("strata.parallel_grain", b.getI64IntegerAttr(grain));
    Block* entry = &fn.getBody().front();
    for (auto [v, c] : sameAs) map.map(v, map.lookup(c));
    // Chunks are in iterations: [lo, hi) runs lb + lo·step ... min(lb + hi·step, ub).
    Location loc = loop.getLoc();
    Value lb = map.lookupOrDefault(loop.getLowerBound()[p]), ub = map.lookupOrDefault(loop.getUpperBound()[p]);
    Value step = map.lookupOrDefault(loop.getStep()[p]);
    Value first = arith::AddIOp::create(b, loc, lb, arith::MulIOp::create(b, loc, entry->getArgument(0), step));
    Value last = arith::MinSIOp::create(
        b, loc, arith::AddIOp::create(b, loc, lb, arith::MulIOp::create(b, loc, entry->getArgument(1), step)), ub);
    Operation* copy = b.clone(*root, map);
    Operation* split = copy;
    if (!isa<scf::ParallelOp>(copy)) copy->walk([&](scf::ParallelOp p) { split = p; return WalkResult::interrupt(); });
    split->setOperand(p, first);         // lower bound of dim p
    split->setOperand(rank + p, last);   // upper bound of dim p
    func::ReturnOp::create(b, loop.getLoc());

    // `noalias` holds unless two captured buffers may share bytes (two views of one buffer, or
    // two temporaries that buffer assignment placed over each other).
    if (noTwoShareBytes(captured)) {
      fn->setAttr("strata.noalias_args", b.getUnitAttr());
      ++numNoalias;
    }
    ++numOutlined;

    b.setInsertionPoint(root);
    SmallVector<Value> args{arith::ConstantOp::create(b, loc, b.getIndexAttr(0)),
                            arith::ConstantOp::create(b, loc, b.getIndexAttr(trips[p]))};
    args.append(captured.begin(), captured.end());
    func::CallOp::create(b, loop.getLoc(), fn, args);
    root->erase();
  }
};

}  // namespace
}  // namespace mlir::strata
