// lowering/SortComparator.cpp — building and recognising sort comparators (SortComparator.h).
#include "lowering/SortComparator.h"

#include "dialect/ElementTypes.h"
#include "kernels/sort.h"

#include <algorithm>

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::strata {

namespace {

using Kind = ::strata::kernels::SortKeyKind;  // the runtime's (tracer/kernels/sort.h)

RankedTensorType scalarOf(Type element) { return RankedTensorType::get({}, element); }

Value constant(OpBuilder& b, Location loc, Type element, Attribute value) {
  return ConstantOp::create(b, loc, cast<ElementsAttr>(DenseElementsAttr::get(scalarOf(element), value)));
}

}  // namespace

int64_t sortKeyCode(Type element, std::optional<bool> unsignedInt) {
  // A complex operand is moved, never compared (the primitive refuses complex keys).
  if (isa<ComplexType>(element)) return storageBits(element) / 8 | static_cast<int64_t>(Kind::kFloat) << 8;
  // Sub-byte types (bool, the 2- and 4-bit integers) take a byte each.
  int64_t bits = std::max<int64_t>(8, element.getIntOrFloatBitWidth());
  std::optional<::strata::kernels::Float8Format> f8 = float8Format(element);
  Kind kind = element.isBF16() ? Kind::kBFloat16
              : f8                        ? ::strata::kernels::float8_sort_kind(*f8)
              : isa<FloatType>(element)   ? Kind::kFloat
              : element.isInteger(1) || (unsignedInt ? *unsignedInt : element.isUnsignedInteger()) ? Kind::kUnsigned
              : element.isInteger(4) ? Kind::kSigned4
              : element.isInteger(2) ? Kind::kSigned2
                                     : Kind::kSigned;
  return bits / 8 | static_cast<int64_t>(kind) << 8;
}

void buildLexicographicComparator(OpBuilder& b, Location loc, Region& region, TypeRange elements, int64_t numKeys) {
  OpBuilder::InsertionGuard guard(b);
  SmallVector<Type> argTypes;
  for (Type t : elements) argTypes.append(2, scalarOf(t));
  SmallVector<Location> locs(argTypes.size(), loc);
  Block* body = b.createBlock(&region, {}, argTypes, locs);
  auto pred = scalarOf(b.getI1Type());
  auto canonical = [&](Value x, Type t) -> Value {
    auto ft = cast<FloatType>(t);
    Value zero = constant(b, loc, t, FloatAttr::get(ft, 0.0));
    Value nan = constant(b, loc, t, FloatAttr::get(ft, APFloat::getQNaN(ft.getFloatSemantics())));
    Value isZero = CompareOp::create(b, loc, pred, ComparisonDirection::EQ, x, zero, ComparisonTypeAttr::get(b.getContext(), ComparisonType::FLOAT));
    Value noNegZero = SelectOp::create(b, loc, x.getType(), isZero, zero, x);
    Value isNan = CompareOp::create(b, loc, pred, ComparisonDirection::NE, x, x, ComparisonTypeAttr::get(b.getContext(), ComparisonType::FLOAT));
    return SelectOp::create(b, loc, x.getType(), isNan, nan, noNegZero);
  };
  auto cmp = [&](ComparisonDirection d, int64_t k) -> Value {
    Type t = elements[k];
    Value x = body->getArgument(2 * k), y = body->getArgument(2 * k + 1);
    ComparisonType type = isa<FloatType>(t) ? ComparisonType::TOTALORDER
                          : t.isInteger(1) || t.isUnsignedInteger() ? ComparisonType::UNSIGNED
                                                                   : ComparisonType::SIGNED;
    if (isa<FloatType>(t)) {
      x = canonical(x, t);
      y = canonical(y, t);
    }
    return CompareOp::create(b, loc, pred, d, x, y, ComparisonTypeAttr::get(b.getContext(), type));
  };
  Value result = cmp(ComparisonDirection::LT, numKeys - 1);
  for (int64_t k = numKeys - 2; k >= 0; --k)
    result = OrOp::create(b, loc, cmp(ComparisonDirection::LT, k), AndOp::create(b, loc, cmp(ComparisonDirection::EQ, k), result));
  ReturnOp::create(b, loc, ValueRange{result});
}

namespace {

bool isSplat(Value v, function_ref<bool(Attribute)> test) {
  auto c = v.getDefiningOp<ConstantOp>();
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : DenseElementsAttr();
  return dense && dense.isSplat() && test(dense.getSplatValue<Attribute>());
}
bool isFloatZero(Value v) {
  return isSplat(v, [](Attribute a) { auto f = dyn_cast<FloatAttr>(a); return f && f.getValue().isZero(); });
}
bool isFloatNan(Value v) {
  return isSplat(v, [](Attribute a) { auto f = dyn_cast<FloatAttr>(a); return f && f.getValue().isNaN(); });
}

struct Matcher {
  Block& body;
  std::optional<bool> descending, canonical;
  SmallVector<int64_t> codes;

  // `v` is block argument `arg` (raw) or JAX's canonicalisation of it.
  std::optional<bool> key(Value v, unsigned arg) {
    Value a = body.getArgument(arg);
    if (v == a) return false;
    auto outer = v.getDefiningOp<SelectOp>();
    if (!outer || !isFloatNan(outer.getOnTrue())) return std::nullopt;
    auto isNan = outer.getPred().getDefiningOp<CompareOp>();
    if (!isNan || isNan.getComparisonDirection() != ComparisonDirection::NE || isNan.getLhs() != a || isNan.getRhs() != a)
      return std::nullopt;
    auto inner = outer.getOnFalse().getDefiningOp<SelectOp>();
    if (!inner || inner.getOnFalse() != a || !isFloatZero(inner.getOnTrue())) return std::nullopt;
    auto isZero = inner.getPred().getDefiningOp<CompareOp>();
    if (!isZero || isZero.getComparisonDirection() != ComparisonDirection::EQ || isZero.getLhs() != a ||
        !isFloatZero(isZero.getRhs()))
      return std::nullopt;
    return true;
  }

  // compare DIR of key k's lhs and rhs with a type the key sort computes.
  bool compare(Value v, int64_t k, bool eq) {
    auto c = v.getDefiningOp<CompareOp>();
    if (!c) return false;
    ComparisonDirection d = c.getComparisonDirection();
    if (eq ? d != ComparisonDirection::EQ : (d != ComparisonDirection::LT && d != ComparisonDirection::GT)) return false;
    auto l = key(c.getLhs(), 2 * k), r = key(c.getRhs(), 2 * k + 1);
    if (!l || !r || *l != *r) return false;
    Type t = cast<RankedTensorType>(body.getArgument(2 * k).getType()).getElementType();
    std::optional<ComparisonType> type = c.getCompareType();
    if (isa<FloatType>(t)) {
      if (type != ComparisonType::TOTALORDER) return false;
      if (canonical && *canonical != *l) return false;
      canonical = *l;
    } else if (*l) {
      return false;
    } else if (type == ComparisonType::FLOAT || type == ComparisonType::TOTALORDER) {
      return false;
    }
    if (!eq) {
      bool desc = d == ComparisonDirection::GT;
      if (descending && *descending != desc) return false;
      descending = desc;
      std::optional<bool> u;
      if (type == ComparisonType::UNSIGNED) u = true;
      else if (type == ComparisonType::SIGNED) u = false;
      codes[k] = sortKeyCode(t, u);
    }
    return true;
  }

  // The number of keys of the lexicographic comparison `v` starting at key k.
  std::optional<int64_t> lex(Value v, int64_t k) {
    if (2 * (k + 1) > body.getNumArguments()) return std::nullopt;
    if (compare(v, k, false)) return k + 1;
    auto o = v.getDefiningOp<OrOp>();
    if (!o) return std::nullopt;
    for (int swap = 0; swap < 2; ++swap) {
      Value lt = swap ? o.getRhs() : o.getLhs(), rest = swap ? o.getLhs() : o.getRhs();
      auto a = rest.getDefiningOp<AndOp>();
      if (!a || !compare(lt, k, false)) continue;
      for (int swap2 = 0; swap2 < 2; ++swap2) {
        Value eq = swap2 ? a.getRhs() : a.getLhs(), tail = swap2 ? a.getLhs() : a.getRhs();
        if (compare(eq, k, true)) return lex(tail, k + 1);
      }
    }
    return std::nullopt;
  }
};

}  // namespace

std::optional<StandardSort> recognizeComparator(SortOp op) {
  Block& body = op.getComparator().front();
  auto ret = dyn_cast<ReturnOp>(body.getTerminator());
  if (!ret || ret.getResults().size() != 1) return std::nullopt;
  Matcher m{body, std::nullopt, std::nullopt, {}};
  for (Value v : op.getInputs()) m.codes.push_back(sortKeyCode(cast<RankedTensorType>(v.getType()).getElementType()));
  std::optional<int64_t> keys = m.lex(ret.getResults()[0], 0);
  if (!keys) return std::nullopt;
  StandardSort s;
  s.numKeys = *keys;
  s.descending = m.descending.value_or(false);
  s.canonical = m.canonical.value_or(false);
  s.codes = m.codes;
  return s;
}

}  // namespace mlir::strata
