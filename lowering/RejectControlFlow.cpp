// --strata-reject-control-flow: a target that cannot compile control flow says so at the
// op's location instead of failing somewhere later (Passes.td).
#include "dialect/StrataOps.h"
#include "lowering/Passes.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {

#define GEN_PASS_DEF_REJECTCONTROLFLOWPASS
#include "lowering/Passes.h.inc"

namespace {

struct RejectControlFlowPass : impl::RejectControlFlowPassBase<RejectControlFlowPass> {
  using Base::Base;

  void runOnOperation() override {
    WalkResult r = getOperation().walk([&](Operation* op) {
      // Run-time slices read their starts on the host, which cannot see device memory.
      if (isa<DynamicSliceOp, DynamicUpdateSliceOp>(op)) {
        op->emitError("the cuda target cannot compile run-time slices yet (")
            << op->getName() << "); run this function on the CPU (JitOptions::device = st::cpu())";
        return WalkResult::interrupt();
      }
      // Sort calls the CPU runtime's sort kernel (or a comparator through it).
      if (isa<SortOp>(op)) {
        op->emitError("the cuda target cannot compile strata.sort yet; run this function on the CPU "
                      "(JitOptions::device = st::cpu())");
        return WalkResult::interrupt();
      }
      // Linear algebra calls the CPU runtime's kernels (issue 14).
      if (isa<LinalgOp>(op)) {
        op->emitError("the cuda target cannot compile strata.linalg (\"")
            << cast<LinalgOp>(op).getKind() << "\") yet; run this function on the CPU (JitOptions::device = st::cpu())";
        return WalkResult::interrupt();
      }
      // The FFT calls the CPU runtime's kernel.
      if (isa<FftOp>(op)) {
        op->emitError("the cuda target cannot compile strata.fft yet; run this function on the CPU "
                      "(JitOptions::device = st::cpu())");
        return WalkResult::interrupt();
      }
      // A host callback runs on the CPU runtime's thread, on host memory.
      if (isa<HostCallbackOp>(op)) {
        op->emitError("the cuda target cannot compile host callbacks yet (\"")
            << cast<HostCallbackOp>(op).getName() << "\"); run this function on the CPU (JitOptions::device = st::cpu())";
        return WalkResult::interrupt();
      }
      // A window reduction's loop nest (window loops between result loops) is not a shape the
      // GPU loop mapping handles yet.
      if (isa<ReduceWindowOp>(op)) {
        op->emitError("the cuda target cannot compile window reductions yet (")
            << op->getName() << "); run this function on the CPU (JitOptions::device = st::cpu())";
        return WalkResult::interrupt();
      }
      if (!isa<IfOp, CaseOp, WhileOp>(op)) return WalkResult::advance();
      op->emitError("the cuda target cannot compile control flow yet (")
          << op->getName() << "); run this function on the CPU (JitOptions::device = st::cpu())";
      return WalkResult::interrupt();
    });
    if (r.wasInterrupted()) signalPassFailure();
  }
};

}  // namespace
}  // namespace mlir::strata
