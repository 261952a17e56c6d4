// Folders of the `strata` ops: constant folding and the identities canonicalization applies.
//
// Float identities follow XLA's algebraic simplifier (x + 0 → x even though -0 + 0 = +0).
// Non-splat constants fold only up to kFoldLimit elements, so a large constant never
// multiplies into copies of itself at compile time.
#include <cmath>

#include "dialect/ScalarOps.h"
#include "dialect/StrataOps.h"
#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::strata;

namespace {

constexpr int64_t kFoldLimit = 1 << 16;

// The byte floats whose values APFloat rounds otherwise than ml_dtypes (and so the eager and
// the compiled code): e8m0fnu (APFloat: 0 to 2^-127; ml_dtypes: nan) and the 6- and 4-bit
// formats (APFloat: nan to +0; ml_dtypes: the zero of the other sign). Not folded.
bool roundsAsApFloat(Type element) {
  return !isa<Float8E8M0FNUType, Float6E2M3FNType, Float6E3M2FNType, Float4E2M1FNType>(element);
}

// Complex constants are not folded (the folders below are written for floats and integers).
bool foldable(Attribute a) {
  auto e = dyn_cast_or_null<DenseElementsAttr>(a);
  return e && !isa<ComplexType>(e.getElementType()) && roundsAsApFloat(e.getElementType()) &&
         (e.isSplat() || e.getNumElements() <= kFoldLimit);
}

bool isI1(Type t) { return getElementTypeOrSelf(t).isInteger(1); }

// True when `a` is a splat of zero (`one` false) or one (`one` true); for i1, false or true.
bool isSplatOf(Attribute a, bool one) {
  auto e = dyn_cast_or_null<DenseElementsAttr>(a);
  if (!e || !e.isSplat() || isa<ComplexType>(e.getElementType())) return false;
  if (isa<FloatType>(e.getElementType())) {
    APFloat v = e.getSplatValue<APFloat>();
    return one ? v.isExactlyValue(1.0) : v.isPosZero() || v.isNegZero();
  }
  APInt v = e.getSplatValue<APInt>();
  return one ? v.isOne() : v.isZero();
}

// Elementwise folding of a binary op on constants: `f` on floats, `i` on integers (both
// return std::optional, empty to give up).
template <class F, class I>
OpFoldResult foldBinary(Attribute lhs, Attribute rhs, Type type, F f, I i) {
  if (!foldable(lhs) || !foldable(rhs)) return {};
  Attribute operands[] = {lhs, rhs};
  if (isa<FloatType>(getElementTypeOrSelf(type)))
    return constFoldBinaryOpConditional<FloatAttr, APFloat, void>(operands, type, f);
  return constFoldBinaryOpConditional<IntegerAttr, APInt, void>(operands, type, i);
}

template <class F, class I>
OpFoldResult foldUnary(Attribute operand, Type type, F f, I i) {
  if (!foldable(operand)) return {};
  Attribute operands[] = {operand};
  if (isa<FloatType>(getElementTypeOrSelf(type)))
    return constFoldUnaryOpConditional<FloatAttr, APFloat, void>(operands, type, f);
  return constFoldUnaryOpConditional<IntegerAttr, APInt, void>(operands, type, i);
}

// A float function evaluated in double and rounded back to the operand's format.
template <class Fn>
OpFoldResult foldFloatFn(Attribute operand, Type type, Fn fn) {
  if (!foldable(operand)) return {};
  Attribute operands[] = {operand};
  return constFoldUnaryOpConditional<FloatAttr, APFloat, void>(
      operands, type, [&](const APFloat& a) -> std::optional<APFloat> {
        bool lost;
        APFloat d = a;
        d.convert(APFloat::IEEEdouble(), llvm::RoundingMode::NearestTiesToEven, &lost);
        APFloat r(fn(d.convertToDouble()));
        r.convert(a.getSemantics(), llvm::RoundingMode::NearestTiesToEven, &lost);
        return r;
      });
}

auto noInt = [](const APInt&) -> std::optional<APInt> { return std::nullopt; };

// A splat constant of `type` with the splat value of `attr`, or null.
Attribute resplat(Attribute attr, Type type) {
  auto e = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!e || !e.isSplat()) return {};
  return DenseElementsAttr::get(cast<ShapedType>(type), e.getSplatValue<Attribute>());
}

