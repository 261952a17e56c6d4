// strata.collective → a call of the CPU runtime's strata_rt_collective (part of
// --strata-to-linalg), as strata.linalg calls strata_rt_linalg: the operand's buffer is read in
// place and the result allocated (bufferization.alloc_tensor → to_buffer), their
// pointers passed to the call, and to_tensor restrict gives the result. The runtime runs
// collectives::run, the eager kernels' code, on the process's transport.
#include "lowering/CpuAbi.h"
#include "lowering/RuntimeDecl.h"
#include "lowering/JaxprToStrata.h"
#include "lowering/StrataToLinalg.h"
#include "dialect/StrataOps.h"
#include "collective_rules.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::strata {
namespace {

namespace cr = ::strata::collective_rules;

struct CollectiveLowering : OpConversionPattern<CollectiveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(CollectiveOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    std::optional<cr::Kind> kind = cr::kind_from_name(op.getKind());
    if (!kind) return failure();
    cr::Group group{std::vector<int64_t>(op.getMesh().begin(), op.getMesh().end()),
                    std::vector<int64_t>(op.getMeshDims().begin(), op.getMeshDims().end())};
    std::optional<int64_t> packed = cr::pack(group);
    if (!packed) return op.emitError("strata.collective: the runtime takes meshes of at most 4 axes of at most 4095");
    Type index = rw.getIndexType(), i64 = rw.getI64Type();
    auto c = [&](Type t, int64_t v) -> Value { return arith::ConstantOp::create(rw, loc, rw.getIntegerAttr(t, v)); };
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    Type element = resultType.getElementType();
    int64_t inElements = 0;
    Value in = c(index, 0);
    if (!adaptor.getOperands().empty()) {
      auto t = cast<RankedTensorType>(adaptor.getOperands()[0].getType());
      element = t.getElementType();
      inElements = t.getNumElements();
      in = readOnlyPointer(rw, loc, adaptor.getOperands()[0]);
    }
    std::optional<::strata::DType> dtype = dtypeOf(element);
    if (!dtype) return op.emitError("strata.collective: no runtime type for ") << element;
    Value perm = c(index, 0);
    if (*kind == cr::Kind::kPpermute) {
      std::vector<int64_t> dest = cr::destinations(std::vector<int64_t>(op.getPerm().begin(), op.getPerm().end()),
                                                   op.getAxisSize());
      auto t = RankedTensorType::get({static_cast<int64_t>(dest.size())}, i64);
      Value table = arith::ConstantOp::create(rw, loc, DenseIntElementsAttr::get(t, ArrayRef<int64_t>(dest)));
      perm = alignedPointer(rw, loc, freshBuffer(rw, loc, t, table));
    }
    Value out = freshBuffer(rw, loc, resultType);
    SmallVector<Value> args{c(i64, static_cast<int64_t>(*kind)), c(i64, static_cast<int64_t>(*dtype)), c(i64, *packed),
                            c(i64, inElements), in, alignedPointer(rw, loc, out), perm};
    rw.replaceOp(op, callRuntime(rw, loc, op->getParentOfType<ModuleOp>(), ::strata::cpu_abi::kCollective, args, out,
                                 resultType));
    return success();
  }
};

}  // namespace

void populateCollectiveToRuntimePatterns(RewritePatternSet& patterns) {
  patterns.add<CollectiveLowering>(patterns.getContext());
}

}  // namespace mlir::strata
