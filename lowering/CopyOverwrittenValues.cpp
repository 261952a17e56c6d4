// --strata-copy-overwritten-values: the copies one-shot bufferization would make of a value
// that an op overwrites in place while it is still read afterwards, made before it runs
// (Passes.td).
//
// Why: one-shot bufferization makes such a copy by asking for the value's buffer type, which
// it computes by following the value's aliases back to their allocation without remembering
// what it found; through a loop (its init and its yielded value) and an scf.if (both branches)
// that walk forks, so a chain of n loops, each carrying the last one's result, costs ~3^n (a
// fuzzed chain of 12 scatters whose indices read earlier results took 40 s to bufferize). The
// copy made here states its memory space, so asking for its buffer type ends at it.
#include "lowering/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {

#define GEN_PASS_DEF_COPYOVERWRITTENVALUESPASS
#include "lowering/Passes.h.inc"

namespace {

// Whether `written`'s owner, which overwrites its value v in place, must leave the old value
// for another reader: a use of v that is not in an op before the writer. Only writers in v's
// own block are judged (no loop between them, one order of execution); what is nested deeper
// is left to the analysis.
bool readAfterWrite(OpOperand& written) {
  Value v = written.get();
  Operation* writer = written.getOwner();
  Block* block = writer->getBlock();
  if (v.getParentBlock() != block) return false;
  for (OpOperand& use : v.getUses()) {
    if (&use == &written) continue;
    // The writer's other operands are its own business (a linalg op reading what it writes
    // at the same element may do so in place): the analysis judges them.
    if (use.getOwner() == writer) continue;
    Operation* user = block->findAncestorOpInBlock(*use.getOwner());
    if (!user || user == writer || !user->isBeforeInBlock(writer)) return true;
  }
  return false;
}

// The operands an op overwrites in place when bufferized in place: a loop's carries, a
// linalg op's outputs, the destination of a tensor insert.
SmallVector<OpOperand*> overwritten(Operation* op) {
  SmallVector<OpOperand*> r;
  auto tensors = [&](MutableArrayRef<OpOperand> operands) {
    for (OpOperand& o : operands)
      if (isa<RankedTensorType>(o.get().getType())) r.push_back(&o);
  };
  if (auto f = dyn_cast<scf::ForOp>(op)) tensors(f.getInitArgsMutable());
  else if (auto w = dyn_cast<scf::WhileOp>(op)) tensors(w.getInitsMutable());
  else if (auto l = dyn_cast<linalg::LinalgOp>(op)) tensors(l.getDpsInitsMutable());
  else if (auto s = dyn_cast<tensor::InsertSliceOp>(op)) tensors(s.getDestMutable());
  else if (auto s = dyn_cast<tensor::InsertOp>(op)) tensors(s.getDestMutable());
  return r;
}

struct CopyOverwrittenValuesPass : impl::CopyOverwrittenValuesPassBase<CopyOverwrittenValuesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<OpOperand*> copies;
    getOperation().walk([&](Operation* op) {
      for (OpOperand* o : overwritten(op)) {
        Value v = o->get();
        // A value with no other use, a fresh tensor (tensor.empty, a copy already made): no reader.
        if (v.hasOneUse()) continue;
        if (v.getDefiningOp<tensor::EmptyOp>() || v.getDefiningOp<bufferization::AllocTensorOp>()) continue;
        if (readAfterWrite(*o)) copies.push_back(o);
      }
    });
    for (OpOperand* o : copies) {
      OpBuilder b(o->getOwner());
      auto type = cast<RankedTensorType>(o->get().getType());
      auto copy = bufferization::AllocTensorOp::create(b, o->getOwner()->getLoc(), type, ValueRange{}, o->get());
      copy.setMemorySpaceAttr(b.getI64IntegerAttr(0));  // the default space, stated: see above
      o->set(copy);
      ++numCopies;
    }
  }
};

}  // namespace
}  // namespace mlir::strata
