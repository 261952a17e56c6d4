// strata.cumulative → a loop nest on tensors (part of --strata-to-linalg): the operand viewed
// as [outer, n, inner]; for each outer index the first row along the dimension is copied and
// each later row is the previous result row combined with the operand's row, the innermost
// loop running along contiguous memory. One-shot bufferization keeps the carried tensor in
// the result's buffer. bf16/f16 combine in f32 and round at each step, as the eager kernel.
#include "dialect/ScalarOps.h"
#include "dialect/StrataOps.h"
#include "lowering/StrataToLinalg.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::strata {
namespace {

// prev ⊕ x in the compute type.
Value combine(OpBuilder& b, Location loc, StringRef kind, Value prev, Value x, bool uns) {
  scalar::Emitter e{b, loc};
  bool fl = isa<FloatType>(x.getType());
  if (isa<ComplexType>(x.getType())) {  // no logsumexp (the verifier)
    if (kind == "sum") return complex::AddOp::create(b, loc, prev, x);
    if (kind == "prod") return complex::MulOp::create(b, loc, prev, x);
    return scalar::complexMax(e, prev, x, kind == "max");
  }
  if (kind == "sum") return fl ? Value(arith::AddFOp::create(b, loc, prev, x)) : Value(e.addi(prev, x));
  if (kind == "prod") return fl ? Value(arith::MulFOp::create(b, loc, prev, x)) : Value(arith::MulIOp::create(b, loc, prev, x));
  if (kind == "max" && fl) return scalar::floatMax(e, prev, x, true);
  if (kind == "min" && fl) return scalar::floatMax(e, prev, x, false);
  if (kind == "max") return uns ? Value(arith::MaxUIOp::create(b, loc, prev, x)) : Value(arith::MaxSIOp::create(b, loc, prev, x));
  if (kind == "min") return uns ? Value(arith::MinUIOp::create(b, loc, prev, x)) : Value(arith::MinSIOp::create(b, loc, prev, x));
  // logsumexp: max + log1p(exp(-|prev - x|)); equal infinities give themselves, nan gives nan.
  Value m = scalar::floatMax(e, prev, x, true);
  Value d = arith::SubFOp::create(b, loc, prev, x);
  Value r = arith::AddFOp::create(
      b, loc, m, math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, math::AbsFOp::create(b, loc, d)))));
  Value dNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, d, d);
  Value same = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, prev, x);
  return arith::SelectOp::create(b, loc, dNan, arith::SelectOp::create(b, loc, same, prev, d), r);
}

struct CumulativeLowering : OpConversionPattern<CumulativeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(CumulativeOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> shape = type.getShape();
    int64_t dim = op.getDimension(), n = shape[dim], outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= shape[d];
    for (int64_t d = dim + 1; d < type.getRank(); ++d) inner *= shape[d];
    Type storage = type.getElementType();
    Value x = reshapeTensor(rw, loc, adaptor.getOperand(), {outer, n, inner});
    Value result = tensor::EmptyOp::create(rw, loc, ArrayRef<int64_t>{outer, n, inner}, storage);
    if (n > 0 && outer > 0 && inner > 0) {
      bool reverse = op.getReverse();
      StringRef kind = op.getKind();
      bool uns = unsignedOperands(op);
      auto idx = [&](OpBuilder& b, int64_t v) -> Value { return arith::ConstantIndexOp::create(b, loc, v); };
      Value c0 = idx(rw, 0), c1 = idx(rw, 1);
      auto outerLoop = scf::ForOp::create(
          rw, loc, c0, idx(rw, outer), c1, ValueRange{result}, [&](OpBuilder& b, Location l, Value o, ValueRange carry) {
            // Row `first` is the operand's own; complex max/min combine it with their identity
            // (-inf + 0i / inf + 0i), which takes part as in JAX's scan (the eager kernel's too).
            Value first = idx(b, reverse ? n - 1 : 0);
            auto copy = scf::ForOp::create(b, l, c0, idx(b, inner), c1, carry, [&](OpBuilder& b2, Location l2, Value i, ValueRange t) {
              Value v = tensor::ExtractOp::create(b2, l2, x, ValueRange{o, first, i});
              if (auto ct = dyn_cast<ComplexType>(storage); ct && (kind == "max" || kind == "min")) {
                auto part = cast<FloatType>(ct.getElementType());
                APFloat inf = APFloat::getInf(part.getFloatSemantics(), /*Negative=*/kind == "max");
                Value init = complex::ConstantOp::create(
                    b2, l2, ct, b2.getArrayAttr({FloatAttr::get(part, inf), FloatAttr::get(part, 0.0)}));
                scalar::Emitter e{b2, l2};
                v = scalar::complexMax(e, init, v, kind == "max");
              }
              scf::YieldOp::create(b2, l2, ValueRange{tensor::InsertOp::create(b2, l2, v, t[0], ValueRange{o, first, i})});
            });
            auto rows = scf::ForOp::create(
                b, l, c1, idx(b, n), c1, copy.getResults(), [&](OpBuilder& b2, Location l2, Value k, ValueRange t) {
                  Value row = reverse ? Value(arith::SubIOp::create(b2, l2, idx(b2, n - 1), k)) : k;
                  Value prevRow = reverse ? Value(arith::AddIOp::create(b2, l2, row, c1)) : Value(arith::SubIOp::create(b2, l2, row, c1));
                  auto cols = scf::ForOp::create(
                      b2, l2, c0, idx(b2, inner), c1, t, [&](OpBuilder& b3, Location l3, Value i, ValueRange t2) {
                        Value prev = tensor::ExtractOp::create(b3, l3, t2[0], ValueRange{o, prevRow, i});
                        Value v = tensor::ExtractOp::create(b3, l3, x, ValueRange{o, row, i});
                        Value c = combine(b3, l3, kind, toCompute(b3, l3, prev), toCompute(b3, l3, v), uns);
                        Value s = toStorage(b3, l3, c, storage);
                        scf::YieldOp::create(b3, l3, ValueRange{tensor::InsertOp::create(b3, l3, s, t2[0], ValueRange{o, row, i})});
                      });
                  scf::YieldOp::create(b2, l2, cols.getResults());
                });
            scf::YieldOp::create(b, l, rows.getResults());
          });
      result = outerLoop.getResult(0);
    }
    rw.replaceOp(op, reshapeTensor(rw, loc, result, shape));
    return success();
  }
};

}  // namespace

void populateSortingLoweringPatterns(RewritePatternSet& patterns) {
  patterns.add<CumulativeLowering>(patterns.getContext());
}

}  // namespace mlir::strata
