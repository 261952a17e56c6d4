// --strata-runtime-reads-at-calls: each runtime call reads its tensors through a to_buffer of
// its own, just before it, so that one-shot bufferization sees every read where it happens and
// never writes another value into a buffer a later call still reads (Passes.td).
#include "lowering/Passes.h"
#include "lowering/RuntimeDecl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::strata {

#define GEN_PASS_DEF_RUNTIMEREADSATCALLSPASS
#include "lowering/Passes.h.inc"

namespace {

// The tensor whose value `call` reads through the buffer `mem`, or null when the call writes
// `mem` (a fresh buffer: its to_tensor comes after the call).
Value tensorRead(Value mem, Operation* call, DominanceInfo& dom) {
  auto toBuffer = mem.getDefiningOp<bufferization::ToBufferOp>();
  if (!toBuffer) return {};
  if (toBuffer.getReadOnly()) return toBuffer.getTensor();
  // An earlier call's result, its to_buffer(to_tensor) folded away by the canonicalizer.
  for (Operation* user : mem.getUsers())
    if (auto toTensor = dyn_cast<bufferization::ToTensorOp>(user); toTensor && dom.properlyDominates(toTensor.getOperation(), call))
      return toTensor.getResult();
  return {};
}

struct RuntimeReadsAtCallsPass : impl::RuntimeReadsAtCallsPassBase<RuntimeReadsAtCallsPass> {
  using Base::Base;

  void runOnOperation() override {
    DominanceInfo dom(getOperation());
    SmallVector<func::CallOp> calls;
    getOperation().walk([&](func::CallOp c) { calls.push_back(c); });
    llvm::SetVector<Operation*> replaced;  // a pointer may feed several calls, or one call twice
    for (func::CallOp call : calls) {
      for (OpOperand& operand : call->getOpOperands()) {
        auto pointer = operand.get().getDefiningOp<memref::ExtractAlignedPointerAsIndexOp>();
        if (!pointer) continue;
        Value tensor = tensorRead(pointer.getSource(), call, dom);
        if (!tensor) continue;
        OpBuilder b(call);
        operand.set(readOnlyPointer(b, call.getLoc(), tensor));
        replaced.insert(pointer);
        ++numReads;
      }
    }
    // The old pointers and read-only buffers, once nothing uses them.
    for (Operation* pointer : replaced) {
      if (!pointer->use_empty()) continue;
      Operation* toBuffer = pointer->getOperand(0).getDefiningOp();
      pointer->erase();
      if (auto t = dyn_cast_or_null<bufferization::ToBufferOp>(toBuffer); t && t.getReadOnly() && t->use_empty())
        t->erase();
    }
  }
};

}  // namespace
}  // namespace mlir::strata
