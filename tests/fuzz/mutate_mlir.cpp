// Structural mutations of an MLIR module for fuzz_strata_opt (mutate_mlir.h). Each applies one
// change a user (or a buggy pass) could make and that the parser accepts: the verifier, the
// stages and the generated code must cope with whatever comes out.
#include "tests/fuzz/mutate_mlir.h"

#include <limits>
#include <random>
#include <vector>

#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

namespace strata::fuzz {
namespace {

using mlir::Attribute;
using mlir::Operation;
using mlir::Type;
using mlir::Value;

class Mutator {
 public:
  Mutator(mlir::ModuleOp module, uint32_t seed) : rng_(seed), ctx_(module->getContext()) {
    module->walk([&](Operation* op) {
      if (llvm::isa<mlir::ModuleOp>(op)) return;
      if (auto fn = llvm::dyn_cast<mlir::func::FuncOp>(op)) {
        // The module is unverified: only a function whose signature and block agree.
        auto type = op->getAttrOfType<mlir::TypeAttr>("function_type");
        auto ft = type ? llvm::dyn_cast<mlir::FunctionType>(type.getValue()) : nullptr;
        if (ft && !fn.isExternal() && fn.front().getNumArguments() == ft.getNumInputs()) funcs_.push_back(fn);
        return;
      }
      ops_.push_back(op);
    });
  }

  // One mutation; tries a few kinds until one applies.
  bool mutate() {
    for (int attempt = 0; attempt < 16; ++attempt) {
      bool done = false;
      switch (pick(10)) {
        case 0: done = resultType(/*element=*/false); break;
        case 1: done = resultType(/*element=*/true); break;
        case 2: done = argumentType(); break;
        case 3: done = swapOperands(); break;
        case 4: done = replaceOperand(); break;
        case 5: done = eraseOp(); break;
        case 6: done = duplicateOp(); break;
        default: done = changeAttribute(); break;
      }
      if (done) return true;
    }
    return false;
  }

  // Crossover: a copy of `foreign` (an op of another module, from the same context) before a
  // random op here, its operands taken from the values in scope there (of their types when
  // there are such), and one later use of a value of its result's type made to use it.
  bool insertCopyOf(Operation* foreign) {
    std::vector<Operation*> candidates;
    for (Operation* op : ops_)
      if (op->getBlock()) candidates.push_back(op);
    if (candidates.empty()) return false;
    Operation* before = pickOf(candidates);
    mlir::IRMapping map;
    for (Value v : foreign->getOperands()) {
      Value here = pickValue(before, v.getType(), /*sameType=*/pick(4) != 0);
      if (!here) return false;
      map.map(v, here);
    }
    // Values the foreign op's regions use from around it: the same way.
    bool ok = true;
    foreign->walk([&](Operation* nested) {
      for (Value v : nested->getOperands()) {
        if (map.contains(v) || foreign->isAncestor(v.getParentRegion()->getParentOp())) continue;
        Value here = pickValue(before, v.getType(), true);
        if (!here) ok = false;
        else map.map(v, here);
      }
    });
    if (!ok) return false;
    mlir::OpBuilder b(ctx_);
    b.setInsertionPoint(before);
    Operation* copy = b.clone(*foreign, map);
    for (Value r : copy->getResults()) {
      std::vector<mlir::OpOperand*> uses;
      for (Operation* op = before; op; op = op->getNextNode())
        for (mlir::OpOperand& u : op->getOpOperands())
          if (u.get().getType() == r.getType()) uses.push_back(&u);
      if (!uses.empty()) pickOf(uses)->set(r);
    }
    return true;
  }

