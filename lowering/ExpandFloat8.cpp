// --strata-expand-float8: arith.extf / arith.truncf of the byte floats as integer code, the
// same as the scalar bodies' toCompute / toStorage (Passes.td).
#include "dialect/ElementTypes.h"
#include "dialect/ScalarOps.h"
#include "lowering/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {

#define GEN_PASS_DEF_EXPANDFLOAT8PASS
#include "lowering/Passes.h.inc"

namespace {

struct ExpandFloat8Pass : impl::ExpandFloat8PassBase<ExpandFloat8Pass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Operation*> ops;
    getOperation()->walk([&](Operation* op) {
      if (auto ext = dyn_cast<arith::ExtFOp>(op); ext && isFloat8(ext.getIn().getType())) ops.push_back(op);
      if (auto trunc = dyn_cast<arith::TruncFOp>(op); trunc && isFloat8(trunc.getType())) ops.push_back(op);
    });
    for (Operation* op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      Value in = op->getOperand(0);
      Type from = in.getType(), to = op->getResult(0).getType();
      Value r = isa<arith::ExtFOp>(op) ? emitConvert(b, loc, toCompute(b, loc, in), from, to, false, false)
                                       : toStorage(b, loc, emitConvert(b, loc, in, from, to, false, false), to);
      op->getResult(0).replaceAllUsesWith(r);
      op->erase();
      ++numExpanded;
    }
  }
};

}  // namespace
}  // namespace mlir::strata
