// --strata-parallel-launch (on the LLVM dialect): calls of outlined parallel loops become
// launches through the runtime's parallel_for, and GEMM wrappers with an epilogue become one
// strata_rt_dot_ep_<t> call (CpuAbi.h). The algorithm is in Passes.td.
#include "lowering/CpuAbi.h"
#include "lowering/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {

#define GEN_PASS_DEF_PARALLELLAUNCHPASS
#include "lowering/Passes.h.inc"

namespace {

namespace abi = ::strata::cpu_abi;

// The positions, among F's LLVM arguments, of the aligned pointer of each buffer argument
// (memref → allocated ptr, aligned ptr, offset, sizes, strides; scalars → one argument).
SmallVector<unsigned> alignedPointerPositions(ArrayAttr types) {
  SmallVector<unsigned> r;
  unsigned pos = 0;
  for (Attribute a : types) {
    Type t = cast<TypeAttr>(a).getValue();
    if (auto m = dyn_cast<MemRefType>(t)) {
      r.push_back(pos + 1);
      pos += 3 + 2 * static_cast<unsigned>(m.getRank());
    } else {
      pos += 1;
    }
  }
  return r;
}

LLVM::LLVMFuncOp declareLlvm(ModuleOp module, StringRef name, LLVM::LLVMFunctionType type) {
  if (auto f = module.lookupSymbol<LLVM::LLVMFuncOp>(name)) return f;
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

struct ParallelLaunchPass : impl::ParallelLaunchPassBase<ParallelLaunchPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(launchGemmEpilogues())) return signalPassFailure();
    ModuleOp module = getOperation();
    SmallVector<LLVM::LLVMFuncOp> bodies;
    module.walk([&](LLVM::LLVMFuncOp f) {
      if (f->hasAttr("strata.parallel_grain")) bodies.push_back(f);
    });
    if (bodies.empty()) return;
    MLIRContext* ctx = &getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    auto voidType = LLVM::LLVMVoidType::get(ctx);
    auto runtime = declareLlvm(module, abi::kParallelFor,
                               LLVM::LLVMFunctionType::get(voidType, {ptr, ptr, i64, i64}));
    for (LLVM::LLVMFuncOp body : bodies) {
      markNoalias(body);
      ArrayRef<Type> params = body.getFunctionType().getParams();
      if (params.size() < 2) {
        body.emitError("strata-parallel-launch: expects (lo, hi, ...) arguments");
        return signalPassFailure();
      }
      auto capturedTypes = params.drop_front(2);
      auto structType = LLVM::LLVMStructType::getLiteral(ctx, capturedTypes);
      // The calls to launch: collected before the trampoline adds its own call of the body.
      SmallVector<LLVM::CallOp> calls;
      module.walk([&](LLVM::CallOp call) {
        if (call.getCallee() == body.getName()) calls.push_back(call);
      });
      LLVM::LLVMFuncOp task = makeTask(module, body, structType);
      int64_t grain = body->getAttrOfType<IntegerAttr>("strata.parallel_grain").getInt();
      for (LLVM::CallOp call : calls) {
        OpBuilder b(call);
        Location loc = call.getLoc();
        ValueRange operands = call.getArgOperands();
        Value frame = storeFrame(b, loc, structType, operands.drop_front(2));
        Value fn = LLVM::AddressOfOp::create(b, loc, task);
        Value n = LLVM::SubOp::create(b, loc, operands[1], operands[0]);
        Value g = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(grain));
        LLVM::CallOp::create(b, loc, runtime, ValueRange{fn, frame, n, g});
        call.erase();
        ++numLaunches;
      }
      // Only the task calls the body now: internal and always inlined, so LLVM inlines it
      // there before optimising anything and drops it, rather than simplifying its loops once
      // on their own and again inside the task.
      body.setLinkage(LLVM::Linkage::Internal);
      body.setAlwaysInline(true);
    }
  }

  static void markNoalias(LLVM::LLVMFuncOp body) {
    if (!body->hasAttr("strata.noalias_args")) return;
    if (auto types = body->getAttrOfType<ArrayAttr>("strata.arg_types"))
      for (unsigned pos : alignedPointerPositions(types))
        if (pos < body.getNumArguments()) body.setArgAttr(pos, "llvm.noalias", UnitAttr::get(body.getContext()));
  }

  // Step 1: GEMM wrappers → strata_rt_dot_ep_<t>(dot arguments, E_task, ctx).
  LogicalResult launchGemmEpilogues() {
    ModuleOp module = getOperation();
    SmallVector<LLVM::LLVMFuncOp> wrappers;
    module.walk([&](LLVM::LLVMFuncOp f) {
      if (f->hasAttr("strata.gemm_epilogue_of")) wrappers.push_back(f);
    });
    MLIRContext* ctx = &getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    constexpr unsigned kDotArgs = 9;  // flags, B, M, N, K, lhs, rhs, out, workspace
    for (LLVM::LLVMFuncOp wrapper : wrappers) {
      auto epilogueName = wrapper->getAttrOfType<FlatSymbolRefAttr>("strata.gemm_epilogue_of");
      auto runtimeName = wrapper->getAttrOfType<StringAttr>("strata.runtime");
      auto epilogue = module.lookupSymbol<LLVM::LLVMFuncOp>(epilogueName.getValue());
      ArrayRef<Type> params = wrapper.getFunctionType().getParams();
      if (!epilogue || !runtimeName || params.size() < kDotArgs ||
          epilogue.getFunctionType().getNumParams() < 4)
        return wrapper.emitError("strata-parallel-launch: malformed GEMM epilogue wrapper");
      markNoalias(epilogue);
      SmallVector<Type> runtimeParams(params.take_front(kDotArgs));
      runtimeParams.append({ptr, ptr});
      auto runtime = declareLlvm(module, runtimeName.getValue(),
                                 LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), runtimeParams));
      auto structType =
          LLVM::LLVMStructType::getLiteral(ctx, epilogue.getFunctionType().getParams().drop_front(4));
      SmallVector<LLVM::CallOp> calls;
      module.walk([&](LLVM::CallOp call) {
        if (call.getCallee() == wrapper.getName()) calls.push_back(call);
      });
      LLVM::LLVMFuncOp task = makeTask(module, epilogue, structType, 4);
      for (LLVM::CallOp call : calls) {
        OpBuilder b(call);
        Location loc = call.getLoc();
        ValueRange operands = call.getArgOperands();
        Value frame = storeFrame(b, loc, structType, operands.drop_front(kDotArgs));
        SmallVector<Value> args(operands.take_front(kDotArgs));
        args.push_back(LLVM::AddressOfOp::create(b, loc, task));
        args.push_back(frame);
        LLVM::CallOp::create(b, loc, runtime, args);
        call.erase();
        ++numEpilogueLaunches;
      }
      epilogue.setLinkage(LLVM::Linkage::Internal);  // only its task calls it (as for bodies)
      epilogue.setAlwaysInline(true);
      wrapper.erase();
    }
    return success();
  }

  // A stack struct holding `values`.
  static Value storeFrame(OpBuilder& b, Location loc, LLVM::LLVMStructType structType, ValueRange values) {
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    Value one = LLVM::ConstantOp::create(b, loc, b.getI64Type(), b.getI64IntegerAttr(1));
    Value frame = LLVM::AllocaOp::create(b, loc, ptr, structType, one, 16);
    for (auto [i, v] : llvm::enumerate(values)) {
      Value slot = LLVM::GEPOp::create(b, loc, ptr, structType, frame,
                                       ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      LLVM::StoreOp::create(b, loc, v, slot);
    }
    return frame;
  }

  // F_task(ctx, bounds...) { F(bounds..., ctx->captured...) } with `bounds` i64 arguments.
  LLVM::LLVMFuncOp makeTask(ModuleOp module, LLVM::LLVMFuncOp body, LLVM::LLVMStructType structType,
                            unsigned bounds = 2) {
    // One task per body, however many wrappers launch it.
    const std::string name = (body.getName() + "_task").str();
    if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name)) return existing;
    MLIRContext* ctx = module.getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    OpBuilder b(ctx);
    b.setInsertionPointAfter(body);
    Location loc = body.getLoc();
    SmallVector<Type> params{ptr};
    params.append(bounds, i64);
    auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), params);
    auto task = LLVM::LLVMFuncOp::create(b, loc, name, type,
                                         LLVM::Linkage::Internal);
    Block* entry = task.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    SmallVector<Value> args(entry->getArguments().drop_front(1));
    for (auto [i, t] : llvm::enumerate(structType.getBody())) {
      Value slot = LLVM::GEPOp::create(b, loc, ptr, structType, entry->getArgument(0),
                                       ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      args.push_back(LLVM::LoadOp::create(b, loc, t, slot));
    }
    LLVM::CallOp::create(b, loc, body, args);
    LLVM::ReturnOp::create(b, loc, ValueRange{});
    return task;
  }
};

}  // namespace
}  // namespace mlir::strata
