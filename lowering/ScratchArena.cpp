// --strata-scratch-arena: every temporary buffer of the entry function becomes a view into one
// scratch arena argument; the algorithm is in Passes.td.
#include <algorithm>

#include "lowering/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "transforms/BufferAssignment.h"
#include "transforms/EntryFunction.h"

namespace mlir::strata {

#define GEN_PASS_DEF_SCRATCHARENAPASS
#include "lowering/Passes.h.inc"

namespace {

struct ScratchArenaPass : impl::ScratchArenaPassBase<ScratchArenaPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp main = entryFunction(module);
    if (!main) {
      module.emitError("strata-scratch-arena: expects a function @main (or one public function)");
      return signalPassFailure();
    }
    bool stray = false;
    module.walk([&](memref::AllocOp a) {
      if (a->getParentOfType<func::FuncOp>() != main) {
        a.emitError("strata-scratch-arena: expects allocations only in @main");
        stray = true;
      }
    });
    if (stray) return signalPassFailure();

    BufferAssignmentOptions options;
    options.share = share;
    FailureOr<BufferAssignment> assignment = assignBuffers(main, options);
    if (failed(assignment)) return signalPassFailure();
    int64_t total = assignment->arenaBytes(), sum = assignment->temporariesBytes();

    MLIRContext* ctx = &getContext();
    auto scratchType = MemRefType::get({total}, IntegerType::get(ctx, 8));
    unsigned argIndex = main.getNumArguments();
    if (failed(main.insertArgument(argIndex, scratchType, {}, main.getLoc())))
      return signalPassFailure();
    Value scratch = main.getArgument(argIndex);
    for (const BufferAssignment::Buffer& t : assignment->buffers()) {
      auto alloc = cast<memref::AllocOp>(t.alloc);
      OpBuilder b(alloc);
      Value offset = arith::ConstantOp::create(b, alloc.getLoc(), b.getIndexAttr(t.offset));
      Value view = memref::ViewOp::create(b, alloc.getLoc(), alloc.getType(), scratch, offset, ValueRange{});
      for (Operation* user : llvm::make_early_inc_range(alloc->getUsers()))
        if (isa<memref::DeallocOp>(user)) user->erase();
      alloc.replaceAllUsesWith(view);
      alloc.erase();
      ++numViews;
    }
    arenaBytes += total;
    SmallVector<Attribute> types;
    for (Type ty : main.getArgumentTypes()) types.push_back(TypeAttr::get(ty));
    main->setAttr("strata.entry_arg_types", ArrayAttr::get(ctx, types));
    Builder b(ctx);
    module->setAttr("strata.scratch_bytes", b.getI64IntegerAttr(total));
    module->setAttr("strata.temporaries_bytes", b.getI64IntegerAttr(sum));
  }
};

}  // namespace

}  // namespace mlir::strata
