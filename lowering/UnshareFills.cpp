// --strata-unshare-fills: a linalg.fill on tensors with several uses is cloned just before each
// use, so that each bufferizes to its own buffer, filled in place where it is needed
// (Passes.td).
#include "lowering/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {

#define GEN_PASS_DEF_UNSHAREFILLSPASS
#include "lowering/Passes.h.inc"

namespace {

struct UnshareFillsPass : impl::UnshareFillsPassBase<UnshareFillsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    getOperation().walk([&](linalg::FillOp f) {
      if (f.hasPureTensorSemantics() && !f->getResult(0).hasOneUse() && !f->use_empty()) fills.push_back(f);
    });
    // Each copy just before its user, so that the buffer is live (and filled) only there.
    for (linalg::FillOp f : fills) {
      SmallVector<OpOperand*> uses;
      for (OpOperand& u : f->getResult(0).getUses()) uses.push_back(&u);
      for (OpOperand* u : uses) {
        OpBuilder b(u->getOwner());
        u->set(b.clone(*f)->getResult(0));
        ++numClones;
      }
      f.erase();
      ++numUnshared;
    }
  }
};

}  // namespace
}  // namespace mlir::strata