 private:
  int pick(int n) { return n <= 1 ? 0 : std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  template <typename T>
  T& pickOf(std::vector<T>& v) { return v[static_cast<size_t>(pick(static_cast<int>(v.size())))]; }

  // A dimension near `d`, or one of the sizes that find edge cases (0, 1, a large one).
  int64_t newDim(int64_t d) {
    if (d < 0 || d > (int64_t{1} << 40)) d = 4;  // dynamic, or huge already
    const int64_t choices[] = {0, 1, 2, 3, 5, d + 1, d > 0 ? d - 1 : 4, 2 * d, 64, 1000};
    return choices[pick(10)];
  }
  Type newElementType() {
    mlir::Builder b(ctx_);
    const Type types[] = {b.getI1Type(),  b.getI8Type(),  b.getI16Type(), b.getI32Type(),
                          b.getI64Type(), b.getIntegerType(8, false), b.getIntegerType(16, false),
                          b.getIntegerType(32, false), b.getIntegerType(64, false), b.getBF16Type(),
                          b.getF16Type(), b.getF32Type(), b.getF64Type(), b.getIndexType()};
    return types[pick(14)];
  }
  // `t` with one change: an element type, a dimension, or one dimension more or fewer.
  Type mutateType(Type t, bool element) {
    auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(t);
    if (!tensor) return {};
    if (element) return mlir::RankedTensorType::get(tensor.getShape(), newElementType());
    llvm::SmallVector<int64_t> shape(tensor.getShape());
    int how = pick(6);
    if (how == 0 || shape.empty()) {
      shape.insert(shape.begin() + pick(static_cast<int>(shape.size()) + 1), newDim(1));
    } else if (how == 1) {
      shape.erase(shape.begin() + pick(static_cast<int>(shape.size())));
    } else {
      int64_t& d = shape[static_cast<size_t>(pick(static_cast<int>(shape.size())))];
      d = newDim(d);
    }
    return mlir::RankedTensorType::get(shape, tensor.getElementType());
  }

  bool resultType(bool element) {
    std::vector<Operation*> withResults;
    for (Operation* op : ops_)
      if (op->getNumResults()) withResults.push_back(op);
    if (withResults.empty()) return false;
    Operation* op = pickOf(withResults);
    Value r = op->getResult(static_cast<unsigned>(pick(static_cast<int>(op->getNumResults()))));
    Type t = mutateType(r.getType(), element);
    if (!t) return false;
    r.setType(t);
    return true;
  }

  // A function argument's type, in the block and the signature alike (so it parses).
  bool argumentType() {
    if (funcs_.empty()) return false;
    mlir::func::FuncOp fn = pickOf(funcs_);
    bool result = fn.getNumResults() && pick(2);
    unsigned n = result ? fn.getNumResults() : fn.getNumArguments();
    if (!n) return false;
    unsigned i = static_cast<unsigned>(pick(static_cast<int>(n)));
    llvm::SmallVector<Type> ins(fn.getArgumentTypes()), outs(fn.getResultTypes());
    Type t = mutateType(result ? outs[i] : ins[i], pick(3) == 0);
    if (!t) return false;
    (result ? outs[i] : ins[i]) = t;
    if (!result) fn.getArgument(i).setType(t);
    fn.setType(mlir::FunctionType::get(ctx_, ins, outs));
    return true;
  }

  // The values `op` may use: earlier results and block arguments of its block and of the
  // blocks around it, up to a region isolated from above.
  std::vector<Value> inScope(Operation* op) {
    std::vector<Value> values;
    for (Operation* cur = op; cur && cur->getBlock();) {
      mlir::Block* block = cur->getBlock();
      for (Operation& o : *block) {
        if (&o == cur) break;
        for (Value r : o.getResults()) values.push_back(r);
      }
      for (Value a : block->getArguments()) values.push_back(a);
      Operation* parent = block->getParentOp();
      if (!parent || parent->hasTrait<mlir::OpTrait::IsIsolatedFromAbove>()) break;
      cur = parent;
    }
    return values;
  }
  // A value in scope of `op`, of type `t` when `sameType` and one exists; null when none.
  Value pickValue(Operation* op, Type t, bool sameType, Value except = {}) {
    std::vector<Value> all = inScope(op), same;
    std::erase(all, except);
    for (Value v : all)
      if (v.getType() == t) same.push_back(v);
    if (sameType && !same.empty()) return pickOf(same);
    return all.empty() ? Value() : pickOf(all);
  }

  bool swapOperands() {
    std::vector<Operation*> candidates;
    for (Operation* op : ops_)
      if (op->getNumOperands() >= 2) candidates.push_back(op);
    if (candidates.empty()) return false;
    Operation* op = pickOf(candidates);
    int n = static_cast<int>(op->getNumOperands());
    unsigned i = static_cast<unsigned>(pick(n)), j = static_cast<unsigned>(pick(n));
    if (i == j) j = (i + 1) % static_cast<unsigned>(n);
    Value a = op->getOperand(i), b = op->getOperand(j);
    op->setOperand(i, b);
    op->setOperand(j, a);
    return true;
  }

  bool replaceOperand() {
    std::vector<Operation*> candidates;
    for (Operation* op : ops_)
      if (op->getNumOperands()) candidates.push_back(op);
    if (candidates.empty()) return false;
    Operation* op = pickOf(candidates);
    unsigned i = static_cast<unsigned>(pick(static_cast<int>(op->getNumOperands())));
    Value v = pickValue(op, op->getOperand(i).getType(), pick(2), op->getOperand(i));
    if (!v) return false;
    op->setOperand(i, v);
    return true;
  }

  // Erases a non-terminator op; its results' uses take a value in scope (of the same type
  // when one exists, half the time).
  bool eraseOp() {
    std::vector<Operation*> candidates;
    for (Operation* op : ops_)
      if (!op->hasTrait<mlir::OpTrait::IsTerminator>()) candidates.push_back(op);
    if (candidates.empty()) return false;
    Operation* op = pickOf(candidates);
    bool sameType = pick(2);
    for (Value r : op->getResults()) {
      if (r.use_empty()) continue;
      Value v = pickValue(op, r.getType(), sameType);
      if (!v) return false;
      r.replaceAllUsesWith(v);
    }
    op->walk([&](Operation* nested) { std::erase(ops_, nested); });
    op->erase();
    return true;
  }

  // A copy of an op right after it; half the time the copy's results replace the original's.
  bool duplicateOp() {
    std::vector<Operation*> candidates;
    for (Operation* op : ops_)
      if (!op->hasTrait<mlir::OpTrait::IsTerminator>()) candidates.push_back(op);
    if (candidates.empty()) return false;
    Operation* op = pickOf(candidates);
    mlir::OpBuilder b(ctx_);
    b.setInsertionPointAfter(op);
    Operation* copy = b.clone(*op);
    if (pick(2)) op->replaceAllUsesWith(copy);
    return true;
  }

  // An integer or float attribute, one element of a dense constant, or an array of integers
  // (dimensions, permutation, strides ...): one element changed, dropped, added or swapped.
  bool changeAttribute() {
    std::vector<std::pair<Operation*, mlir::StringAttr>> candidates;
    for (Operation* op : ops_)
      for (mlir::NamedAttribute a : op->getAttrs())
        if (llvm::isa<mlir::IntegerAttr, mlir::FloatAttr, mlir::DenseIntOrFPElementsAttr, mlir::DenseI64ArrayAttr,
                      mlir::DenseBoolArrayAttr, mlir::ArrayAttr>(a.getValue()))
          candidates.push_back({op, a.getName()});
    if (candidates.empty()) return false;
    auto [op, name] = pickOf(candidates);
    Attribute attr = op->getAttr(name), changed;
    if (auto i = llvm::dyn_cast<mlir::IntegerAttr>(attr)) {
      if (!llvm::isa<mlir::IntegerType, mlir::IndexType>(i.getType())) return false;
      changed = mlir::IntegerAttr::get(i.getType(), newInt(i.getValue().getSExtValue()));
    } else if (auto f = llvm::dyn_cast<mlir::FloatAttr>(attr)) {
      changed = mlir::FloatAttr::get(f.getType(), newFloat(f.getValueAsDouble()));
    } else if (auto d = llvm::dyn_cast<mlir::DenseIntOrFPElementsAttr>(attr)) {
      changed = mutateDense(d);
    } else if (auto a = llvm::dyn_cast<mlir::DenseI64ArrayAttr>(attr)) {
      std::vector<int64_t> v(a.asArrayRef().begin(), a.asArrayRef().end());
      mutateArray(v, [&](int64_t x) { return newInt(x); });
      changed = mlir::DenseI64ArrayAttr::get(ctx_, v);
    } else if (auto a = llvm::dyn_cast<mlir::DenseBoolArrayAttr>(attr)) {
      std::vector<bool> v(a.asArrayRef().begin(), a.asArrayRef().end());
      mutateArray(v, [](bool x) { return !x; });
      llvm::SmallVector<bool> copy(v.begin(), v.end());
      changed = mlir::DenseBoolArrayAttr::get(ctx_, copy);
    } else if (auto a = llvm::dyn_cast<mlir::ArrayAttr>(attr)) {
      std::vector<Attribute> v(a.begin(), a.end());
      if (v.empty() || !llvm::all_of(v, [](Attribute e) { return llvm::isa<mlir::IntegerAttr>(e); })) return false;
      Type t = llvm::cast<mlir::IntegerAttr>(v[0]).getType();
      mutateArray(v, [&](Attribute x) {
        return Attribute(mlir::IntegerAttr::get(t, newInt(llvm::cast<mlir::IntegerAttr>(x).getValue().getSExtValue())));
      });
      changed = mlir::ArrayAttr::get(ctx_, v);
    }
    if (!changed) return false;
    op->setAttr(name, changed);
    return true;
  }

  int64_t newInt(int64_t v) {
    const uint64_t u = static_cast<uint64_t>(v);  // wrapping: v may be an extreme already
    const int64_t choices[] = {0, 1, -1, 2, 3, static_cast<int64_t>(u + 1), static_cast<int64_t>(u - 1),
                               static_cast<int64_t>(0 - u), 1000, std::numeric_limits<int64_t>::max(),
                               std::numeric_limits<int64_t>::min(), std::numeric_limits<int32_t>::max(), 255, 7};
    return choices[pick(14)];
  }
  double newFloat(double v) {
    const double choices[] = {0.0, -0.0, 1.0, -1.0, 0.5, v * 2, -v, 1e30, std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(),
                              std::numeric_limits<double>::denorm_min()};
    return choices[pick(12)];
  }

  template <typename T, typename F>
  void mutateArray(std::vector<T>& v, F change) {
    int how = v.empty() ? 2 : pick(4);
    if (how == 0) {
      size_t i = static_cast<size_t>(pick(static_cast<int>(v.size())));
      v[i] = change(v[i]);
    } else if (how == 1) {
      v.erase(v.begin() + pick(static_cast<int>(v.size())));
    } else if (how == 2) {
      T x = v.empty() ? T{} : v[static_cast<size_t>(pick(static_cast<int>(v.size())))];
      v.insert(v.begin() + pick(static_cast<int>(v.size()) + 1), change(x));
    } else {
      size_t i = static_cast<size_t>(pick(static_cast<int>(v.size()))), j = static_cast<size_t>(pick(static_cast<int>(v.size())));
      T tmp = v[i];
      v[i] = v[j];
      v[j] = tmp;
    }
  }

  // One element of a dense constant (a splat becomes an array of its elements).
  Attribute mutateDense(mlir::DenseIntOrFPElementsAttr d) {
    auto type = llvm::cast<mlir::ShapedType>(d.getType());
    int64_t n = type.getNumElements();
    if (n == 0 || n > 4096) return {};
    size_t i = static_cast<size_t>(pick(static_cast<int>(n)));
    if (auto ft = llvm::dyn_cast<mlir::FloatType>(type.getElementType())) {
      std::vector<llvm::APFloat> v(d.getValues<llvm::APFloat>().begin(), d.getValues<llvm::APFloat>().end());
      bool lost;
      llvm::APFloat x(newFloat(v[i].convertToDouble()));
      x.convert(ft.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven, &lost);
      v[i] = x;
      return mlir::DenseElementsAttr::get(type, v);
    }
    if (llvm::isa<mlir::IntegerType, mlir::IndexType>(type.getElementType())) {
      std::vector<llvm::APInt> v(d.getValues<llvm::APInt>().begin(), d.getValues<llvm::APInt>().end());
      unsigned width = v[i].getBitWidth();
      v[i] = llvm::APInt(width, static_cast<uint64_t>(newInt(v[i].getSExtValue())), /*isSigned=*/true, /*implicitTrunc=*/true);
      return mlir::DenseElementsAttr::get(type, v);
    }
    return {};
  }

  std::mt19937 rng_;
  mlir::MLIRContext* ctx_;
  std::vector<Operation*> ops_;
  std::vector<mlir::func::FuncOp> funcs_;
};

}  // namespace

std::optional<std::string> mutate_mlir(const mlir::DialectRegistry& registry, std::string_view text, uint32_t seed) {
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic&) { return mlir::success(); });
  // Unverified: a module a previous mutation broke is still mutated further.
  const std::string terminated(text);  // the parser needs a '\0' after the text (fuzz_strata_opt.cpp)
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(
      terminated, mlir::ParserConfig(&context, /*verifyAfterParse=*/false));
  if (!module) return std::nullopt;
  Mutator m(*module, seed);
  if (!m.mutate()) return std::nullopt;
  std::string out;
  llvm::raw_string_ostream os(out);
  // An op that no longer verifies prints in the generic form (the printer checks).
  module->print(os);
  return out;
}

}  // namespace strata::fuzz

