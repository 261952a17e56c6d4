// The entry function's loop nests and their iteration counts (LoopNests.h).
#include "lowering/LoopNests.h"

#include <algorithm>
#include <functional>
#include <optional>

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::strata {

namespace {

std::optional<int64_t> upperBound(Value v) {
  if (auto c = getConstantIntValue(v)) return c;
  auto min = v.getDefiningOp<affine::AffineMinOp>();
  if (!min) return std::nullopt;
  std::optional<int64_t> best;
  for (AffineExpr e : min.getAffineMap().getResults())
    if (auto c = dyn_cast<AffineConstantExpr>(e)) best = best ? std::min(*best, c.getValue()) : c.getValue();
  return best;
}

}  // namespace

SmallVector<Operation*> loopNestRoots(func::FuncOp main) {
  SmallVector<Operation*> roots;
  std::function<void(Block&)> collect = [&](Block& block) {
    for (Operation& op : block) {
      if (isa<scf::ParallelOp, scf::ForOp>(op)) roots.push_back(&op);
      else if (isa<scf::WhileOp, scf::IfOp, scf::IndexSwitchOp>(op))
        for (Region& r : op.getRegions())
          for (Block& b : r) collect(b);
    }
  };
  collect(main.getBody().front());
  return roots;
}

int64_t tripCount(Value lb, Value ub, Value step) {
  auto l = getConstantIntValue(lb), u = upperBound(ub), s = getConstantIntValue(step);
  if (!l || !u || !s || *s <= 0) return 1;  // unknown: count as one
  return std::max<int64_t>(0, (*u - *l + *s - 1) / *s);
}

int64_t loopIterations(Region& region) {
  int64_t most = 1;
  region.walk<WalkOrder::PreOrder>([&](Operation* op) {
    if (auto f = dyn_cast<scf::ForOp>(op)) {
      most = std::max(most, tripCount(f.getLowerBound(), f.getUpperBound(), f.getStep()) *
                                loopIterations(f.getRegion()));
      return WalkResult::skip();
    }
    if (auto p = dyn_cast<scf::ParallelOp>(op)) {
      int64_t n = 1;
      for (auto [l, u, s] : llvm::zip(p.getLowerBound(), p.getUpperBound(), p.getStep()))
        n *= tripCount(l, u, s);
      most = std::max(most, n * loopIterations(p.getRegion()));
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  return most;
}

int64_t largestDivisor(int64_t n, int64_t most) {
  for (int64_t t = std::min(n, most); t > 1; --t)
    if (n % t == 0) return t;
  return 1;
}

}  // namespace mlir::strata