// Whether every value of `from` converts to `to` and back unchanged (widening).
bool widens(Type from, Type to) {
  if (isa<ComplexType>(from) || isa<ComplexType>(to)) return false;
  if (from.isInteger(1)) return true;
  if (auto f = dyn_cast<FloatType>(from)) {
    auto t = dyn_cast<FloatType>(to);
    return t && APFloat::isRepresentableAsNormalIn(f.getFloatSemantics(), t.getFloatSemantics()) &&
           f.getWidth() < t.getWidth();
  }
  return isa<IntegerType>(to) && from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth();
}

bool isIota(ArrayRef<int64_t> v) {
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] != static_cast<int64_t>(i)) return false;
  return true;
}

}  // namespace

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------------------===//
// Binary arithmetic.
//===----------------------------------------------------------------------------------===//

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(adaptor.getRhs(), false)) return getLhs();
  if (isSplatOf(adaptor.getLhs(), false)) return getRhs();
  bool i1 = isI1(getType());
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat& a, const APFloat& b) -> std::optional<APFloat> { return a + b; },
      [i1](const APInt& a, const APInt& b) -> std::optional<APInt> { return i1 ? a | b : a + b; });
}

OpFoldResult SubtractOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(adaptor.getRhs(), false)) return getLhs();
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat& a, const APFloat& b) -> std::optional<APFloat> { return a - b; },
      [](const APInt& a, const APInt& b) -> std::optional<APInt> { return a - b; });
}

OpFoldResult MultiplyOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(adaptor.getRhs(), true)) return getLhs();
  if (isSplatOf(adaptor.getLhs(), true)) return getRhs();
  bool i1 = isI1(getType());
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat& a, const APFloat& b) -> std::optional<APFloat> { return a * b; },
      [i1](const APInt& a, const APInt& b) -> std::optional<APInt> { return i1 ? a & b : a * b; });
}

// Integer folds read signedness by unsignedOperands: the type, or the mark EraseSignedness
// leaves (the conversion to linalg folds ops after it).

OpFoldResult DivideOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(adaptor.getRhs(), true)) return getLhs();
  bool uns = unsignedOperands(getOperation());
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat& a, const APFloat& b) -> std::optional<APFloat> { return a / b; },
      [uns](const APInt& a, const APInt& b) -> std::optional<APInt> {
        // Division by zero and INT_MIN / -1 are left to run time.
        if (b.isZero() || (!uns && a.isMinSignedValue() && b.isAllOnes())) return std::nullopt;
        return uns ? a.udiv(b) : a.sdiv(b);
      });
}

OpFoldResult MaximumOp::fold(FoldAdaptor adaptor) {
  bool i1 = isI1(getType()), uns = unsignedOperands(getOperation());
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat& a, const APFloat& b) -> std::optional<APFloat> {
        return llvm::maximum(a, b);
      },
      [i1, uns](const APInt& a, const APInt& b) -> std::optional<APInt> {
        return i1 ? a | b : uns ? llvm::APIntOps::umax(a, b) : llvm::APIntOps::smax(a, b);
      });
}

OpFoldResult MinimumOp::fold(FoldAdaptor adaptor) {
  bool i1 = isI1(getType()), uns = unsignedOperands(getOperation());
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat& a, const APFloat& b) -> std::optional<APFloat> {
        return llvm::minimum(a, b);
      },
      [i1, uns](const APInt& a, const APInt& b) -> std::optional<APInt> {
        return i1 ? a & b : uns ? llvm::APIntOps::umin(a, b) : llvm::APIntOps::smin(a, b);
      });
}

