// --strata-expand-strided-copies: memref.copy between buffers that are not both contiguous
// becomes linalg.copy (loops), so that no copy needs MLIR's runtime library (Passes.td).
#include "lowering/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {

#define GEN_PASS_DEF_EXPANDSTRIDEDCOPIESPASS
#include "lowering/Passes.h.inc"

namespace {

struct ExpandStridedCopiesPass : impl::ExpandStridedCopiesPassBase<ExpandStridedCopiesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp c) {
      auto contiguous = [](Value v) { return cast<MemRefType>(v.getType()).getLayout().isIdentity(); };
      if (!contiguous(c.getSource()) || !contiguous(c.getTarget())) copies.push_back(c);
    });
    for (memref::CopyOp c : copies) {
      OpBuilder b(c);
      linalg::CopyOp::create(b, c.getLoc(), c.getSource(), c.getTarget());
      c.erase();
      ++numExpanded;
    }
  }
};

}  // namespace
}  // namespace mlir::strata
