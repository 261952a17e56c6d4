// `strata` → linalg/arith/math/tensor: one conversion pattern per op family.
//
//  - elementwise ops (ScalarOpInterface: unary, binary, compare, select, convert,
//    bitcast_convert): a linalg.generic whose body is the op's scalar semantics;
//  - constant → arith.constant; iota, broadcast_in_dim, transpose → linalg.generic;
//  - reshape → tensor.collapse_shape/expand_shape (views once bufferized);
//  - slice → tensor.extract_slice; pad → linalg.fill + strided tensor.insert_slice;
//    concatenate → tensor.insert_slice per operand;
//  - reduce → a linalg.generic with reduction iterators (the innermost loop along the operand's
//    innermost dimension) whose body is the reduce body evaluated on scalars, accumulating
//    bf16/f16 in f32;
//  - dot_general → linalg.batch_matmul on [B, M, K] × [B, K, N] views of its operands (a copy
//    first, as the eager kernel makes, when an operand's dimensions are in neither the
//    (batch, free, contract) nor the (batch, contract, free) order); transposed operands are
//    the op's indexing maps, so no copy; the runtime GEMM pass later turns it into a call;
//  - threefry2x32 → a linalg.generic with two results and the 20 rounds unrolled;
//  - fusion → one loop nest per region (FusionToLinalg.cpp), before the patterns run.
// REQUIRES: static shapes (the dialect's types guarantee them).
#include "lowering/StrataToLinalg.h"

#include "dialect/StrataDialect.h"
#include "dialect/ScalarOps.h"
#include "dialect/StrataOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::strata {
namespace {

using utils::IteratorType;

RankedTensorType tensorOf(Value v) { return cast<RankedTensorType>(v.getType()); }

Value emptyLike(OpBuilder& b, Location loc, ArrayRef<int64_t> shape, Type element) {
  return tensor::EmptyOp::create(b, loc, shape, element);
}

SmallVector<IteratorType> parallelIterators(int64_t rank) {
  return SmallVector<IteratorType>(rank, IteratorType::parallel);
}

// `value` (any static shape) with the same elements under `shape`: collapse to 1-D, then
// expand; each step is a view once bufferized.
Value reshapeTo(OpBuilder& b, Location loc, Value value, ArrayRef<int64_t> shape) {
  auto type = tensorOf(value);
  if (type.getShape() == shape) return value;
  Type element = type.getElementType();
  if (type.getRank() == 0)  // all of `shape` is 1
    return tensor::ExpandShapeOp::create(b, loc, RankedTensorType::get(shape, element), value,
                                         ArrayRef<ReassociationIndices>{});
  if (shape.empty())
    return tensor::CollapseShapeOp::create(b, loc, RankedTensorType::get({}, element), value,
                                           ArrayRef<ReassociationIndices>{});
  Value flat = value;
  if (type.getRank() != 1) {
    ReassociationIndices all;
    for (int64_t d = 0; d < type.getRank(); ++d) all.push_back(d);
    flat = tensor::CollapseShapeOp::create(b, loc, value, ArrayRef<ReassociationIndices>{all});
  }
  if (shape.size() == 1) return flat;
  ReassociationIndices all;
  for (size_t d = 0; d < shape.size(); ++d) all.push_back(static_cast<int64_t>(d));
  return tensor::ExpandShapeOp::create(b, loc, RankedTensorType::get(shape, element), flat,
                                       ArrayRef<ReassociationIndices>{all});
}

// A 0-d tensor's element as a scalar.
Value scalarOf(OpBuilder& b, Location loc, Value zeroD) {
  return tensor::ExtractOp::create(b, loc, zeroD, ValueRange{});
}

SmallVector<OpFoldResult> indexAttrs(OpBuilder& b, ArrayRef<int64_t> v) {
  SmallVector<OpFoldResult> r;
  for (int64_t x : v) r.push_back(b.getIndexAttr(x));
  return r;
}

}  // namespace

