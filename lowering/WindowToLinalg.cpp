// strata.reduce_window → a linalg.generic over (result, window) indices reading the inputs
// dilated and padded with their init values (a fill and a strided insert_slice, skipped when
// there is neither): accumulators in compute types (f32 for bf16/f16), the body evaluated on
// scalars. The loops run as result dimensions up to the last one the window spans, then the
// window's, then the remaining result dimensions: for NHWC pooling the channel loop is
// innermost and reads contiguous memory, so LLVM vectorises it.
// strata.select_and_scatter → an scf.for over source elements (on a tensor carried through it,
// updated in place once bufferized) with an inner scf.for over the window's taps carrying the
// selected element; padding is skipped, and the scatter region combines the source element in.
// (Part of --strata-to-linalg.)
#include "dialect/ScalarOps.h"
#include "dialect/StrataOps.h"
#include "lowering/StrataToLinalg.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::strata {
namespace {

Value indexC(OpBuilder& b, Location loc, int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

LogicalResult checkBody(Operation* owner, Block& body) {
  for (Operation& op : body.without_terminator())
    if (!isa<ScalarOpInterface, ConstantOp>(op) || op.getNumResults() != 1)
      return emitError(op.getLoc()) << owner->getName() << ": cannot lower body op '" << op.getName()
                                    << "' to the CPU";
  return success();
}

struct ReduceWindowLowering : OpConversionPattern<ReduceWindowOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ReduceWindowOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    MLIRContext* ctx = getContext();
    if (failed(checkBody(op, op.getBody().front()))) return failure();
    ValueRange inputs = adaptor.getInputs(), inits = adaptor.getInitValues();
    size_t n = inputs.size();
    WindowGeometry g = op.getGeometry();
    auto inType = cast<RankedTensorType>(inputs[0].getType());
    ArrayRef<int64_t> inShape = inType.getShape();
    auto outShape = cast<RankedTensorType>(op.getResult(0).getType()).getShape();
    int64_t r = inType.getRank();
    if (llvm::is_contained(outShape, 0)) {  // no window: empty results (linalg refuses such loops)
      SmallVector<Value> empties;
      for (Value result : op.getResults())
        empties.push_back(tensor::EmptyOp::create(rw, loc, outShape, cast<RankedTensorType>(result.getType()).getElementType()));
      rw.replaceOp(op, empties);
      return success();
    }

    // Inputs dilated and padded with their init values.
    bool plain = true;
    SmallVector<int64_t> padded(r);
    for (int64_t d = 0; d < r; ++d) {
      padded[d] = (inShape[d] == 0 ? 0 : (inShape[d] - 1) * g.baseDilations[d] + 1) + g.paddingLow[d] + g.paddingHigh[d];
      plain &= g.baseDilations[d] == 1 && g.paddingLow[d] == 0 && g.paddingHigh[d] == 0;
    }
    SmallVector<Value> ins;
    for (size_t i = 0; i < n; ++i) {
      if (plain) {
        ins.push_back(inputs[i]);
        continue;
      }
      Type e = cast<RankedTensorType>(inputs[i].getType()).getElementType();
      Value init = tensor::ExtractOp::create(rw, loc, inits[i], ValueRange{});
      Value filled = linalg::FillOp::create(rw, loc, ValueRange{init},
                                            ValueRange{tensor::EmptyOp::create(rw, loc, padded, e)})
                         .getResult(0);
      SmallVector<OpFoldResult> offsets, sizes, strides;
      for (int64_t d = 0; d < r; ++d) {
        offsets.push_back(rw.getIndexAttr(g.paddingLow[d]));
        sizes.push_back(rw.getIndexAttr(inShape[d]));
        strides.push_back(rw.getIndexAttr(g.baseDilations[d]));
      }
      ins.push_back(tensor::InsertSliceOp::create(rw, loc, inputs[i], filled, offsets, sizes, strides));
    }

    // Loop order: result dims through the last one the window spans, the window's dims, the rest.
    int64_t last = -1;
    for (int64_t d = 0; d < r; ++d)
      if (g.window[d] > 1) last = d;
    SmallVector<int64_t> outLoop(r), winLoop(r);
    int64_t pos = 0;
    for (int64_t d = 0; d <= last; ++d) outLoop[d] = pos++;
    for (int64_t d = 0; d < r; ++d) winLoop[d] = pos++;
    for (int64_t d = last + 1; d < r; ++d) outLoop[d] = pos++;
    SmallVector<utils::IteratorType> iterators(2 * r, utils::IteratorType::parallel);
    SmallVector<AffineExpr> inExprs, winExprs, outExprs;
    for (int64_t d = 0; d < r; ++d) {
      iterators[winLoop[d]] = utils::IteratorType::reduction;
      AffineExpr o = getAffineDimExpr(static_cast<unsigned>(outLoop[d]), ctx);
      AffineExpr k = getAffineDimExpr(static_cast<unsigned>(winLoop[d]), ctx);
      inExprs.push_back(o * g.strides[d] + k * g.windowDilations[d]);
      winExprs.push_back(k);
      outExprs.push_back(o);
    }
    unsigned dims = static_cast<unsigned>(2 * r);
    AffineMap inMap = AffineMap::get(dims, 0, inExprs, ctx), winMap = AffineMap::get(dims, 0, winExprs, ctx),
              outMap = AffineMap::get(dims, 0, outExprs, ctx);
    // The window's extent as an operand (linalg reads loop ranges from operands, as its pooling ops).
    ins.push_back(tensor::EmptyOp::create(rw, loc, g.window, rw.getI8Type()));
    SmallVector<AffineMap> maps(n, inMap);
    maps.push_back(winMap);
    maps.append(n, outMap);

    SmallVector<Value> accs;
    SmallVector<Type> accTypes;
    for (Value init : inits) {
      Type storage = cast<RankedTensorType>(init.getType()).getElementType();
      Value start = toCompute(rw, loc, tensor::ExtractOp::create(rw, loc, init, ValueRange{}));
      Value empty = tensor::EmptyOp::create(rw, loc, outShape, computeType(storage));
      accs.push_back(linalg::FillOp::create(rw, loc, ValueRange{start}, ValueRange{empty}).getResult(0));
      accTypes.push_back(accs.back().getType());
    }
    Block& body = op.getBody().front();
    auto generic = linalg::GenericOp::create(
        rw, loc, accTypes, ins, accs, maps, iterators, [&](OpBuilder& b, Location l, ValueRange args) {
          SmallVector<Value> bodyArgs;
          for (size_t i = 0; i < n; ++i) bodyArgs.push_back(args[n + 1 + i]);           // accumulators
          for (size_t i = 0; i < n; ++i) bodyArgs.push_back(toCompute(b, l, args[i]));  // elements
          linalg::YieldOp::create(b, l, emitScalarBody(b, l, body, bodyArgs));
        });
    SmallVector<Value> results;
    for (auto [i, result] : llvm::enumerate(op.getResults())) {
      Value v = generic.getResult(i);
      auto want = cast<RankedTensorType>(result.getType());
      if (want.getElementType() != computeType(want.getElementType())) {  // bf16/f16: round once
        auto id = AffineMap::getMultiDimIdentityMap(static_cast<unsigned>(r), ctx);
        Value empty = tensor::EmptyOp::create(rw, loc, outShape, want.getElementType());
        v = linalg::GenericOp::create(rw, loc, TypeRange{want}, ValueRange{v}, ValueRange{empty}, {id, id},
                                      SmallVector<utils::IteratorType>(r, utils::IteratorType::parallel),
                                      [&](OpBuilder& b, Location l, ValueRange args) {
                                        linalg::YieldOp::create(b, l, toStorage(b, l, args[0], want.getElementType()));
                                      })
                .getResult(0);
      }
      results.push_back(v);
    }
    rw.replaceOp(op, results);
    return success();
  }
};

