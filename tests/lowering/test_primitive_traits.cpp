// The tracer's traits of each primitive agree with the dialect op it lowers to: a primitive is
// kElementwise exactly when its op has the Elementwise trait (and so a scalar body).
#include <gtest/gtest.h>

#include "dialect/StrataDialect.h"
#include "dialect/StrataOps.h"
#include "lowering/JaxprToStrata.h"
#include "mlir/IR/MLIRContext.h"
#include "primitive.h"

namespace st = strata;

TEST(PrimitiveTraits, ElementwiseAgreesWithTheDialectOp) {
  mlir::MLIRContext ctx;
  ctx.loadDialect<mlir::strata::StrataDialect>();
  int checked = 0;
  for (const st::Primitive* p : st::all_primitives()) {
    llvm::StringRef name = mlir::strata::loweredOpName(p->name);
    if (name.empty() || !name.starts_with("strata.")) continue;  // lowers to no op of its own
    std::optional<mlir::RegisteredOperationName> op = mlir::RegisteredOperationName::lookup(name, &ctx);
    ASSERT_TRUE(op.has_value()) << p->name << " lowers to an unknown op " << name.str();
    bool elementwise = op->hasTrait<mlir::OpTrait::Elementwise>();
    EXPECT_EQ(p->has(st::kElementwise), elementwise)
        << "primitive `" << p->name << "` is " << (p->has(st::kElementwise) ? "" : "not ")
        << "kElementwise in the tracer, but " << name.str() << " is "
        << (elementwise ? "" : "not ") << "Elementwise in StrataOps.td";
    EXPECT_EQ(elementwise, op->hasInterface<mlir::strata::ScalarOpInterface>())
        << name.str() << ": every elementwise op has a scalar body";
    ++checked;
  }
  EXPECT_GE(checked, 45);
}