SmallVector<Value> emitScalarBody(OpBuilder& b, Location loc, Block& body, ValueRange args) {
  IRMapping map;
  for (auto [a, v] : llvm::zip(body.getArguments(), args)) map.map(a, v);
  for (Operation& op : body.without_terminator()) {
    Value r;
    if (auto c = dyn_cast<ConstantOp>(op)) {
      auto dense = cast<DenseElementsAttr>(c.getValue());
      r = toCompute(b, loc, splatConstant(b, loc, dense));
    } else {
      SmallVector<Value> in;
      for (Value v : op.getOperands()) in.push_back(map.lookup(v));
      r = emitScalar(b, loc, &op, in, /*reassociate=*/true);
      // A bf16/f16 value inside the body is rounded to its type, as StableHLO's ops (and the
      // fused elementwise ops) compute; what the body yields stays in the accumulator's type.
      Type element = getElementTypeOrSelf(op.getResult(0).getType());
      bool yielded = llvm::is_contained(body.getTerminator()->getOperands(), op.getResult(0));
      if (r && !yielded && computeType(element) != element && r.getType() != element)
        r = toCompute(b, loc, toStorage(b, loc, r, element));
    }
    map.map(op.getResult(0), r);
  }
  SmallVector<Value> out;
  for (Value v : body.getTerminator()->getOperands()) out.push_back(map.lookup(v));
  return out;
}

namespace {

// ---- Elementwise ----------------------------------------------------------------------

// Every elementwise op of the dialect (ScalarOpInterface): a parallel linalg.generic whose body
// is the op's scalar semantics.
struct ElementwiseLowering : OpInterfaceConversionPattern<ScalarOpInterface> {
  using OpInterfaceConversionPattern::OpInterfaceConversionPattern;

  LogicalResult matchAndRewrite(ScalarOpInterface op, ArrayRef<Value> operands,
                                ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    int64_t rank = resultType.getRank();
    // Elementwise: operands and result of one shape.
    SmallVector<AffineMap> maps(operands.size() + 1, AffineMap::getMultiDimIdentityMap(rank, getContext()));
    Value init = emptyLike(rw, loc, resultType.getShape(), resultType.getElementType());
    auto generic = linalg::GenericOp::create(
        rw, loc, TypeRange{resultType}, operands, ValueRange{init}, maps,
        parallelIterators(rank), [&](OpBuilder& b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, emitElement(b, l, op, args.drop_back()));
        });
    rw.replaceOp(op, generic.getResults());
    return success();
  }
};

// ---- Constants and index generation ---------------------------------------------------

struct ConstantLowering : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ConstantOp op, OpAdaptor, ConversionPatternRewriter& rw) const override {
    rw.replaceOpWithNewOp<arith::ConstantOp>(op, op.getType(), cast<TypedAttr>(op.getValue()));
    return success();
  }
};

struct IotaLowering : OpConversionPattern<IotaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(IotaOp op, OpAdaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    int64_t rank = type.getRank(), dim = op.getIotaDimension();
    Type element = type.getElementType();
    Value init = emptyLike(rw, loc, type.getShape(), element);
    auto generic = linalg::GenericOp::create(
        rw, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
        {AffineMap::getMultiDimIdentityMap(rank, getContext())}, parallelIterators(rank),
        [&](OpBuilder& b, Location l, ValueRange) {
          Value i = linalg::IndexOp::create(b, l, dim);
          Value i64 = arith::IndexCastOp::create(b, l, b.getI64Type(), i);
          Value v = emitConvert(b, l, i64, b.getI64Type(), element);
          linalg::YieldOp::create(b, l, toStorage(b, l, v, element));
        });
    rw.replaceOp(op, generic.getResults());
    return success();
  }
};

// ---- Shape and data movement ----------------------------------------------------------

