// The accumulators of reduction loops and the identities of their combining ops (Accumulator.h).
#include "lowering/Accumulator.h"

#include <cmath>

#include "dialect/ElementTypes.h"
#include "lowering/BufferAliasing.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::strata {

TypedAttr reductionIdentity(Operation* op) {
  if (!op || op->getNumOperands() != 2 || op->getNumResults() != 1) return {};
  Type t = op->getResult(0).getType();
  if (isa<FloatType>(t)) {
    auto f = [&](double v) -> TypedAttr { return FloatAttr::get(t, v); };
    const llvm::fltSemantics& sem = cast<FloatType>(t).getFloatSemantics();
    if (isa<arith::AddFOp>(op)) return f(-0.0);
    if (isa<arith::MulFOp>(op)) return f(1.0);
    if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op)) return FloatAttr::get(t, floatExtreme(sem, true));
    if (isa<arith::MinimumFOp, arith::MinNumFOp>(op)) return FloatAttr::get(t, floatExtreme(sem, false));
    return {};
  }
  if (!t.isSignlessInteger()) return {};
  unsigned w = t.getIntOrFloatBitWidth();
  auto i = [&](const APInt& v) -> TypedAttr { return IntegerAttr::get(t, v); };
  if (isa<arith::AddIOp, arith::OrIOp, arith::XOrIOp, arith::MaxUIOp>(op)) return i(APInt(w, 0));
  if (isa<arith::MulIOp>(op)) return i(APInt(w, 1));
  if (isa<arith::MaxSIOp>(op)) return i(APInt::getSignedMinValue(w));
  if (isa<arith::MinSIOp>(op)) return i(APInt::getSignedMaxValue(w));
  if (isa<arith::MinUIOp, arith::AndIOp>(op)) return i(APInt::getAllOnes(w));
  return {};
}

Value combineWith(OpBuilder& b, const AccumulatorStep& step, Value accumulated, Value x) {
  Operation* op = b.clone(*step.combine);
  op->setOperand(step.loadSide, accumulated);
  op->setOperand(1 - step.loadSide, x);
  return op->getResult(0);
}

std::optional<AccumulatorStep> matchAccumulatorStep(memref::StoreOp store, Operation* scope) {
  Operation* combine = store.getValueToStore().getDefiningOp();
  TypedAttr identity = reductionIdentity(combine);
  if (!identity || combine->getBlock() != store->getBlock() || !combine->hasOneUse()) return std::nullopt;
  if (llvm::any_of(store.getIndices(), [&](Value v) { return scope->isAncestor(v.getParentRegion()->getParentOp()); }))
    return std::nullopt;
  for (unsigned side = 0; side < 2; ++side) {
    auto load = combine->getOperand(side).getDefiningOp<memref::LoadOp>();
    if (load && load->getBlock() == store->getBlock() && load->hasOneUse() &&
        load.getMemref() == store.getMemref() && load.getIndices() == store.getIndices())
      return AccumulatorStep{load, combine, side, identity};
  }
  return std::nullopt;
}

bool loadsAndStores(Block* body, bool nested, SmallVectorImpl<memref::LoadOp>& loads,
                    SmallVectorImpl<memref::StoreOp>& stores) {
  bool ok = true;
  auto visit = [&](Operation* op) {
    if (auto l = dyn_cast<memref::LoadOp>(op)) loads.push_back(l);
    else if (auto s = dyn_cast<memref::StoreOp>(op)) stores.push_back(s);
    else if (op->getNumRegions() ? !nested || !isa<scf::ForOp, scf::ParallelOp, scf::IfOp>(op) : !isMemoryEffectFree(op))
      ok = false;
  };
  if (nested) body->walk(visit);
  else for (Operation& op : body->without_terminator()) visit(&op);
  return ok;
}

bool aloneOnItsBuffer(memref::StoreOp store, memref::LoadOp load, ArrayRef<memref::LoadOp> loads,
                      ArrayRef<memref::StoreOp> stores) {
  Value m = store.getMemref();
  return llvm::none_of(loads, [&](memref::LoadOp l) { return l != load && mayShareBytes(l.getMemref(), m); }) &&
         llvm::none_of(stores, [&](memref::StoreOp s) { return s != store && mayShareBytes(s.getMemref(), m); });
}

scf::ParallelOp endingParallel(scf::ForOp loop) {
  Block* body = loop.getBody();
  if (body->without_terminator().empty()) return {};
  auto p = dyn_cast<scf::ParallelOp>(*std::prev(body->without_terminator().end()));
  if (!p || p.getNumResults()) return {};
  for (Operation& op : body->without_terminator())
    if (&op != p && (op.getNumRegions() || !isMemoryEffectFree(&op))) return {};
  return p;
}

bool writesOwnElements(ArrayRef<memref::StoreOp> elementwise, ArrayRef<memref::LoadOp> loads) {
  for (memref::StoreOp s : elementwise) {
    for (memref::LoadOp l : loads)
      if (mayShareBytes(l.getMemref(), s.getMemref()) &&
          (l.getMemref() != s.getMemref() || l.getIndices() != s.getIndices()))
        return false;
    for (memref::StoreOp o : elementwise)
      if (o != s && mayShareBytes(o.getMemref(), s.getMemref())) return false;
  }
  return true;
}

bool isColumnPlace(memref::StoreOp store, scf::ParallelOp p, Operation* scope, int64_t mostPlaces) {
  auto outside = [&](Value v) { return !scope->isAncestor(v.getParentRegion()->getParentOp()); };
  auto type = dyn_cast<MemRefType>(store.getMemref().getType());
  return type && type.hasStaticShape() && type.getNumElements() <= mostPlaces && outside(store.getMemref()) &&
         llvm::all_of(p.getInductionVars(), [&](Value iv) { return llvm::is_contained(store.getIndices(), iv); }) &&
         llvm::all_of(store.getIndices(),
                      [&](Value i) { return outside(i) || llvm::is_contained(p.getInductionVars(), i); });
}

std::pair<Value, Value> compensatedAdd(OpBuilder& b, Location loc, Value s, Value c, Value x) {
  Value t = arith::AddFOp::create(b, loc, s, x);
  Value z = arith::SubFOp::create(b, loc, t, s);
  Value e = arith::AddFOp::create(b, loc, arith::SubFOp::create(b, loc, s, arith::SubFOp::create(b, loc, t, z)),
                                  arith::SubFOp::create(b, loc, x, z));
  return {t, arith::AddFOp::create(b, loc, c, e)};
}

Value compensatedTotal(OpBuilder& b, Location loc, Value s, Value c) {
  // e is finite unless an operand or t is infinite or nan, and then s already is the sum.
  Value ordered = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, c, c);
  return arith::SelectOp::create(b, loc, ordered, arith::AddFOp::create(b, loc, s, c), s);
}

bool isOrderFree(const AccumulatorStep& step) {
  Operation* op = step.combine;
  if (auto add = dyn_cast<arith::AddIOp>(op)) return add.getOverflowFlags() == arith::IntegerOverflowFlags::none;
  if (auto mul = dyn_cast<arith::MulIOp>(op)) return mul.getOverflowFlags() == arith::IntegerOverflowFlags::none;
  return isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::MaxSIOp, arith::MaxUIOp, arith::MinSIOp,
             arith::MinUIOp, arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp>(op);
}

bool isReassociableFloatSum(const AccumulatorStep& step) {
  auto add = dyn_cast<arith::AddFOp>(step.combine);
  return add && bitEnumContainsAll(add.getFastmath(), arith::FastMathFlags::reassoc);
}

}  // namespace mlir::strata
