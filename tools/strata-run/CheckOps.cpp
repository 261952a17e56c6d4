// The `check` ops of StableHLO's tests (CheckOps.h).
#include "tools/strata-run/CheckOps.h"

#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/Operation.h"

namespace strata::run {
namespace {

// check.NAME %a[, %b][, dense<...> : T][, key = attr ...][: T[, T]] as an unregistered op.
mlir::ParseResult parseCheck(mlir::OpAsmParser& parser, mlir::OperationState& state) {
  llvm::SmallVector<mlir::OpAsmParser::UnresolvedOperand> operands;
  mlir::Attribute value;
  if (parser.parseOperand(operands.emplace_back())) return mlir::failure();
  while (succeeded(parser.parseOptionalComma())) {
    mlir::OpAsmParser::UnresolvedOperand operand;
    mlir::OptionalParseResult r = parser.parseOptionalOperand(operand);
    if (r.has_value()) {
      if (failed(*r)) return mlir::failure();
      operands.push_back(operand);
      continue;
    }
    mlir::OptionalParseResult a = parser.parseOptionalAttribute(value);  // dense<...> : T
    if (a.has_value()) {
      if (failed(*a)) return mlir::failure();
      state.addAttribute("value", value);
      continue;
    }
    llvm::StringRef key;  // key = attr
    mlir::Attribute attr;
    if (parser.parseKeyword(&key) || parser.parseEqual() || parser.parseAttribute(attr)) return mlir::failure();
    state.addAttribute(key, attr);
  }
  llvm::SmallVector<mlir::Type> types;
  if (succeeded(parser.parseOptionalColon()) && parser.parseTypeList(types)) return mlir::failure();
  if (types.empty() && value) types.push_back(mlir::cast<mlir::TypedAttr>(value).getType());
  if (types.size() == 1)
    while (types.size() < operands.size()) types.push_back(types.front());
  return parser.resolveOperands(operands, types, parser.getCurrentLocation(), state.operands);
}

// file:line:col of the op (the first such location inside a fused or named one).
std::string where(mlir::Operation* op) {
  std::string s;
  op->getLoc()->walk([&](mlir::Location l) {
    auto f = mlir::dyn_cast<mlir::FileLineColLoc>(l);
    if (!f) return mlir::WalkResult::advance();
    s = (f.getFilename().getValue() + ":" + llvm::Twine(f.getLine()) + ":" + llvm::Twine(f.getColumn())).str();
    return mlir::WalkResult::interrupt();
  });
  if (s.empty()) {
    llvm::raw_string_ostream os(s);
    os << op->getLoc();
  }
  return s;
}

double floatAttr(mlir::Operation* op, llvm::StringRef name, double fallback) {
  if (auto f = op->getAttrOfType<mlir::FloatAttr>(name)) return f.getValueAsDouble();
  if (auto i = op->getAttrOfType<mlir::IntegerAttr>(name)) return static_cast<double>(i.getInt());
  return fallback;
}

}  // namespace

class CheckDialect : public mlir::Dialect {
 public:
  explicit CheckDialect(mlir::MLIRContext* context)
      : mlir::Dialect("check", context, mlir::TypeID::get<CheckDialect>()) {
    allowUnknownOperations();
  }
  static llvm::StringRef getDialectNamespace() { return "check"; }
  std::optional<ParseOpHook> getParseOperationHook(llvm::StringRef) const override { return ParseOpHook(parseCheck); }
};

void registerCheckDialect(mlir::DialectRegistry& registry) { registry.insert<CheckDialect>(); }

std::optional<Check> asCheck(mlir::Operation* op, std::string& error) {
  llvm::StringRef name = op->getName().getStringRef();
  if (name == "stablehlo.custom_call") {
    auto target = op->getAttrOfType<mlir::StringAttr>("call_target_name");
    if (!target || !target.getValue().starts_with("check.")) return std::nullopt;
    name = target.getValue();
  } else if (!name.starts_with("check.")) {
    return std::nullopt;
  }
  Check c;
  c.what = name.str() + " at " + where(op);
  llvm::StringRef kind = name.drop_front(6);
  bool constant = kind.consume_back("_const");
  if (kind == "expect_eq" || kind == "eq") {
    c.compare = Compare::kEqual;
  } else if (kind == "expect_almost_eq") {
    c.compare = Compare::kAlmostEqual;
    c.tolerance = floatAttr(op, "tolerance", 1e-4);
  } else if (kind == "expect_close") {
    c.compare = Compare::kClose;
    c.max_ulp = static_cast<int64_t>(floatAttr(op, "max_ulp_difference", 3));
    c.min_ulp = static_cast<int64_t>(floatAttr(op, "min_ulp_difference", 0));
  } else {
    error = "strata-run does not know the check " + name.str() + " at " + where(op);
    return std::nullopt;
  }
  size_t want = constant ? 1 : 2;
  if (constant) c.expected = op->getAttrOfType<mlir::DenseElementsAttr>("value");
  if (op->getNumOperands() != want || (constant && !c.expected)) {
    error = c.what + ": expects " + std::to_string(want) + " operand(s)" + (constant ? " and a dense constant" : "");
    return std::nullopt;
  }
  return c;
}

}  // namespace strata::run

MLIR_DEFINE_EXPLICIT_TYPE_ID(::strata::run::CheckDialect)