// A tensor of `type` whose element at index i is `input`'s at `inputExprs`(i): broadcasts and
// transposes, as one parallel copy.
Value copyGeneric(OpBuilder& b, Location loc, Value input, ArrayRef<AffineExpr> inputExprs, RankedTensorType type) {
  int64_t rank = type.getRank();
  MLIRContext* ctx = b.getContext();
  SmallVector<AffineMap> maps{AffineMap::get(rank, 0, inputExprs, ctx), AffineMap::getMultiDimIdentityMap(rank, ctx)};
  Value init = emptyLike(b, loc, type.getShape(), type.getElementType());
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{input}, ValueRange{init}, maps, parallelIterators(rank),
             [](OpBuilder& nb, Location l, ValueRange args) { linalg::YieldOp::create(nb, l, args[0]); })
      .getResult(0);
}

struct BroadcastInDimLowering : OpConversionPattern<BroadcastInDimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BroadcastInDimOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    auto inType = tensorOf(adaptor.getOperand());
    ArrayRef<int64_t> dims = op.getBroadcastDimensions();
    SmallVector<AffineExpr> exprs;
    for (int64_t i = 0; i < inType.getRank(); ++i) {
      bool stretched = inType.getDimSize(i) == 1 && type.getDimSize(dims[i]) != 1;
      exprs.push_back(stretched ? rw.getAffineConstantExpr(0) : rw.getAffineDimExpr(dims[i]));
    }
    rw.replaceOp(op, copyGeneric(rw, loc, adaptor.getOperand(), exprs, type));
    return success();
  }
};

// optimization_barrier: the strata-level passes (CSE, fusion) have run; from here the results
// are the operands.
struct OptimizationBarrierLowering : OpConversionPattern<OptimizationBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(OptimizationBarrierOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    rw.replaceOp(op, adaptor.getOperands());
    return success();
  }
};

struct ReshapeLowering : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ReshapeOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    auto type = cast<RankedTensorType>(op.getType());
    rw.replaceOp(op, reshapeTo(rw, op.getLoc(), adaptor.getOperand(), type.getShape()));
    return success();
  }
};

// result[i...] = operand[j...] with j[perm[k]] = i[k].
struct TransposeLowering : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TransposeOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> perm = op.getPermutation();
    int64_t rank = type.getRank();
    SmallVector<AffineExpr> exprs(rank);
    for (int64_t k = 0; k < rank; ++k) exprs[perm[k]] = rw.getAffineDimExpr(k);
    rw.replaceOp(op, copyGeneric(rw, loc, adaptor.getOperand(), exprs, type));
    return success();
  }
};

struct SliceLowering : OpConversionPattern<SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SliceOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    auto type = cast<RankedTensorType>(op.getType());
    rw.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, type, adaptor.getOperand(), indexAttrs(rw, op.getStartIndices()),
        indexAttrs(rw, type.getShape()), indexAttrs(rw, op.getStrides()));
    return success();
  }
};

// The padding value everywhere, then the operand at low + i * (interior + 1).
struct PadLowering : OpConversionPattern<PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PadOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    // Negative edges: pad by the non-negative part, then cut the rest off (a view).
    SmallVector<int64_t> lo, shape(type.getShape()), crop;
    bool cropped = false;
    for (auto [d, l] : llvm::enumerate(op.getEdgePaddingLow())) {
      int64_t h = op.getEdgePaddingHigh()[d];
      lo.push_back(std::max<int64_t>(l, 0));
      crop.push_back(type.getShape()[d] == 0 ? 0 : std::max<int64_t>(-l, 0));  // an empty slice starts at 0
      shape[d] += std::max<int64_t>(-l, 0) + std::max<int64_t>(-h, 0);
      cropped |= l < 0 || h < 0;
    }
    Value init = emptyLike(rw, loc, shape, type.getElementType());
    Value value = scalarOf(rw, loc, adaptor.getPaddingValue());
    Value filled = linalg::FillOp::create(rw, loc, ValueRange{value}, ValueRange{init}).getResult(0);
    SmallVector<int64_t> strides;
    for (int64_t i : op.getInteriorPadding()) strides.push_back(i + 1);
    auto inType = tensorOf(adaptor.getOperand());
    Value padded = tensor::InsertSliceOp::create(rw, loc, adaptor.getOperand(), filled, indexAttrs(rw, lo),
                                                 indexAttrs(rw, inType.getShape()), indexAttrs(rw, strides));
    if (cropped)
      padded = tensor::ExtractSliceOp::create(rw, loc, type, padded, indexAttrs(rw, crop),
                                              indexAttrs(rw, type.getShape()),
                                              indexAttrs(rw, SmallVector<int64_t>(shape.size(), 1)));
    rw.replaceOp(op, padded);
    return success();
  }
};

