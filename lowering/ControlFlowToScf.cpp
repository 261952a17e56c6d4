// strata.if / strata.case / strata.while → scf.if / scf.index_switch / scf.while, and the
// dynamic slices → tensor.extract_slice / tensor.insert_slice (part of --strata-to-linalg).
// The regions move as they are; the strata ops inside them are then converted by their own
// patterns, so fusion regions and reductions inside a loop body lower as they do anywhere.
// One-shot bufferization then keeps each loop-carried tensor in one buffer across iterations
// (scf.while's iter args bufferize in place when the body writes its own carry).
#include "dialect/StrataOps.h"
#include "lowering/StrataToLinalg.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::strata {
namespace {

// The element of a 0-d tensor.
Value scalarOf(OpBuilder& b, Location loc, Value t) { return tensor::ExtractOp::create(b, loc, t, ValueRange{}); }

// A 0-d i32 index as an `index`, clamped to [lo, hi].
Value clampedIndex(OpBuilder& b, Location loc, Value t, int64_t lo, int64_t hi) {
  Value i = arith::IndexCastOp::create(b, loc, b.getIndexType(), scalarOf(b, loc, t));
  Value l = arith::ConstantIndexOp::create(b, loc, lo);
  Value h = arith::ConstantIndexOp::create(b, loc, hi);
  return arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, i, l), h);
}

// Moves `from` (one block ending in strata.return) into the empty region `to`, its return
// replaced by what `terminate` builds from the returned values.
void moveRegion(ConversionPatternRewriter& rw, Region& from, Region& to,
                function_ref<void(OpBuilder&, Location, ValueRange)> terminate) {
  rw.inlineRegionBefore(from, to, to.end());
  Block& block = to.front();
  auto ret = cast<ReturnOp>(block.getTerminator());
  OpBuilder::InsertionGuard guard(rw);
  rw.setInsertionPoint(ret);
  SmallVector<Value> values(ret.getResults());
  terminate(rw, ret.getLoc(), values);
  rw.eraseOp(ret);
}

void yield(OpBuilder& b, Location loc, ValueRange v) { scf::YieldOp::create(b, loc, v); }

struct IfLowering : OpConversionPattern<IfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(IfOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    auto scfIf = scf::IfOp::create(rw, loc, op.getResultTypes(), scalarOf(rw, loc, adaptor.getPred()),
                                   /*addThenBlock=*/false, /*addElseBlock=*/false);
    moveRegion(rw, op.getTrueBranch(), scfIf.getThenRegion(), yield);
    moveRegion(rw, op.getFalseBranch(), scfIf.getElseRegion(), yield);
    rw.replaceOp(op, scfIf.getResults());
    return success();
  }
};

// Branch i for index i; the index is clamped to the branches first (the jaxpr's cond runs
// branch 0 for a negative index, the last for one past the end), the last branch the default.
struct CaseLowering : OpConversionPattern<CaseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(CaseOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    int64_t n = static_cast<int64_t>(op.getBranches().size());
    Value index = clampedIndex(rw, loc, adaptor.getIndex(), 0, n - 1);
    SmallVector<int64_t> cases;
    for (int64_t i = 0; i + 1 < n; ++i) cases.push_back(i);
    auto sw = scf::IndexSwitchOp::create(rw, loc, op.getResultTypes(), index, cases, static_cast<unsigned>(n - 1));
    for (int64_t i = 0; i + 1 < n; ++i) moveRegion(rw, op.getBranches()[i], sw.getCaseRegions()[i], yield);
    moveRegion(rw, op.getBranches()[n - 1], sw.getDefaultRegion(), yield);
    rw.replaceOp(op, sw.getResults());
    return success();
  }
};

