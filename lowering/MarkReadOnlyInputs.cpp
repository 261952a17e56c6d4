// --strata-mark-readonly-inputs: the tensor arguments of public functions are not writable, so
// that bufferization never writes into a caller's buffers (Passes.td).
#include "lowering/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {

#define GEN_PASS_DEF_MARKREADONLYINPUTSPASS
#include "lowering/Passes.h.inc"

namespace {

struct MarkReadOnlyInputsPass : impl::MarkReadOnlyInputsPassBase<MarkReadOnlyInputsPass> {
  using Base::Base;

  void runOnOperation() override {
    Builder b(&getContext());
    getOperation().walk([&](func::FuncOp fn) {
      if (!fn.isPublic() || fn.isExternal()) return;
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        if (isa<TensorType>(fn.getArgument(i).getType())) {
          fn.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName, b.getBoolAttr(false));
          ++numMarked;
        }
    });
  }
};

}  // namespace
}  // namespace mlir::strata
