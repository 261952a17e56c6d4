// strata.linalg → a call of the CPU runtime's strata_rt_linalg (part of --strata-to-linalg), as
// XLA:CPU calls LAPACK: the operands' buffers (read-only) and freshly allocated results
// (bufferization.alloc_tensor → to_buffer), their pointers passed as the call's arguments, and
// to_tensor restrict gives the results. The runtime runs the eager kernels' code
// (tracer/kernels/linalg.h), so compiled and eager results are the same bits.
#include "lowering/CpuAbi.h"
#include "lowering/RuntimeDecl.h"
#include "lowering/StrataToLinalg.h"
#include "dialect/StrataOps.h"
#include "linalg_rules.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::strata {
namespace {

struct LinalgLowering : OpConversionPattern<LinalgOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LinalgOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    std::optional<::strata::linalg_rules::Kind> kind = ::strata::linalg_rules::kind_from_name(op.getKind());
    if (!kind) return failure();
    ValueRange inputs = adaptor.getOperands();
    auto a = cast<RankedTensorType>(inputs[0].getType());
    ArrayRef<int64_t> s = a.getShape();
    int64_t batch = 1;
    for (size_t i = 0; i + 2 < s.size(); ++i) batch *= s[i];
    int64_t bRows = 0, bCols = 0;
    if (inputs.size() > 1) {
      ArrayRef<int64_t> b = cast<RankedTensorType>(inputs[1].getType()).getShape();
      bRows = b[b.size() - 2];
      bCols = b[b.size() - 1];
    }
    Type index = rw.getIndexType(), i64 = rw.getI64Type();
    auto c = [&](Type t, int64_t v) -> Value { return arith::ConstantOp::create(rw, loc, rw.getIntegerAttr(t, v)); };
    // The kernels only read their operands: each one's own buffer, read-only (bufferization
    // copies it only when it is a strided view, which the call cannot take); they write fresh
    // result buffers.
    SmallVector<Value> pointers, outs;
    for (Value in : inputs) pointers.push_back(readOnlyPointer(rw, loc, in));
    SmallVector<RankedTensorType> resultTypes;
    for (Type t : op.getResultTypes()) {
      resultTypes.push_back(cast<RankedTensorType>(t));
      outs.push_back(freshBuffer(rw, loc, resultTypes.back()));
      pointers.push_back(alignedPointer(rw, loc, outs.back()));
    }
    // The pointers go to the call itself (not through a stack array), so that buffer
    // assignment sees every buffer live up to the call (transforms/BufferAssignment.cpp).
    Type element = a.getElementType();
    auto complex = dyn_cast<ComplexType>(element);
    int64_t code = ((complex ? complex.getElementType() : element).isF64() ? 1 : 0) | (complex ? 2 : 0);
    SmallVector<Value> args{c(i64, static_cast<int64_t>(*kind)), c(i64, op.getFlags()), c(i64, code), c(i64, batch),
                            c(i64, s[s.size() - 2]),  c(i64, s[s.size() - 1]), c(i64, bRows), c(i64, bCols)};
    SmallVector<Type> argTypes(8, i64);
    if (pointers.size() > static_cast<size_t>(::strata::cpu_abi::kLinalgBuffers))
      return op.emitError("strata.linalg: more operands and results than the runtime call takes");
    for (size_t i = 0; i < static_cast<size_t>(::strata::cpu_abi::kLinalgBuffers); ++i) {
      args.push_back(i < pointers.size() ? pointers[i] : c(index, 0));
      argTypes.push_back(index);
    }
    ModuleOp module = op->getParentOfType<ModuleOp>();
    auto fnType = FunctionType::get(getContext(), argTypes, {});
    func::FuncOp runtime = declareRuntime(rw, module, ::strata::cpu_abi::kLinalg, fnType);
    func::CallOp::create(rw, loc, runtime, args);
    SmallVector<Value> results;
    for (auto [i, t] : llvm::enumerate(resultTypes))
      results.push_back(bufferization::ToTensorOp::create(rw, loc, t, outs[i], /*restrict=*/true, /*writable=*/true));
    rw.replaceOp(op, results);
    return success();
  }
};

}  // namespace

void populateLinalgToRuntimePatterns(RewritePatternSet& patterns) {
  patterns.add<LinalgLowering>(patterns.getContext());
}

}  // namespace mlir::strata
