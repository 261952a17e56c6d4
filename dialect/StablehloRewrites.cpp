// StableHLO forms that strata's ops do not take, rewritten on import into strata ops that do
// (StablehloCompat.h): each keeps the one definition of the strata op it becomes.
#include <algorithm>
#include <cctype>

#include "dialect/StablehloCompat.h"
#include "dialect/StrataOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {
namespace {

RankedTensorType withElement(RankedTensorType t, Type e) { return RankedTensorType::get(t.getShape(), e); }

Value splat(OpBuilder& b, Location loc, RankedTensorType type, int64_t v) {
  return ConstantOp::create(b, loc, DenseElementsAttr::get(type, IntegerAttr::get(type.getElementType(), v)));
}

// clamp's bounds may be 0-d in StableHLO; strata's clamp takes three operands of one type.
void broadcastClampBounds(ClampOp op, OpBuilder& b) {
  auto type = dyn_cast<RankedTensorType>(op.getType());
  if (!type) return;
  b.setInsertionPoint(op);
  for (OpOperand* bound : {&op.getMinMutable(), &op.getMaxMutable()}) {
    auto t = dyn_cast<RankedTensorType>(bound->get().getType());
    if (t && t.getRank() == 0 && type.getRank() > 0 && t.getElementType() == type.getElementType())
      bound->set(BroadcastInDimOp::create(b, op.getLoc(), type, bound->get(), b.getDenseI64ArrayAttr({})));
  }
}

// A convolution whose result element type differs from its operands' (i8 × i8 → i32, bf16 →
// f32: StableHLO's preferred type): computed in the wider of the two, then converted.
void convolutionInOneType(ConvolutionOp op, OpBuilder& b) {
  auto lhs = dyn_cast<RankedTensorType>(op.getLhs().getType());
  auto rhs = dyn_cast<RankedTensorType>(op.getRhs().getType());
  auto result = dyn_cast<RankedTensorType>(op.getType());
  if (!lhs || !rhs || !result || !lhs.getElementType().isIntOrFloat() || !result.getElementType().isIntOrFloat()) return;
  Type in = lhs.getElementType(), out = result.getElementType();
  if (in == rhs.getElementType() && in == out) return;
  b.setInsertionPoint(op);
  Location loc = op.getLoc();
  if (in != rhs.getElementType() || out.getIntOrFloatBitWidth() >= in.getIntOrFloatBitWidth()) {
    for (OpOperand* x : {&op.getLhsMutable(), &op.getRhsMutable()}) {
      auto t = cast<RankedTensorType>(x->get().getType());
      if (t.getElementType() != out) x->set(ConvertOp::create(b, loc, withElement(t, out), x->get()));
    }
    return;
  }
  // A narrower result: the sum in the operands' type, rounded once.
  b.setInsertionPointAfter(op);
  op.getResult().setType(withElement(result, in));
  auto convert = ConvertOp::create(b, loc, result, op.getResult());
  op.getResult().replaceAllUsesExcept(convert.getResult(), convert);
}

// Bits per element, a complex number counting both parts.
unsigned bitsOf(Type t) {
  if (auto c = dyn_cast<ComplexType>(t)) return 2 * c.getElementType().getIntOrFloatBitWidth();
  return t.getIntOrFloatBitWidth();
}

RankedTensorType withShape(RankedTensorType t, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, t.getElementType());
}

SmallVector<int64_t> appended(ArrayRef<int64_t> shape, int64_t last) {
  SmallVector<int64_t> s(shape);
  s.push_back(last);
  return s;
}

// A real x: the same type, or one strata.bitcast_convert.
Value sameWidth(OpBuilder& b, Location loc, Value x, Type element) {
  auto t = cast<RankedTensorType>(x.getType());
  if (t.getElementType() == element) return x;
  return BitcastConvertOp::create(b, loc, withElement(t, element), x);
}

