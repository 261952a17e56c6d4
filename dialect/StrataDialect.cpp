// The `strata` dialect: registration of its ops and how folders' constants become ops.
#include "dialect/StrataDialect.h"

#include "dialect/StrataOps.h"

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
