// The `strata` ops: verifiers, result type inference and custom assembly.
//
// Structural shape rules come from tracer/shape_rules.h — the same functions the tracer's
// primitives call — so the dialect and the tracer can never disagree on a shape. Their messages
// already read "expects X, but got Y"; the op name is prefixed here.
#include "dialect/RegionReturn.h"
#include "dialect/StrataOps.h"

#include "dialect/ScalarOps.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "llvm/ADT/STLExtras.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "gather_rules.h"
#include "shape_rules.h"
#include "linalg_rules.h"  // linear algebra (issue 14)
#include "collective_rules.h"  // collectives (issue 18)
#include "fft_rules.h"  // jax.lax.fft

using namespace mlir;
using namespace mlir::strata;

namespace {

namespace rules = ::strata::shape_rules;

::strata::Shape shapeOf(Type type) {
  auto t = cast<RankedTensorType>(type);
  return ::strata::Shape(t.getShape().begin(), t.getShape().end());
}

rules::IntList listOf(ArrayRef<int64_t> v) { return rules::IntList(v.begin(), v.end()); }

std::string str(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

std::string str(TypeRange types) {
  std::string s = "(";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(types, os);
  os << ")";
  return s;
}

// An inference failure, worded like a verifier's: inference runs before verify() and reports
// at the op's location without naming it.
LogicalResult inferError(std::optional<Location> loc, StringRef op, const std::string& msg) {
  return emitOptionalError(loc, "'strata.", op, "' op ", msg);
}

bool allRankedTensors(TypeRange types) {
  return llvm::all_of(types, [](Type t) { return isa<RankedTensorType>(t); });
}

}  // namespace

//===----------------------------------------------------------------------------------===//
// Custom assembly: slice ranges and dot_general dimensions.
//===----------------------------------------------------------------------------------===//

// [1:3, 0:8:2] — start:limit, then :stride when it is not 1.
static ParseResult parseSliceRanges(OpAsmParser& parser, DenseI64ArrayAttr& start,
                                    DenseI64ArrayAttr& limit, DenseI64ArrayAttr& strides) {
  SmallVector<int64_t> s, l, k;
  auto parseRange = [&]() -> ParseResult {
    int64_t a, b, c = 1;
    if (parser.parseInteger(a) || parser.parseColon() || parser.parseInteger(b)) return failure();
    if (succeeded(parser.parseOptionalColon()) && parser.parseInteger(c)) return failure();
    s.push_back(a);
    l.push_back(b);
    k.push_back(c);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseRange)) return failure();
  start = parser.getBuilder().getDenseI64ArrayAttr(s);
  limit = parser.getBuilder().getDenseI64ArrayAttr(l);
  strides = parser.getBuilder().getDenseI64ArrayAttr(k);
  return success();
}

static void printSliceRanges(OpAsmPrinter& p, Operation*, DenseI64ArrayAttr start,
                             DenseI64ArrayAttr limit, DenseI64ArrayAttr strides) {
  p << "[";
  for (int64_t i = 0; i < start.size(); ++i) {
    if (i) p << ", ";
    p << start[i] << ":" << limit[i];
    if (i < strides.size() && strides[i] != 1) p << ":" << strides[i];
  }
  p << "]";
}

// `(T) -> U`, or StableHLO's one `T` when operand and result types are the same.
static ParseResult parseUnaryTypes(OpAsmParser& parser, Type& operand, Type& result) {
  if (failed(parser.parseOptionalLParen())) {
    if (parser.parseType(operand)) return failure();
    result = operand;
    return success();
  }
  return failure(parser.parseType(operand) || parser.parseRParen() || parser.parseArrow() || parser.parseType(result));
}

// `T` with T a tensor of complex numbers (the parts' types follow), or `(A, B) -> T`
// (StableHLO's ComplexOpType).
static ParseResult parseComplexTypes(OpAsmParser& parser, Type& lhs, Type& rhs, Type& result) {
  Type type;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseType(type)) return failure();
  if (auto fn = dyn_cast<FunctionType>(type)) {
    if (fn.getNumInputs() != 2 || fn.getNumResults() != 1)
      return parser.emitError(loc, "expects two operand types and one result type, but got ") << fn;
    lhs = fn.getInput(0), rhs = fn.getInput(1), result = fn.getResult(0);
    return success();
  }
  auto tensor = dyn_cast<RankedTensorType>(type);
  auto element = tensor ? dyn_cast<ComplexType>(tensor.getElementType()) : ComplexType();
  if (!element) return parser.emitError(loc, "expects a tensor of complex numbers, but got ") << type;
  lhs = rhs = tensor.clone(element.getElementType());
  result = type;
  return success();
}

static void printComplexTypes(OpAsmPrinter& p, Operation*, Type lhs, Type rhs, Type result) {
  auto tensor = cast<RankedTensorType>(result);
  auto element = dyn_cast<ComplexType>(tensor.getElementType());
  if (element && lhs == rhs && lhs == tensor.clone(element.getElementType())) p << result;
  else p << "(" << lhs << ", " << rhs << ") -> " << result;
}

static void printUnaryTypes(OpAsmPrinter& p, Operation*, Type operand, Type result) {
  if (operand == result) p << result;
  else p << "(" << operand << ") -> " << result;
}

// `[%i, %j],` (strata) or `, %i, %j,` (StableHLO): a dynamic slice's start indices.
static ParseResult parseSliceStarts(OpAsmParser& parser, SmallVectorImpl<OpAsmParser::UnresolvedOperand>& starts) {
  if (succeeded(parser.parseOptionalLSquare()))
    return failure(parser.parseOperandList(starts) || parser.parseRSquare() || parser.parseComma());
  if (parser.parseComma()) return failure();
  for (;;) {
    OpAsmParser::UnresolvedOperand operand;
    OptionalParseResult r = parser.parseOptionalOperand(operand);
    if (!r.has_value()) return success();
    if (failed(*r) || parser.parseComma()) return failure();
    starts.push_back(operand);
  }
}

static void printSliceStarts(OpAsmPrinter& p, Operation*, OperandRange starts) {
  p << "[" << starts << "],";
}

// `[%i, %j], %update` (strata) or `, %update, %i, %j` (StableHLO).
static ParseResult parseUpdateSliceOperands(OpAsmParser& parser, OpAsmParser::UnresolvedOperand& update,
                                            SmallVectorImpl<OpAsmParser::UnresolvedOperand>& starts) {
  if (succeeded(parser.parseOptionalLSquare()))
    return failure(parser.parseOperandList(starts) || parser.parseRSquare() || parser.parseComma() ||
                   parser.parseOperand(update));
  if (parser.parseComma() || parser.parseOperand(update)) return failure();
  while (succeeded(parser.parseOptionalComma()))
    if (parser.parseOperand(starts.emplace_back())) return failure();
  return success();
}