// Real x of shape S, wider elements than `element`: shape S + [ratio], element k of the last
// dimension bits [k·w, (k+1)·w) of the wide value (i1 one bit each); shifts and masks on
// signless integers.
Value wideToNarrow(OpBuilder& b, Location loc, Value x, Type element) {
  auto t = cast<RankedTensorType>(x.getType());
  unsigned wide = t.getElementType().getIntOrFloatBitWidth(), narrow = element.getIntOrFloatBitWidth();
  MLIRContext* ctx = b.getContext();
  Type wideInt = IntegerType::get(ctx, wide), narrowInt = IntegerType::get(ctx, narrow);
  auto expanded = RankedTensorType::get(appended(t.getShape(), wide / narrow), wideInt);
  int64_t last = t.getRank();
  Value shifts = MultiplyOp::create(b, loc, IotaOp::create(b, loc, expanded, b.getI64IntegerAttr(last)),
                                    splat(b, loc, expanded, narrow));
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < last; ++d) dims.push_back(d);
  x = BroadcastInDimOp::create(b, loc, expanded, sameWidth(b, loc, x, wideInt), b.getDenseI64ArrayAttr(dims));
  x = ShiftRightLogicalOp::create(b, loc, x, shifts);
  if (narrow == 1) x = AndOp::create(b, loc, x, splat(b, loc, expanded, 1));  // convert to i1 is != 0
  x = ConvertOp::create(b, loc, withElement(expanded, narrowInt), x);          // integer convert wraps
  return sameWidth(b, loc, x, element);
}

// Real x of shape S + [ratio], narrower elements than `element`: shape S, the inverse.
Value narrowToWide(OpBuilder& b, Location loc, Value x, Type element) {
  auto t = cast<RankedTensorType>(x.getType());
  unsigned narrow = t.getElementType().getIntOrFloatBitWidth(), wide = element.getIntOrFloatBitWidth();
  MLIRContext* ctx = b.getContext();
  Type wideInt = IntegerType::get(ctx, wide), narrowInt = IntegerType::get(ctx, narrow);
  auto expanded = withElement(t, wideInt);
  int64_t last = t.getRank() - 1;
  Value shifts = MultiplyOp::create(b, loc, IotaOp::create(b, loc, expanded, b.getI64IntegerAttr(last)),
                                    splat(b, loc, expanded, narrow));
  x = ConvertOp::create(b, loc, expanded, sameWidth(b, loc, x, narrowInt));  // sign-extends: masked below
  if (narrow > 1) x = AndOp::create(b, loc, x, splat(b, loc, expanded, (int64_t{1} << narrow) - 1));
  x = ShiftLeftOp::create(b, loc, x, shifts);
  auto wideT = RankedTensorType::get(t.getShape().drop_back(), wideInt);
  auto scalar = RankedTensorType::get({}, wideInt);
  auto reduce = ReduceOp::create(b, loc, TypeRange{wideT}, ValueRange{x}, ValueRange{splat(b, loc, scalar, 0)},
                                 b.getDenseI64ArrayAttr({last}));
  {
    OpBuilder::InsertionGuard guard(b);
    Block* body = b.createBlock(&reduce.getBody(), {}, {scalar, scalar}, {loc, loc});
    // The pieces' bits are disjoint, so their sum is their `or` (no carries, no signed
    // overflow); a sum has a jaxpr form (reduce_sum), so a module's bitcast traces.
    ReturnOp::create(b, loc, ValueRange{AddOp::create(b, loc, body->getArgument(0), body->getArgument(1))});
  }
  return sameWidth(b, loc, reduce.getResult(0), element);
}

// complex<E> of shape S as E of shape S + [2]: (real, imaginary), the order in memory.
Value complexToParts(OpBuilder& b, Location loc, Value x) {
  auto t = cast<RankedTensorType>(x.getType());
  Type part = cast<ComplexType>(t.getElementType()).getElementType();
  auto one = RankedTensorType::get(appended(t.getShape(), 1), part);
  Value re = ReshapeOp::create(b, loc, one, RealOp::create(b, loc, withElement(t, part), x));
  Value im = ReshapeOp::create(b, loc, one, ImagOp::create(b, loc, withElement(t, part), x));
  return ConcatenateOp::create(b, loc, withShape(one, appended(t.getShape(), 2)), ValueRange{re, im}, t.getRank());
}