namespace strata::fuzz {

std::optional<std::string> crossover_mlir(const mlir::DialectRegistry& registry, std::string_view text1,
                                          std::string_view text2, uint32_t seed) {
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic&) { return mlir::success(); });
  mlir::ParserConfig config(&context, /*verifyAfterParse=*/false);
  const std::string terminated1(text1), terminated2(text2);  // '\0'-terminated, as above
  mlir::OwningOpRef<mlir::ModuleOp> a = mlir::parseSourceString<mlir::ModuleOp>(terminated1, config);
  mlir::OwningOpRef<mlir::ModuleOp> b = mlir::parseSourceString<mlir::ModuleOp>(terminated2, config);
  if (!a || !b) return std::nullopt;
  // An op of a function body of b (not a terminator, not a function).
  std::vector<mlir::Operation*> foreign;
  b->walk([&](mlir::Operation* op) {
    if (!llvm::isa<mlir::ModuleOp, mlir::func::FuncOp>(op) && !op->hasTrait<mlir::OpTrait::IsTerminator>())
      foreign.push_back(op);
  });
  if (foreign.empty()) return std::nullopt;
  Mutator m(*a, seed);
  if (!m.insertCopyOf(foreign[seed % foreign.size()])) return std::nullopt;
  std::string out;
  llvm::raw_string_ostream os(out);
  a->print(os);
  return out;
}

}  // namespace strata::fuzz