static void printUpdateSliceOperands(OpAsmPrinter& p, Operation*, Value update, OperandRange starts) {
  p << "[" << starts << "], " << update;
}

static ParseResult parseIntList(OpAsmParser& parser, SmallVectorImpl<int64_t>& out) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
    return parser.parseInteger(out.emplace_back());
  });
}

static void printIntList(OpAsmPrinter& p, DenseI64ArrayAttr a) {
  p << "[";
  if (a) llvm::interleaveComma(a.asArrayRef(), p);
  p << "]";
}

// batching_dims = [0] x [0], contracting_dims = [2] x [1] — batching only when there is some.
static ParseResult parseDotDimensions(OpAsmParser& parser, DenseI64ArrayAttr& lhsBatch,
                                      DenseI64ArrayAttr& rhsBatch, DenseI64ArrayAttr& lhsContract,
                                      DenseI64ArrayAttr& rhsContract) {
  SmallVector<int64_t> lb, rb, lc, rc;
  if (succeeded(parser.parseOptionalKeyword("batching_dims"))) {
    if (parser.parseEqual() || parseIntList(parser, lb) || parser.parseKeyword("x") ||
        parseIntList(parser, rb) || parser.parseComma())
      return failure();
  }
  if (parser.parseKeyword("contracting_dims") || parser.parseEqual() || parseIntList(parser, lc) ||
      parser.parseKeyword("x") || parseIntList(parser, rc))
    return failure();
  // StableHLO's `, precision = [DEFAULT, HIGHEST]`: a hint strata's CPU and GPU code (f32
  // accumulation, no reduced-precision passes) has no use for, accepted and dropped.
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("precision") || parser.parseEqual() ||
        parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
          StringRef level;
          if (parser.parseKeyword(&level)) return failure();
          if (level != "DEFAULT" && level != "HIGH" && level != "HIGHEST")
            return parser.emitError(parser.getCurrentLocation(), "expects a precision (DEFAULT, HIGH, HIGHEST), but got ") << level;
          return success();
        }))
      return failure();
  }
  Builder& b = parser.getBuilder();
  lhsBatch = b.getDenseI64ArrayAttr(lb);
  rhsBatch = b.getDenseI64ArrayAttr(rb);
  lhsContract = b.getDenseI64ArrayAttr(lc);
  rhsContract = b.getDenseI64ArrayAttr(rc);
  return success();
}

static void printDotDimensions(OpAsmPrinter& p, Operation*, DenseI64ArrayAttr lhsBatch,
                               DenseI64ArrayAttr rhsBatch, DenseI64ArrayAttr lhsContract,
                               DenseI64ArrayAttr rhsContract) {
  if (lhsBatch && !lhsBatch.empty()) {
    p << "batching_dims = ";
    printIntList(p, lhsBatch);
    p << " x ";
    printIntList(p, rhsBatch);
    p << ", ";
  }
  p << "contracting_dims = ";
  printIntList(p, lhsContract);
  p << " x ";
  printIntList(p, rhsContract);
}

// %a, %b, dim = 0 — the operand list ends at `dim`, as StableHLO prints concatenate.
static ParseResult parseConcatenateInputs(OpAsmParser& parser,
                                          SmallVectorImpl<OpAsmParser::UnresolvedOperand>& inputs,
                                          IntegerAttr& dimension) {
  while (failed(parser.parseOptionalKeyword("dim"))) {
    if (parser.parseOperand(inputs.emplace_back()) || parser.parseComma()) return failure();
  }
  int64_t d;
  if (parser.parseEqual() || parser.parseInteger(d)) return failure();
  dimension = parser.getBuilder().getI64IntegerAttr(d);
  return success();
}

static void printConcatenateInputs(OpAsmPrinter& p, Operation*, OperandRange inputs,
                                   IntegerAttr dimension) {
  for (Value v : inputs) p << v << ", ";
  p << "dim = " << dimension.getInt();
}

// reduce_precision's `format = e5m10` (StableHLO's spelling of exponent and mantissa bits).
static ParseResult parsePrecisionFormat(OpAsmParser& parser, IntegerAttr& exponentBits, IntegerAttr& mantissaBits) {
  StringRef word;
  SMLoc at = parser.getCurrentLocation();
  if (parser.parseKeyword(&word)) return failure();
  int64_t e = 0, m = 0;
  size_t split = word.find('m');
  if (!word.consume_front("e") || split == StringRef::npos || word.take_front(split - 1).getAsInteger(10, e) ||
      word.drop_front(split).getAsInteger(10, m))
    return parser.emitError(at, "expects a format as e<exponent bits>m<mantissa bits> (e5m10), but got '") << word << "'";
  Builder b(parser.getContext());
  exponentBits = b.getI32IntegerAttr(static_cast<int32_t>(e));
  mantissaBits = b.getI32IntegerAttr(static_cast<int32_t>(m));
  return success();
}
static void printPrecisionFormat(OpAsmPrinter& p, Operation*, IntegerAttr exponentBits, IntegerAttr mantissaBits) {
  p << "e" << exponentBits.getInt() << "m" << mantissaBits.getInt();
}

#include "dialect/ConvolutionSyntax.h"  // convolution and pooling (issue 13)
#include "StrataEnums.cpp.inc"
#include "StrataInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "StrataOps.cpp.inc"

//===----------------------------------------------------------------------------------===//
// Verifiers.
//===----------------------------------------------------------------------------------===//

LogicalResult IntegerPowOp::verify() {
  // I64Attr's getter is unsigned: the exponent's signed value is the attribute's.
  int64_t y = getYAttr().getInt();
  if (y < 0 && !isa<FloatType, ComplexType>(cast<ShapedType>(getOperand().getType()).getElementType()))
    return emitOpError("expects a float or complex operand for the negative exponent ") << y << ", but got " << getOperand().getType();
  return success();
}

LogicalResult IotaOp::verify() {
  rules::Result r = rules::iota(shapeOf(getType()), getIotaDimension());
  return r.ok() ? success() : emitOpError(r.error);
}