struct ConcatenateLowering : OpConversionPattern<ConcatenateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ConcatenateOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    int64_t dim = op.getDimension();
    Value result = emptyLike(rw, loc, type.getShape(), type.getElementType());
    SmallVector<int64_t> offsets(type.getRank(), 0), ones(type.getRank(), 1);
    for (Value in : adaptor.getInputs()) {
      auto inType = tensorOf(in);
      // An empty operand writes nothing; inserting it would be out of bounds when the result
      // is empty too (offset 0 into a dimension of size 0).
      if (inType.getNumElements() != 0)
        result = tensor::InsertSliceOp::create(rw, loc, in, result, indexAttrs(rw, offsets),
                                               indexAttrs(rw, inType.getShape()), indexAttrs(rw, ones));
      offsets[dim] += inType.getDimSize(dim);
    }
    rw.replaceOp(op, result);
    return success();
  }
};

// ---- Reductions -----------------------------------------------------------------------

}  // namespace

ReductionLoops reductionLoops(MLIRContext* ctx, ArrayRef<int64_t> shape, ArrayRef<int64_t> dims) {
  auto rank = static_cast<int64_t>(shape.size());
  SmallVector<bool> reduced(rank, false);
  for (int64_t d : dims) reduced[d] = true;
  int64_t innermost = rank - 1;
  while (innermost > 0 && shape[innermost] == 1) --innermost;
  bool keptFirst = rank == 0 || reduced[innermost];
  int64_t keptCount = 0;
  for (int64_t d = 0; d < rank; ++d) keptCount += !reduced[d];
  ReductionLoops l;
  l.position.resize(rank);
  l.ranges.resize(rank);
  l.iterators.assign(rank, utils::IteratorType::parallel);
  int64_t nextKept = keptFirst ? 0 : rank - keptCount, nextReduced = keptFirst ? keptCount : 0;
  SmallVector<AffineExpr> inExprs, outExprs;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t loop = l.position[d] = reduced[d] ? nextReduced++ : nextKept++;
    l.ranges[loop] = shape[d];
    AffineExpr e = getAffineDimExpr(static_cast<unsigned>(loop), ctx);
    inExprs.push_back(e);
    if (reduced[d]) {
      l.iterators[loop] = utils::IteratorType::reduction;
    } else {
      outExprs.push_back(e);
      l.keptShape.push_back(shape[d]);
    }
  }
  l.inMap = AffineMap::get(static_cast<unsigned>(rank), 0, inExprs, ctx);
  l.outMap = AffineMap::get(static_cast<unsigned>(rank), 0, outExprs, ctx);
  return l;
}

namespace {

// strata.reduce over `dimensions`: the accumulators live in the outputs (in compute types: f32 for bf16/f16), and the body is the
// reduce body's ops applied to scalars (acc, element). bf16/f16 results round once at the end.
struct ReduceLowering : OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ReduceOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    MLIRContext* ctx = getContext();
    ValueRange inputs = adaptor.getInputs(), inits = adaptor.getInitValues();
    size_t n = inputs.size();
    for (Operation& bodyOp : op.getBody().front().without_terminator())
      if (!isa<ScalarOpInterface, ConstantOp>(bodyOp))
        return emitError(bodyOp.getLoc()) << "strata.reduce: cannot lower body op '"
                                          << bodyOp.getName() << "' to the CPU";
    auto inType = tensorOf(inputs[0]);
    ReductionLoops loops = reductionLoops(ctx, inType.getShape(), op.getDimensions());
    ArrayRef<int64_t> keptShape = loops.keptShape;
    SmallVector<AffineMap> maps(n, loops.inMap);
    maps.append(n, loops.outMap);

