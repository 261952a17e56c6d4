// Unsigned integers out of the program before it leaves the strata dialect.
//
// strata's types are StableHLO's: ui8 .. ui64 for the unsigned dtypes. arith, linalg and LLVM
// know only signless integers, and the lowering builds its tensors and loop bodies from the
// strata values' types, so the types are made signless here, in place, at the start of
// --strata-to-linalg. What depends on signedness is recorded on the ops first, where the
// scalar bodies (dialect/ScalarOps.h) read it:
//  - an op with unsigned integer operands gets the unit attribute `strata.unsigned` (div, rem,
//    max, min, pow, sign, abs, clamp, compare, and the ops of reduce bodies alike); a convert
//    to an unsigned type also `strata.unsigned_result`; a compare also compare_type UNSIGNED;
//  - unsigned index operands (dynamic_slice / dynamic_update_slice starts, gather and scatter
//    indices) are first zero-extended to i64 by a strata.convert, so the index code, which
//    reads indices as signed, sees their values;
//  - constants are re-typed with the same bits, functions get signless signatures;
//  - a host callback gets `strata.unsigned_buffers`, which of its operands then results are
//    unsigned, so that the runtime hands the host function arrays of their own dtypes.
#include "dialect/ScalarOps.h"
#include "dialect/StrataOps.h"
#include "lowering/StrataToLinalg.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::strata {
namespace {

bool isUnsigned(Type t) { return getElementTypeOrSelf(t).isUnsignedInteger(); }

// Index operands whose lowering reads them as signed integers.
SmallVector<OpOperand*> indexOperands(Operation* op) {
  SmallVector<OpOperand*> r;
  auto add = [&](MutableOperandRange range) {
    for (OpOperand& o : range) r.push_back(&o);
  };
  if (auto s = dyn_cast<DynamicSliceOp>(op)) add(s.getStartIndicesMutable());
  else if (auto u = dyn_cast<DynamicUpdateSliceOp>(op)) add(u.getStartIndicesMutable());
  else if (auto g = dyn_cast<GatherOp>(op)) r.push_back(&g.getStartIndicesMutable());
  else if (auto c = dyn_cast<ScatterOp>(op)) r.push_back(&c.getScatterIndicesMutable());
  return r;
}

}  // namespace

LogicalResult eraseSignedness(ModuleOp module) {
  MLIRContext* ctx = module.getContext();
  bool any = false;
  module.walk([&](Operation* op) {
    for (Type t : op->getResultTypes()) any |= isUnsigned(t);
    for (Region& region : op->getRegions())
      for (Block& block : region)
        for (Type t : block.getArgumentTypes()) any |= isUnsigned(t);
  });
  if (!any) return success();

  // 1. Unsigned index operands → i64 (zero-extended: the convert is marked below).
  SmallVector<OpOperand*> widen;
  module.walk([&](Operation* op) {
    for (OpOperand* o : indexOperands(op))
      if (isUnsigned(o->get().getType())) widen.push_back(o);
  });
  for (OpOperand* o : widen) {
    OpBuilder b(o->getOwner());
    auto type = cast<RankedTensorType>(o->get().getType());
    Value wide = ConvertOp::create(b, o->getOwner()->getLoc(), type.clone(b.getI64Type()), o->get());
    o->set(wide);
  }

  // 2. Record signedness where the semantics need it.
  Attribute unit = UnitAttr::get(ctx);
  module.walk([&](Operation* op) {
    if (isa<ModuleOp, func::FuncOp>(op)) return;
    bool unsignedIn = llvm::any_of(op->getOperandTypes(), isUnsigned);
    if (unsignedIn) op->setAttr(kUnsignedAttr, unit);
    // A comparison says it in its own attribute too (sort comparators are read by it).
    if (auto c = dyn_cast<CompareOp>(op); c && unsignedIn)
      if (std::optional<ComparisonType> t = c.getCompareType(); !t || *t == ComparisonType::SIGNED || *t == ComparisonType::NOTYPE)
        c.setCompareType(ComparisonType::UNSIGNED);
    if (isa<ConvertOp>(op) && isUnsigned(op->getResult(0).getType())) op->setAttr(kUnsignedResultAttr, unit);
    if (isa<HostCallbackOp>(op)) {
      SmallVector<bool> buffers = llvm::map_to_vector(op->getOperandTypes(), isUnsigned);
      for (Type t : op->getResultTypes()) buffers.push_back(isUnsigned(t));
      if (llvm::is_contained(buffers, true)) op->setAttr(kUnsignedBuffersAttr, DenseBoolArrayAttr::get(ctx, buffers));
    }
  });

  // 3. Signless types everywhere, with the same bits.
  LogicalResult result = success();
  module.walk([&](Operation* op) {
    for (Value r : op->getResults()) r.setType(signless(r.getType()));
    for (Region& region : op->getRegions())
      for (Block& block : region)
        for (BlockArgument a : block.getArguments()) a.setType(signless(a.getType()));
    if (auto fn = dyn_cast<func::FuncOp>(op)) {
      auto inputs = llvm::map_to_vector(fn.getArgumentTypes(), signless);
      auto results = llvm::map_to_vector(fn.getResultTypes(), signless);
      fn.setFunctionType(FunctionType::get(ctx, inputs, results));
    } else if (auto c = dyn_cast<ConstantOp>(op)) {
      auto value = dyn_cast<DenseElementsAttr>(c.getValue());
      Type element = getElementTypeOrSelf(c.getValue().getType());
      if (!element.isUnsignedInteger()) return;
      if (!value) {
        result = op->emitOpError("an unsigned constant that is not a dense elements attribute");
        return;
      }
      c.setValueAttr(cast<ElementsAttr>(value.bitcast(signless(element))));
    }
  });
  return result;
}

}  // namespace mlir::strata