LogicalResult BitcastConvertOp::verify() {
  Type from = getOperand().getType().getElementType();
  Type to = getType().getElementType();
  if (isa<ComplexType>(from) || isa<ComplexType>(to))
    return emitOpError("does not reinterpret complex numbers yet, but got ") << from << " to " << to;
  if (from.getIntOrFloatBitWidth() != to.getIntOrFloatBitWidth())
    return emitOpError("expects a result element type as wide as ")
           << from << " (" << from.getIntOrFloatBitWidth() << " bits), but got " << to << " ("
           << to.getIntOrFloatBitWidth() << " bits)";
  return success();
}

// Shape-moving ops keep the element type.
static LogicalResult verifySameElementType(Operation* op, Type operand, Type result) {
  Type a = cast<ShapedType>(operand).getElementType();
  Type b = cast<ShapedType>(result).getElementType();
  if (a != b)
    return op->emitOpError("expects the operand's element type ")
           << a << " for the result, but got " << b;
  return success();
}

LogicalResult BroadcastInDimOp::verify() {
  rules::Result r = rules::broadcast_in_dim(shapeOf(getOperand().getType()), shapeOf(getType()),
                                            listOf(getBroadcastDimensions()));
  if (!r.ok()) return emitOpError(r.error);
  return verifySameElementType(*this, getOperand().getType(), getType());
}

LogicalResult ReshapeOp::verify() {
  rules::Result r = rules::reshape(shapeOf(getOperand().getType()), shapeOf(getType()));
  if (!r.ok()) return emitOpError(r.error);
  return verifySameElementType(*this, getOperand().getType(), getType());
}

LogicalResult FusionOp::verify() {
  Block& body = getBody().front();
  if (body.getArgumentTypes() != getInputs().getTypes())
    return emitOpError("expects body arguments of types ")
           << str(getInputs().getTypes()) << ", but got " << str(body.getArgumentTypes());
  auto ret = returnOf(body);
  if (!ret)
    return emitOpError("expects the body to end in strata.return, but got ")
           << endOf(body);
  if (ret.getResults().getTypes() != getResultTypes())
    return emitOpError("expects the body to return ")
           << str(getResultTypes()) << ", but got " << str(ret.getResults().getTypes());
  return success();
}

//===----------------------------------------------------------------------------------===//
// Result type inference, shared with the verifiers.
//
// Each rule below computes an op's result types from its operands and attributes, or says why
// it cannot. verify() reports that reason as the op's error; inferReturnTypes (builders, and
// the interface's check that declared and inferred types agree) uses the types. verify() runs
// first, so a malformed op gets exactly one error.
//===----------------------------------------------------------------------------------===//

namespace {

struct Inferred {
  SmallVector<Type> types;
  std::string error;
};

Inferred fail(std::string error) { return {{}, std::move(error)}; }

Inferred tensorOf(const rules::Result& r, Type element) {
  if (!r.ok()) return fail(r.error);
  return {{RankedTensorType::get(r.shape, element)}, {}};
}

Type elementOf(Type t) { return cast<RankedTensorType>(t).getElementType(); }

LogicalResult report(Operation* op, const Inferred& r) {
  return r.error.empty() ? success() : op->emitOpError(r.error);
}

LogicalResult deliver(std::optional<Location> loc, StringRef op, Inferred r,
                      SmallVectorImpl<Type>& inferred) {
  if (!r.error.empty()) return inferError(loc, op, r.error);
  inferred.append(r.types.begin(), r.types.end());
  return success();
}

Inferred transposeTypes(Type operand, ArrayRef<int64_t> perm) {
  return tensorOf(rules::transpose(shapeOf(operand), listOf(perm)), elementOf(operand));
}

Inferred sliceTypes(Type operand, ArrayRef<int64_t> start, ArrayRef<int64_t> limit,
                    ArrayRef<int64_t> strides) {
  return tensorOf(rules::slice(shapeOf(operand), listOf(start), listOf(limit), listOf(strides)),
                  elementOf(operand));
}

Inferred concatenateTypes(TypeRange inputs, int64_t dimension) {
  std::vector<::strata::Shape> shapes;
  for (Type t : inputs) shapes.push_back(shapeOf(t));
  rules::Result r = rules::concatenate(shapes, dimension);
  if (!r.ok()) return fail(r.error);
  return tensorOf(r, elementOf(inputs.front()));
}

Inferred padTypes(Type operand, Type value, ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                  ArrayRef<int64_t> interior) {
  auto want = RankedTensorType::get({}, elementOf(operand));
  if (value != want)
    return fail("expects a padding value of type " + str(want) + ", but got " + str(value));
  return tensorOf(rules::pad(shapeOf(operand), listOf(low), listOf(high), listOf(interior)),
                  elementOf(operand));
}

Inferred dotGeneralTypes(Type lhs, Type rhs, ArrayRef<int64_t> lb, ArrayRef<int64_t> rb,
                         ArrayRef<int64_t> lc, ArrayRef<int64_t> rc) {
  if (elementOf(lhs) != elementOf(rhs))
    return fail("expects operands of one element type, but got " + str(elementOf(lhs)) +
                " and " + str(elementOf(rhs)));
  return tensorOf(rules::dot_general(shapeOf(lhs), shapeOf(rhs), listOf(lb), listOf(rb),
                                     listOf(lc), listOf(rc)),
                  elementOf(lhs));
}

// Each input's shape without `dimensions`, with its init value's element type.
Inferred reduceTypes(TypeRange inputs, TypeRange inits, ArrayRef<int64_t> dimensions) {
  if (inputs.empty()) return fail("expects at least one input, but got none");
  if (inits.size() != inputs.size())
    return fail("expects one init value per input (" + std::to_string(inputs.size()) +
                "), but got " + std::to_string(inits.size()));
  ::strata::Shape shape = shapeOf(inputs.front());
  for (Type t : inputs)
    if (shapeOf(t) != shape)
      return fail("expects inputs of one shape, but got " + str(inputs.front()) + " and " +
                  str(t));
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto want = RankedTensorType::get({}, elementOf(inputs[i]));
    if (inits[i] != want)
      return fail("expects init value #" + std::to_string(i) + " of type " + str(want) +
                  ", but got " + str(inits[i]));
  }
  rules::Result r = rules::reduce(shape, listOf(dimensions));
  if (!r.ok()) return fail(r.error);
  Inferred out;
  for (Type t : inits) out.types.push_back(RankedTensorType::get(r.shape, elementOf(t)));
  return out;
}

}  // namespace

LogicalResult CompareOp::inferReturnTypes(MLIRContext* ctx, std::optional<Location>,
                                          Adaptor adaptor, SmallVectorImpl<Type>& inferred) {
  auto lhs = dyn_cast<RankedTensorType>(adaptor.getLhs().getType());
  if (!lhs) return failure();
  inferred.push_back(RankedTensorType::get(lhs.getShape(), IntegerType::get(ctx, 1)));
  return success();
}

