// The `strata` dialect: registration of its ops, how folders' constants become ops, and the
// canonicalization every op shares.
#include "dialect/StrataDialect.h"

#include "dialect/StrataOps.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::strata;

#include "StrataDialect.cpp.inc"

void StrataDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "StrataOps.cpp.inc"
      >();
}

// Folders return ElementsAttrs; they become strata.constant ops.
Operation* StrataDialect::materializeConstant(OpBuilder& builder, Attribute value, Type type,
                                              Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type) return nullptr;
  return ConstantOp::create(builder, loc, elements);
}

namespace {

// An op whose results all have zero elements is a constant: nothing is computed. Lowerings need
// not handle empty shapes then (MLIR's tensor.extract_slice rejects an empty slice at offset ==
// size, linalg infers loop bounds from operands that are empty; found by fuzz_differential:
// x.at[::2].set(v) on an f32[2,0] and on an f32[0]).
struct EmptyResultsAreConstants : RewritePattern {
  explicit EmptyResultsAreConstants(MLIRContext* ctx) : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation* op, PatternRewriter& rewriter) const override {
    if (!isa_and_nonnull<StrataDialect>(op->getDialect()) || isa<ConstantOp>(op) || op->getNumResults() == 0 ||
        op->hasTrait<OpTrait::IsTerminator>() || !isMemoryEffectFree(op))
      return failure();
    SmallVector<Value> constants;
    for (Value r : op->getResults()) {
      auto t = dyn_cast<RankedTensorType>(r.getType());
      if (!t || !t.hasStaticShape() || t.getNumElements() != 0) return failure();
    }
    for (Value r : op->getResults())
      constants.push_back(ConstantOp::create(rewriter, op->getLoc(),
                                             cast<ElementsAttr>(DenseElementsAttr::get(cast<ShapedType>(r.getType()), ArrayRef<Attribute>{}))));
    rewriter.replaceOp(op, constants);
    return success();
  }
};

}  // namespace

void StrataDialect::getCanonicalizationPatterns(RewritePatternSet& results) const {
  results.add<EmptyResultsAreConstants>(getContext());
}