    SmallVector<Value> accs;
    SmallVector<Type> accTypes;
    for (Value init : inits) {
      Type storage = tensorOf(init).getElementType();
      Value start = toCompute(rw, loc, scalarOf(rw, loc, init));
      Value empty = emptyLike(rw, loc, keptShape, computeType(storage));
      accs.push_back(linalg::FillOp::create(rw, loc, ValueRange{start}, ValueRange{empty}).getResult(0));
      accTypes.push_back(accs.back().getType());
    }
    Block& body = op.getBody().front();
    auto generic = linalg::GenericOp::create(
        rw, loc, accTypes, inputs, accs, maps, loops.iterators,
        [&](OpBuilder& b, Location l, ValueRange args) {
          SmallVector<Value> bodyArgs(args.begin() + n, args.begin() + 2 * n);  // accumulators
          for (size_t i = 0; i < n; ++i) bodyArgs.push_back(toCompute(b, l, args[i]));  // elements
          linalg::YieldOp::create(b, l, emitScalarBody(b, l, body, bodyArgs));
        });
    SmallVector<Value> results;
    for (auto [i, result] : llvm::enumerate(op.getResults())) {
      Value r = generic.getResult(i);
      auto want = cast<RankedTensorType>(result.getType());
      if (want.getElementType() != computeType(want.getElementType())) {  // bf16/f16: round
        Value init = emptyLike(rw, loc, keptShape, want.getElementType());
        int64_t k = want.getRank();
        auto id = AffineMap::getMultiDimIdentityMap(k, ctx);
        r = linalg::GenericOp::create(
                rw, loc, TypeRange{want}, ValueRange{r}, ValueRange{init}, {id, id},
                parallelIterators(k),
                [&](OpBuilder& b, Location l, ValueRange args) {
                  linalg::YieldOp::create(b, l, toStorage(b, l, args[0], want.getElementType()));
                })
                .getResult(0);
      }
      results.push_back(r);
    }
    rw.replaceOp(op, results);
    return success();
  }
};

// ---- Linear algebra -------------------------------------------------------------------

// The dimensions of an operand that are neither batch nor contracting, ascending.
SmallVector<int64_t> freeDims(int64_t rank, ArrayRef<int64_t> batch, ArrayRef<int64_t> contract) {
  SmallVector<int64_t> r;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(batch, d) && !llvm::is_contained(contract, d)) r.push_back(d);
  return r;
}

int64_t product(ArrayRef<int64_t> shape, ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims) p *= shape[d];
  return p;
}

bool isIdentityOrder(ArrayRef<int64_t> order) {
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] != static_cast<int64_t>(i)) return false;
  return true;
}

// An operand of dot_general as a 3-D tensor [B, free, contract] (contractFirst = false) or
// [B, contract, free]: a view when its dimensions already come in one of these orders,
// otherwise a transposed copy into the preferred order (as the eager kernel copies).
struct MatrixOperand {
  Value value;
  bool contractFirst;
};

MatrixOperand asMatrix(OpBuilder& b, Location loc, Value operand, ArrayRef<int64_t> batch,
                       ArrayRef<int64_t> contract, bool preferContractFirst) {
  auto type = tensorOf(operand);
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> free = freeDims(type.getRank(), batch, contract);
  SmallVector<int64_t> fc(batch), cf(batch);
  fc.append(free.begin(), free.end());
  fc.append(contract.begin(), contract.end());
  cf.append(contract.begin(), contract.end());
  cf.append(free.begin(), free.end());
  int64_t B = product(shape, batch), F = product(shape, free), K = product(shape, contract);
  bool contractFirst;
  Value v = operand;
  if (isIdentityOrder(fc)) {
    contractFirst = false;
  } else if (isIdentityOrder(cf)) {
    contractFirst = true;
  } else {
    contractFirst = preferContractFirst;
    ArrayRef<int64_t> order = contractFirst ? cf : fc;
    int64_t rank = type.getRank();
    SmallVector<int64_t> outShape;
    SmallVector<AffineExpr> exprs(rank);
    for (int64_t k = 0; k < rank; ++k) {
      outShape.push_back(shape[order[k]]);
      exprs[order[k]] = b.getAffineDimExpr(k);
    }
    auto outType = RankedTensorType::get(outShape, type.getElementType());
    Value init = emptyLike(b, loc, outShape, type.getElementType());
    SmallVector<AffineMap> maps{AffineMap::get(rank, 0, exprs, b.getContext()),
                                AffineMap::getMultiDimIdentityMap(rank, b.getContext())};
    v = linalg::GenericOp::create(
            b, loc, TypeRange{outType}, ValueRange{operand}, ValueRange{init}, maps,
            parallelIterators(rank),
            [](OpBuilder& bb, Location l, ValueRange args) { linalg::YieldOp::create(bb, l, args[0]); })
            .getResult(0);
  }
  SmallVector<int64_t> shape3{B, contractFirst ? K : F, contractFirst ? F : K};
  return {reshapeTo(b, loc, v, shape3), contractFirst};
}