LogicalResult TransposeOp::verify() {
  return report(*this, transposeTypes(getOperand().getType(), getPermutation()));
}
LogicalResult TransposeOp::inferReturnTypes(MLIRContext*, std::optional<Location> loc,
                                            Adaptor a, SmallVectorImpl<Type>& inferred) {
  if (!allRankedTensors(a.getOperand().getType())) return failure();
  return deliver(loc, "transpose", transposeTypes(a.getOperand().getType(), a.getPermutation()),
                 inferred);
}

LogicalResult SliceOp::verify() {
  return report(*this, sliceTypes(getOperand().getType(), getStartIndices(), getLimitIndices(),
                                  getStrides()));
}
LogicalResult SliceOp::inferReturnTypes(MLIRContext*, std::optional<Location> loc, Adaptor a,
                                        SmallVectorImpl<Type>& inferred) {
  if (!allRankedTensors(a.getOperand().getType())) return failure();
  return deliver(loc, "slice",
                 sliceTypes(a.getOperand().getType(), a.getStartIndices(), a.getLimitIndices(),
                            a.getStrides()),
                 inferred);
}

LogicalResult ConcatenateOp::verify() {
  return report(*this, concatenateTypes(getInputs().getTypes(), getDimension()));
}
LogicalResult ConcatenateOp::inferReturnTypes(MLIRContext*, std::optional<Location> loc,
                                              Adaptor a, SmallVectorImpl<Type>& inferred) {
  if (!allRankedTensors(a.getInputs().getTypes())) return failure();
  return deliver(loc, "concatenate", concatenateTypes(a.getInputs().getTypes(), a.getDimension()),
                 inferred);
}

LogicalResult PadOp::verify() {
  return report(*this, padTypes(getOperand().getType(), getPaddingValue().getType(),
                                getEdgePaddingLow(), getEdgePaddingHigh(), getInteriorPadding()));
}
LogicalResult PadOp::inferReturnTypes(MLIRContext*, std::optional<Location> loc, Adaptor a,
                                      SmallVectorImpl<Type>& inferred) {
  if (!allRankedTensors({a.getOperand().getType(), a.getPaddingValue().getType()}))
    return failure();
  return deliver(loc, "pad",
                 padTypes(a.getOperand().getType(), a.getPaddingValue().getType(),
                          a.getEdgePaddingLow(), a.getEdgePaddingHigh(), a.getInteriorPadding()),
                 inferred);
}

LogicalResult DotGeneralOp::verify() {
  return report(*this, dotGeneralTypes(getLhs().getType(), getRhs().getType(),
                                       getLhsBatchingDimensions(), getRhsBatchingDimensions(),
                                       getLhsContractingDimensions(),
                                       getRhsContractingDimensions()));
}
LogicalResult DotGeneralOp::inferReturnTypes(MLIRContext*, std::optional<Location> loc,
                                             Adaptor a, SmallVectorImpl<Type>& inferred) {
  if (!allRankedTensors({a.getLhs().getType(), a.getRhs().getType()})) return failure();
  return deliver(loc, "dot_general",
                 dotGeneralTypes(a.getLhs().getType(), a.getRhs().getType(),
                                 a.getLhsBatchingDimensions(), a.getRhsBatchingDimensions(),
                                 a.getLhsContractingDimensions(), a.getRhsContractingDimensions()),
                 inferred);
}

LogicalResult ReduceOp::inferReturnTypes(MLIRContext*, std::optional<Location> loc, Adaptor a,
                                         SmallVectorImpl<Type>& inferred) {
  if (!allRankedTensors(a.getInputs().getTypes()) || !allRankedTensors(a.getInitValues().getTypes()))
    return failure();
  return deliver(loc, "reduce",
                 reduceTypes(a.getInputs().getTypes(), a.getInitValues().getTypes(),
                             a.getDimensions()),
                 inferred);
}

LogicalResult ReduceOp::verify() {
  if (failed(report(*this, reduceTypes(getInputs().getTypes(), getInitValues().getTypes(),
                                       getDimensions()))))
    return failure();
  size_t n = getInputs().size();
  Block& body = getBody().front();
  if (body.getNumArguments() != 2 * n)
    return emitOpError("expects a body with ")
           << 2 * n << " arguments (accumulators, then elements), but got "
           << body.getNumArguments();
  SmallVector<Type> scalars;
  for (Value init : getInitValues()) scalars.push_back(init.getType());
  for (size_t i = 0; i < 2 * n; ++i) {
    Type want = scalars[i % n], got = body.getArgument(i).getType();
    if (want != got)
      return emitOpError("expects body argument #") << i << " of type " << want << ", but got "
                                                    << got;
  }
  auto ret = returnOf(body);
  if (!ret)
    return emitOpError("expects the body to end in strata.return, but got ")
           << endOf(body);
  if (TypeRange(ret.getResults().getTypes()) != TypeRange(scalars))
    return emitOpError("expects the body to return ")
           << str(TypeRange(scalars)) << ", but got " << str(ret.getResults().getTypes());
  return success();
}

//===----------------------------------------------------------------------------------===//
// Index maps: the operand index each result index reads (IndexMapOpInterface).
//===----------------------------------------------------------------------------------===//

// Result dimension d of size-1 operand dimensions stretched to more is read at 0.
AffineMap BroadcastInDimOp::getOperandIndexMap() {
  ArrayRef<int64_t> in = getOperand().getType().getShape(), out = getType().getShape();
  SmallVector<AffineExpr> exprs;
  for (auto [j, d] : llvm::enumerate(getBroadcastDimensions()))
    exprs.push_back(in[j] == 1 && out[d] != 1 ? getAffineConstantExpr(0, getContext())
                                              : getAffineDimExpr(static_cast<unsigned>(d), getContext()));
  return AffineMap::get(static_cast<unsigned>(out.size()), 0, exprs, getContext());
}

// operand[j] with j[perm[k]] = i[k].
AffineMap TransposeOp::getOperandIndexMap() {
  ArrayRef<int64_t> perm = getPermutation();
  SmallVector<AffineExpr> exprs(perm.size());
  for (size_t k = 0; k < perm.size(); ++k) exprs[perm[k]] = getAffineDimExpr(static_cast<unsigned>(k), getContext());
  return AffineMap::get(static_cast<unsigned>(perm.size()), 0, exprs, getContext());
}