// x & true → x and x | false → x (all ones / zero on integers).
OpFoldResult AndOp::fold(FoldAdaptor adaptor) {
  if (auto r = dyn_cast_or_null<DenseElementsAttr>(adaptor.getRhs());
      r && r.isSplat() && r.getSplatValue<APInt>().isAllOnes())
    return getLhs();
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat&, const APFloat&) -> std::optional<APFloat> { return std::nullopt; },
      [](const APInt& a, const APInt& b) -> std::optional<APInt> { return a & b; });
}

OpFoldResult OrOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(adaptor.getRhs(), false)) return getLhs();
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat&, const APFloat&) -> std::optional<APFloat> { return std::nullopt; },
      [](const APInt& a, const APInt& b) -> std::optional<APInt> { return a | b; });
}

//===----------------------------------------------------------------------------------===//
// Unary.
//===----------------------------------------------------------------------------------===//

OpFoldResult NotOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getOperand().getDefiningOp<NotOp>()) return inner.getOperand();
  return foldUnary(
      adaptor.getOperand(), getType(),
      [](const APFloat&) -> std::optional<APFloat> { return std::nullopt; },
      [](const APInt& a) -> std::optional<APInt> { return ~a; });
}

OpFoldResult NegateOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getOperand().getDefiningOp<NegateOp>()) return inner.getOperand();
  return foldUnary(
      adaptor.getOperand(), getType(), [](const APFloat& a) -> std::optional<APFloat> { return -a; },
      [](const APInt& a) -> std::optional<APInt> { return -a; });
}

OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  return foldUnary(
      adaptor.getOperand(), getType(),
      [](const APFloat& a) -> std::optional<APFloat> { return llvm::abs(a); },
      [uns = unsignedOperands(getOperation())](const APInt& a) -> std::optional<APInt> { return uns ? a : a.abs(); });
}

OpFoldResult FloorOp::fold(FoldAdaptor adaptor) {
  return foldUnary(
      adaptor.getOperand(), getType(),
      [](APFloat a) -> std::optional<APFloat> {
        a.roundToIntegral(llvm::RoundingMode::TowardNegative);
        return a;
      },
      noInt);
}

OpFoldResult CeilOp::fold(FoldAdaptor adaptor) {
  return foldUnary(
      adaptor.getOperand(), getType(),
      [](APFloat a) -> std::optional<APFloat> {
        a.roundToIntegral(llvm::RoundingMode::TowardPositive);
        return a;
      },
      noInt);
}

OpFoldResult ExpOp::fold(FoldAdaptor a) {
  return foldFloatFn(a.getOperand(), getType(), [](double x) { return std::exp(x); });
}
OpFoldResult LogOp::fold(FoldAdaptor a) {
  return foldFloatFn(a.getOperand(), getType(), [](double x) { return std::log(x); });
}
OpFoldResult TanhOp::fold(FoldAdaptor a) {
  return foldFloatFn(a.getOperand(), getType(), [](double x) { return std::tanh(x); });
}
OpFoldResult SineOp::fold(FoldAdaptor a) {
  return foldFloatFn(a.getOperand(), getType(), [](double x) { return std::sin(x); });
}
OpFoldResult CosineOp::fold(FoldAdaptor a) {
  return foldFloatFn(a.getOperand(), getType(), [](double x) { return std::cos(x); });
}
OpFoldResult SqrtOp::fold(FoldAdaptor a) {
  return foldFloatFn(a.getOperand(), getType(), [](double x) { return std::sqrt(x); });
}
OpFoldResult RsqrtOp::fold(FoldAdaptor a) {
  return foldFloatFn(a.getOperand(), getType(), [](double x) { return 1.0 / std::sqrt(x); });
}

//===----------------------------------------------------------------------------------===//
// Selection and conversion.
//===----------------------------------------------------------------------------------===//

OpFoldResult SelectOp::fold(FoldAdaptor adaptor) {
  if (getOnTrue() == getOnFalse()) return getOnTrue();
  auto pred = dyn_cast_or_null<DenseElementsAttr>(adaptor.getPred());
  if (!pred || !pred.isSplat()) return {};
  return pred.getSplatValue<bool>() ? getOnTrue() : getOnFalse();
}

