// --strata-scratch-arena: every temporary buffer of @main becomes a view into one scratch
// arena, a trailing argument of @main, so that the generated code never allocates.
//
// 1. The offsets are the BufferAssignment's (transforms/BufferAssignment.h): allocations that
//    strata-assign-buffers placed (the `buffers` stage) keep their strata.offset; those made
//    since (the runtime GEMM's workspaces and contiguous copies) are placed around them by the
//    same liveness, on the schedule as it is now. With strata.assign_buffers = false nothing
//    shares: every temporary has its own slot.
// 2. Each alloc becomes memref.view %scratch[offset]; @main gains the argument
//    `%scratch: memref<Sxi8>` and the attribute strata.entry_arg_types (its arguments' types,
//    for the entry point); the module records strata.scratch_bytes (S) and
//    strata.temporaries_bytes (the sum of all temporaries, before sharing).
// REQUIRES: bufferized, results turned into out-params, static shapes.
#include <algorithm>

#include "lowering/CpuPasses.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "transforms/BufferAssignment.h"

namespace mlir::strata {
namespace {

struct ScratchArenaPass : PassWrapper<ScratchArenaPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ScratchArenaPass)
  StringRef getArgument() const override { return "strata-scratch-arena"; }
  StringRef getDescription() const override {
    return "Place @main's temporary buffers in one scratch arena argument";
  }
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
    if (auto share = module->getAttrOfType<BoolAttr>("strata.assign_buffers")) options.share = share.getValue();
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
    }
    SmallVector<Attribute> types;
    for (Type ty : main.getArgumentTypes()) types.push_back(TypeAttr::get(ty));
    main->setAttr("strata.entry_arg_types", ArrayAttr::get(ctx, types));
    Builder b(ctx);
    module->setAttr("strata.scratch_bytes", b.getI64IntegerAttr(total));
    module->setAttr("strata.temporaries_bytes", b.getI64IntegerAttr(sum));
  }
};

}  // namespace

std::unique_ptr<Pass> createScratchArenaPass() { return std::make_unique<ScratchArenaPass>(); }

}  // namespace mlir::strata