AffineMap SliceOp::getOperandIndexMap() {
  SmallVector<AffineExpr> exprs;
  for (size_t j = 0; j < getStartIndices().size(); ++j)
    exprs.push_back(getAffineDimExpr(static_cast<unsigned>(j), getContext()) * getStrides()[j] + getStartIndices()[j]);
  return AffineMap::get(static_cast<unsigned>(exprs.size()), 0, exprs, getContext());
}

// Only a reshape that inserts or removes size-1 dimensions is an index map: its non-unit
// dimensions correspond in order; the operand's size-1 dimensions are read at 0.
AffineMap ReshapeOp::getOperandIndexMap() {
  ArrayRef<int64_t> in = getOperand().getType().getShape(), out = getType().getShape();
  SmallVector<size_t> inDims, outDims;
  for (size_t d = 0; d < in.size(); ++d)
    if (in[d] != 1) inDims.push_back(d);
  for (size_t d = 0; d < out.size(); ++d)
    if (out[d] != 1) outDims.push_back(d);
  if (inDims.size() != outDims.size()) return {};
  SmallVector<AffineExpr> exprs(in.size(), getAffineConstantExpr(0, getContext()));
  for (size_t k = 0; k < inDims.size(); ++k) {
    if (in[inDims[k]] != out[outDims[k]]) return {};
    exprs[inDims[k]] = getAffineDimExpr(static_cast<unsigned>(outDims[k]), getContext());
  }
  return AffineMap::get(static_cast<unsigned>(out.size()), 0, exprs, getContext());
}

//===----------------------------------------------------------------------------------===//
// Control flow: if, case, while, and the dynamic slices a scan lowers through.
//===----------------------------------------------------------------------------------===//

namespace {

// Checks that `region` (one block, `args` arguments) ends in strata.return of `want`.
LogicalResult verifyRegion(Operation* op, Region& region, StringRef name, TypeRange args, TypeRange want) {
  Block& block = region.front();
  if (TypeRange(block.getArgumentTypes()) != args)
    return op->emitOpError("expects ") << name << " arguments of types " << str(args) << ", but got "
                                       << str(TypeRange(block.getArgumentTypes()));
  auto ret = returnOf(block);
  if (!ret)
    return op->emitOpError("expects ") << name << " to end in strata.return, but got "
                                       << endOf(block);
  if (TypeRange(ret.getResults().getTypes()) != want)
    return op->emitOpError("expects ") << name << " to return " << str(want) << ", but got "
                                       << str(TypeRange(ret.getResults().getTypes()));
  return success();
}

// Start indices: one a dimension of `operand`, and a box of `sizes` that fits in it.
LogicalResult verifyBox(Operation* op, RankedTensorType operand, size_t numIndices, ArrayRef<int64_t> sizes) {
  if (numIndices != static_cast<size_t>(operand.getRank()))
    return op->emitOpError("expects ") << operand.getRank() << " start indices (one a dimension), but got " << numIndices;
  if (sizes.size() != static_cast<size_t>(operand.getRank()))
    return op->emitOpError("expects ") << operand.getRank() << " slice sizes, but got " << sizes.size();
  for (size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] < 0 || sizes[d] > operand.getDimSize(static_cast<unsigned>(d)))
      return op->emitOpError("expects slice size ") << d << " in [0, " << operand.getDimSize(static_cast<unsigned>(d))
                                                    << "], but got " << sizes[d];
  return success();
}

}  // namespace

LogicalResult IfOp::verify() {
  if (failed(verifyRegion(*this, getTrueBranch(), "the true branch", {}, getResultTypes()))) return failure();
  return verifyRegion(*this, getFalseBranch(), "the false branch", {}, getResultTypes());
}

LogicalResult CaseOp::verify() {
  if (getBranches().empty()) return emitOpError("expects at least one branch, but got none");
  for (auto [i, r] : llvm::enumerate(getBranches()))
    if (failed(verifyRegion(*this, r, "branch " + std::to_string(i), {}, getResultTypes()))) return failure();
  return success();
}

LogicalResult WhileOp::verify() {
  TypeRange carry = getOperand().getTypes();
  if (TypeRange(getResultTypes()) != carry)
    return emitOpError("expects results of the carry's types ") << str(carry) << ", but got " << str(TypeRange(getResultTypes()));
  Type pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(verifyRegion(*this, getCond(), "cond", carry, TypeRange{pred}))) return failure();
  return verifyRegion(*this, getBody(), "body", carry, carry);
}

ParseResult WhileOp::parse(OpAsmParser& parser, OperationState& result) {
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> types;
  if (parser.parseAssignmentList(args, operands)) return failure();
  if (succeeded(parser.parseOptionalColon()) && parser.parseTypeList(types)) return failure();
  if (types.size() != args.size())
    return parser.emitError(parser.getCurrentLocation(), "expects ")
           << args.size() << " carry types, but got " << types.size();
  for (auto [a, t] : llvm::zip(args, types)) a.type = t;
  if (parser.resolveOperands(operands, types, parser.getCurrentLocation(), result.operands)) return failure();
  result.addTypes(types);
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes)) return failure();
  Region* cond = result.addRegion();
  Region* body = result.addRegion();
  if (parser.parseKeyword("cond") || parser.parseRegion(*cond, args) || parser.parseKeyword("do") ||
      parser.parseRegion(*body, args))
    return failure();
  return success();
}

void WhileOp::print(OpAsmPrinter& p) {
  Block& cond = getCond().front();
  p << "(";
  llvm::interleaveComma(llvm::zip(cond.getArguments(), getOperand()), p, [&](auto it) {
    p << std::get<0>(it) << " = " << std::get<1>(it);
  });
  p << ")";
  if (!getOperand().empty()) {
    p << " : ";
    llvm::interleaveComma(getOperand().getTypes(), p);
  }
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs());
  p.printNewline();
  p << "  cond ";
  p.printRegion(getCond(), /*printEntryBlockArgs=*/false);
  p << " do ";
  p.shadowRegionArgs(getBody(), cond.getArguments());
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

// The part type of a complex tensor's elements (complex<f32> -> f32), or null.
static Type partType(Value v) {
  auto c = dyn_cast<ComplexType>(cast<RankedTensorType>(v.getType()).getElementType());
  return c ? c.getElementType() : Type();
}
static Type elementOf(Value v) { return cast<RankedTensorType>(v.getType()).getElementType(); }

// abs, real, imag: the result's elements are `want` (a complex operand's part type).
static LogicalResult verifyResultElement(Operation* op, Value result, Type want) {
  if (elementOf(result) == want) return success();
  return op->emitOpError("expects a result of element type ") << want << ", but got " << result.getType();
}

