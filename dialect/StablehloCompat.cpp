// StableHLO text read as `strata` (StablehloCompat.h).
#include "dialect/StablehloCompat.h"

#include <functional>

#include "dialect/StrataOps.h"
#include "llvm/ADT/StringMap.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"

MLIR_DEFINE_EXPLICIT_TYPE_ID(mlir::strata::StablehloCompatDialect)

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

Attribute StablehloCompatDialect::parseAttribute(DialectAsmParser& parser, Type) const {
  // #stablehlo<precision DEFAULT>: read as the string "precision DEFAULT".
  StringRef kind, value;
  if (parser.parseKeyword(&kind)) return {};
  if (kind != "precision") {
    parser.emitError(parser.getNameLoc(), "strata reads no #stablehlo<") << kind << " ...> attribute";
    return {};
  }
  if (parser.parseKeyword(&value)) return {};
  return StringAttr::get(getContext(), (kind + " " + value).str());
}

void StablehloCompatDialect::printAttribute(Attribute attr, DialectAsmPrinter& printer) const {
  printer << cast<StringAttr>(attr).getValue();
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
