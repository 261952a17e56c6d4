// --strata-cpu-entry (on the LLVM dialect): the entry point `strata_entry(void* const*
// buffers)` (CpuAbi.h), which rebuilds each memref descriptor of the entry function from a bare
// pointer and calls it (Passes.td); the entry function becomes internal.
// REQUIRES: the entry function carries strata.entry_arg_types (the scratch arena pass sets it).
#include "lowering/CpuAbi.h"
#include "lowering/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {

#define GEN_PASS_DEF_CPUENTRYPASS
#include "lowering/Passes.h.inc"

namespace {

struct CpuEntryPass : impl::CpuEntryPassBase<CpuEntryPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext* ctx = &getContext();
    // The entry function is the one the scratch arena pass marked.
    LLVM::LLVMFuncOp main;
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      if (fn->hasAttr("strata.entry_arg_types")) main = fn;
    auto types = main ? main->getAttrOfType<ArrayAttr>("strata.entry_arg_types") : ArrayAttr();
    if (!types) {
      module.emitError("strata-cpu-entry: expects a function with strata.entry_arg_types");
      return signalPassFailure();
    }
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    OpBuilder b(ctx);
    b.setInsertionPointToEnd(module.getBody());
    Location loc = main.getLoc();
    auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr});
    auto entry = LLVM::LLVMFuncOp::create(b, loc, ::strata::cpu_abi::kEntry, type);
    Block* block = entry.addEntryBlock(b);
    b.setInsertionPointToStart(block);
    auto c = [&](int64_t v) -> Value { return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v)); };
    SmallVector<Value> args;
    SmallVector<unsigned> aligned;
    for (auto [i, a] : llvm::enumerate(types)) {
      auto m = dyn_cast<MemRefType>(cast<TypeAttr>(a).getValue());
      if (!m || !m.hasStaticShape() || !m.getLayout().isIdentity()) {
        main.emitError("strata-cpu-entry: expects contiguous static buffers, but got ")
            << cast<TypeAttr>(a).getValue();
        return signalPassFailure();
      }
      Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, block->getArgument(0),
                                       ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      Value p = LLVM::LoadOp::create(b, loc, ptr, slot);
      aligned.push_back(args.size() + 1);
      args.append({p, p, c(0)});
      ArrayRef<int64_t> shape = m.getShape();
      for (int64_t s : shape) args.push_back(c(s));
      SmallVector<int64_t> strides(shape.size(), 1);
      for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d) strides[d] = strides[d + 1] * shape[d + 1];
      for (int64_t s : strides) args.push_back(c(s));
    }
    if (args.size() != main.getNumArguments()) {
      main.emitError("strata-cpu-entry: expects ") << args.size() << " LLVM arguments of @main, but got "
                                                    << main.getNumArguments();
      return signalPassFailure();
    }
    LLVM::CallOp::create(b, loc, main, args);
    LLVM::ReturnOp::create(b, loc, ValueRange{});
    for (unsigned pos : aligned) main.setArgAttr(pos, "llvm.noalias", UnitAttr::get(ctx));
    // Only strata_entry is called from outside. An internal @main with one caller is inlined
    // into it, so the descriptors' constant offsets, sizes and strides fold into its body (ops50's
    // optimised IR 723 -> 689 lines, softmax's 313 -> 258) and no separate copy is kept.
    main.setLinkage(LLVM::Linkage::Internal);
    numBuffers += static_cast<int64_t>(types.size());
  }
};

}  // namespace
}  // namespace mlir::strata