LogicalResult AbsOp::verify() {
  Type part = partType(getOperand());
  return verifyResultElement(*this, getResult(), part ? part : elementOf(getOperand()));
}
LogicalResult RealOp::verify() { return verifyResultElement(*this, getResult(), partType(getOperand())); }
LogicalResult ImagOp::verify() { return verifyResultElement(*this, getResult(), partType(getOperand())); }
LogicalResult ComplexOp::verify() {
  if (partType(getResult()) != elementOf(getLhs()))
    return emitOpError("expects a result of element type complex<") << elementOf(getLhs()) << ">, but got " << getResult().getType();
  return success();
}

LogicalResult CompareOp::verify() {
  if (partType(getLhs())) {
    ComparisonDirection d = getComparisonDirection();
    if (d != ComparisonDirection::EQ && d != ComparisonDirection::NE)
      return emitOpError("compares complex numbers with EQ or NE only, but got ") << stringifyComparisonDirection(d);
    return success();
  }
  std::optional<ComparisonType> type = getCompareType();
  if (!type || *type == ComparisonType::NOTYPE) return success();
  bool isFloat = isa<FloatType>(cast<RankedTensorType>(getLhs().getType()).getElementType());
  bool wantsFloat = *type == ComparisonType::FLOAT || *type == ComparisonType::TOTALORDER;
  if (isFloat != wantsFloat)
    return emitOpError("expects a comparison type for ") << (isFloat ? "floats (FLOAT, TOTALORDER)" : "integers (SIGNED, UNSIGNED)")
                                                         << ", but got " << stringifyComparisonType(*type);
  return success();
}

// strata:    (%a, %b init: %i, %j) across dimensions = [0] : (...) -> (...) { ^bb0(...): ... }
// StableHLO: (%a init: %i), (%b init: %j) [applies OP] across dimensions = [0] : (...) -> (...)
//            [reducer(%acc_a: T, %x_a: T) (%acc_b: U, %x_b: U) { ... }]
ParseResult ReduceOp::parse(OpAsmParser& parser, OperationState& result) {
  SmallVector<OpAsmParser::UnresolvedOperand> inputs, inits;
  auto group = [&]() -> ParseResult {
    return failure(parser.parseLParen() || parser.parseOperandList(inputs) || parser.parseKeyword("init") ||
                   parser.parseColon() || parser.parseOperandList(inits) || parser.parseRParen());
  };
  if (group()) return failure();
  while (succeeded(parser.parseOptionalComma()))
    if (group()) return failure();
  std::string applied;
  llvm::SMLoc appliesLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("applies"))) {
    // An op name (dialect.name): a bare identifier token, read as a keyword with dots.
    if (parser.parseKeywordOrString(&applied)) return failure();
  }
  SmallVector<int64_t> dims;
  FunctionType type;
  llvm::SMLoc typeLoc;
  if (parser.parseKeyword("across") || parser.parseKeyword("dimensions") || parser.parseEqual() ||
      parseIntList(parser, dims) || parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      (typeLoc = parser.getCurrentLocation(), parser.parseType(type)))
    return failure();
  size_t n = inputs.size(), m = inits.size();  // the verifier checks that m == n
  if (type.getNumInputs() != n + m)
    return parser.emitError(typeLoc, "expects a type for each input and init value (")
           << n + m << "), but got " << type;
  if (parser.resolveOperands(inputs, type.getInputs().take_front(n), typeLoc, result.operands) ||
      parser.resolveOperands(inits, type.getInputs().drop_front(n), typeLoc, result.operands))
    return failure();
  result.addTypes(type.getResults());
  Builder& b = parser.getBuilder();
  Properties& props = result.getOrAddProperties<Properties>();
  props.dimensions = b.getDenseI64ArrayAttr(dims);
  props.operandSegmentSizes = {static_cast<int32_t>(n), static_cast<int32_t>(m)};
  Region* body = result.addRegion();
  SmallVector<Type> scalars;  // the accumulators' types, then the elements'
  for (Type t : type.getInputs().drop_front(n)) scalars.push_back(t);
  for (Type t : type.getInputs().drop_front(n)) scalars.push_back(t);
  const bool reducer = applied.empty() && succeeded(parser.parseOptionalKeyword("reducer"));
  if (m != n && (reducer || !applied.empty()))  // the strata form leaves this to the verifier
    return parser.emitError(typeLoc, "expects one init value per input (") << n << "), but got " << m;
  if (!applied.empty()) {
    // One op of (accumulator, element) for each input, as a block.
    StringRef name = StringRef(applied).rsplit('.').second;
    if (name.empty()) name = applied;
    OperationName op(("strata." + name).str(), b.getContext());
    if (!op.isRegistered() || !op.hasTrait<OpTrait::Elementwise>())
      return parser.emitError(appliesLoc, "expects an elementwise strata op after 'applies', but got '") << applied << "'";
    Block* block = new Block;
    body->push_back(block);
    for (Type t : scalars) block->addArgument(t, result.location);
    OpBuilder ob(b.getContext());  // the region has no op yet to take a context from
    ob.setInsertionPointToEnd(block);
    SmallVector<Value> values;
    for (size_t i = 0; i < n; ++i) {
      OperationState s(result.location, op);
      s.addOperands({block->getArgument(i), block->getArgument(n + i)});
      s.addTypes(scalars[i]);
      values.push_back(ob.create(s)->getResult(0));
    }
    ReturnOp::create(ob, result.location, values);
    return success();
  }
  if (!reducer) return parser.parseRegion(*body);
  // (acc, x) pairs, one an input: the block takes every accumulator, then every element.
  SmallVector<OpAsmParser::Argument> accs, xs;
  for (size_t i = 0; i < n; ++i) {
    OpAsmParser::Argument acc, x;
    if (parser.parseLParen() || parser.parseArgument(acc, /*allowType=*/true) || parser.parseComma() ||
        parser.parseArgument(x, /*allowType=*/true) || parser.parseRParen())
      return failure();
    accs.push_back(acc);
    xs.push_back(x);
  }
  SmallVector<OpAsmParser::Argument> args(accs);
  args.append(xs);
  return parser.parseRegion(*body, args);
}

void ReduceOp::print(OpAsmPrinter& p) {
  p << "(" << getInputs() << " init: " << getInitValues() << ") across dimensions = ";
  printIntList(p, getDimensionsAttr());
  p.printOptionalAttrDict((*this)->getAttrs(), {getDimensionsAttrName(), "operandSegmentSizes"});
  p << " : ";
  p.printFunctionalType(getOperation());
  p << " ";
  p.printRegion(getBody());
}