// An operand of dot_general with its batch and contracting dimensions. A transposed operand
// (strata.transpose) is read through the transpose instead, its dimension numbers permuted,
// when that keeps the free dimensions in order (the result's layout): GEMM then reads the
// transposed layout in place rather than a copy.
struct DotOperand {
  Value value;
  SmallVector<int64_t> batch, contract;
};

DotOperand throughTranspose(Value v, ArrayRef<int64_t> batch, ArrayRef<int64_t> contract) {
  DotOperand d{v, SmallVector<int64_t>(batch), SmallVector<int64_t>(contract)};
  auto t = v.getDefiningOp<TransposeOp>();
  if (!t) return d;
  ArrayRef<int64_t> perm = t.getPermutation();
  int64_t last = -1;
  for (int64_t f : freeDims(static_cast<int64_t>(perm.size()), batch, contract)) {
    if (perm[f] < last) return d;
    last = perm[f];
  }
  d.value = t.getOperand();
  for (int64_t& x : d.batch) x = perm[x];
  for (int64_t& x : d.contract) x = perm[x];
  return d;
}

// The contraction of `lhsValue` (dimensions lb, lc) and `rhsValue` (rb, rc) as
// linalg.batch_matmul on [B, M, K] × [B, K, N] views: the [B, M, N] result, in type `acc`.
Value emitBatchMatmul(OpBuilder& rw, Location loc, Value lhsValue, ArrayRef<int64_t> lb,
                      ArrayRef<int64_t> lc, Value rhsValue, ArrayRef<int64_t> rb, ArrayRef<int64_t> rc,
                      Type acc) {
  MLIRContext* ctx = rw.getContext();
  auto lhsType = tensorOf(lhsValue), rhsType = tensorOf(rhsValue);
  int64_t B = product(lhsType.getShape(), lb), K = product(lhsType.getShape(), lc);
  int64_t M = product(lhsType.getShape(), freeDims(lhsType.getRank(), lb, lc));
  int64_t N = product(rhsType.getShape(), freeDims(rhsType.getRank(), rb, rc));
  SmallVector<int64_t> outShape{B, M, N};
  Value zero = zeroConstant(rw, loc, acc);
  Value out = linalg::FillOp::create(rw, loc, ValueRange{zero},
                                     ValueRange{emptyLike(rw, loc, outShape, acc)})
                  .getResult(0);
  if (K > 0) {  // K = 0: the sum of nothing, the zeros above
    // As the eager kernel: the lhs wanted as [B, M, K], the rhs as [B, K, N].
    MatrixOperand l = asMatrix(rw, loc, lhsValue, lb, lc, false);
    MatrixOperand r = asMatrix(rw, loc, rhsValue, rb, rc, true);
    AffineExpr b = rw.getAffineDimExpr(0), m = rw.getAffineDimExpr(1);
    AffineExpr n = rw.getAffineDimExpr(2), k = rw.getAffineDimExpr(3);
    SmallVector<Attribute> maps{
        AffineMapAttr::get(AffineMap::get(4, 0, l.contractFirst ? ArrayRef<AffineExpr>{b, k, m} : ArrayRef<AffineExpr>{b, m, k}, ctx)),
        AffineMapAttr::get(AffineMap::get(4, 0, r.contractFirst ? ArrayRef<AffineExpr>{b, k, n} : ArrayRef<AffineExpr>{b, n, k}, ctx)),
        AffineMapAttr::get(AffineMap::get(4, 0, {b, m, n}, ctx))};
    NamedAttribute indexing(rw.getStringAttr("indexing_maps"), rw.getArrayAttr(maps));
    out = linalg::BatchMatmulOp::create(rw, loc, TypeRange{out.getType()},
                                        ValueRange{l.value, r.value}, ValueRange{out}, {indexing})
              .getResult(0);
  }
  return out;
}

