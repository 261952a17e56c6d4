// --strata-forward-outputs: a result returned through reshapes of a temporary (which out-params
// leave as a copy) is computed in the output buffer itself, viewed with the temporary's shape
// (Passes.td).
#include "lowering/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "transforms/EntryFunction.h"

namespace mlir::strata {

#define GEN_PASS_DEF_FORWARDOUTPUTSPASS
#include "lowering/Passes.h.inc"

namespace {

// The root allocation `v` views through reshapes (contiguous views), or null.
memref::AllocOp reshapedAlloc(Value v) {
  while (Operation* def = v.getDefiningOp()) {
    if (auto a = dyn_cast<memref::AllocOp>(def)) return a;
    if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(def)) return {};
    v = def->getOperand(0);
  }
  return {};
}

// `v` (contiguous, static) viewed with the contiguous static type `type` (as many elements).
Value reshapeBuffer(OpBuilder& b, Location loc, Value v, MemRefType type) {
  auto from = cast<MemRefType>(v.getType());
  if (from == type) return v;
  if (type.getRank() == 0)  // every dimension of `v` is 1
    return memref::CollapseShapeOp::create(b, loc, v, ArrayRef<ReassociationIndices>{});
  if (from.getRank() == 0)
    return memref::ExpandShapeOp::create(b, loc, type, v, ArrayRef<ReassociationIndices>{});
  if (from.getRank() != 1) {
    ReassociationIndices all;
    for (int64_t d = 0; d < from.getRank(); ++d) all.push_back(d);
    v = memref::CollapseShapeOp::create(b, loc, v, ArrayRef<ReassociationIndices>{all});
  }
  if (type.getRank() == 1) return v;
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d) all.push_back(d);
  return memref::ExpandShapeOp::create(b, loc, type, v, ArrayRef<ReassociationIndices>{all});
}

struct ForwardOutputsPass : impl::ForwardOutputsPassBase<ForwardOutputsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp main = entryFunction(getOperation());
    if (!main) return;
    Block& block = main.getBody().front();
    DenseMap<Operation*, int64_t> position;
    int64_t i = 0;
    for (Operation& op : block) position[&op] = i++;
    SmallVector<memref::CopyOp> copies;
    for (Operation& op : block)
      if (auto c = dyn_cast<memref::CopyOp>(op)) copies.push_back(c);
    for (memref::CopyOp copy : copies) {
      auto out = dyn_cast<BlockArgument>(copy.getTarget());
      memref::AllocOp alloc = reshapedAlloc(copy.getSource());
      if (!out || out.getOwner() != &block || !out.hasOneUse() || !alloc || alloc->getBlock() != &block)
        continue;
      auto outType = cast<MemRefType>(out.getType());
      MemRefType allocType = alloc.getType();
      if (!outType.hasStaticShape() || !outType.getLayout().isIdentity() || !allocType.hasStaticShape() ||
          !allocType.getLayout().isIdentity() || outType.getNumElements() != allocType.getNumElements() ||
          outType.getElementType() != allocType.getElementType())
        continue;
      // Nothing may use the buffer (or a view of it) after the copy.
      bool usedAfter = false;
      SmallVector<Value> work{alloc.getResult()};
      while (!work.empty() && !usedAfter) {
        Value v = work.pop_back_val();
        for (Operation* user : v.getUsers()) {
          Operation* top = block.findAncestorOpInBlock(*user);
          if (top && top != copy && position[top] > position[copy]) usedAfter = true;
          if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(user)) work.push_back(user->getResult(0));
        }
      }
      if (usedAfter) continue;
      OpBuilder b(alloc);
      Value view = reshapeBuffer(b, alloc.getLoc(), out, allocType);
      alloc.replaceAllUsesWith(view);
      alloc.erase();
      copy.erase();
      ++numForwarded;
    }
  }
};

}  // namespace
}  // namespace mlir::strata
