// strata.fft → a call of the CPU runtime's strata_rt_fft (part of --strata-to-linalg), as
// XLA:CPU calls its FFT library: the operand's buffer (read-only) and a fresh result buffer,
// their pointers passed as the call's arguments, to_tensor restrict giving the result. The
// runtime runs the eager kernel's code (tracer/kernels/fft.h), so compiled and eager results
// are the same bits.
#include "lowering/CpuAbi.h"
#include "lowering/RuntimeDecl.h"
#include "lowering/StrataToLinalg.h"
#include "dialect/StrataOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::strata {
namespace {

struct FftLowering : OpConversionPattern<FftOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(FftOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    auto in = cast<RankedTensorType>(adaptor.getOperand().getType());
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    ArrayRef<int64_t> lengths = op.getFftLength();
    if (lengths.empty() || lengths.size() > 3) return op.emitError("strata.fft: expects 1 to 3 fft lengths");
    int64_t batch = 1;
    for (size_t i = 0; i + lengths.size() < static_cast<size_t>(in.getRank()); ++i) batch *= in.getShape()[i];
    Type element = in.getElementType();
    if (auto c = dyn_cast<ComplexType>(element)) element = c.getElementType();
    Type index = rw.getIndexType(), i64 = rw.getI64Type();
    auto c = [&](Type t, int64_t v) -> Value { return arith::ConstantOp::create(rw, loc, rw.getIntegerAttr(t, v)); };
    Value operand = readOnlyPointer(rw, loc, adaptor.getOperand());
    Value out = freshBuffer(rw, loc, resultType);
    // The pointers go to the call itself, so that buffer assignment sees both buffers live up
    // to the call (transforms/BufferAssignment.cpp).
    SmallVector<Value> args{c(i64, static_cast<int64_t>(op.getFftType())), c(i64, element.isF64() ? 1 : 0), c(i64, batch),
                            c(i64, static_cast<int64_t>(lengths.size()))};
    for (size_t i = 0; i < 3; ++i) args.push_back(c(i64, i < lengths.size() ? lengths[i] : 1));
    args.push_back(operand);
    args.push_back(alignedPointer(rw, loc, out));
    SmallVector<Type> argTypes(7, i64);
    argTypes.append({index, index});
    ModuleOp module = op->getParentOfType<ModuleOp>();
    func::FuncOp runtime = declareRuntime(rw, module, ::strata::cpu_abi::kFft, FunctionType::get(getContext(), argTypes, {}));
    func::CallOp::create(rw, loc, runtime, args);
    rw.replaceOp(op, bufferization::ToTensorOp::create(rw, loc, resultType, out, /*restrict=*/true, /*writable=*/true));
    return success();
  }
};

}  // namespace

void populateFftToRuntimePatterns(RewritePatternSet& patterns) { patterns.add<FftLowering>(patterns.getContext()); }

}  // namespace mlir::strata
