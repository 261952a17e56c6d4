// --strata-donate-inputs: outputs written into donated inputs' buffers; the algorithm is in
// Passes.td.
#include "lowering/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "transforms/BufferAssignment.h"
#include "transforms/EntryFunction.h"

namespace mlir::strata {

#define GEN_PASS_DEF_DONATEINPUTSPASS
#include "lowering/Passes.h.inc"

namespace {

// Whether `op` reads `in` only element by element into the same elements of `out`.
bool elementwiseInPlace(Operation* op, Value in, Value out) {
  if (auto copy = dyn_cast<memref::CopyOp>(op)) return copy.getSource() == in && copy.getTarget() == out;
  auto l = dyn_cast<linalg::LinalgOp>(op);
  if (!l || !l.hasPureBufferSemantics() || l.getNumLoops() != l.getNumParallelLoops()) return false;
  bool reads = false, writes = false;
  for (OpOperand& o : op->getOpOperands()) {
    if (o.get() != in && o.get() != out && (viewedBuffer(o.get()) == in || viewedBuffer(o.get()) == out)) return false;
    if (o.get() == in) {
      if (!l.isDpsInput(&o) || !l.getMatchingIndexingMap(&o).isIdentity()) return false;
      reads = true;
    } else if (o.get() == out) {
      if (!l.isDpsInit(&o) || !l.getMatchingIndexingMap(&o).isIdentity() || l.payloadUsesValueFromOperand(&o))
        return false;
      writes = true;
    }
  }
  return reads && writes && in.getType() == out.getType();
}

struct DonateInputsPass : impl::DonateInputsPassBase<DonateInputsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp main = entryFunction(module);
    if (args.empty() || !main) return;
    int64_t numArgs = main.getNumArguments(), numInputs = this->numInputs;
    if (numInputs < 0 || numInputs > numArgs) {
      module.emitError("strata-donate-inputs: expects num-inputs, the arguments before the outputs, but got ")
          << numInputs;
      return signalPassFailure();
    }
    Block& block = main.getBody().front();
    SmallVector<int64_t> aliases(numArgs - numInputs, -1);
    for (int64_t i : args) {
      if (i < 0 || i >= numInputs) continue;
      Value in = main.getArgument(static_cast<unsigned>(i));
      int64_t j = 0;
      while (j < static_cast<int64_t>(aliases.size()) &&
             (aliases[j] >= 0 || main.getArgument(static_cast<unsigned>(numInputs + j)).getType() != in.getType()))
        ++j;
      if (j == static_cast<int64_t>(aliases.size())) continue;  // no output of its type
      Value out = main.getArgument(static_cast<unsigned>(numInputs + j));
      aliases[j] = i;
      DenseMap<Operation*, int64_t> index;
      SmallVector<Operation*> ops;
      for (Operation& op : block) {
        index[&op] = static_cast<int64_t>(ops.size());
        ops.push_back(&op);
      }
      SmallVector<int64_t> reads = usePositions(in, block, index), writes = usePositions(out, block, index);
      int64_t lastRead = reads.empty() ? -1 : *llvm::max_element(reads);
      int64_t firstWrite = writes.empty() ? INT64_MAX : *llvm::min_element(writes);
      bool meet = firstWrite == lastRead && elementwiseInPlace(ops[firstWrite], in, out);
      if (firstWrite > lastRead || meet) {
        if (meet && isa<memref::CopyOp>(ops[firstWrite])) ops[firstWrite]->erase();  // x onto x
        out.replaceAllUsesWith(in);
        ++numInPlace;
        continue;
      }
      OpBuilder b(&block, block.begin());
      auto type = cast<MemRefType>(out.getType());
      Value temp = memref::AllocOp::create(b, main.getLoc(), MemRefType::get(type.getShape(), type.getElementType()),
                                           b.getI64IntegerAttr(64));
      out.replaceAllUsesWith(temp);
      b.setInsertionPoint(block.getTerminator());
      memref::CopyOp::create(b, main.getLoc(), temp, in);
      ++numCopied;
    }
    module->setAttr("strata.output_aliases", DenseI64ArrayAttr::get(&getContext(), aliases));
  }
};

}  // namespace

}  // namespace mlir::strata