LogicalResult DynamicSliceOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  if (failed(verifyBox(*this, operand, getStartIndices().size(), getSliceSizes()))) return failure();
  auto want = RankedTensorType::get(getSliceSizes(), operand.getElementType());
  if (getType() != want) return emitOpError("expects the result type ") << want << ", but got " << getType();
  return success();
}

LogicalResult DynamicUpdateSliceOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto update = cast<RankedTensorType>(getUpdate().getType());
  if (update.getElementType() != operand.getElementType() || update.getRank() != operand.getRank())
    return emitOpError("expects an update of the operand's rank and element type, but got ")
           << update << " for " << operand;
  if (failed(verifyBox(*this, operand, getStartIndices().size(), update.getShape()))) return failure();
  if (getType() != operand) return emitOpError("expects the result type ") << operand << ", but got " << getType();
  return success();
}

// ---- Indexing: the shared rules of tracer/gather_rules.h. ----

namespace {
std::vector<int64_t> vec(ArrayRef<int64_t> a) { return std::vector<int64_t>(a.begin(), a.end()); }
}  // namespace

LogicalResult GatherOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto indices = cast<RankedTensorType>(getStartIndices().getType());
  ::strata::shape_rules::GatherDims dims{vec(getOffsetDims()), vec(getCollapsedSliceDims()), vec(getStartIndexMap()),
                                         static_cast<int64_t>(getIndexVectorDim())};
  auto r = ::strata::shape_rules::gather(vec(operand.getShape()), vec(indices.getShape()), dims, vec(getSliceSizes()));
  if (!r.ok()) return emitOpError(r.error);
  auto want = RankedTensorType::get(r.shape, operand.getElementType());
  if (getType() != want) return emitOpError("expects the result type ") << want << ", but got " << getType();
  return success();
}

LogicalResult ScatterOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto indices = cast<RankedTensorType>(getScatterIndices().getType());
  auto updates = cast<RankedTensorType>(getUpdates().getType());
  if (updates.getElementType() != operand.getElementType())
    return emitOpError("expects updates of the operand's element type, but got ") << updates << " for " << operand;
  if (getCombiner() != ScatterCombiner::REPLACE && operand.getElementType().isInteger(1))
    return emitOpError("expects a numeric operand for combiner ") << stringifyScatterCombiner(getCombiner()) << ", but got " << operand;
  ::strata::shape_rules::ScatterDims dims{vec(getUpdateWindowDims()), vec(getInsertedWindowDims()),
                                          vec(getScatterDimsToOperandDims()), static_cast<int64_t>(getIndexVectorDim())};
  auto r = ::strata::shape_rules::scatter(vec(operand.getShape()), vec(indices.getShape()), vec(updates.getShape()), dims);
  if (!r.ok()) return emitOpError(r.error);
  if (getType() != operand) return emitOpError("expects the result type ") << operand << ", but got " << getType();
  return success();
}

// ---- Sorting, cumulative ops and their relatives (issue 13, sortscan group) ----

LogicalResult SortOp::verify() {
  if (getInputs().empty()) return emitOpError("expects at least one input");
  std::vector<::strata::Shape> shapes;
  for (Value v : getInputs()) {
    auto t = cast<RankedTensorType>(v.getType());
    shapes.push_back(::strata::Shape(t.getShape().begin(), t.getShape().end()));
  }
  int64_t rank = static_cast<int64_t>(shapes[0].size());
  int64_t dim = static_cast<int64_t>(getDimension());
  if (dim < -rank || dim >= rank)
    return emitOpError("expects a dimension in [") << -rank << ", " << rank << "), but got " << dim;
  auto r = ::strata::shape_rules::sort(shapes, rank == 0 ? 0 : getSortDimension());
  if (!r.ok()) return emitOpError(r.error);
  if (!llvm::equal(getResults().getTypes(), getInputs().getTypes()))
    return emitOpError("expects results of the inputs' types ") << str(getInputs().getTypes()) << ", but got "
                                                                 << str(getResults().getTypes());
  Block& body = getComparator().front();
  size_t n = getInputs().size();
  if (body.getNumArguments() != 2 * n)
    return emitOpError("expects a comparator with ") << 2 * n << " arguments (two per input), but got "
                                                      << body.getNumArguments();
  for (size_t i = 0; i < 2 * n; ++i) {
    Type want = RankedTensorType::get({}, cast<RankedTensorType>(getInputs()[i / 2].getType()).getElementType());
    if (body.getArgument(i).getType() != want)
      return emitOpError("expects comparator argument #") << i << " of type " << want << ", but got "
                                                          << body.getArgument(i).getType();
  }
  auto ret = returnOf(body);
  Type i1 = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (!ret || ret.getResults().size() != 1 || ret.getResults()[0].getType() != i1)
    return emitOpError("expects the comparator to return one tensor<i1>");
  return success();
}

LogicalResult CumulativeOp::verify() {
  StringRef k = getKind();
  if (k != "sum" && k != "prod" && k != "max" && k != "min" && k != "logsumexp")
    return emitOpError("expects a kind of sum, prod, max, min or logsumexp, but got \"") << k << "\"";
  auto type = getOperand().getType();
  if (getDimension() < 0 || getDimension() >= type.getRank())
    return emitOpError("expects a dimension in [0, ") << type.getRank() << "), but got " << getDimension();
  Type e = type.getElementType();
  if (e.isInteger(1) || (k == "logsumexp" && !isa<FloatType>(e)))
    return emitOpError("expects ") << (k == "logsumexp" ? "a float" : "a numeric (not i1)") << " operand for kind \""
                                   << k << "\", but got " << type;
  if (isa<ComplexType>(e) && k == "logsumexp")
    return emitOpError("expects a kind of sum, prod, max or min for complex numbers, but got \"") << k << "\"";
  return success();
}

// ---- Linear algebra (issue 14) ----

