// strata.convolution → a call of the CPU runtime's strata_rt_conv (part of --strata-to-linalg
// with runtime-convolution, which the CPU target sets), as strata.collective calls
// strata_rt_collective: the operands' buffers are read in place (bufferization copies one that
// is not contiguous), the result allocated (bufferization.alloc_tensor → to_buffer), and
// to_tensor restrict gives the result. The runtime runs the eager kernel (tracer/kernels/conv.h:
// a blocked implicit GEMM that never materialises the patch matrix), so compiled and eager
// convolutions are the same bits. Element types the kernel does not take (integers) keep the
// linalg lowering (ConvolutionToLinalg.cpp), as does the cuda target.
#include "dialect/StrataOps.h"
#include "lowering/CpuAbi.h"
#include "lowering/JaxprToStrata.h"
#include "lowering/RuntimeDecl.h"
#include "lowering/StrataToLinalg.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::strata {
namespace {

struct ConvolutionToRuntime : OpConversionPattern<ConvolutionOp> {
  ConvolutionToRuntime(MLIRContext* ctx) : OpConversionPattern(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(ConvolutionOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    auto lhsType = cast<RankedTensorType>(adaptor.getLhs().getType());
    auto rhsType = cast<RankedTensorType>(adaptor.getRhs().getType());
    auto type = cast<RankedTensorType>(op.getType());
    Type element = type.getElementType();
    if (!element.isF32() && !element.isF64() && !element.isBF16() && !element.isF16()) return failure();
    if (lhsType.getElementType() != element || rhsType.getElementType() != element) return failure();
    std::optional<::strata::DType> dtype = dtypeOf(element);
    if (!dtype) return failure();
    if (type.getNumElements() == 0) {  // nothing to compute
      rw.replaceOpWithNewOp<tensor::EmptyOp>(op, type.getShape(), element);
      return success();
    }
    const int64_t rank = lhsType.getRank(), nsp = rank - 2;
    SmallVector<int64_t> desc{rank};
    auto add = [&](ArrayRef<int64_t> v) { desc.append(v.begin(), v.end()); };
    add(lhsType.getShape());
    add(rhsType.getShape());
    add(type.getShape());
    add(op.getLhsSpec());
    add(op.getRhsSpec());
    add(op.getOutSpec());
    add(op.getWindowStrides());
    ArrayRef<int64_t> padding = op.getPadding();
    for (int64_t i = 0; i < nsp; ++i) desc.push_back(padding[2 * i]);
    for (int64_t i = 0; i < nsp; ++i) desc.push_back(padding[2 * i + 1]);
    add(op.getLhsDilation());
    add(op.getRhsDilation());
    desc.append({static_cast<int64_t>(op.getFeatureGroupCount()), static_cast<int64_t>(op.getBatchGroupCount())});
    if (static_cast<int64_t>(desc.size()) != ::strata::cpu_abi::conv_desc_size(rank))
      return op.emitError("strata.convolution: attributes of unexpected lengths for the runtime call");

    Type i64 = rw.getI64Type();
    auto descType = RankedTensorType::get({static_cast<int64_t>(desc.size())}, i64);
    Value table = arith::ConstantOp::create(rw, loc, DenseIntElementsAttr::get(descType, ArrayRef<int64_t>(desc)));
    Value out = freshBuffer(rw, loc, type);
    SmallVector<Value> args{arith::ConstantOp::create(rw, loc, rw.getIntegerAttr(i64, static_cast<int64_t>(*dtype))),
                            readOnlyPointer(rw, loc, table), readOnlyPointer(rw, loc, adaptor.getLhs()),
                            readOnlyPointer(rw, loc, adaptor.getRhs()), alignedPointer(rw, loc, out)};
    rw.replaceOp(op, callRuntime(rw, loc, op->getParentOfType<ModuleOp>(), ::strata::cpu_abi::kConv, args, out, type));
    return success();
  }
};

}  // namespace

void populateConvolutionToRuntimePatterns(RewritePatternSet& patterns) {
  patterns.add<ConvolutionToRuntime>(patterns.getContext());
}

}  // namespace mlir::strata
