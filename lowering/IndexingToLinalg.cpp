// strata.gather → a linalg.generic over the result whose body reads the index vector and the
// operand with tensor.extract (starts clamped into the operand, so no read leaves it; FILL
// selects zero for a box that would leave it); strata.scatter → an scf.for nest over the
// updates' index vectors on a tensor carried through it (the operand's copy, updated in place
// once bufferized), each window inside the operand combined in, the others skipped (part of
// --strata-to-linalg).
#include "dialect/ScalarOps.h"
#include "dialect/StrataOps.h"
#include "lowering/StrataToLinalg.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::strata {
namespace {

bool contains(ArrayRef<int64_t> v, int64_t x) { return llvm::is_contained(v, x); }

Value indexC(OpBuilder& b, Location loc, int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

// Entry j of the index vector whose batch position is `batch` (the indices' dims other than
// index_vector_dim, in order), as an index.
Value indexEntry(OpBuilder& b, Location loc, Value indices, int64_t ivd, ValueRange batch, int64_t j) {
  auto type = cast<RankedTensorType>(indices.getType());
  SmallVector<Value> pos;
  size_t bi = 0;
  for (int64_t d = 0; d < type.getRank(); ++d) pos.push_back(d == ivd ? indexC(b, loc, j) : batch[bi++]);
  Value v = tensor::ExtractOp::create(b, loc, indices, pos);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

struct GatherLowering : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(GatherOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    auto operandType = cast<RankedTensorType>(adaptor.getOperand().getType());
    Value operand = adaptor.getOperand(), indices = adaptor.getStartIndices();
    ArrayRef<int64_t> offsetDims = op.getOffsetDims(), collapsed = op.getCollapsedSliceDims();
    ArrayRef<int64_t> map = op.getStartIndexMap(), sizes = op.getSliceSizes();
    int64_t ivd = op.getIndexVectorDim();
    bool fill = op.getMode() == GatherMode::FILL;
    int64_t rank = type.getRank();
    Value init = tensor::EmptyOp::create(rw, loc, type.getShape(), type.getElementType());
    auto generic = linalg::GenericOp::create(
        rw, loc, TypeRange{type}, ValueRange{}, ValueRange{init}, {AffineMap::getMultiDimIdentityMap(rank, getContext())},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel), [&](OpBuilder& b, Location l, ValueRange) {
          SmallVector<Value> batch, window;
          for (int64_t d = 0; d < rank; ++d) {
            Value i = linalg::IndexOp::create(b, l, d);
            (contains(offsetDims, d) ? window : batch).push_back(i);
          }
          SmallVector<Value> pos;
          size_t wi = 0;
          for (int64_t d = 0; d < operandType.getRank(); ++d)
            pos.push_back(contains(collapsed, d) ? indexC(b, l, 0) : window[wi++]);
          Value inside = arith::ConstantIntOp::create(b, l, 1, 1);
          Value zero = indexC(b, l, 0);
          for (auto [j, dim] : llvm::enumerate(map)) {
            auto d = static_cast<unsigned>(dim);
            Value s = indexEntry(b, l, indices, ivd, batch, static_cast<int64_t>(j));
            Value hi = indexC(b, l, operandType.getDimSize(d) - sizes[d]);
            if (fill) {
              Value ok = arith::AndIOp::create(b, l, arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, s, zero),
                                               arith::CmpIOp::create(b, l, arith::CmpIPredicate::sle, s, hi));
              inside = arith::AndIOp::create(b, l, inside, ok);
            }
            Value c = arith::MinSIOp::create(b, l, arith::MaxSIOp::create(b, l, s, zero), hi);
            pos[d] = arith::AddIOp::create(b, l, pos[d], c);
          }
          Value v = tensor::ExtractOp::create(b, l, operand, pos);
          if (fill) {
            Value z = zeroConstant(b, l, type.getElementType());
            v = arith::SelectOp::create(b, l, inside, v, z);
          }
          linalg::YieldOp::create(b, l, v);
        });
    rw.replaceOp(op, generic.getResults());
    return success();
  }
};

// A loop nest over `ubs` carrying one tensor; `body` returns the next value of it.
Value loopNest(OpBuilder& b, Location loc, ArrayRef<int64_t> ubs, Value init,
               function_ref<Value(OpBuilder&, Location, ValueRange, Value)> body, SmallVector<Value> ivs = {}) {
  if (ivs.size() == ubs.size()) return body(b, loc, ivs, init);
  auto loop = scf::ForOp::create(b, loc, indexC(b, loc, 0), indexC(b, loc, ubs[ivs.size()]), indexC(b, loc, 1), ValueRange{init},
                                 [&](OpBuilder& nb, Location l, Value iv, ValueRange args) {
                                   SmallVector<Value> inner = ivs;
                                   inner.push_back(iv);
                                   scf::YieldOp::create(nb, l, loopNest(nb, l, ubs, args[0], body, inner));
                                 });
  return loop.getResult(0);
}