// The inverse: E of shape S + [2] as complex<E> of shape S.
Value partsToComplex(OpBuilder& b, Location loc, Value x, RankedTensorType out) {
  auto t = cast<RankedTensorType>(x.getType());
  int64_t rank = t.getRank();
  SmallVector<int64_t> limit(t.getShape()), strides(rank, 1), start(rank, 0), one(t.getShape());
  one[rank - 1] = 1;
  auto part = [&](int64_t k) -> Value {
    start[rank - 1] = k;
    limit[rank - 1] = k + 1;
    Value s = SliceOp::create(b, loc, withShape(t, one), x, start, limit, strides);
    return ReshapeOp::create(b, loc, withElement(out, t.getElementType()), s);
  };
  return ComplexOp::create(b, loc, out, part(0), part(1));
}

}  // namespace

Value convolutionOfComplexParts(ConvolutionOp op, OpBuilder& b) {
  auto result = dyn_cast<RankedTensorType>(op.getType());
  auto complexType = result ? dyn_cast<ComplexType>(result.getElementType()) : ComplexType();
  if (!complexType) return op.getResult();
  Type part = complexType.getElementType();
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(b);  // the caller's point may be just after op
  b.setInsertionPoint(op);
  auto parts = [&](Value v) -> std::pair<Value, Value> {
    auto t = cast<RankedTensorType>(v.getType());
    if (!isa<ComplexType>(t.getElementType())) return {v, Value()};  // a real operand: no imaginary part
    return {RealOp::create(b, loc, withElement(t, part), v), ImagOp::create(b, loc, withElement(t, part), v)};
  };
  auto [a, bi] = parts(op.getLhs());
  auto [c, d] = parts(op.getRhs());
  auto conv = [&](Value x, Value w) -> Value {
    Operation* clone = b.clone(*op);
    clone->setOperands({x, w});
    clone->getResult(0).setType(withElement(result, part));
    return clone->getResult(0);
  };
  // (a + ib) ⊛ (c + id) = (a ⊛ c − b ⊛ d) + i (a ⊛ d + b ⊛ c), terms of a real side left out.
  Value re = conv(a, c), im;
  if (bi && d) re = SubtractOp::create(b, loc, re, conv(bi, d));
  if (d) im = conv(a, d);
  if (bi) im = im ? Value(AddOp::create(b, loc, im, conv(bi, c))) : conv(bi, c);
  if (!im) im = ConstantOp::create(b, loc, DenseElementsAttr::get(withElement(result, part), b.getZeroAttr(part)));
  Value z = ComplexOp::create(b, loc, result, re, im);
  op.getResult().replaceAllUsesWith(z);
  op.erase();
  return z;
}