struct SelectAndScatterLowering : OpConversionPattern<SelectAndScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SelectAndScatterOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    Block &selectBody = op.getSelect().front(), &scatterBody = op.getScatter().front();
    if (failed(checkBody(op, selectBody)) || failed(checkBody(op, scatterBody))) return failure();
    WindowGeometry g = op.getGeometry();
    auto type = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> shape = type.getShape();
    Type storage = type.getElementType(), compute = computeType(storage);
    auto srcShape = cast<RankedTensorType>(adaptor.getSource().getType()).getShape();
    int64_t r = type.getRank(), numSource = 1, taps = 1;
    for (int64_t s : srcShape) numSource *= s;
    for (int64_t w : g.window) taps *= w;
    Value operand = adaptor.getOperand(), source = adaptor.getSource();
    Value init = tensor::ExtractOp::create(rw, loc, adaptor.getInitValue(), ValueRange{});
    Value result = linalg::FillOp::create(rw, loc, ValueRange{init},
                                          ValueRange{tensor::EmptyOp::create(rw, loc, shape, storage)})
                       .getResult(0);
    if (numSource == 0 || taps == 0) {
      rw.replaceOp(op, result);
      return success();
    }
    // Row-major digits of `flat` for `extents`.
    auto digits = [](OpBuilder& b, Location l, Value flat, ArrayRef<int64_t> extents) {
      SmallVector<Value> out(extents.size());
      for (size_t d = extents.size(); d-- > 0;) {
        Value e = indexC(b, l, extents[d]);
        out[d] = arith::RemUIOp::create(b, l, flat, e);
        flat = arith::DivUIOp::create(b, l, flat, e);
      }
      return out;
    };
    Value c0 = indexC(rw, loc, 0), c1 = indexC(rw, loc, 1);
    auto outer = scf::ForOp::create(
        rw, loc, c0, indexC(rw, loc, numSource), c1, ValueRange{result},
        [&](OpBuilder& b, Location l, Value s, ValueRange carry) {
          SmallVector<Value> o = digits(b, l, s, srcShape);
          // Carried: found, the selected value (compute type), its index.
          SmallVector<Value> start{arith::ConstantIntOp::create(b, l, 0, 1),
                                   arith::ConstantOp::create(b, l, b.getZeroAttr(compute))};
          for (int64_t d = 0; d < r; ++d) start.push_back(c0);
          auto inner = scf::ForOp::create(
              b, l, c0, indexC(b, l, taps), c1, start, [&](OpBuilder& ib, Location il, Value t, ValueRange cur) {
                SmallVector<Value> k = digits(ib, il, t, g.window);
                Value inside = arith::ConstantIntOp::create(ib, il, 1, 1);
                SmallVector<Value> p;
                for (int64_t d = 0; d < r; ++d) {
                  // o * stride + k - low, compared as signed: padding reads outside [0, n).
                  Value v = arith::AddIOp::create(ib, il, arith::MulIOp::create(ib, il, o[d], indexC(ib, il, g.strides[d])), k[d]);
                  v = arith::SubIOp::create(ib, il, v, indexC(ib, il, g.paddingLow[d]));
                  Value ge0 = arith::CmpIOp::create(ib, il, arith::CmpIPredicate::sge, v, c0);
                  Value ltN = arith::CmpIOp::create(ib, il, arith::CmpIPredicate::slt, v, indexC(ib, il, shape[d]));
                  inside = arith::AndIOp::create(ib, il, inside, arith::AndIOp::create(ib, il, ge0, ltN));
                  p.push_back(v);
                }
                SmallVector<Type> types(cur.getTypes());
                auto ifOp = scf::IfOp::create(
                    ib, il, inside,
                    [&](OpBuilder& tb, Location tl) {
                      Value v = toCompute(tb, tl, tensor::ExtractOp::create(tb, tl, operand, p));
                      Value keep = emitScalarBody(tb, tl, selectBody, ValueRange{cur[1], v})[0];
                      Value found = cur[0];
                      Value notFound = arith::XOrIOp::create(tb, tl, found, arith::ConstantIntOp::create(tb, tl, 1, 1));
                      Value take = arith::OrIOp::create(
                          tb, tl, notFound, arith::XOrIOp::create(tb, tl, keep, arith::ConstantIntOp::create(tb, tl, 1, 1)));
                      SmallVector<Value> next{arith::ConstantIntOp::create(tb, tl, 1, 1),
                                              arith::SelectOp::create(tb, tl, take, v, cur[1])};
                      for (int64_t d = 0; d < r; ++d) next.push_back(arith::SelectOp::create(tb, tl, take, p[d], cur[2 + d]));
                      scf::YieldOp::create(tb, tl, next);
                    },
                    [&](OpBuilder& eb, Location el) { scf::YieldOp::create(eb, el, cur); });
                scf::YieldOp::create(ib, il, ifOp.getResults());
              });
          Value found = inner.getResult(0);
          SmallVector<Value> at;
          for (int64_t d = 0; d < r; ++d) at.push_back(inner.getResult(2 + d));
          auto update = scf::IfOp::create(
              b, l, found,
              [&](OpBuilder& tb, Location tl) {
                Value old = toCompute(tb, tl, tensor::ExtractOp::create(tb, tl, carry[0], at));
                Value src = toCompute(tb, tl, tensor::ExtractOp::create(tb, tl, source, o));
                Value v = toStorage(tb, tl, emitScalarBody(tb, tl, scatterBody, ValueRange{old, src})[0], storage);
                scf::YieldOp::create(tb, tl, ValueRange{tensor::InsertOp::create(tb, tl, v, carry[0], at)});
              },
              [&](OpBuilder& eb, Location el) { scf::YieldOp::create(eb, el, carry); });
          scf::YieldOp::create(b, l, update.getResults());
        });
    rw.replaceOp(op, outer.getResult(0));
    return success();
  }
};

}  // namespace

void populateWindowLoweringPatterns(RewritePatternSet& patterns) {
  patterns.add<ReduceWindowLowering, SelectAndScatterLowering>(patterns.getContext());
}

}  // namespace mlir::strata