Value combine(OpBuilder& b, Location loc, ScatterCombiner c, Value old, Value update, bool uns) {
  Type element = old.getType();
  if (c == ScatterCombiner::REPLACE) return update;
  Value x = toCompute(b, loc, old), y = toCompute(b, loc, update);
  if (isa<ComplexType>(x.getType())) {  // max and min in the lexicographic order
    if (c == ScatterCombiner::ADD) return complex::AddOp::create(b, loc, x, y);
    if (c == ScatterCombiner::MUL) return complex::MulOp::create(b, loc, x, y);
    scalar::Emitter e{b, loc};
    return scalar::complexMax(e, x, y, c == ScatterCombiner::MAX);
  }
  bool isFloat = isa<FloatType>(x.getType());
  Value r;
  switch (c) {
    case ScatterCombiner::ADD: r = isFloat ? arith::AddFOp::create(b, loc, x, y).getResult() : arith::AddIOp::create(b, loc, x, y).getResult(); break;
    case ScatterCombiner::MUL: r = isFloat ? arith::MulFOp::create(b, loc, x, y).getResult() : arith::MulIOp::create(b, loc, x, y).getResult(); break;
    case ScatterCombiner::MIN: r = isFloat ? arith::MinimumFOp::create(b, loc, x, y).getResult() : uns ? arith::MinUIOp::create(b, loc, x, y).getResult() : arith::MinSIOp::create(b, loc, x, y).getResult(); break;
    case ScatterCombiner::MAX: r = isFloat ? arith::MaximumFOp::create(b, loc, x, y).getResult() : uns ? arith::MaxUIOp::create(b, loc, x, y).getResult() : arith::MaxSIOp::create(b, loc, x, y).getResult(); break;
    case ScatterCombiner::REPLACE: break;
  }
  return toStorage(b, loc, r, element);
}

struct ScatterLowering : OpConversionPattern<ScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ScatterOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    Value operand = adaptor.getOperand(), indices = adaptor.getScatterIndices(), updates = adaptor.getUpdates();
    auto operandType = cast<RankedTensorType>(operand.getType());
    auto updatesType = cast<RankedTensorType>(updates.getType());
    ArrayRef<int64_t> windowDims = op.getUpdateWindowDims(), inserted = op.getInsertedWindowDims();
    ArrayRef<int64_t> map = op.getScatterDimsToOperandDims();
    int64_t ivd = op.getIndexVectorDim();
    ScatterCombiner combiner = op.getCombiner();
    SmallVector<int64_t> batchShape, windowShape, batchDims;
    for (int64_t d = 0; d < updatesType.getRank(); ++d) {
      if (contains(windowDims, d)) windowShape.push_back(updatesType.getDimSize(static_cast<unsigned>(d)));
      else {
        batchShape.push_back(updatesType.getDimSize(static_cast<unsigned>(d)));
        batchDims.push_back(d);
      }
    }
    // The window's size on each operand dim (1 on inserted dims).
    SmallVector<int64_t> wsize(static_cast<size_t>(operandType.getRank()), 1);
    SmallVector<int64_t> windowOperandDims;
    for (int64_t d = 0, k = 0; d < operandType.getRank(); ++d)
      if (!contains(inserted, d)) {
        wsize[static_cast<size_t>(d)] = windowShape[static_cast<size_t>(k++)];
        windowOperandDims.push_back(d);
      }
    if (updatesType.getNumElements() == 0) {
      rw.replaceOp(op, operand);
      return success();
    }
    Value result = loopNest(rw, loc, batchShape, operand, [&](OpBuilder& b, Location l, ValueRange batch, Value acc) -> Value {
      SmallVector<Value> start(static_cast<size_t>(operandType.getRank()), indexC(b, l, 0));
      Value inside = arith::ConstantIntOp::create(b, l, 1, 1);
      Value zero = indexC(b, l, 0);
      for (auto [j, dim] : llvm::enumerate(map)) {
        auto d = static_cast<size_t>(dim);
        Value s = indexEntry(b, l, indices, ivd, batch, static_cast<int64_t>(j));
        Value hi = indexC(b, l, operandType.getDimSize(static_cast<unsigned>(d)) - wsize[d]);
        Value ok = arith::AndIOp::create(b, l, arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, s, zero),
                                         arith::CmpIOp::create(b, l, arith::CmpIPredicate::sle, s, hi));
        inside = arith::AndIOp::create(b, l, inside, ok);
        start[d] = s;
      }
      auto ifOp = scf::IfOp::create(
          b, l, inside,
          [&](OpBuilder& tb, Location tl) {
            Value next = loopNest(tb, tl, windowShape, acc, [&](OpBuilder& wb, Location wl, ValueRange w, Value a) -> Value {
              SmallVector<Value> xpos(start.begin(), start.end()), upos;
              for (auto [k, d] : llvm::enumerate(windowOperandDims))
                xpos[static_cast<size_t>(d)] = arith::AddIOp::create(wb, wl, start[static_cast<size_t>(d)], w[k]);
              size_t bi = 0, wi = 0;
              for (int64_t d = 0; d < updatesType.getRank(); ++d) upos.push_back(contains(windowDims, d) ? w[wi++] : batch[bi++]);
              Value u = tensor::ExtractOp::create(wb, wl, updates, upos);
              Value old = combiner == ScatterCombiner::REPLACE ? u : tensor::ExtractOp::create(wb, wl, a, xpos).getResult();
              return tensor::InsertOp::create(wb, wl, combine(wb, wl, combiner, old, u, unsignedOperands(op)), a, xpos);
            });
            scf::YieldOp::create(tb, tl, next);
          },
          [&](OpBuilder& eb, Location el) { scf::YieldOp::create(eb, el, acc); });
      return ifOp.getResult(0);
    });
    rw.replaceOp(op, result);
    return success();
  }
};

}  // namespace

void populateIndexingToLinalgPatterns(RewritePatternSet& patterns) {
  patterns.add<GatherLowering, ScatterLowering>(patterns.getContext());
}

}  // namespace mlir::strata