FailureOr<Value> bitcastConvert(OpBuilder& b, Location loc, Value x, RankedTensorType out,
                                llvm::function_ref<InFlightDiagnostic()> error) {
  auto in = dyn_cast<RankedTensorType>(x.getType());
  if (!in) return error() << "expects a ranked tensor, but got " << x.getType();
  if (in == out) return x;
  Type ei = in.getElementType(), eo = out.getElementType();
  auto bitsType = [](Type t) { return t.isIntOrFloat() || isa<ComplexType>(t); };
  if (!bitsType(ei) || !bitsType(eo))
    return error() << "expects integer, float or complex elements, but got "
           << in << " and " << out;
  unsigned wi = bitsOf(ei), wo = bitsOf(eo);
  unsigned narrow = std::min(wi, wo), wide = std::max(wi, wo);
  RankedTensorType narrowT = wi < wo ? in : out, wideT = wi < wo ? out : in;
  bool fits = wi == wo ? in.getShape() == out.getShape()
                       : wide % narrow == 0 && narrowT.getShape() == ArrayRef(appended(wideT.getShape(), wide / narrow));
  if (!fits) {
    if (wi == wo) return error() << "expects one shape for " << in << " and " << out;
    return error() << "between element widths "
           << wi << " and " << wo << " expects the narrow side's shape to be the wide side's with a last dimension of "
           << (wide % narrow == 0 ? wide / narrow : 0) << ", but got " << in << " and " << out;
  }
  // Complex numbers as pairs of their parts on a new last dimension; then real → real, where
  // the two shapes hold the same bits in the same order and a reshape joins or splits last
  // dimensions (f64[S, 2] → f32[S, 2, 2] → f32[S, 4] for complex<f64> → f32[S, 4]).
  if (auto c = dyn_cast<ComplexType>(ei)) x = complexToParts(b, loc, x);
  auto ci = dyn_cast<ComplexType>(eo);
  auto target = ci ? RankedTensorType::get(appended(out.getShape(), 2), ci.getElementType()) : out;
  auto xt = cast<RankedTensorType>(x.getType());
  unsigned pi = xt.getElementType().getIntOrFloatBitWidth(), po = target.getElementType().getIntOrFloatBitWidth();
  Value y;
  if (pi == po) {
    y = sameWidth(b, loc, x, target.getElementType());
  } else if (pi > po) {
    y = wideToNarrow(b, loc, x, target.getElementType());
    if (cast<RankedTensorType>(y.getType()).getShape() != target.getShape()) y = ReshapeOp::create(b, loc, target, y);
  } else {
    auto staged = RankedTensorType::get(appended(target.getShape(), po / pi), xt.getElementType());
    if (xt.getShape() != staged.getShape()) x = ReshapeOp::create(b, loc, staged, x);
    y = narrowToWide(b, loc, x, target.getElementType());
  }
  if (pi == po && cast<RankedTensorType>(y.getType()).getShape() != target.getShape())
    y = ReshapeOp::create(b, loc, target, y);
  return ci ? partsToComplex(b, loc, y, out) : y;
}

namespace {

// bitcast_convert between element widths or of complex numbers (StableHLO's forms; strata's op
// reinterprets real elements of one width): bitcastConvert's strata ops.
LogicalResult expandBitcast(BitcastConvertOp op, OpBuilder& b) {
  auto in = dyn_cast<RankedTensorType>(op.getOperand().getType());
  auto out = dyn_cast<RankedTensorType>(op.getType());
  if (!in || !out) return success();
  Type ei = in.getElementType(), eo = out.getElementType();
  if (ei.isIntOrFloat() && eo.isIntOrFloat() && ei.getIntOrFloatBitWidth() == eo.getIntOrFloatBitWidth()) return success();
  b.setInsertionPoint(op);
  FailureOr<Value> result = bitcastConvert(b, op.getLoc(), op.getOperand(), out, [&] { return op.emitOpError(); });
  if (failed(result)) return failure();
  op.replaceAllUsesWith(*result);
  op.erase();
  return success();
}

}  // namespace

LogicalResult rewriteImportedForms(ModuleOp module) {
  SmallVector<Operation*> ops;
  module.walk([&](Operation* op) {
    if (isa<ClampOp, ConvolutionOp, BitcastConvertOp>(op)) ops.push_back(op);
  });
  OpBuilder b(module.getContext());
  for (Operation* op : ops) {
    if (auto clamp = dyn_cast<ClampOp>(op)) broadcastClampBounds(clamp, b);
    else if (auto conv = dyn_cast<ConvolutionOp>(op)) {
      if (isa<ComplexType>(cast<ShapedType>(conv.getType()).getElementType())) (void)convolutionOfComplexParts(conv, b);
      else convolutionInOneType(conv, b);
    }
    else if (failed(expandBitcast(cast<BitcastConvertOp>(op), b))) return failure();
  }
  return success();
}