struct DotGeneralLowering : OpConversionPattern<DotGeneralOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(DotGeneralOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    MLIRContext* ctx = getContext();
    auto type = cast<RankedTensorType>(op.getType());
    Type element = type.getElementType(), acc = computeType(element);
    // The original operands (not yet converted), to see through transposes.
    DotOperand lhs = throughTranspose(op.getLhs(), op.getLhsBatchingDimensions(), op.getLhsContractingDimensions());
    DotOperand rhs = throughTranspose(op.getRhs(), op.getRhsBatchingDimensions(), op.getRhsContractingDimensions());
    Value lhsValue = lhs.value == op.getLhs() ? adaptor.getLhs() : rw.getRemappedValue(lhs.value);
    Value rhsValue = rhs.value == op.getRhs() ? adaptor.getRhs() : rw.getRemappedValue(rhs.value);
    if (!lhsValue || !rhsValue) return failure();
    Value out = emitBatchMatmul(rw, loc, lhsValue, lhs.batch, lhs.contract, rhsValue, rhs.batch, rhs.contract, acc);
    SmallVector<int64_t> outShape(tensorOf(out).getShape());
    if (acc != element) {  // bf16/f16: the f32 products rounded once
      auto id = AffineMap::getMultiDimIdentityMap(3, ctx);
      out = linalg::GenericOp::create(
                rw, loc, TypeRange{RankedTensorType::get(outShape, element)}, ValueRange{out},
                ValueRange{emptyLike(rw, loc, outShape, element)}, {id, id}, parallelIterators(3),
                [&](OpBuilder& bb, Location l, ValueRange args) {
                  linalg::YieldOp::create(bb, l, toStorage(bb, l, args[0], element));
                })
                .getResult(0);
    }
    rw.replaceOp(op, reshapeTo(rw, loc, out, type.getShape()));
    return success();
  }
};

// ---- Random numbers -------------------------------------------------------------------

// threefry2x32.cpp: five blocks of four rounds (rotations 13 15 26 6 / 17 29 16 24), a key
// injection after each.
struct Threefry2x32Lowering : OpConversionPattern<Threefry2x32Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(Threefry2x32Op op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getY0().getType());
    int64_t rank = type.getRank();
    auto scalarMap = AffineMap::get(rank, 0, {}, getContext());
    auto id = AffineMap::getMultiDimIdentityMap(rank, getContext());
    Value init0 = emptyLike(rw, loc, type.getShape(), type.getElementType());
    Value init1 = emptyLike(rw, loc, type.getShape(), type.getElementType());
    auto generic = linalg::GenericOp::create(
        rw, loc, TypeRange{type, type},
        ValueRange{adaptor.getKey0(), adaptor.getKey1(), adaptor.getX0(), adaptor.getX1()},
        ValueRange{init0, init1}, {scalarMap, scalarMap, id, id, id, id}, parallelIterators(rank),
        [&](OpBuilder& b, Location l, ValueRange args) {
          Type i32 = b.getI32Type();
          auto c = [&](uint32_t v) -> Value {
            return arith::ConstantOp::create(b, l, b.getIntegerAttr(i32, static_cast<int32_t>(v)));
          };
          auto add = [&](Value x, Value y) -> Value { return arith::AddIOp::create(b, l, x, y); };
          auto rotl = [&](Value v, int r) -> Value {
            Value hi = arith::ShLIOp::create(b, l, v, c(r));
            Value lo = arith::ShRUIOp::create(b, l, v, c(32 - r));
            return arith::OrIOp::create(b, l, hi, lo);
          };
          Value k0 = args[0], k1 = args[1];
          Value ks[3] = {k0, k1,
                         arith::XOrIOp::create(b, l, arith::XOrIOp::create(b, l, k0, k1), c(0x1BD11BDAu))};
          static constexpr int kRot[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
          Value x = add(args[2], ks[0]), y = add(args[3], ks[1]);
          for (int block = 0; block < 5; ++block) {
            for (int r : kRot[block % 2]) {
              x = add(x, y);
              y = rotl(y, r);
              y = arith::XOrIOp::create(b, l, y, x);
            }
            x = add(x, ks[(block + 1) % 3]);
            y = add(y, add(ks[(block + 2) % 3], c(static_cast<uint32_t>(block + 1))));
          }
          linalg::YieldOp::create(b, l, ValueRange{x, y});
        });
    rw.replaceOp(op, generic.getResults());
    return success();
  }
};