// Identity, and splat constants between float types or from integers (float → integer
// rounding and saturation are left to the backend's one definition).
OpFoldResult ConvertOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType()) return getOperand();
  // convert(convert(x)) back to x's type through a wider type: x.
  if (auto inner = getOperand().getDefiningOp<ConvertOp>())
    if (inner.getOperand().getType() == getType() &&
        widens(getType().getElementType(), inner.getType().getElementType()))
      return inner.getOperand();
  auto in = dyn_cast_or_null<DenseElementsAttr>(adaptor.getOperand());
  if (!in || !in.isSplat()) return {};
  Type from = in.getElementType(), to = getType().getElementType();
  if (isa<ComplexType>(from) || isa<ComplexType>(to) || !roundsAsApFloat(from) || !roundsAsApFloat(to)) return {};
  bool lost;
  if (auto toFloat = dyn_cast<FloatType>(to)) {
    APFloat r(toFloat.getFloatSemantics());
    if (isa<FloatType>(from)) {
      r = in.getSplatValue<APFloat>();
      r.convert(toFloat.getFloatSemantics(), llvm::RoundingMode::NearestTiesToEven, &lost);
    } else {
      r.convertFromAPInt(in.getSplatValue<APInt>(), /*isSigned=*/!from.isInteger(1) && !unsignedOperands(getOperation()),
                         llvm::RoundingMode::NearestTiesToEven);
    }
    return DenseElementsAttr::get(getType(), r);
  }
  if (isa<IntegerType>(from)) {
    APInt v = in.getSplatValue<APInt>();
    unsigned width = to.getIntOrFloatBitWidth();
    APInt r = width == 1                                             ? APInt(1, !v.isZero())
              : from.isInteger(1) || unsignedOperands(getOperation()) ? v.zextOrTrunc(width)
                                                                  : v.sextOrTrunc(width);
    return DenseElementsAttr::get(getType(), r);
  }
  return {};
}

//===----------------------------------------------------------------------------------===//
// Shape ops: identities, splats, and chains folded into one op in place.
//===----------------------------------------------------------------------------------===//

OpFoldResult BroadcastInDimOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType() && isIota(getBroadcastDimensions())) return getOperand();
  if (Attribute splat = resplat(adaptor.getOperand(), getType())) return splat;
  // broadcast(broadcast(x)): x's dim k goes to outer[inner[k]].
  if (auto inner = getOperand().getDefiningOp<BroadcastInDimOp>()) {
    SmallVector<int64_t> dims;
    for (int64_t d : inner.getBroadcastDimensions()) dims.push_back(getBroadcastDimensions()[d]);
    getOperandMutable().assign(inner.getOperand());
    setBroadcastDimensions(dims);
    return getResult();
  }
  // broadcast(reshape(x)) where the reshape only inserts size-1 dims (keepdims reductions):
  // x's dim k is the reshape's dim at[k], so it goes straight to dims[at[k]].
  if (auto reshape = getOperand().getDefiningOp<ReshapeOp>()) {
    ArrayRef<int64_t> from = reshape.getOperand().getType().getShape();
    ArrayRef<int64_t> to = reshape.getType().getShape();
    SmallVector<int64_t> dims;
    size_t j = 0;
    for (int64_t size : from) {
      while (j < to.size() && to[j] != size && to[j] == 1) ++j;
      if (j == to.size() || to[j] != size) return {};
      dims.push_back(getBroadcastDimensions()[j++]);
    }
    for (; j < to.size(); ++j)
      if (to[j] != 1) return {};
    getOperandMutable().assign(reshape.getOperand());
    setBroadcastDimensions(dims);
    return getResult();
  }
  return {};
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType()) return getOperand();
  if (auto in = dyn_cast_or_null<DenseElementsAttr>(adaptor.getOperand()); foldable(in))
    return in.reshape(getType());
  if (auto inner = getOperand().getDefiningOp<ReshapeOp>()) {
    getOperandMutable().assign(inner.getOperand());
    return getResult();
  }
  return {};
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  if (isIota(getPermutation())) return getOperand();
  if (Attribute splat = resplat(adaptor.getOperand(), getType())) return splat;
  // transpose(transpose(x)): result dim i is x's dim inner[outer[i]].
  if (auto inner = getOperand().getDefiningOp<TransposeOp>()) {
    SmallVector<int64_t> perm;
    for (int64_t p : getPermutation()) perm.push_back(inner.getPermutation()[p]);
    if (isIota(perm)) return inner.getOperand();
    getOperandMutable().assign(inner.getOperand());
    setPermutation(perm);
    return getResult();
  }
  return {};
}

