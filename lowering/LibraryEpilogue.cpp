// Reads a dot epilogue as one of the GEMM library's own (LibraryEpilogue.h).
#include "lowering/LibraryEpilogue.h"

#include <cmath>
#include <optional>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace mlir::strata {
namespace {

std::optional<double> constantFloat(Value v) {
  auto c = v.getDefiningOp<arith::ConstantOp>();
  if (!c) return std::nullopt;
  if (auto f = dyn_cast<FloatAttr>(c.getValue())) return f.getValueAsDouble();
  return std::nullopt;
}

// gelu's constants are rounded to the epilogue's type: within `tolerance` (relative) of theirs.
bool near(double a, double b, double tolerance) { return std::fabs(a - b) <= tolerance * std::fabs(b); }

// The factors of a tree of multiplications: constants into `coefficient`, the others listed.
void factors(Value v, double& coefficient, SmallVectorImpl<Value>& rest, int depth = 0) {
  if (std::optional<double> c = constantFloat(v)) {
    coefficient *= *c;
    return;
  }
  if (auto m = v.getDefiningOp<arith::MulFOp>(); m && depth < 8) {
    factors(m.getLhs(), coefficient, rest, depth + 1);
    factors(m.getRhs(), coefficient, rest, depth + 1);
    return;
  }
  rest.push_back(v);
}

// `add`'s operand other than `one` (a value, or a constant when `one` is null and `c` set).
Value otherThan(arith::AddFOp add, Value one) {
  if (add.getLhs() == one) return add.getRhs();
  if (add.getRhs() == one) return add.getLhs();
  return {};
}
Value otherThanConstant(arith::AddFOp add, double c) {
  if (std::optional<double> l = constantFloat(add.getLhs()); l && *l == c) return add.getRhs();
  if (std::optional<double> r = constantFloat(add.getRhs()); r && *r == c) return add.getLhs();
  return {};
}

// The x of `r` = gelu(x) in its tanh form, or null.
Value geluArgument(Value r, double tolerance) {
  double half = 1;
  SmallVector<Value> f;
  factors(r, half, f);
  if (!near(half, 0.5, tolerance) || f.size() != 2) return {};
  for (int k = 0; k < 2; ++k) {
    Value x = f[k];
    auto onePlus = f[1 - k].getDefiningOp<arith::AddFOp>();
    if (!onePlus) continue;
    auto tanh = otherThanConstant(onePlus, 1.0).getDefiningOp<math::TanhOp>();
    if (!tanh) continue;
    double scale = 1;
    SmallVector<Value> g;
    factors(tanh.getOperand(), scale, g);
    if (!near(scale, std::sqrt(2.0 / M_PI), tolerance) || g.size() != 1) continue;
    auto inner = g[0].getDefiningOp<arith::AddFOp>();
    if (!inner) continue;
    Value cubic = otherThan(inner, x);
    if (!cubic) continue;
    double c = 1;
    SmallVector<Value> h;
    factors(cubic, c, h);
    if (near(c, 0.044715, tolerance) && h.size() == 3 && llvm::all_of(h, [&](Value v) { return v == x; })) return x;
  }
  return {};
}

}  // namespace

int64_t libraryEpilogueOf(Value result, Value product, Value bias, double tolerance) {
  // From the result back to the product: the activation, then the bias.
  Value v = result;
  int64_t kind = kNoEpilogue;
  // clamp(0, x, +inf), st::relu's form, before the canonicalizer folds its min away.
  if (auto min = v.getDefiningOp<arith::MinimumFOp>()) {
    std::optional<double> hi = constantFloat(min.getRhs());
    if (!hi || !std::isinf(*hi) || *hi < 0 || !min.getLhs().getDefiningOp<arith::MaximumFOp>()) return kNoEpilogue;
    v = min.getLhs();
  }
  if (auto max = v.getDefiningOp<arith::MaximumFOp>()) {
    std::optional<double> l = constantFloat(max.getLhs()), r = constantFloat(max.getRhs());
    if (r && *r == 0.0) v = max.getLhs(), kind |= kRelu;
    else if (l && *l == 0.0) v = max.getRhs(), kind |= kRelu;
    else return kNoEpilogue;
  } else if (Value x = geluArgument(v, tolerance)) {
    v = x;
    kind |= kGelu;
  }
  if (bias) {
    auto add = v.getDefiningOp<arith::AddFOp>();
    if (!add || otherThan(add, product) != bias) return kNoEpilogue;
    v = product;
    kind |= kBias;
  }
  return v == product ? kind : kNoEpilogue;
}

int64_t libraryEpilogue(linalg::GenericOp g, Value& bias) {
  if (g.getNumDpsInputs() > 1 || g.getNumDpsInits() != 1) return kNoEpilogue;
  Block& body = g.getRegion().front();
  Value out = body.getArguments().back();
  Value in = g.getNumDpsInputs() == 1 ? body.getArgument(0) : Value();
  if (in) {
    MLIRContext* ctx = g.getContext();
    AffineMap byColumn = AffineMap::get(3, 0, {getAffineDimExpr(2, ctx)}, ctx);
    if (g.getIndexingMapsArray()[0] != byColumn || in.getType() != out.getType()) return kNoEpilogue;
  }
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (yield.getNumOperands() != 1) return kNoEpilogue;
  int64_t kind = libraryEpilogueOf(yield.getOperand(0), out, in, 1e-6);
  if (kind != kNoEpilogue && in) bias = g.getDpsInputs()[0];
  return kind;
}

}  // namespace mlir::strata
