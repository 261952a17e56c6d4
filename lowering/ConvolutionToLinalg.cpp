// strata.convolution and strata.reverse → linalg (part of --strata-to-linalg).
//
// convolution, for every parameter combination, as im2col + the GEMM that dot_general lowers
// to (later a call of the runtime GEMM or cuBLASLt). The CPU target calls the runtime's
// convolution for float types instead (ConvolutionToRuntime.cpp, a pattern of higher benefit);
// this lowering serves the cuda target and integer convolutions:
//   1. the lhs padded and dilated (a zero fill and a strided insert_slice; skipped when there is
//      neither; negative padding becomes an offset of the reads);
//   2. patches [groups, batch, out spatial..., window..., in features/group] by one
//      linalg.generic reading the padded lhs at affine indices (the group picks a feature or a
//      batch block);
//   3. the kernel as [groups, window..., in features/group, out features/group] (a view when it
//      is already HWIO-like and ungrouped, else a copy);
//   4. their batch_matmul [groups, batch × positions, window × features] × [..., out/group];
//   5. the product written in the result's layout (a view for NHWC-like results).
// The window × features order keeps the innermost copies contiguous for NHWC inputs.
#include "dialect/ScalarOps.h"
#include "dialect/StrataOps.h"
#include "lowering/StrataToLinalg.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::strata {
namespace {

using utils::IteratorType;

SmallVector<OpFoldResult> indexAttrs(OpBuilder& b, ArrayRef<int64_t> v) {
  SmallVector<OpFoldResult> r;
  for (int64_t x : v) r.push_back(b.getIndexAttr(x));
  return r;
}

int64_t dilatedSize(int64_t size, int64_t dilation) { return size == 0 ? 0 : 1 + (size - 1) * dilation; }

// A copy of `input` into a new tensor of `shape` (the loops), reading input at `inMap` of the
// loop indices, converting with `body`. An empty result is just that (no loop: the index maps
// of an empty loop nest would not fit the input).
Value copyGeneric(OpBuilder& b, Location loc, Value input, AffineMap inMap, ArrayRef<int64_t> shape, Type element,
                  function_ref<Value(OpBuilder&, Location, Value)> body = nullptr) {
  int64_t rank = static_cast<int64_t>(shape.size());
  Value init = tensor::EmptyOp::create(b, loc, shape, element);
  if (llvm::is_contained(shape, 0)) return init;
  return linalg::GenericOp::create(
             b, loc, TypeRange{RankedTensorType::get(shape, element)}, ValueRange{input}, ValueRange{init},
             SmallVector<AffineMap>{inMap, AffineMap::getMultiDimIdentityMap(rank, b.getContext())},
             SmallVector<IteratorType>(rank, IteratorType::parallel),
             [&](OpBuilder& bb, Location l, ValueRange args) {
               linalg::YieldOp::create(bb, l, body ? body(bb, l, args[0]) : args[0]);
             })
      .getResult(0);
}

bool isOrder(ArrayRef<int64_t> v, ArrayRef<int64_t> want) { return v == want; }

struct ConvolutionLowering : OpConversionPattern<ConvolutionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ConvolutionOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    MLIRContext* ctx = getContext();
    auto lhsType = cast<RankedTensorType>(adaptor.getLhs().getType());
    auto rhsType = cast<RankedTensorType>(adaptor.getRhs().getType());
    auto type = cast<RankedTensorType>(op.getType());
    Type element = type.getElementType(), acc = computeType(element);
    ArrayRef<int64_t> ls = op.getLhsSpec(), rs = op.getRhsSpec(), os = op.getOutSpec();
    ArrayRef<int64_t> strides = op.getWindowStrides(), padding = op.getPadding();
    ArrayRef<int64_t> lhsDil = op.getLhsDilation(), rhsDil = op.getRhsDilation();
    ArrayRef<int64_t> lshape = lhsType.getShape(), rshape = rhsType.getShape(), oshape = type.getShape();
    const int64_t rank = lhsType.getRank(), nsp = rank - 2;
    const int64_t G = op.getFeatureGroupCount(), BG = op.getBatchGroupCount(), NG = G * BG;
    const int64_t N = lshape[ls[0]] / BG, Cg = lshape[ls[1]] / G, Og = rshape[rs[0]] / NG;
    SmallVector<int64_t> ks, osz;
    int64_t K = 1, S = 1;
    for (int64_t i = 0; i < nsp; ++i) {
      ks.push_back(rshape[rs[i + 2]]);
      osz.push_back(oshape[os[i + 2]]);
      K *= ks.back();
      S *= osz.back();
    }