// A host callback with a side effect writes (and reads) the default resource, so that nothing
// removes it, merges two of them or moves one past another; one without is pure.
void HostCallbackOp::getEffects(SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>& effects) {
  if (!getHasSideEffect()) return;
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

LogicalResult CollectiveOp::verify() {
  namespace cr = ::strata::collective_rules;
  std::optional<cr::Kind> kind = cr::kind_from_name(getKind());
  if (!kind)
    return emitOpError("expects kind psum, pmax, pmin, all_gather, psum_scatter, all_to_all, ppermute or "
                       "axis_index, but got \"") << getKind() << "\"";
  if (getOperands().size() != cr::num_operands(*kind))
    return emitOpError("expects ") << cr::num_operands(*kind) << " operands, but got " << getOperands().size();
  cr::Group g{std::vector<int64_t>(getMesh().begin(), getMesh().end()),
              std::vector<int64_t>(getMeshDims().begin(), getMeshDims().end())};
  if (std::string e = cr::check(g); !e.empty()) return emitOpError(e);
  if (g.mesh.empty()) return emitOpError("expects a process mesh (an axis bound by vmap is batched before lowering)");
  if (cr::size(g) != getAxisSize())
    return emitOpError("expects axis_size ") << cr::size(g) << " (the group's size), but got " << getAxisSize();
  if (std::string e = cr::check_perm(std::vector<int64_t>(getPerm().begin(), getPerm().end()), getAxisSize()); !e.empty())
    return emitOpError("perm ") << e;
  auto result = cast<RankedTensorType>(getResult().getType());
  if (*kind == cr::Kind::kAxisIndex) {
    if (result != RankedTensorType::get({}, IntegerType::get(getContext(), 32)))
      return emitOpError("expects a tensor<i32> result, but got ") << result;
    return success();
  }
  auto in = cast<RankedTensorType>(getOperands()[0].getType());
  ::strata::shape_rules::Result r = cr::shape(*kind, ::strata::Shape(in.getShape().begin(), in.getShape().end()), getAxisSize());
  if (!r.ok()) return emitOpError(r.error);
  Type want = RankedTensorType::get(r.shape, in.getElementType());
  if (result != want) return emitOpError("expects a result of type ") << want << ", but got " << result;
  return success();
}

LogicalResult LinalgOp::verify() {
  namespace lr = ::strata::linalg_rules;
  std::optional<lr::Kind> kind = lr::kind_from_name(getKind());
  if (!kind)
    return emitOpError("expects kind cholesky, triangular_solve, lu, qr, eigh, svd, eig, schur or hessenberg, but got \"") << getKind() << "\"";
  std::vector<::strata::Shape> shapes;
  Type element;
  for (Value v : getOperands()) {
    auto t = cast<RankedTensorType>(v.getType());
    Type part = t.getElementType();
    if (auto c = dyn_cast<ComplexType>(part)) part = c.getElementType();
    if (!part.isF32() && !part.isF64())
      return emitOpError("expects f32, f64 or complex of them as operands, but got ") << str(getOperands().getTypes());
    if (element && element != t.getElementType())
      return emitOpError("expects operands of one element type, but got ") << str(getOperands().getTypes());
    element = t.getElementType();
    shapes.push_back(::strata::Shape(t.getShape().begin(), t.getShape().end()));
  }
  lr::Result r = lr::shapes(*kind, getFlags(), shapes);
  if (!r.ok()) return emitOpError(r.error);
  if (r.shapes.size() != getResults().size())
    return emitOpError("expects ") << r.shapes.size() << " results, but got " << getResults().size();
  Type real = element;
  if (auto c = dyn_cast<ComplexType>(element)) real = c.getElementType();
  for (size_t i = 0; i < r.shapes.size(); ++i) {
    Type type = r.index[i] ? IntegerType::get(getContext(), 32) : element;
    if (i < r.complex.size() && r.complex[i]) type = ComplexType::get(real);
    if (i < r.real.size() && r.real[i]) type = real;
    Type want = RankedTensorType::get(r.shapes[i], type);
    if (getResults()[i].getType() != want)
      return emitOpError("expects result #") << i << " of type " << want << ", but got " << getResults()[i].getType();
  }
  return success();
}

LogicalResult FftOp::verify() {
  namespace fr = ::strata::fft_rules;
  const fr::Type type = static_cast<fr::Type>(static_cast<int64_t>(getFftType()));
  auto in = cast<RankedTensorType>(getOperand().getType());
  auto out = cast<RankedTensorType>(getResult().getType());
  Type element = in.getElementType(), real = element;
  if (auto c = dyn_cast<ComplexType>(element)) real = c.getElementType();
  if (!real.isF32() && !real.isF64())
    return emitOpError("expects f32, f64 or complex of them, but got ") << in;
  if (fr::takes_complex(type) != isa<ComplexType>(element))
    return emitOpError(fr::takes_complex(type) ? "expects a complex operand for " : "expects a real operand for ")
           << stringifyFftType(getFftType()) << ", but got " << in;
  ::strata::shape_rules::Result r = fr::shape(type, ::strata::Shape(in.getShape().begin(), in.getShape().end()),
                                              ::strata::shape_rules::IntList(getFftLength().begin(), getFftLength().end()));
  if (!r.ok()) return emitOpError(r.error);
  Type want = RankedTensorType::get(r.shape, fr::gives_complex(type) ? Type(ComplexType::get(real)) : real);
  if (out != want) return emitOpError("expects a result of type ") << want << ", but got " << out;
  return success();
}

LogicalResult RngBitGeneratorOp::verify() {
  // DEFAULT is PHILOX, as XLA's CPU and GPU compilers take it.
  const bool threeFry = getRngAlgorithm() == RngAlgorithm::THREE_FRY;
  auto state = cast<RankedTensorType>(getInitialState().getType());
  const bool words = state.getRank() == 1 && state.getElementType().isInteger(64);
  if (threeFry && (!words || state.getDimSize(0) != 2))
    return emitOpError("expects a THREE_FRY state of two 64-bit integers (tensor<2xui64>), but got ") << state;
  if (!threeFry && (!words || (state.getDimSize(0) != 2 && state.getDimSize(0) != 3)))
    return emitOpError("expects a PHILOX state of two or three 64-bit integers (tensor<2xui64> or tensor<3xui64>), but got ")
           << state;
  if (getOutputState().getType() != state)
    return emitOpError("expects the output state of the initial state's type ") << state << ", but got "
                                                                                 << getOutputState().getType();
  auto out = cast<RankedTensorType>(getOutput().getType());
  unsigned width = out.getElementType().getIntOrFloatBitWidth();
  if (out.getElementType().isInteger(1) || isa<ComplexType>(out.getElementType()) ||
      (width != 8 && width != 16 && width != 32 && width != 64))
    return emitOpError("expects an output of 8-, 16-, 32- or 64-bit elements, but got ") << out;
  return success();
}

LogicalResult OptimizationBarrierOp::inferReturnTypes(MLIRContext*, std::optional<Location>, ValueRange operands,
                                                      DictionaryAttr, OpaqueProperties, RegionRange,
                                                      SmallVectorImpl<Type>& inferred) {
  for (Value v : operands) inferred.push_back(v.getType());  // the operands' own types
  return success();
}
