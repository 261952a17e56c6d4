// strata.host_callback → a call of the CPU runtime's strata_rt_host_callback (part of
// --strata-to-linalg): the operands' buffers are read in place, each result gets a fresh buffer,
// and their addresses go into a table on the stack (operands first, in an alloca scope) that
// the call reads, as strata.sort's do; the call's descriptor (counts, then each buffer's dtype, rank and
// dimensions) is a constant. to_tensor restrict gives the results. Buffer assignment sees the
// buffers live up to the call through the table (transforms/BufferAssignment.cpp).
#include "lowering/CpuAbi.h"
#include "lowering/JaxprToStrata.h"
#include "lowering/RuntimeDecl.h"
#include "lowering/StrataToLinalg.h"
#include "dialect/ScalarOps.h"
#include "dialect/StrataOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::strata {
namespace {

struct HostCallbackLowering : OpConversionPattern<HostCallbackOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(HostCallbackOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    Type index = rw.getIndexType(), i64 = rw.getI64Type();
    auto c = [&](Type t, int64_t v) -> Value { return arith::ConstantOp::create(rw, loc, rw.getIntegerAttr(t, v)); };
    SmallVector<int64_t> desc{static_cast<int64_t>(adaptor.getOperands().size()),
                              static_cast<int64_t>(op.getNumResults())};
    // The buffers' dtypes as the callback declared them: unsigned ones were made signless
    // (EraseSignedness, which says which in kUnsignedBuffersAttr).
    auto unsignedBuffers = op->getAttrOfType<DenseBoolArrayAttr>(kUnsignedBuffersAttr);
    size_t buffer = 0;
    auto describe = [&](Type type) -> LogicalResult {
      auto t = cast<RankedTensorType>(type);
      Type element = t.getElementType();
      if (unsignedBuffers && unsignedBuffers.asArrayRef()[buffer] && element.isSignlessInteger())
        element = IntegerType::get(element.getContext(), element.getIntOrFloatBitWidth(), IntegerType::Unsigned);
      ++buffer;
      std::optional<::strata::DType> dtype = dtypeOf(element);
      if (!dtype) return op.emitError("strata.host_callback: no runtime type for ") << t.getElementType();
      desc.append({static_cast<int64_t>(*dtype), t.getRank()});
      desc.append(t.getShape().begin(), t.getShape().end());
      return success();
    };
    SmallVector<Value> pointers, outs;
    for (Value in : adaptor.getOperands()) {
      if (failed(describe(in.getType()))) return failure();
      pointers.push_back(readOnlyPointer(rw, loc, in));
    }
    for (Type t : op.getResultTypes()) {
      if (failed(describe(t))) return failure();
      outs.push_back(freshBuffer(rw, loc, cast<RankedTensorType>(t)));
      pointers.push_back(alignedPointer(rw, loc, outs.back()));
    }
    auto descType = RankedTensorType::get({static_cast<int64_t>(desc.size())}, i64);
    Value descTable = arith::ConstantOp::create(rw, loc, DenseIntElementsAttr::get(descType, ArrayRef<int64_t>(desc)));
    Value id = c(i64, op.getCallback()), descPointer = readOnlyPointer(rw, loc, descTable);
    // The table in an alloca scope: in a loop body (a scan) the stack does not grow per step.
    auto scope = memref::AllocaScopeOp::create(rw, loc, TypeRange{});
    {
      OpBuilder::InsertionGuard guard(rw);
      rw.createBlock(&scope.getBodyRegion());
      Value table = memref::AllocaOp::create(rw, loc, MemRefType::get({static_cast<int64_t>(pointers.size())}, index));
      for (auto [i, p] : llvm::enumerate(pointers))
        memref::StoreOp::create(rw, loc, p, table, c(index, static_cast<int64_t>(i)));
      SmallVector<Value> args{id, descPointer, alignedPointer(rw, loc, table)};
      auto fnType = FunctionType::get(rw.getContext(), TypeRange(args), {});
      func::CallOp::create(
          rw, loc, declareRuntime(rw, op->getParentOfType<ModuleOp>(), ::strata::cpu_abi::kHostCallback, fnType), args);
      memref::AllocaScopeReturnOp::create(rw, loc, ValueRange{});
    }
    SmallVector<Value> results;
    for (auto [out, t] : llvm::zip(outs, op.getResultTypes()))
      results.push_back(bufferization::ToTensorOp::create(rw, loc, t, out, /*restrict=*/true, /*writable=*/true));
    rw.replaceOp(op, results);
    return success();
  }
};

}  // namespace

void populateHostCallbackToRuntimePatterns(RewritePatternSet& patterns) {
  patterns.add<HostCallbackLowering>(patterns.getContext());
}

}  // namespace mlir::strata
