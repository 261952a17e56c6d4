// --strata-tile-transposes: elementwise loop nests that read or write a buffer across its rows
// (transposes) become parallel loops over square tiles, so that each tile stays in L1
// (Passes.td).
#include "lowering/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {

#define GEN_PASS_DEF_TILETRANSPOSESPASS
#include "lowering/Passes.h.inc"

namespace {

struct TileTransposesPass : impl::TileTransposesPassBase<TileTransposesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) {
      if (op.hasPureBufferSemantics() && op.getNumLoops() >= 2 &&
          op.getNumParallelLoops() == op.getNumLoops())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : ops) {
      unsigned n = op.getNumLoops(), inner = n - 1;
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      // The loop along which some operand is contiguous, when it is not the innermost one.
      std::optional<unsigned> across;
      for (OpOperand& operand : op->getOpOperands()) {
        AffineMap map = op.getMatchingIndexingMap(&operand);
        if (map.getNumResults() < 2) continue;
        auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
        if (last && last.getPosition() != inner) across = last.getPosition();
      }
      if (!across || ranges[*across] < 2 * tileSize || ranges[inner] < 2 * tileSize) continue;
      SmallVector<int64_t> sizes(n, 0);
      for (unsigned d = 0; d < n; ++d) sizes[d] = d == *across || d == inner ? static_cast<int64_t>(tileSize) : 1;
      rewriter.setInsertionPoint(op);
      auto options = linalg::LinalgTilingOptions().setTileSizes(sizes).setLoopType(
          linalg::LinalgTilingLoopType::ParallelLoops);
      if (succeeded(linalg::tileLinalgOp(rewriter, op, options))) {
        rewriter.eraseOp(op);
        ++numTiled;
      }
    }
  }
};

}  // namespace
}  // namespace mlir::strata
