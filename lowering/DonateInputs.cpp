// --strata-donate-inputs: outputs written into donated inputs' buffers (JitOptions::donate).
//
// The module says which arguments of the entry function the caller gives up (strata.donate,
// argument positions) and how many arguments precede the out-params (strata.num_inputs).
// 1. Each donated input takes the first output of exactly its buffer type not yet taken.
// 2. The output then lives in the input's buffer. When nothing uses the output before the
//    input's last read (or the one op where both meet reads each input element only to write
//    the same output element: an elementwise linalg op with identity maps, or a copy of the
//    input onto the output, which disappears), every use of the output becomes a use of the
//    input. Otherwise the output is computed in a temporary and copied into the input at the
//    end, after its last read.
// 3. The module records strata.output_aliases: per output, the argument position of the input
//    it is written into, or -1.
// REQUIRES: bufferized, results turned into out-params (one block).
#include "lowering/CpuPasses.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "transforms/BufferAssignment.h"

namespace mlir::strata {
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

struct DonateInputsPass : PassWrapper<DonateInputsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DonateInputsPass)
  StringRef getArgument() const override { return "strata-donate-inputs"; }
  StringRef getDescription() const override {
    return "Write outputs into the buffers of donated inputs (strata.donate)";
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto donate = module->getAttrOfType<DenseI64ArrayAttr>("strata.donate");
    func::FuncOp main = entryFunction(module);
    if (!donate || donate.empty() || !main) return;
    int64_t numInputs = moduleIntAttr(module, "strata.num_inputs", -1);
    int64_t numArgs = main.getNumArguments();
    if (numInputs < 0 || numInputs > numArgs) {
      module.emitError("strata-donate-inputs: expects strata.num_inputs, the arguments before the outputs");
      return signalPassFailure();
    }
    Block& block = main.getBody().front();
    SmallVector<int64_t> aliases(numArgs - numInputs, -1);
    for (int64_t i : donate.asArrayRef()) {
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
        continue;
      }
      OpBuilder b(&block, block.begin());
      auto type = cast<MemRefType>(out.getType());
      Value temp = memref::AllocOp::create(b, main.getLoc(), MemRefType::get(type.getShape(), type.getElementType()),
                                           b.getI64IntegerAttr(64));
      out.replaceAllUsesWith(temp);
      b.setInsertionPoint(block.getTerminator());
      memref::CopyOp::create(b, main.getLoc(), temp, in);
    }
    module->setAttr("strata.output_aliases", DenseI64ArrayAttr::get(&getContext(), aliases));
  }
};

}  // namespace

std::unique_ptr<Pass> createDonateInputsPass() { return std::make_unique<DonateInputsPass>(); }

}  // namespace mlir::strata
