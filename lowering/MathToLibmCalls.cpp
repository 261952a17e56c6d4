// --strata-math-to-libm-calls: the math ops LLVM has no accurate intrinsic for (LibmCalls.def:
// log1p, expm1, tanh, erf, …) become Eigen's rational approximation (f32 tanh) or calls of libm
// (Passes.td).
#include "lowering/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::strata {

#define GEN_PASS_DEF_MATHTOLIBMCALLSPASS
#include "lowering/Passes.h.inc"

namespace {

struct MathToLibmCallsPass : impl::MathToLibmCallsPassBase<MathToLibmCallsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // f32 tanh first becomes Eigen's rational approximation (MLIR's port of it, the same
    // algorithm as the eager kernel): inline arithmetic that LLVM vectorises, 40x faster than a
    // libm call per element. f64 tanh stays a libm call, as it is in Eigen.
    module.walk([&](math::TanhOp op) { numApproximated += op.getType().isF32(); });
    {
      RewritePatternSet patterns(&getContext());
      populatePolynomialApproximateTanhPattern(patterns);
      if (failed(applyPatternsGreedily(module, std::move(patterns)))) return signalPassFailure();
    }
    SmallVector<std::pair<Operation*, const char*>> ops;
    module.walk([&](Operation* op) {
#define STRATA_LIBM(OpClass, name) \
  if (isa<math::OpClass>(op)) ops.push_back({op, #name});
#define STRATA_LIBM2 STRATA_LIBM
#include "lowering/LibmCalls.def"
#undef STRATA_LIBM2
#undef STRATA_LIBM
    });
    for (auto [op, libm] : ops) {
      Type t = op->getResult(0).getType();
      if (!t.isF32() && !t.isF64()) {
        op->emitError("strata-math-to-libm-calls: expects f32 or f64, but got ") << t;
        return signalPassFailure();
      }
      std::string name = libm;
      if (t.isF32()) name += "f";
      if (!module.lookupSymbol(name)) {
        OpBuilder b(module.getBodyRegion());
        b.setInsertionPointToStart(module.getBody());
        auto fn = func::FuncOp::create(b, module.getLoc(), name, b.getFunctionType(SmallVector<Type, 2>(op->getNumOperands(), t), {t}));
        fn.setPrivate();
        // Pure: LLVM may hoist, CSE and drop these calls.
        fn->setAttr("llvm.readnone", b.getUnitAttr());
      }
      OpBuilder b(op);
      auto call = func::CallOp::create(b, op->getLoc(), name, TypeRange{t}, op->getOperands());
      op->replaceAllUsesWith(call);
      op->erase();
      ++numCalls;
    }
  }
};

}  // namespace
}  // namespace mlir::strata