// ---- The pass -------------------------------------------------------------------------

}  // namespace

// The body of a strata.fusion in place of it: its ops then lower one by one.
void inlineFusion(FusionOp f) {
  Block& body = f.getBody().front();
  Operation* terminator = body.getTerminator();
  SmallVector<Value> results(terminator->getOperands());
  IRRewriter rw(f.getContext());
  rw.inlineBlockBefore(&body, f, f.getInputs());
  rw.replaceOp(f, results);
  rw.eraseOp(terminator);
}

Value emitDotProduct(OpBuilder& b, Location loc, DotGeneralOp op, Value lhs, Value rhs) {
  DotOperand l = throughTranspose(lhs, op.getLhsBatchingDimensions(), op.getLhsContractingDimensions());
  DotOperand r = throughTranspose(rhs, op.getRhsBatchingDimensions(), op.getRhsContractingDimensions());
  return emitBatchMatmul(b, loc, l.value, l.batch, l.contract, r.value, r.batch, r.contract,
                         computeType(op.getType().getElementType()));
}

Value reshapeTensor(OpBuilder& b, Location loc, Value value, ArrayRef<int64_t> shape) {
  return reshapeTo(b, loc, value, shape);
}

void populateStrataToLinalgPatterns(RewritePatternSet& patterns) {
  MLIRContext* ctx = patterns.getContext();
  patterns.add<ElementwiseLowering>(ctx);
  patterns.add<ConstantLowering, IotaLowering, BroadcastInDimLowering, ReshapeLowering,
               TransposeLowering, SliceLowering, PadLowering, ConcatenateLowering,
               ReduceLowering, DotGeneralLowering, Threefry2x32Lowering, OptimizationBarrierLowering>(ctx);
  populateControlFlowToScfPatterns(patterns);
  populateIndexingToLinalgPatterns(patterns);
  populateConvolutionToLinalgPatterns(patterns);  // convolution and pooling (issue 13)
  populateSortingLoweringPatterns(patterns);
  populateWindowLoweringPatterns(patterns);  // reduce_window, select_and_scatter (issue 13)
  populateSortToRuntimePatterns(patterns);  // sort (issue 13)
  populateLinalgToRuntimePatterns(patterns);  // linear algebra (issue 14)
  populateFftToRuntimePatterns(patterns);  // jax.lax.fft
  populateCollectiveToRuntimePatterns(patterns);  // collectives (issue 18)
  populateHostCallbackToRuntimePatterns(patterns);  // host callbacks
}

Value emitBatchMatmulTensors(OpBuilder& b, Location loc, Value lhs, ArrayRef<int64_t> lb, ArrayRef<int64_t> lc,
                             Value rhs, ArrayRef<int64_t> rb, ArrayRef<int64_t> rc, Type acc) {
  return emitBatchMatmul(b, loc, lhs, lb, lc, rhs, rb, rc, acc);
}

}  // namespace mlir::strata