namespace {

// transpose(broadcast_in_dim(x)) → broadcast_in_dim(x) straight into the transposed layout,
// when x's dimensions stay in order (a broadcast never reorders them).
struct TransposeOfBroadcast : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op, PatternRewriter& rewriter) const override {
    auto b = op.getOperand().getDefiningOp<BroadcastInDimOp>();
    if (!b) return failure();
    ArrayRef<int64_t> perm = op.getPermutation();
    SmallVector<int64_t> inverse(perm.size());
    for (size_t k = 0; k < perm.size(); ++k) inverse[perm[k]] = static_cast<int64_t>(k);
    SmallVector<int64_t> dims;
    for (int64_t d : b.getBroadcastDimensions()) {
      dims.push_back(inverse[d]);
      if (dims.size() > 1 && dims.back() <= dims[dims.size() - 2]) return failure();
    }
    rewriter.replaceOpWithNewOp<BroadcastInDimOp>(op, op.getType(), b.getOperand(), dims);
    return success();
  }
};

// transpose(dot_general(a, b)) that puts b's free dimensions before a's → dot_general(b, a):
// the product computed in the layout wanted (XLA folds this too; a backward pass computes
// weight gradients this way). The dot's result is [batch, a's free, b's free].
struct TransposeOfDot : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op, PatternRewriter& rewriter) const override {
    auto dot = op.getOperand().getDefiningOp<DotGeneralOp>();
    if (!dot || !dot->hasOneUse()) return failure();
    auto lhsType = cast<RankedTensorType>(dot.getLhs().getType());
    auto rhsType = cast<RankedTensorType>(dot.getRhs().getType());
    const int64_t batch = static_cast<int64_t>(dot.getLhsBatchingDimensions().size());
    const int64_t lhsFree = lhsType.getRank() - batch - static_cast<int64_t>(dot.getLhsContractingDimensions().size());
    const int64_t rhsFree = rhsType.getRank() - batch - static_cast<int64_t>(dot.getRhsContractingDimensions().size());
    if (lhsFree == 0 || rhsFree == 0) return failure();
    SmallVector<int64_t> swapped;
    for (int64_t i = 0; i < batch; ++i) swapped.push_back(i);
    for (int64_t i = 0; i < rhsFree; ++i) swapped.push_back(batch + lhsFree + i);
    for (int64_t i = 0; i < lhsFree; ++i) swapped.push_back(batch + i);
    if (ArrayRef<int64_t>(swapped) != op.getPermutation()) return failure();
    rewriter.replaceOpWithNewOp<DotGeneralOp>(op, op.getType(), dot.getRhs(), dot.getLhs(),
                                              dot.getRhsBatchingDimensions(), dot.getLhsBatchingDimensions(),
                                              dot.getRhsContractingDimensions(), dot.getLhsContractingDimensions());
    return success();
  }
};

}  // namespace

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet& patterns, MLIRContext* context) {
  patterns.add<TransposeOfBroadcast, TransposeOfDot>(context);
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType()) return getOperand();
  return resplat(adaptor.getOperand(), getType());
}

OpFoldResult PadOp::fold(FoldAdaptor) {
  if (getOperand().getType() == getType()) return getOperand();  // no padding anywhere
  return {};
}

OpFoldResult ConcatenateOp::fold(FoldAdaptor) {
  if (getInputs().size() == 1 && getInputs().front().getType() == getType())
    return getInputs().front();
  return {};
}