Value batchIndexColumns(OpBuilder& b, Location loc, Value indices, int64_t& indexVectorDim,
                        ArrayRef<int64_t> indicesBatchingDims) {
  auto type = cast<RankedTensorType>(indices.getType());
  if (indexVectorDim == type.getRank()) {  // an implicit index vector of one: made explicit
    SmallVector<int64_t> shape(type.getShape());
    shape.push_back(1);
    type = RankedTensorType::get(shape, type.getElementType());
    indices = ReshapeOp::create(b, loc, type, indices);
  }
  SmallVector<int64_t> columnShape(type.getShape());
  columnShape[indexVectorDim] = 1;
  auto columnType = RankedTensorType::get(columnShape, type.getElementType());
  SmallVector<Value> parts{indices};
  for (int64_t d : indicesBatchingDims) parts.push_back(IotaOp::create(b, loc, columnType, b.getI64IntegerAttr(d)));
  SmallVector<int64_t> shape(type.getShape());
  shape[indexVectorDim] += static_cast<int64_t>(indicesBatchingDims.size());
  return ConcatenateOp::create(b, loc, RankedTensorType::get(shape, type.getElementType()), parts,
                               b.getI64IntegerAttr(indexVectorDim));
}

std::string packByteBoolLiterals(StringRef text) {
  static constexpr StringRef kOpen = "dense<\"0x";
  if (!text.contains(kOpen)) return text.str();
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  while (true) {
    size_t at = text.find(kOpen, pos);
    if (at == StringRef::npos) break;
    size_t hexBegin = at + kOpen.size();
    size_t hexEnd = hexBegin;
    while (hexEnd < text.size() && std::isxdigit(static_cast<unsigned char>(text[hexEnd]))) ++hexEnd;
    // `"> : tensor<AxBxi1>` after the digits?
    StringRef rest = text.drop_front(hexEnd);
    bool packed = false;
    if (rest.consume_front("\">") ) {
      rest = rest.ltrim();
      if (rest.consume_front(":")) {
        rest = rest.ltrim();
        if (rest.consume_front("tensor<")) {
          size_t close = rest.find('>');
          StringRef shape = close == StringRef::npos ? StringRef() : rest.take_front(close);
          if (shape.consume_back("i1") && (shape.empty() || shape.ends_with("x"))) {
            int64_t n = 1;
            bool ok = true;
            SmallVector<StringRef> dims;
            shape.split(dims, 'x', -1, /*KeepEmpty=*/false);
            for (StringRef d : dims) {
              int64_t v;
              if (d.getAsInteger(10, v)) ok = false;
              else n *= v;
            }
            StringRef hex = text.slice(hexBegin, hexEnd);
            // One byte (00 or 01) per element, n > 1 (one byte is read alike either way).
            if (ok && n > 1 && static_cast<int64_t>(hex.size()) == 2 * n) {
              std::string bits((n + 7) / 8, '\0');
              for (int64_t i = 0; i < n && ok; ++i) {
                char hi = hex[2 * i], lo = hex[2 * i + 1];
                if (hi != '0' || (lo != '0' && lo != '1')) ok = false;
                else if (lo == '1') bits[i / 8] = static_cast<char>(bits[i / 8] | (1 << (i % 8)));
              }
              if (ok) {
                out.append(text.data() + pos, hexBegin - pos);
                static const char* digits = "0123456789ABCDEF";
                for (char c : bits) {
                  out.push_back(digits[(static_cast<unsigned char>(c) >> 4) & 15]);
                  out.push_back(digits[static_cast<unsigned char>(c) & 15]);
                }
                pos = hexEnd;
                packed = true;
              }
            }
          }
        }
      }
    }
    if (!packed) {
      out.append(text.data() + pos, hexEnd - pos);
      pos = hexEnd;
    }
  }
  out.append(text.data() + pos, text.size() - pos);
  return out;
}

}  // namespace mlir::strata
