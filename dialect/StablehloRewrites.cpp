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

// bitcast_convert between element widths (StableHLO: wide → narrow adds a last dimension of
// the ratio, narrow → wide removes it; element k of that dimension holds bits
// [k·w, (k+1)·w) of the wide value, i1 one bit each): shifts and masks on signless integers.
LogicalResult bitcastBetweenWidths(BitcastConvertOp op, OpBuilder& b) {
  auto in = dyn_cast<RankedTensorType>(op.getOperand().getType());
  auto out = dyn_cast<RankedTensorType>(op.getType());
  if (!in || !out || !in.getElementType().isIntOrFloat() || !out.getElementType().isIntOrFloat()) return success();
  unsigned wi = in.getElementType().getIntOrFloatBitWidth(), wo = out.getElementType().getIntOrFloatBitWidth();
  if (wi == wo) return success();
  Location loc = op.getLoc();
  bool widen = wi < wo;
  unsigned narrow = widen ? wi : wo, wide = widen ? wo : wi, ratio = wide / narrow;
  RankedTensorType narrowT = widen ? in : out, wideT = widen ? out : in;
  bool shapesFit = wide % narrow == 0 && narrowT.getRank() == wideT.getRank() + 1 &&
                   narrowT.getShape().drop_back() == wideT.getShape() && narrowT.getShape().back() == ratio;
  if (!shapesFit)
    return op.emitOpError("between element widths ")
           << wi << " and " << wo << " expects the narrow side's shape to be the wide side's with a last dimension of "
           << (wide % narrow == 0 ? wide / narrow : 0) << ", but got " << in << " and " << out;
  b.setInsertionPoint(op);
  MLIRContext* ctx = op.getContext();
  Type wideInt = IntegerType::get(ctx, wide), narrowInt = IntegerType::get(ctx, narrow);
  RankedTensorType expanded = RankedTensorType::get(narrowT.getShape(), wideInt);
  int64_t last = narrowT.getRank() - 1;
  // The shift of element k: k·w.
  Value shifts = IotaOp::create(b, loc, expanded, b.getI64IntegerAttr(last));
  shifts = MultiplyOp::create(b, loc, shifts, splat(b, loc, expanded, narrow));
  auto asInt = [&](Value v, Type element) -> Value {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getElementType() == element) return v;
    return BitcastConvertOp::create(b, loc, withElement(t, element), v);
  };
  Value result;
  if (!widen) {
    Value x = asInt(op.getOperand(), wideInt);
    SmallVector<int64_t> dims;
    for (int64_t d = 0; d < last; ++d) dims.push_back(d);
    x = BroadcastInDimOp::create(b, loc, expanded, x, b.getDenseI64ArrayAttr(dims));
    x = ShiftRightLogicalOp::create(b, loc, x, shifts);
    if (narrow == 1) x = AndOp::create(b, loc, x, splat(b, loc, expanded, 1));  // convert to i1 is != 0
    x = ConvertOp::create(b, loc, withElement(expanded, narrowInt), x);  // integer convert wraps
    result = asInt(x, out.getElementType());
  } else {
    Value x = asInt(op.getOperand(), narrowInt);
    x = ConvertOp::create(b, loc, expanded, x);  // sign-extends: masked below
    if (narrow > 1) x = AndOp::create(b, loc, x, splat(b, loc, expanded, (int64_t{1} << narrow) - 1));
    x = ShiftLeftOp::create(b, loc, x, shifts);
    auto wideIntT = RankedTensorType::get(wideT.getShape(), wideInt);
    auto scalar = RankedTensorType::get({}, wideInt);
    auto reduce = ReduceOp::create(b, loc, TypeRange{wideIntT}, ValueRange{x}, ValueRange{splat(b, loc, scalar, 0)},
                                   b.getDenseI64ArrayAttr({last}));
    {
      OpBuilder::InsertionGuard guard(b);
      Block* body = b.createBlock(&reduce.getBody(), {}, {scalar, scalar}, {loc, loc});
      ReturnOp::create(b, loc, ValueRange{OrOp::create(b, loc, body->getArgument(0), body->getArgument(1))});
    }
    result = asInt(reduce.getResult(0), out.getElementType());
  }
  op.replaceAllUsesWith(result);
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
    else if (auto conv = dyn_cast<ConvolutionOp>(op)) convolutionInOneType(conv, b);
    else if (failed(bitcastBetweenWidths(cast<BitcastConvertOp>(op), b))) return failure();
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