    if (llvm::is_contained(oshape, 0)) {  // nothing to compute
      rw.replaceOpWithNewOp<tensor::EmptyOp>(op, oshape, element);
      return success();
    }

    // 1. Padding and lhs dilation.
    Value x = adaptor.getLhs();
    SmallVector<int64_t> readOffset(nsp, 0);
    bool needsPad = false;
    SmallVector<int64_t> padShape(lshape), insertAt(rank, 0), insertStride(rank, 1);
    for (int64_t i = 0; i < nsp; ++i) {
      int64_t d = ls[i + 2], lo = padding[2 * i], hi = padding[2 * i + 1];
      int64_t plo = std::max<int64_t>(lo, 0), phi = std::max<int64_t>(hi, 0);
      readOffset[i] = plo - lo;
      padShape[d] = dilatedSize(lshape[d], lhsDil[i]) + plo + phi;
      insertAt[d] = plo;
      insertStride[d] = lhsDil[i];
      needsPad = needsPad || plo > 0 || phi > 0 || lhsDil[i] > 1;
    }
    if (needsPad) {
      Value zero = arith::ConstantOp::create(rw, loc, rw.getZeroAttr(element));
      Value filled = linalg::FillOp::create(rw, loc, ValueRange{zero},
                                            ValueRange{tensor::EmptyOp::create(rw, loc, padShape, element)})
                         .getResult(0);
      x = llvm::is_contained(lshape, 0) ? filled  // an empty lhs: all padding
          : tensor::InsertSliceOp::create(rw, loc, x, filled, indexAttrs(rw, insertAt), indexAttrs(rw, lshape),
                                        indexAttrs(rw, insertStride));
    }

    // 2. Patches [NG, N, out spatial..., window..., Cg].
    SmallVector<int64_t> patchShape{NG, N};
    patchShape.append(osz.begin(), osz.end());
    patchShape.append(ks.begin(), ks.end());
    patchShape.push_back(Cg);
    const int64_t prank = static_cast<int64_t>(patchShape.size());
    AffineExpr g = rw.getAffineDimExpr(0), n = rw.getAffineDimExpr(1), c = rw.getAffineDimExpr(prank - 1);
    SmallVector<AffineExpr> xIndex(rank);
    xIndex[ls[0]] = BG > 1 ? g * N + n : n;
    xIndex[ls[1]] = G > 1 ? g * Cg + c : c;
    for (int64_t i = 0; i < nsp; ++i)
      xIndex[ls[i + 2]] = rw.getAffineDimExpr(2 + i) * strides[i] +
                          rw.getAffineDimExpr(2 + nsp + i) * rhsDil[i] + readOffset[i];
    Value patches = copyGeneric(rw, loc, x, AffineMap::get(prank, 0, xIndex, ctx), patchShape, element);