struct WhileLowering : OpConversionPattern<WhileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WhileOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    // Each carry starts in a buffer of its own, since the body materializes each carry in its
    // carry's buffer: a value passed as two carries' initial values is copied for the second
    // (they would overwrite each other), and so is an enclosing loop's carry (a nested loop
    // would write into the outer carry's buffer, which the outer body may still read and
    // itself materializes in place).
    SmallVector<Value> inits(adaptor.getOperand().begin(), adaptor.getOperand().end());
    llvm::SmallPtrSet<Value, 8> seen;
    for (Value& init : inits) {
      auto carry = dyn_cast<BlockArgument>(init);
      bool outerCarry = carry && isa_and_nonnull<scf::WhileOp, WhileOp>(carry.getOwner()->getParentOp());
      if ((!seen.insert(init).second || outerCarry) && isa<RankedTensorType>(init.getType()))
        init = bufferization::AllocTensorOp::create(rw, loc, cast<RankedTensorType>(init.getType()), ValueRange{}, init);
    }
    auto loop = scf::WhileOp::create(rw, loc, op.getResultTypes(), inits);
    moveRegion(rw, op.getCond(), loop.getBefore(), [&](OpBuilder& b, Location l, ValueRange v) {
      Block& before = loop.getBefore().front();
      scf::ConditionOp::create(b, l, scalarOf(b, l, v[0]), before.getArguments());
    });
    moveRegion(rw, op.getBody(), loop.getAfter(), [&](OpBuilder& b, Location l, ValueRange v) {
      // Each new carry is materialized in the buffer of the carry it replaces (the loop keeps
      // one buffer per carry; empty-tensor elimination then lets the op computing it write
      // there directly). A carry updated in place already (a scan's ys, written by
      // dynamic_update_slice into the carried value) or passed through needs nothing.
      // (Unless the old carry is read after the update — a transposed scan reads it so — which
      // keeps the update out of place: then it is materialized too.)
      Block& after = loop.getAfter().front();
      // A new carry that is another carry's old value (or a view of it: f_prev = f, or a swap)
      // is copied before any carry is materialized: materializing it would read that carry
      // after its own materialization overwrote the buffer, a read-after-write One-Shot
      // Bufferize cannot avoid (materialize_in_destination must write in place).
      auto carryBehind = [&](Value value) -> BlockArgument {
        while (Operation* def = value.getDefiningOp()) {
          if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp, tensor::ExtractSliceOp>(def)) break;
          value = def->getOperand(0);
        }
        auto carry = dyn_cast<BlockArgument>(value);
        return carry && carry.getOwner() == &after ? carry : BlockArgument();
      };
      SmallVector<Value> sources(v.begin(), v.end());
      for (auto [value, arg] : llvm::zip(sources, after.getArguments()))
        if (value != arg && carryBehind(value) && isa<RankedTensorType>(value.getType()))
          value = bufferization::AllocTensorOp::create(b, l, cast<RankedTensorType>(value.getType()), ValueRange{}, value);
      v = sources;
      SmallVector<Value> yielded;
      auto readAfter = [&](Value arg, Operation* update) {
        return llvm::any_of(arg.getUsers(), [&](Operation* user) {
          Operation* at = after.findAncestorOpInBlock(*user);
          return user != update && at && at != update && update->isBeforeInBlock(at);
        });
      };
      for (auto [value, arg] : llvm::zip(v, after.getArguments())) {
        auto update = value.getDefiningOp<DynamicUpdateSliceOp>();
        if (value == arg || (update && update.getOperand() == arg && update->getBlock() == &after &&
                             !readAfter(arg, update))) {
          yielded.push_back(value);
          continue;
        }
        yielded.push_back(bufferization::MaterializeInDestinationOp::create(b, l, value, arg).getResult());
      }
      scf::YieldOp::create(b, l, yielded);
    });
    rw.replaceOp(op, loop.getResults());
    return success();
  }
};

SmallVector<OpFoldResult> offsets(OpBuilder& b, Location loc, ValueRange indices, RankedTensorType operand,
                                  ArrayRef<int64_t> sizes) {
  SmallVector<OpFoldResult> r;
  for (auto [d, t] : llvm::enumerate(indices)) {
    int64_t hi = operand.getDimSize(static_cast<unsigned>(d)) - sizes[d];
    // A constant start needs no clamping at run time.
    if (auto c = t.getDefiningOp<arith::ConstantOp>())
      if (auto dense = dyn_cast<DenseIntElementsAttr>(c.getValue())) {
        int64_t v = std::clamp<int64_t>((*dense.begin()).getSExtValue(), 0, hi);
        r.push_back(b.getIndexAttr(v));
        continue;
      }
    r.push_back(clampedIndex(b, loc, t, 0, hi));
  }
  return r;
}

SmallVector<OpFoldResult> attrs(OpBuilder& b, ArrayRef<int64_t> v) {
  SmallVector<OpFoldResult> r;
  for (int64_t x : v) r.push_back(b.getIndexAttr(x));
  return r;
}

struct DynamicSliceLowering : OpConversionPattern<DynamicSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(DynamicSliceOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    auto operand = cast<RankedTensorType>(adaptor.getOperand().getType());
    ArrayRef<int64_t> sizes = op.getSliceSizes();
    rw.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, op.getType(), adaptor.getOperand(), offsets(rw, op.getLoc(), adaptor.getStartIndices(), operand, sizes),
        attrs(rw, sizes), attrs(rw, SmallVector<int64_t>(sizes.size(), 1)));
    return success();
  }
};

struct DynamicUpdateSliceLowering : OpConversionPattern<DynamicUpdateSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(DynamicUpdateSliceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rw) const override {
    auto operand = cast<RankedTensorType>(adaptor.getOperand().getType());
    ArrayRef<int64_t> sizes = cast<RankedTensorType>(adaptor.getUpdate().getType()).getShape();
    rw.replaceOpWithNewOp<tensor::InsertSliceOp>(
        op, adaptor.getUpdate(), adaptor.getOperand(), offsets(rw, op.getLoc(), adaptor.getStartIndices(), operand, sizes),
        attrs(rw, sizes), attrs(rw, SmallVector<int64_t>(sizes.size(), 1)));
    return success();
  }
};

}  // namespace

void populateControlFlowToScfPatterns(RewritePatternSet& patterns) {
  patterns.add<IfLowering, CaseLowering, WhileLowering, DynamicSliceLowering, DynamicUpdateSliceLowering>(
      patterns.getContext());
}

}  // namespace mlir::strata
