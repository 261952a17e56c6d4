// StableHLO text read as `strata` (StablehloCompat.h).
#include "dialect/StablehloCompat.h"

#include <complex>
#include <functional>

#include "dialect/ElementTypes.h"
#include "dialect/StrataOps.h"
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"  // its op hooks, for StrataOps.cpp
#include "dialect/ConvolutionSyntax.h"
#pragma clang diagnostic pop
#include "llvm/ADT/StringMap.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"

MLIR_DEFINE_EXPLICIT_TYPE_ID(mlir::strata::StablehloCompatDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(mlir::strata::ChloCompatDialect)

namespace mlir::strata {
namespace {

// StableHLO names whose strata op is named differently (every other name is the same).
struct Renamed {
  const char* stablehlo;
  const char* strata;
};
constexpr Renamed kRenamed[] = {
    {"popcnt", "population_count"},
    {"count_leading_zeros", "clz"},
};

// strata ops that StableHLO leaves to CHLO (JAX writes them as chlo.NAME, same name).
constexpr const char* kChlo[] = {"erf",   "erfc",  "erf_inv", "sinh",    "cosh",       "asin",       "acos",
                                 "atan",  "asinh", "acosh",   "atanh",   "lgamma",     "digamma",    "bessel_i1e",
                                 "zeta",  "polygamma", "next_after"};

using Hook = std::function<ParseResult(OpAsmParser&, OperationState&)>;

// round_nearest_afz / round_nearest_even %x : T — strata.round with the method as an operand.
Hook roundHook(RoundingMethod method) {
  return [method](OpAsmParser& parser, OperationState& state) -> ParseResult {
    state.name = OperationName(RoundOp::getOperationName(), parser.getContext());
    OpAsmParser::UnresolvedOperand x;
    Type t;
    if (parser.parseOperand(x) || parser.parseOptionalAttrDict(state.attributes) || parser.parseColon() ||
        parser.parseType(t) || parser.resolveOperand(x, t, state.operands))
      return failure();
    state.getOrAddProperties<RoundOp::Properties>().rounding_method =
        RoundingMethodAttr::get(parser.getContext(), method);
    state.addTypes(t);
    return success();
  };
}

// custom_call @target(%a, %b) {attrs} : (A, B) -> R — kept as an unregistered op whose
// `call_target_name` says what it calls (strata runs none; strata-run executes @check.*).
ParseResult parseCustomCall(OpAsmParser& parser, OperationState& state) {
  StringAttr target;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  FunctionType type;
  if (parser.parseSymbolName(target) || parser.parseOperandList(operands, AsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDict(state.attributes) || parser.parseColon() || parser.parseType(type) ||
      parser.resolveOperands(operands, type.getInputs(), parser.getCurrentLocation(), state.operands))
    return failure();
  state.addAttribute("call_target_name", target);
  state.addTypes(type.getResults());
  return success();
}

// clamp %min, %x, %max : T, or with StableHLO's types `: (A, B, C) -> R` (0-d bounds allowed:
// rewriteImportedForms broadcasts them).
ParseResult parseClamp(OpAsmParser& parser, OperationState& state) {
  state.name = OperationName(ClampOp::getOperationName(), parser.getContext());
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  Type type;
  if (parser.parseOperandList(operands, 3) || parser.parseOptionalAttrDict(state.attributes) ||
      parser.parseColon() || parser.parseType(type))
    return failure();
  SmallVector<Type> inputs(3, type);
  Type result = type;
  if (auto fn = dyn_cast<FunctionType>(type)) {
    if (fn.getNumInputs() != 3 || fn.getNumResults() != 1)
      return parser.emitError(parser.getNameLoc(), "clamp expects three operands and one result, but got ") << fn;
    inputs.assign(fn.getInputs().begin(), fn.getInputs().end());
    result = fn.getResult(0);
  }
  if (parser.resolveOperands(operands, inputs, parser.getNameLoc(), state.operands)) return failure();
  state.addTypes(result);
  return success();
}

}  // namespace

struct StablehloCompatDialect::Hooks {
  llvm::StringMap<Hook> byName;  // entries are stable: the hooks handed out point into them
};

StablehloCompatDialect::StablehloCompatDialect(MLIRContext* context)
    : Dialect(getDialectNamespace(), context, TypeID::get<StablehloCompatDialect>()), hooks_(new Hooks) {
  allowUnknownOperations();  // generic-form ops strata has no op for: refused after parsing
  getContext()->getOrLoadDialect<StrataDialect>();
}

StablehloCompatDialect::~StablehloCompatDialect() = default;

std::string strataNameOf(StringRef stablehloName) {
  StringRef name = stablehloName;
  name.consume_front("stablehlo.");
  for (const Renamed& r : kRenamed)
    if (name == r.stablehlo) return std::string("strata.") + r.strata;
  return ("strata." + name).str();
}

std::optional<Dialect::ParseOpHook> StablehloCompatDialect::getParseOperationHook(StringRef opName) const {
  auto it = hooks_->byName.find(opName);
  if (it == hooks_->byName.end()) {
    Hook hook;
    if (opName == "stablehlo.custom_call") {
      hook = parseCustomCall;
    } else if (opName == "stablehlo.clamp") {
      hook = parseClamp;
    } else if (opName == "stablehlo.round_nearest_afz") {
      hook = roundHook(RoundingMethod::AWAY_FROM_ZERO);
    } else if (opName == "stablehlo.round_nearest_even") {
      hook = roundHook(RoundingMethod::TO_NEAREST_EVEN);
    } else {
      std::optional<RegisteredOperationName> op = RegisteredOperationName::lookup(strataNameOf(opName), getContext());
      if (!op) return std::nullopt;  // "custom op 'stablehlo.X' is unknown"
      OperationName target = *op;
      hook = [target](OpAsmParser& parser, OperationState& state) {
        state.name = target;
        return target.getParseAssemblyFn()(parser, state);
      };
    }
    it = hooks_->byName.try_emplace(opName, std::move(hook)).first;
  }
  return ParseOpHook(it->second);
}

// StableHLO's attributes, read into builtin ones for importGenericOps:
//   #stablehlo<comparison_direction LT>       → the string "comparison_direction LT"
//   #stablehlo.dot<lhs_batching_dimensions = [0], ...> → {kind = "dot", lhs_batching_dimensions = array<i64: 0>, ...}
Attribute StablehloCompatDialect::parseAttribute(DialectAsmParser& parser, Type) const {
  MLIRContext* ctx = getContext();
  StringRef kind;
  if (parser.parseKeyword(&kind)) return {};
  if (failed(parser.parseOptionalLess())) {
    StringRef value;
    if (parser.parseKeyword(&value)) return {};
    return StringAttr::get(ctx, (kind + " " + value).str());
  }
  SmallVector<NamedAttribute> fields{{StringAttr::get(ctx, "kind"), StringAttr::get(ctx, kind)}};
  if (kind == "conv") {  // #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
    SmallVector<int64_t> lhs, rhs, out;
    if (conv_syntax::parseLayout(parser, 'b', 'f', lhs) || parser.parseKeyword("x") ||
        conv_syntax::parseLayout(parser, 'o', 'i', rhs) || parser.parseArrow() ||
        conv_syntax::parseLayout(parser, 'b', 'f', out) || parser.parseGreater())
      return {};
    fields.push_back({StringAttr::get(ctx, "lhs_spec"), DenseI64ArrayAttr::get(ctx, lhs)});
    fields.push_back({StringAttr::get(ctx, "rhs_spec"), DenseI64ArrayAttr::get(ctx, rhs)});
    fields.push_back({StringAttr::get(ctx, "out_spec"), DenseI64ArrayAttr::get(ctx, out)});
    return DictionaryAttr::get(ctx, fields);
  }
  if (succeeded(parser.parseOptionalGreater())) return DictionaryAttr::get(ctx, fields);
  do {
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual()) return {};
    Attribute value;
    if (succeeded(parser.parseOptionalLSquare())) {
      SmallVector<int64_t> ints;
      if (failed(parser.parseOptionalRSquare())) {
        if (parser.parseCommaSeparatedList([&]() { return parser.parseInteger(ints.emplace_back()); }) ||
            parser.parseRSquare())
          return {};
      }
      value = DenseI64ArrayAttr::get(ctx, ints);
    } else {
      int64_t n;
      OptionalParseResult r = parser.parseOptionalInteger(n);
      if (r.has_value()) {
        if (failed(*r)) return {};
        value = IntegerAttr::get(IntegerType::get(ctx, 64), n);
      } else {
        StringRef word;
        if (parser.parseKeyword(&word)) return {};
        value = StringAttr::get(ctx, word);
      }
    }
    fields.push_back({StringAttr::get(ctx, key), value});
  } while (succeeded(parser.parseOptionalComma()));
  if (parser.parseGreater()) return {};
  return DictionaryAttr::get(ctx, fields);
}

void StablehloCompatDialect::printAttribute(Attribute attr, DialectAsmPrinter& printer) const {
  printer << attr;
}

namespace {

// An op's discardable attributes and its properties: the inherent attributes of a registered
// op, or the `<{...}>` dictionary an unregistered one keeps.
SmallVector<NamedAttribute> allAttributes(Operation* op) {
  SmallVector<NamedAttribute> attrs(op->getDiscardableAttrs());
  if (auto props = dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute())) attrs.append(props.begin(), props.end());
  return attrs;
}

// "comparison_direction LT" → LT, for the enum named `kind`.
std::optional<StringRef> enumValue(Attribute a, StringRef kind) {
  auto s = dyn_cast_or_null<StringAttr>(a);
  if (!s || !s.getValue().starts_with(kind) || s.getValue().size() <= kind.size() + 1) return std::nullopt;
  return s.getValue().drop_front(kind.size() + 1);
}

// stablehlo.cholesky and stablehlo.triangular_solve as strata.linalg (what exportLinalg
// writes, read back). cholesky reads one triangle of a: the lower as strata's kernel does, or
// the upper (lower = false: the factor U = Lᵀ of aᵀ, whose lower triangle is a's upper one).
LogicalResult importLinalg(Operation* op, OpBuilder& b) {
  Location loc = op->getLoc();
  auto flag = [&](StringRef key, bool absent) {
    auto v = dyn_cast_or_null<BoolAttr>(op->getAttr(key));
    return v ? v.getValue() : absent;
  };
  auto type = dyn_cast<RankedTensorType>(op->getNumResults() == 1 ? op->getResult(0).getType() : Type());
  if (!type || type.getRank() < 2) return op->emitError("expects one result of rank 2 or more");
  b.setInsertionPoint(op);
  auto transpose = [&](Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> perm, shape(t.getShape());
    for (int64_t d = 0; d < t.getRank(); ++d) perm.push_back(d);
    std::swap(perm[t.getRank() - 2], perm[t.getRank() - 1]);
    std::swap(shape[t.getRank() - 2], shape[t.getRank() - 1]);
    return TransposeOp::create(b, loc, t.clone(shape), v, b.getDenseI64ArrayAttr(perm)).getResult();
  };
  Value result;
  if (op->getName().getStringRef() == "stablehlo.cholesky") {
    if (op->getNumOperands() != 1) return op->emitError("expects one operand");
    bool lower = flag("lower", false);
    Value a = lower ? op->getOperand(0) : transpose(op->getOperand(0));
    result = LinalgOp::create(b, loc, TypeRange{type}, ValueRange{a}, "cholesky", 0).getResult(0);
    if (!lower) result = transpose(result);
  } else {
    if (op->getNumOperands() != 2) return op->emitError("expects two operands");
    std::optional<StringRef> t = enumValue(op->getAttr("transpose_a"), "transpose");
    if (!t || !(*t == "NO_TRANSPOSE" || *t == "TRANSPOSE" || *t == "ADJOINT"))
      return op->emitError("expects transpose_a as #stablehlo<transpose NO_TRANSPOSE|TRANSPOSE|ADJOINT>");
    // ADJOINT: transposed and conjugated (of a real matrix: transposed).
    uint64_t flags = (flag("left_side", false) ? 1 : 0) | (flag("lower", false) ? 2 : 0) |
                     (*t != "NO_TRANSPOSE" ? 4 : 0) | (flag("unit_diagonal", false) ? 8 : 0) | (*t == "ADJOINT" ? 16 : 0);
    result = LinalgOp::create(b, loc, TypeRange{type}, op->getOperands(), "triangular_solve", flags).getResult(0);
  }
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  return success();
}

// The strata op for one generic-form StableHLO op, or failure after a diagnostic.
LogicalResult importOne(Operation* op, OpBuilder& b) {
  MLIRContext* ctx = op->getContext();
  StringRef name = op->getName().getStringRef();
  std::string strataName = name.starts_with("chlo.") ? ("strata." + name.drop_front(5)).str() : strataNameOf(name);
  if (name == "stablehlo.cholesky" || name == "stablehlo.triangular_solve") return importLinalg(op, b);
  SmallVector<NamedAttribute> attrs = allAttributes(op);
  auto take = [&](StringRef key) -> Attribute {
    for (auto it = attrs.begin(); it != attrs.end(); ++it)
      if (it->getName() == key) {
        Attribute a = it->getValue();
        attrs.erase(it);
        return a;
      }
    return {};
  };
  if (name == "stablehlo.round_nearest_afz" || name == "stablehlo.round_nearest_even") {
    strataName = RoundOp::getOperationName().str();
    attrs.push_back({StringAttr::get(ctx, "rounding_method"),
                     RoundingMethodAttr::get(ctx, name.ends_with("afz") ? RoundingMethod::AWAY_FROM_ZERO
                                                                       : RoundingMethod::TO_NEAREST_EVEN)});
  } else if (name == "stablehlo.compare") {
    std::optional<StringRef> d = enumValue(take("comparison_direction"), "comparison_direction");
    std::optional<ComparisonDirection> dir = d ? symbolizeComparisonDirection(*d) : std::nullopt;
    if (!dir) return op->emitError("expects a comparison_direction attribute (#stablehlo<comparison_direction LT>)");
    attrs.push_back({StringAttr::get(ctx, "comparison_direction"), ComparisonDirectionAttr::get(ctx, *dir)});
    if (Attribute t = take("compare_type")) {
      std::optional<StringRef> v = enumValue(t, "comparison_type");
      std::optional<ComparisonType> type = v ? symbolizeComparisonType(*v) : std::nullopt;
      if (!type) return op->emitError("expects compare_type as #stablehlo<comparison_type FLOAT>");
      attrs.push_back({StringAttr::get(ctx, "compare_type"), ComparisonTypeAttr::get(ctx, *type)});
    }
  } else if (name == "stablehlo.rng_bit_generator") {
    std::optional<StringRef> v = enumValue(take("rng_algorithm"), "rng_algorithm");
    std::optional<RngAlgorithm> algorithm = v ? symbolizeRngAlgorithm(*v) : std::nullopt;
    if (!algorithm) return op->emitError("expects rng_algorithm as #stablehlo<rng_algorithm THREE_FRY>");
    attrs.push_back({StringAttr::get(ctx, "rng_algorithm"), RngAlgorithmAttr::get(ctx, *algorithm)});
  } else if (name == "stablehlo.fft") {
    std::optional<StringRef> v = enumValue(take("fft_type"), "fft_type");
    std::optional<FftType> type = v ? symbolizeFftType(*v) : std::nullopt;
    if (!type) return op->emitError("expects fft_type as #stablehlo<fft_type FFT> (FFT, IFFT, RFFT or IRFFT)");
    attrs.push_back({StringAttr::get(ctx, "fft_type"), FftTypeAttr::get(ctx, *type)});
  } else if (name == "stablehlo.dot_general") {
    auto dims = dyn_cast_or_null<DictionaryAttr>(take("dot_dimension_numbers"));
    if (!dims) return op->emitError("expects dot_dimension_numbers (#stablehlo.dot<...>)");
    for (StringRef key : {"lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
                          "rhs_contracting_dimensions"})
      attrs.push_back({StringAttr::get(ctx, key), dims.get(key) ? dims.get(key) : DenseI64ArrayAttr::get(ctx, {})});
    take("precision_config");
    take("algorithm");
  } else if (name == "stablehlo.convolution" && !op->getAttr("lhs_spec")) {
    // Generic form: #stablehlo.conv<...> dimension numbers and [[lo, hi], ...] padding.
    auto dims = dyn_cast_or_null<DictionaryAttr>(take("dimension_numbers"));
    if (!dims) return op->emitError("expects dimension_numbers (#stablehlo.conv<...>)");
    for (StringRef key : {"lhs_spec", "rhs_spec", "out_spec"}) attrs.push_back({StringAttr::get(ctx, key), dims.get(key)});
    int64_t spatial = cast<DenseI64ArrayAttr>(dims.get("lhs_spec")).size() - 2;
    SmallVector<int64_t> padding(static_cast<size_t>(2 * spatial), 0);
    if (auto pad = dyn_cast_or_null<DenseIntElementsAttr>(take("padding"))) {
      if (pad.getNumElements() != 2 * spatial) return op->emitError("expects padding of ") << spatial << "x2 values";
      padding.assign(pad.getValues<int64_t>().begin(), pad.getValues<int64_t>().end());
    }
    attrs.push_back({StringAttr::get(ctx, "padding"), DenseI64ArrayAttr::get(ctx, padding)});
    for (StringRef key : {"window_strides", "lhs_dilation", "rhs_dilation"})
      if (!op->getAttr(key) && !llvm::any_of(attrs, [&](NamedAttribute a) { return a.getName() == key; }))
        attrs.push_back({StringAttr::get(ctx, key), DenseI64ArrayAttr::get(ctx, SmallVector<int64_t>(spatial, 1))});
  } else if (name == "stablehlo.reduce" || name == "stablehlo.reduce_window") {
    int32_t n = static_cast<int32_t>(op->getNumOperands() / 2);
    attrs.push_back({StringAttr::get(ctx, "operandSegmentSizes"), DenseI32ArrayAttr::get(ctx, {n, n})});
  } else if (name == "stablehlo.gather" || name == "stablehlo.scatter") {
    // The dimension numbers' fields become strata's flat attributes (the same names).
    bool gather = name == "stablehlo.gather";
    auto dims = dyn_cast_or_null<DictionaryAttr>(take(gather ? "dimension_numbers" : "scatter_dimension_numbers"));
    if (!dims)
      return op->emitError("expects ") << (gather ? "dimension_numbers (#stablehlo.gather<...>)"
                                                  : "scatter_dimension_numbers (#stablehlo.scatter<...>)");
    // Batching dimensions (operand i of the batch pairs with index position i): iota columns
    // of the start indices, their operand dimensions collapsed (inserted) and indexed.
    auto list = [&](StringRef key) {
      auto a = dyn_cast_or_null<DenseI64ArrayAttr>(dims.get(key));
      return a ? SmallVector<int64_t>(a.asArrayRef()) : SmallVector<int64_t>();
    };
    SmallVector<int64_t> operandBatching = list(gather ? "operand_batching_dims" : "input_batching_dims");
    SmallVector<int64_t> indexBatching = list(gather ? "start_indices_batching_dims" : "scatter_indices_batching_dims");
    Attribute ivdAttr = dims.get("index_vector_dim");
    int64_t indexVectorDim = ivdAttr ? cast<IntegerAttr>(ivdAttr).getInt() : 0;
    if (operandBatching.size() != indexBatching.size())
      return op->emitError("expects as many operand as index batching dimensions, but got ")
             << operandBatching.size() << " and " << indexBatching.size();
    auto indicesType = dyn_cast<RankedTensorType>(op->getNumOperands() > 1 ? op->getOperand(1).getType() : Type());
    if (!operandBatching.empty()) {
      if (!indicesType || indexVectorDim < 0 || indexVectorDim > indicesType.getRank() ||
          llvm::any_of(indexBatching, [&](int64_t d) { return d < 0 || d >= indicesType.getRank() || d == indexVectorDim; }))
        return op->emitError("expects index batching dimensions of the start indices other than index_vector_dim");
      b.setInsertionPoint(op);
      op->setOperand(1, batchIndexColumns(b, op->getLoc(), op->getOperand(1), indexVectorDim, indexBatching));
    }
    auto field = [&](StringRef key, ArrayRef<int64_t> extra, bool sorted) {
      SmallVector<int64_t> v = list(key);
      v.append(extra.begin(), extra.end());
      if (sorted) llvm::sort(v);
      attrs.push_back({StringAttr::get(ctx, key), DenseI64ArrayAttr::get(ctx, v)});
    };
    if (gather) {
      field("offset_dims", {}, false);
      field("collapsed_slice_dims", operandBatching, true);
      field("start_index_map", operandBatching, false);
      attrs.push_back({StringAttr::get(ctx, "mode"), GatherModeAttr::get(ctx, GatherMode::CLIP)});  // StableHLO clamps
    } else {
      field("update_window_dims", {}, false);
      field("inserted_window_dims", operandBatching, true);
      field("scatter_dims_to_operand_dims", operandBatching, false);
      if (op->getNumOperands() != 3)
        return op->emitError("strata's scatter takes one operand and one update, but got ") << op->getNumOperands() << " operands";
      // The update computation as strata's combiner: `return %update`, or one op of both.
      Block* body = op->getRegion(0).empty() ? nullptr : &op->getRegion(0).front();
      std::optional<ScatterCombiner> combiner;
      Operation* ret = body && !body->empty() ? &body->back() : nullptr;
      if (ret && body->getNumArguments() == 2 && ret->getNumOperands() == 1) {
        Value v = ret->getOperand(0);
        Operation* def = v.getDefiningOp();
        if (v == body->getArgument(1)) {
          combiner = ScatterCombiner::REPLACE;
        } else if (def && &body->front() == def && def->getNumOperands() == 2 && def->getOperand(0) == body->getArgument(0) &&
                   def->getOperand(1) == body->getArgument(1)) {
          StringRef k = def->getName().getStringRef();
          k = k.substr(k.find('.') + 1);
          if (k == "add") combiner = ScatterCombiner::ADD;
          else if (k == "multiply") combiner = ScatterCombiner::MUL;
          else if (k == "minimum") combiner = ScatterCombiner::MIN;
          else if (k == "maximum") combiner = ScatterCombiner::MAX;
        }
      }
      if (!combiner)
        return op->emitError("strata's scatter combines by replace, add, multiply, minimum or maximum; this update "
                             "computation is none of them");
      attrs.push_back({StringAttr::get(ctx, "combiner"), ScatterCombinerAttr::get(ctx, *combiner)});
      op->getRegion(0).getBlocks().clear();
    }
    attrs.push_back({StringAttr::get(ctx, "index_vector_dim"), IntegerAttr::get(IntegerType::get(ctx, 64), indexVectorDim)});
    take("indices_are_sorted");
    take("unique_indices");
  }
  std::optional<RegisteredOperationName> target = RegisteredOperationName::lookup(strataName, ctx);
  if (!target) return success();  // no strata op: refused later by name (firstUnregisteredOp)
  // Inherent attributes become the op's properties; the rest stay discardable.
  SmallVector<NamedAttribute> inherent, discardable;
  for (NamedAttribute a : attrs) {
    bool isInherent = a.getName() == "operandSegmentSizes" || llvm::is_contained(target->getAttributeNames(), a.getName());
    (isInherent ? inherent : discardable).push_back(a);
  }
  OperationState state(op->getLoc(), *target);
  state.addOperands(op->getOperands());
  if (name == "stablehlo.case" && op->getNumOperands() == 1 && op->getNumRegions() > 0) {
    // StableHLO's case runs the last branch for an index outside [0, N); strata's case (as the
    // jaxpr's cond) clamps it, running branch 0 for a negative one: out-of-range → N - 1.
    auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    if (!type || type.getRank() != 0 || !type.getElementType().isInteger())
      return op->emitError("expects a 0-d integer index, but got ") << op->getOperand(0).getType();
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    auto constant = [&](int64_t v) {
      return ConstantOp::create(b, loc, DenseElementsAttr::get(type, IntegerAttr::get(type.getElementType(), v))).getResult();
    };
    Value index = op->getOperand(0), last = constant(static_cast<int64_t>(op->getNumRegions()) - 1);
    auto i1 = RankedTensorType::get({}, b.getI1Type());
    // Unsigned index < N: in range (a negative index is a huge unsigned one).
    Value inRange = CompareOp::create(b, loc, i1, ComparisonDirection::LT, index,
                                      constant(static_cast<int64_t>(op->getNumRegions())),
                                      ComparisonTypeAttr::get(ctx, ComparisonType::UNSIGNED));
    state.operands[0] = SelectOp::create(b, loc, type, inRange, index, last);
  }
  state.addTypes(op->getResultTypes());
  state.addAttributes(discardable);
  if (!inherent.empty()) state.propertiesAttr = DictionaryAttr::get(ctx, inherent);
  for (Region& r : op->getRegions())
    if (!r.empty()) state.addRegion()->takeBody(r);  // a scatter's computation became its combiner
  b.setInsertionPoint(op);
  Operation* created = b.create(state);
  op->replaceAllUsesWith(created);
  op->erase();
  return success();
}

// The first type in `types` whose element type is a number strata has no dtype for (tf32 and
// other float formats, i3 and other integer widths, complex<bf16>), or null. Other types (index,
// tokens, the LLVM dialect's) are not element types of a program's values: not checked here.
Type unsupportedElement(TypeRange types) {
  for (Type t : types) {
    Type e = isa<ShapedType>(t) ? cast<ShapedType>(t).getElementType() : t;
    if (isa<ComplexType, FloatType, IntegerType>(e) && !dtypeOf(e)) return t;
  }
  return {};
}

// Refuses a program that uses an element type strata does not have, at the first op (or
// block argument) that does, naming the type: clearer than the verifier's list of what each
// operand may be, and before any import rewrite sees the type.
LogicalResult checkElementTypes(ModuleOp module) {
  Operation* where = nullptr;
  Type bad;
  module.walk<WalkOrder::PreOrder>([&](Operation* op) {
    bad = unsupportedElement(op->getOperandTypes());
    if (!bad) bad = unsupportedElement(op->getResultTypes());
    for (Region& r : op->getRegions())
      for (Block& block : r)
        if (!bad) bad = unsupportedElement(block.getArgumentTypes());
    if (!bad) return WalkResult::advance();
    where = op;
    return WalkResult::interrupt();
  });
  if (!where) return success();
  Type e = isa<ShapedType>(bad) ? cast<ShapedType>(bad).getElementType() : bad;
  std::string name;
  llvm::raw_string_ostream os(name);
  e.print(os);
  InFlightDiagnostic d = where->emitError() << "element type " << name << " (in " << bad
                                            << ") is not supported: strata's element types are f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, "
                                               "f8E4M3B11FNUZ, f8E4M3, f8E3M4, f8E8M0FNU, f6E2M3FN, f6E3M2FN, f4E2M1FN, f16, bf16, f32, f64, "
                                               "i1, i2, i4, i8, i16, i32, i64, ui2, ui4, ui8, ui16, ui32, ui64, complex<f32>, complex<f64>";
  return d;
}

}  // namespace

LogicalResult importGenericOps(ModuleOp module) {
  if (failed(checkElementTypes(module))) return failure();
  SmallVector<Operation*> todo;
  module.walk<WalkOrder::PostOrder>([&](Operation* op) {
    StringRef ns = op->getName().getDialectNamespace();
    if (!op->isRegistered() && (ns == StablehloCompatDialect::getDialectNamespace() || ns == ChloCompatDialect::getDialectNamespace()))
      todo.push_back(op);
  });
  OpBuilder b(module.getContext());
  for (Operation* op : todo)
    if (failed(importOne(op, b))) return failure();
  return rewriteImportedForms(module);
}

// chlo.NAME %x : T -> T (CHLO's unary syntax) as strata.NAME.
ChloCompatDialect::ChloCompatDialect(MLIRContext* context)
    : Dialect(getDialectNamespace(), context, TypeID::get<ChloCompatDialect>()) {
  allowUnknownOperations();  // generic form: imported by importGenericOps, or refused
  getContext()->getOrLoadDialect<StrataDialect>();
}

std::optional<Dialect::ParseOpHook> ChloCompatDialect::getParseOperationHook(StringRef opName) const {
  StringRef name = opName;
  name.consume_front("chlo.");
  if (!llvm::is_contained(llvm::ArrayRef(kChlo), name)) return std::nullopt;
  static ParseResult (*const parse)(OpAsmParser&, OperationState&) = [](OpAsmParser& parser, OperationState& state) -> ParseResult {
    StringRef n = state.name.getStringRef();
    n.consume_front("chlo.");
    std::optional<RegisteredOperationName> op = RegisteredOperationName::lookup(("strata." + n).str(), parser.getContext());
    if (!op) return parser.emitError(parser.getNameLoc(), "no strata op for chlo.") << n;
    state.name = *op;
    // chlo.NAME %x, … attrs : type, … [-> type] (one type for all operands, or one each).
    SmallVector<OpAsmParser::UnresolvedOperand> xs;
    SmallVector<Type> ins;
    SMLoc at = parser.getCurrentLocation();
    if (parser.parseOperandList(xs) || parser.parseOptionalAttrDict(state.attributes) || parser.parseColon() ||
        parser.parseTypeList(ins))
      return failure();
    if (ins.size() == 1 && xs.size() > 1) ins.resize(xs.size(), ins[0]);
    if (xs.empty() || ins.size() != xs.size())
      return parser.emitError(at, "chlo.") << n << " expects as many types as operands, got " << ins.size()
                                           << " for " << xs.size();
    if (parser.resolveOperands(xs, ins, at, state.operands)) return failure();
    Type out = ins[0];
    if (succeeded(parser.parseOptionalArrow()) && parser.parseType(out)) return failure();
    state.addTypes(out);
    return success();
  };
  return ParseOpHook(parse);
}

namespace {

OpaqueAttr stablehloAttr(MLIRContext* ctx, const std::string& body) {
  return OpaqueAttr::get(StringAttr::get(ctx, "stablehlo"), body, NoneType::get(ctx));
}

std::string intList(ArrayRef<int64_t> v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// x^n by repeated squaring (StableHLO has no integer_pow; JAX writes multiplies too).
Value integerPower(OpBuilder& b, Location loc, Value x, int64_t n) {
  auto mul = [&](Value a, Value c) {
    OperationState s(loc, "stablehlo.multiply");
    s.addOperands({a, c});
    s.addTypes(a.getType());
    return b.create(s)->getResult(0);
  };
  auto type = cast<RankedTensorType>(x.getType());
  Value result;
  Value base = x;
  for (int64_t k = n < 0 ? -n : n; k; k >>= 1) {
    if (k & 1) result = result ? mul(result, base) : base;
    if (k > 1) base = mul(base, base);
  }
  auto constant = [&](double v) {
    OperationState s(loc, "stablehlo.constant");
    Attribute one = isa<FloatType>(type.getElementType())
                        ? Attribute(FloatAttr::get(type.getElementType(), v))
                        : Attribute(IntegerAttr::get(type.getElementType(), static_cast<int64_t>(v)));
    s.addAttribute("value", DenseElementsAttr::get(type, one));
    s.addTypes(type);
    return b.create(s)->getResult(0);
  };
  if (!result) return constant(1);
  if (n > 0) return result;
  OperationState s(loc, "stablehlo.divide");
  s.addOperands({constant(1), result});
  s.addTypes(type);
  return b.create(s)->getResult(0);
}


// An attribute as StableHLO's parser reads it (`body` is its text: "dense<...> : tensor<...>").
Attribute parsed(MLIRContext* ctx, const std::string& body) { return parseAttribute(body, ctx); }

// A generic-form op `name` built at `b`'s point.
Value genericOp(OpBuilder& b, Location loc, StringRef name, ValueRange operands, Type type,
                ArrayRef<NamedAttribute> attrs = {}) {
  OperationState s(loc, name);
  s.addOperands(operands);
  s.addTypes(type);
  s.addAttributes(attrs);
  return b.create(s)->getResult(0);
}

// [[lo, hi], ...] padding as StableHLO's dense<...> : tensor<Nx2xi64>.
std::string paddingAttr(ArrayRef<int64_t> flat) {
  std::string s = "dense<[";
  for (size_t i = 0; i + 1 < flat.size(); i += 2)
    s += (i ? ", [" : "[") + std::to_string(flat[i]) + ", " + std::to_string(flat[i + 1]) + "]";
  return s + "]> : tensor<" + std::to_string(flat.size() / 2) + "x2xi64>";
}

// A scatter or reduce_window body: ^bb0(%a: tensor<T>, %b: tensor<T>) returning `combine(a, b)`.
void scalarBody(OpBuilder& b, Location loc, Region& region, Type element,
                const std::function<Value(OpBuilder&, Value, Value)>& combine) {
  auto scalar = RankedTensorType::get({}, element);
  Block* block = new Block();
  region.push_back(block);
  Value x = block->addArgument(scalar, loc), y = block->addArgument(scalar, loc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(block);
  Value r = combine(b, x, y);
  OperationState ret(loc, "stablehlo.return");
  ret.addOperands(r);
  b.create(ret);
}

// One side of #stablehlo.conv<[b, 0, 1, f]x...>: `spec` = (batch or output feature, feature
// or input feature, spatial dims...) positions, as strata keeps them.
std::string convSide(ArrayRef<int64_t> spec, char first, char second) {
  std::vector<std::string> at(spec.size());
  at[spec[0]] = std::string(1, first);
  at[spec[1]] = std::string(1, second);
  for (size_t k = 2; k < spec.size(); ++k) at[spec[k]] = std::to_string(k - 2);
  std::string s = "[";
  for (size_t i = 0; i < at.size(); ++i) s += (i ? ", " : "") + at[i];
  return s + "]";
}

// `key = [..], ` unless `v` is empty (StableHLO's printer leaves empty lists out).
std::string dimsField(const char* key, ArrayRef<int64_t> v) {
  return v.empty() ? "" : std::string(key) + " = " + intList(v) + ", ";
}

// strata.cumulative as JAX writes cumsum/cumprod/cummax/cummin: a reduce_window whose window
// covers the whole dimension, padded on the side the scan comes from.
LogicalResult exportCumulative(CumulativeOp op, OpBuilder& b) {
  MLIRContext* ctx = op->getContext();
  Location loc = op->getLoc();
  auto type = cast<RankedTensorType>(op.getOperand().getType());
  Type e = type.getElementType();
  StringRef kind = op.getKind();
  bool logsumexp = kind == "logsumexp" && isa<FloatType>(e);
  const char* combiner = kind == "sum"   ? "stablehlo.add"
                         : kind == "prod" ? "stablehlo.multiply"
                         : kind == "max"  ? "stablehlo.maximum"
                         : kind == "min"  ? "stablehlo.minimum"
                                          : nullptr;
  if ((!combiner && !logsumexp) || e.isInteger(1))
    return op->emitError("StableHLO has no op for strata.cumulative of kind '") << kind << "' on " << type;
  Attribute init;
  if (auto f = dyn_cast<FloatType>(e)) {
    const llvm::fltSemantics& sem = f.getFloatSemantics();
    llvm::APFloat v = kind == "sum" ? llvm::APFloat::getZero(sem)
                      : kind == "prod" ? llvm::APFloat(sem, "1")
                                       : floatExtreme(sem, /*negative=*/kind != "min");
    init = FloatAttr::get(e, v);
  } else {
    unsigned w = e.getIntOrFloatBitWidth();
    bool isUnsigned = e.isUnsignedInteger();
    llvm::APInt v = kind == "sum"    ? llvm::APInt(w, 0)
                    : kind == "prod" ? llvm::APInt(w, 1)
                    : kind == "max"  ? (isUnsigned ? llvm::APInt::getMinValue(w) : llvm::APInt::getSignedMinValue(w))
                                     : (isUnsigned ? llvm::APInt::getMaxValue(w) : llvm::APInt::getSignedMaxValue(w));
    init = IntegerAttr::get(e, v);
  }
  auto scalar = RankedTensorType::get({}, e);
  Value initValue = genericOp(b, loc, "stablehlo.constant", {}, scalar,
                              {{StringAttr::get(ctx, "value"), DenseElementsAttr::get(scalar, init)}});
  int64_t dim = op.getDimension(), n = type.getDimSize(dim);
  SmallVector<int64_t> window(type.getRank(), 1), padding(2 * type.getRank(), 0);
  window[dim] = n;
  padding[2 * dim + (op.getReverse() ? 1 : 0)] = n > 0 ? n - 1 : 0;
  OperationState s(loc, "stablehlo.reduce_window");
  s.addOperands({op.getOperand(), initValue});
  s.addTypes(type);
  s.addAttribute("window_dimensions", DenseI64ArrayAttr::get(ctx, window));
  s.addAttribute("padding", parsed(ctx, paddingAttr(padding)));
  scalarBody(b, loc, *s.addRegion(), e, [&](OpBuilder& ib, Value x, Value y) {
    Type t = x.getType();
    auto op = [&](StringRef name, ValueRange operands, ArrayRef<NamedAttribute> attrs = {}) {
      return genericOp(ib, loc, name, operands, t, attrs);
    };
    if (!logsumexp) return op(combiner, {x, y});
    // logaddexp as JAX writes it: max + log1p(exp(-|x - y|)), x + y where x - y is nan
    // (both -inf, or a nan).
    Value delta = op("stablehlo.subtract", {x, y});
    Value sum = op("stablehlo.add", {op("stablehlo.maximum", {x, y}),
                                     op("stablehlo.log_plus_one", {op("stablehlo.exponential",
                                                                      {op("stablehlo.negate", {op("stablehlo.abs", {delta})})})})});
    Value isNan = genericOp(ib, loc, "stablehlo.compare", {delta, delta}, RankedTensorType::get({}, ib.getI1Type()),
                            {{StringAttr::get(ctx, "comparison_direction"), stablehloAttr(ctx, "comparison_direction NE")},
                             {StringAttr::get(ctx, "compare_type"), stablehloAttr(ctx, "comparison_type FLOAT")}});
    return op("stablehlo.select", {isNan, op("stablehlo.add", {x, y}), sum});
  });
  Operation* created = b.create(s);
  op->replaceAllUsesWith(created);
  op->erase();
  return success();
}

// strata.linalg's two kinds StableHLO has: cholesky (its upper triangle zeroed, as JAX's
// cholesky returns it; StableHLO leaves it unspecified) and triangular_solve. The others (lu,
// qr, eigh, svd) JAX writes as LAPACK custom calls of its own runtime: refused.
LogicalResult exportLinalg(LinalgOp op, OpBuilder& b) {
  MLIRContext* ctx = op->getContext();
  Location loc = op->getLoc();
  int64_t flags = op.getFlags();
  auto boolAttr = [&](bool v) { return BoolAttr::get(ctx, v); };
  Value result;
  if (op.getKind() == "cholesky") {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    Value l = genericOp(b, loc, "stablehlo.cholesky", op->getOperands(), type, {{StringAttr::get(ctx, "lower"), boolAttr(true)}});
    int64_t rank = type.getRank();
    auto indexType = type.clone(b.getI32Type());
    auto iota = [&](int64_t dim) {
      return genericOp(b, loc, "stablehlo.iota", {}, indexType, {{StringAttr::get(ctx, "iota_dimension"), b.getI64IntegerAttr(dim)}});
    };
    auto maskType = type.clone(b.getI1Type());
    Value below = genericOp(b, loc, "stablehlo.compare", {iota(rank - 2), iota(rank - 1)}, maskType,
                            {{StringAttr::get(ctx, "comparison_direction"), stablehloAttr(ctx, "comparison_direction GE")},
                             {StringAttr::get(ctx, "compare_type"), stablehloAttr(ctx, "comparison_type SIGNED")}});
    Attribute zero;
    if (auto c = dyn_cast<ComplexType>(type.getElementType())) {
      APFloat z = APFloat::getZero(cast<FloatType>(c.getElementType()).getFloatSemantics());
      zero = DenseElementsAttr::get(type, ArrayRef<std::complex<APFloat>>{std::complex<APFloat>(z, z)});
    } else {
      zero = DenseElementsAttr::get(type, FloatAttr::get(type.getElementType(), 0.0));
    }
    Value zeros = genericOp(b, loc, "stablehlo.constant", {}, type, {{StringAttr::get(ctx, "value"), zero}});
    result = genericOp(b, loc, "stablehlo.select", {below, l, zeros}, type);
  } else if (op.getKind() == "triangular_solve") {
    // conjugate_a: of a real a nothing; with transpose_a ADJOINT; alone StableHLO has no form.
    bool conj = (flags & 16) && isa<ComplexType>(cast<RankedTensorType>(op->getOperand(0).getType()).getElementType());
    if (conj && !(flags & 4))
      return op->emitError("StableHLO's triangular_solve has no conjugate_a without transpose_a (flags = ") << flags << ")";
    const char* transpose = conj ? "transpose ADJOINT" : (flags & 4) ? "transpose TRANSPOSE" : "transpose NO_TRANSPOSE";
    result = genericOp(b, loc, "stablehlo.triangular_solve", op->getOperands(), op->getResult(0).getType(),
                       {{StringAttr::get(ctx, "left_side"), boolAttr(flags & 1)},
                        {StringAttr::get(ctx, "lower"), boolAttr(flags & 2)},
                        {StringAttr::get(ctx, "transpose_a"), stablehloAttr(ctx, transpose)},
                        {StringAttr::get(ctx, "unit_diagonal"), boolAttr(flags & 8)}});
  } else {
    return op->emitError("StableHLO has no op for strata.linalg \"")
           << op.getKind() << "\" (JAX calls LAPACK through custom calls of its own runtime)";
  }
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  return success();
}

// The StableHLO (or CHLO) op for one strata op, as an unregistered op in generic form.
LogicalResult exportOne(Operation* op, OpBuilder& b) {
  MLIRContext* ctx = op->getContext();
  StringRef name = op->getName().getStringRef();
  if (!name.consume_front("strata.")) {
    StringRef dialect = op->getName().getDialectNamespace();
    if (dialect == "func" || dialect == "builtin" || dialect == "stablehlo" || dialect == "chlo") return success();
    return op->emitError("StableHLO export expects a program at the strata stage, but got ") << op->getName();
  }
  b.setInsertionPoint(op);
  if (auto cum = dyn_cast<CumulativeOp>(op)) return exportCumulative(cum, b);
  if (auto linalg = dyn_cast<LinalgOp>(op)) return exportLinalg(linalg, b);
  if (auto c = dyn_cast<CaseOp>(op)) {
    // strata runs branch 0 for a negative index (the jaxpr's cond; ControlFlowToScf clamps),
    // StableHLO's case the last: the index is clamped to the branches first.
    auto type = cast<RankedTensorType>(c.getIndex().getType());
    auto constant = [&](int64_t v) {
      return genericOp(b, op->getLoc(), "stablehlo.constant", {}, type,
                       {{StringAttr::get(ctx, "value"), DenseElementsAttr::get(type, IntegerAttr::get(type.getElementType(), v))}});
    };
    Value lo = constant(0), hi = constant(static_cast<int64_t>(c.getBranches().size()) - 1);
    op->setOperand(0, genericOp(b, op->getLoc(), "stablehlo.clamp", {lo, c.getIndex(), hi}, type));
  }
  if (isa<Exp2Op>(op)) {  // exp(x * ln 2), as JAX lowers exp2
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    Value ln2 = genericOp(b, op->getLoc(), "stablehlo.constant", {}, type,
                          {{StringAttr::get(ctx, "value"),
                            DenseElementsAttr::get(type, FloatAttr::get(type.getElementType(), 0.69314718055994530942))}});
    Value scaled = genericOp(b, op->getLoc(), "stablehlo.multiply", {op->getOperand(0), ln2}, type);
    op->getResult(0).replaceAllUsesWith(genericOp(b, op->getLoc(), "stablehlo.exponential", {scaled}, type));
    op->erase();
    return success();
  }
  if (auto pow = dyn_cast<IntegerPowOp>(op)) {
    pow.replaceAllUsesWith(integerPower(b, op->getLoc(), pow.getOperand(), pow.getYAttr().getInt()));
    op->erase();
    return success();
  }
  std::string target = ("stablehlo." + name).str();
  for (const Renamed& r : kRenamed)
    if (name == r.strata) target = std::string("stablehlo.") + r.stablehlo;
  if (llvm::is_contained(llvm::ArrayRef(kChlo), name)) target = ("chlo." + name).str();
  SmallVector<NamedAttribute> attrs = allAttributes(op);
  auto drop = [&](StringRef key) { llvm::erase_if(attrs, [&](NamedAttribute a) { return a.getName() == key; }); };
  // A precision_config kept from an import (its #stablehlo<precision X> were read as strings).
  for (NamedAttribute& a : attrs) {
    auto list = dyn_cast<ArrayAttr>(a.getValue());
    if (a.getName() != "precision_config" || !list) continue;
    SmallVector<Attribute> levels;
    for (Attribute level : list) {
      auto text = dyn_cast<StringAttr>(level);
      levels.push_back(text && text.getValue().starts_with("precision ") ? stablehloAttr(ctx, text.str()) : level);
    }
    a.setValue(ArrayAttr::get(ctx, levels));
  }
  if (auto cmp = dyn_cast<CompareOp>(op)) {
    drop("comparison_direction");
    drop("compare_type");
    attrs.push_back({StringAttr::get(ctx, "comparison_direction"),
                     stablehloAttr(ctx, ("comparison_direction " + stringifyComparisonDirection(cmp.getComparisonDirection())).str())});
    std::optional<ComparisonType> type = cmp.getCompareType();
    if (!type) {
      Type e = cast<RankedTensorType>(cmp.getLhs().getType()).getElementType();
      type = isa<FloatType>(e) ? ComparisonType::FLOAT : e.isInteger(1) ? ComparisonType::UNSIGNED : ComparisonType::SIGNED;
    }
    attrs.push_back({StringAttr::get(ctx, "compare_type"),
                     stablehloAttr(ctx, ("comparison_type " + stringifyComparisonType(*type)).str())});
    // An UNSIGNED compare of signless (StableHLO: signed) integers: XLA compares only unsigned
    // types so, so the operands' bits are read as unsigned first.
    auto operandType = cast<RankedTensorType>(cmp.getLhs().getType());
    Type e = operandType.getElementType();
    if (*type == ComparisonType::UNSIGNED && e.isSignlessInteger() && !e.isInteger(1)) {
      auto unsignedType = operandType.clone(IntegerType::get(ctx, e.getIntOrFloatBitWidth(), IntegerType::Unsigned));
      for (unsigned i = 0; i < 2; ++i)
        op->setOperand(i, genericOp(b, op->getLoc(), "stablehlo.bitcast_convert", {op->getOperand(i)}, unsignedType));
    }
  } else if (auto dot = dyn_cast<DotGeneralOp>(op)) {
    for (StringRef k : {"lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions", "rhs_contracting_dimensions"})
      drop(k);
    std::string body = "dot<";
    if (!dot.getLhsBatchingDimensions().empty())
      body += "lhs_batching_dimensions = " + intList(dot.getLhsBatchingDimensions()) +
              ", rhs_batching_dimensions = " + intList(dot.getRhsBatchingDimensions()) + ", ";
    body += "lhs_contracting_dimensions = " + intList(dot.getLhsContractingDimensions()) +
            ", rhs_contracting_dimensions = " + intList(dot.getRhsContractingDimensions()) + ">";
    attrs.push_back({StringAttr::get(ctx, "dot_dimension_numbers"), stablehloAttr(ctx, body)});
  } else if (auto round = dyn_cast<RoundOp>(op)) {
    drop("rounding_method");
    target = round.getRoundingMethod() == RoundingMethod::AWAY_FROM_ZERO ? "stablehlo.round_nearest_afz"
                                                                        : "stablehlo.round_nearest_even";
  } else if (auto rng = dyn_cast<RngBitGeneratorOp>(op)) {
    drop("rng_algorithm");
    attrs.push_back({StringAttr::get(ctx, "rng_algorithm"),
                     stablehloAttr(ctx, ("rng_algorithm " + stringifyRngAlgorithm(rng.getRngAlgorithm())).str())});
  } else if (auto fft = dyn_cast<FftOp>(op)) {
    drop("fft_type");
    attrs.push_back({StringAttr::get(ctx, "fft_type"), stablehloAttr(ctx, ("fft_type " + stringifyFftType(fft.getFftType())).str())});
  } else if (isa<ReduceOp, ReduceWindowOp>(op)) {
    drop("operandSegmentSizes");
  } else if (auto conv = dyn_cast<ConvolutionOp>(op)) {
    for (StringRef k : {"lhs_spec", "rhs_spec", "out_spec", "padding"}) drop(k);
    auto spec = [&](StringRef key) { return cast<DenseI64ArrayAttr>(op->getAttr(key)).asArrayRef(); };
    attrs.push_back({StringAttr::get(ctx, "dimension_numbers"),
                     stablehloAttr(ctx, "conv<" + convSide(spec("lhs_spec"), 'b', 'f') + "x" +
                                            convSide(spec("rhs_spec"), 'o', 'i') + "->" +
                                            convSide(spec("out_spec"), 'b', 'f') + ">")});
    attrs.push_back({StringAttr::get(ctx, "padding"), parsed(ctx, paddingAttr(spec("padding")))});
  } else if (auto gather = dyn_cast<GatherOp>(op)) {
    if (gather.getMode() != GatherMode::CLIP)
      return op->emitError("StableHLO has no op for strata.gather in mode ")
             << stringifyGatherMode(gather.getMode()) << " (its gather clamps: mode CLIP)";
    for (StringRef k : {"mode", "offset_dims", "collapsed_slice_dims", "start_index_map", "index_vector_dim"}) drop(k);
    std::string body = "gather<" + dimsField("offset_dims", gather.getOffsetDims()) +
                       dimsField("collapsed_slice_dims", gather.getCollapsedSliceDims()) +
                       dimsField("start_index_map", gather.getStartIndexMap()) +
                       "index_vector_dim = " + std::to_string(gather.getIndexVectorDim()) + ">";
    attrs.push_back({StringAttr::get(ctx, "dimension_numbers"), stablehloAttr(ctx, body)});
  } else if (auto scatter = dyn_cast<ScatterOp>(op)) {
    for (StringRef k : {"combiner", "update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims",
                        "index_vector_dim"})
      drop(k);
    std::string body = "scatter<" + dimsField("update_window_dims", scatter.getUpdateWindowDims()) +
                       dimsField("inserted_window_dims", scatter.getInsertedWindowDims()) +
                       dimsField("scatter_dims_to_operand_dims", scatter.getScatterDimsToOperandDims()) +
                       "index_vector_dim = " + std::to_string(scatter.getIndexVectorDim()) + ">";
    attrs.push_back({StringAttr::get(ctx, "scatter_dimension_numbers"), stablehloAttr(ctx, body)});
    const char* combiner = nullptr;
    switch (scatter.getCombiner()) {
      case ScatterCombiner::REPLACE: break;
      case ScatterCombiner::ADD: combiner = "stablehlo.add"; break;
      case ScatterCombiner::MUL: combiner = "stablehlo.multiply"; break;
      case ScatterCombiner::MIN: combiner = "stablehlo.minimum"; break;
      case ScatterCombiner::MAX: combiner = "stablehlo.maximum"; break;
    }
    OperationState state(op->getLoc(), "stablehlo.scatter");
    state.addOperands(op->getOperands());
    state.addTypes(op->getResultTypes());
    state.addAttributes(attrs);
    Type e = cast<RankedTensorType>(scatter.getOperand().getType()).getElementType();
    scalarBody(b, op->getLoc(), *state.addRegion(), e, [&](OpBuilder& ib, Value x, Value y) {
      return combiner ? genericOp(ib, op->getLoc(), combiner, {x, y}, x.getType()) : y;
    });
    Operation* created = b.create(state);
    op->replaceAllUsesWith(created);
    op->erase();
    return success();
  } else if (auto collective = dyn_cast<CollectiveOp>(op)) {
    // JAX writes these inside shard_map as all_reduce/all_gather/... over replica groups of a
    // device mesh, which a single-program export does not carry.
    return op->emitError("StableHLO has no op for strata.collective (")
           << collective.getKind() << ") outside a sharded program";
  } else if (isa<IgammaOp, IgammacOp, IgammaGradAOp, RandomGammaGradOp, BesselI0eOp, RegularizedIncompleteBetaOp>(op)) {
    // Neither StableHLO nor CHLO has these: JAX expands each into StableHLO arithmetic (and
    // while loops) of its own; strata keeps them whole.
    return op->emitError("StableHLO has no op for ") << op->getName() << " (JAX expands it into StableHLO arithmetic)";
  } else if (auto callback = dyn_cast<HostCallbackOp>(op)) {
    // JAX writes a host callback as a custom_call holding the address of a Python object: it
    // means something only in the process that traced it, and so does strata's id.
    return op->emitError("StableHLO has no portable op for strata.host_callback (\"")
           << callback.getName() << "\"): a host callback exists only in the process that traced it";
  } else if (isa<FusionOp, Threefry2x32Op>(op)) {
    return op->emitError("StableHLO has no op for ") << op->getName()
                                                     << (isa<FusionOp>(op) ? " (export before the fused stage)" : "");
  }
  OperationState state(op->getLoc(), target);
  state.addOperands(op->getOperands());
  state.addTypes(op->getResultTypes());
  state.addAttributes(attrs);
  for (Region& r : op->getRegions()) state.addRegion()->takeBody(r);
  Operation* created = b.create(state);
  op->replaceAllUsesWith(created);
  op->erase();
  return success();
}

}  // namespace

LogicalResult exportStablehlo(ModuleOp module, llvm::raw_ostream& os) {
  OwningOpRef<ModuleOp> copy(cast<ModuleOp>(module->clone()));
  MLIRContext* ctx = module.getContext();
  ctx->getOrLoadDialect<StablehloCompatDialect>();
  ctx->getOrLoadDialect<ChloCompatDialect>();
  SmallVector<Operation*> todo;
  copy->walk<WalkOrder::PostOrder>([&](Operation* op) { todo.push_back(op); });
  OpBuilder b(ctx);
  for (Operation* op : todo)
    if (failed(exportOne(op, b))) return failure();
  // Generic form: StableHLO's parser reads every op so, and strata's pretty forms need not
  // match StableHLO's.
  copy->print(os, OpPrintingFlags().printGenericOpForm());
  os << "\n";
  return success();
}

Operation* firstUnregisteredOp(ModuleOp module) {
  Operation* found = nullptr;
  module.walk([&](Operation* op) {
    if (op->isRegistered()) return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  return found;
}

}  // namespace mlir::strata