    // 3. The kernel as [NG, window..., Cg, Og].
    SmallVector<int64_t> rsSpec{rs[0], rs[1]};
    for (int64_t i = 0; i < nsp; ++i) rsSpec.push_back(rs[i + 2]);
    SmallVector<int64_t> wantSpec{nsp + 1, nsp};
    for (int64_t i = 0; i < nsp; ++i) wantSpec.push_back(i);
    Value w = adaptor.getRhs();
    if (!(NG == 1 && isOrder(rsSpec, wantSpec))) {
      SmallVector<int64_t> wShape{NG};
      wShape.append(ks.begin(), ks.end());
      wShape.append({Cg, Og});
      const int64_t wrank = static_cast<int64_t>(wShape.size());
      AffineExpr wg = rw.getAffineDimExpr(0), wc = rw.getAffineDimExpr(wrank - 2), wo = rw.getAffineDimExpr(wrank - 1);
      SmallVector<AffineExpr> wIndex(rank);
      wIndex[rs[0]] = wg * Og + wo;
      wIndex[rs[1]] = wc;
      for (int64_t i = 0; i < nsp; ++i) wIndex[rs[i + 2]] = rw.getAffineDimExpr(1 + i);
      w = copyGeneric(rw, loc, w, AffineMap::get(wrank, 0, wIndex, ctx), wShape, element);
    }

    // 4. The GEMM.
    Value lhs3 = reshapeTensor(rw, loc, patches, {NG, N * S, K * Cg});
    Value rhs3 = reshapeTensor(rw, loc, w, {NG, K * Cg, Og});
    SmallVector<int64_t> b0{0}, c2{2}, c1{1};
    Value product = emitBatchMatmulTensors(rw, loc, lhs3, b0, c2, rhs3, b0, c1, acc);

    // 5. Into the result's layout: the result with its feature dim split into (NG, Og).
    SmallVector<int64_t> nhwc{0};
    for (int64_t i = 0; i < nsp; ++i) nhwc.push_back(i + 1);
    SmallVector<int64_t> osSpec{os[0]};
    for (int64_t i = 0; i < nsp; ++i) osSpec.push_back(os[i + 2]);
    bool direct = NG == 1 && acc == element && isOrder(osSpec, nhwc) && os[1] == rank - 1;
    Value result;
    if (direct) {
      result = reshapeTensor(rw, loc, product, oshape);
    } else {
      SmallVector<int64_t> mmShape{NG, N};
      mmShape.append(osz.begin(), osz.end());
      mmShape.push_back(Og);
      Value mm = reshapeTensor(rw, loc, product, mmShape);
      auto pos = [&](int64_t d) { return d <= os[1] ? d : d + 1; };  // result dim → split dim
      SmallVector<int64_t> split;
      for (int64_t d = 0; d < rank; ++d) {
        if (d == os[1]) split.append({NG, Og});
        else split.push_back(oshape[d]);
      }
      SmallVector<AffineExpr> mIndex{rw.getAffineDimExpr(pos(os[1])), rw.getAffineDimExpr(pos(os[0]))};
      for (int64_t i = 0; i < nsp; ++i) mIndex.push_back(rw.getAffineDimExpr(pos(os[i + 2])));
      mIndex.push_back(rw.getAffineDimExpr(pos(os[1]) + 1));
      Value out = copyGeneric(rw, loc, mm, AffineMap::get(rank + 1, 0, mIndex, ctx), split, element,
                              [&](OpBuilder& bb, Location l, Value v) { return toStorage(bb, l, v, element); });
      result = reshapeTensor(rw, loc, out, oshape);
    }
    rw.replaceOp(op, result);
    return success();
  }
};

// reverse: a copy reading index size-1-i along each reversed dimension.
struct ReverseLowering : OpConversionPattern<ReverseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ReverseOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    auto type = cast<RankedTensorType>(op.getType());
    int64_t rank = type.getRank();
    SmallVector<AffineExpr> index;
    for (int64_t d = 0; d < rank; ++d) index.push_back(rw.getAffineDimExpr(d));
    for (int64_t d : op.getDimensions()) index[d] = type.getDimSize(d) - 1 - index[d];
    rw.replaceOp(op, copyGeneric(rw, op.getLoc(), adaptor.getOperand(), AffineMap::get(rank, 0, index, getContext()),
                                 type.getShape(), type.getElementType()));
    return success();
  }
};

}  // namespace

void populateConvolutionToLinalgPatterns(RewritePatternSet& patterns) {
  patterns.add<ConvolutionLowering, ReverseLowering>(patterns.getContext());
}

}  // namespace mlir::strata
