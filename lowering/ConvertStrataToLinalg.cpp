// --strata-to-linalg: the strata dialect → linalg/arith/math/tensor (Passes.td). The patterns
// are StrataToLinalg.cpp's, the fusion regions' lowering FusionToLinalg.cpp's.
#include "dialect/StrataDialect.h"
#include "dialect/StrataOps.h"
#include "lowering/ComplexToStandard.h"
#include "lowering/Passes.h"
#include "lowering/StrataToLinalg.h"
#include "transforms/ExpandRngBitGenerator.h"
#include "transforms/InlineCalls.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::strata {

#define GEN_PASS_DEF_STRATATOLINALGPASS
#include "lowering/Passes.h.inc"

namespace {

// Complex arithmetic becomes arith and math on the parts here, before any canonicalizer sees
// it: the complex dialect's folders rewrite (a - b) + b and (a + b) - b to a, log(exp(z)) and
// exp(log(z)) to z, z·(1+0i) and z/(1+0i) to z and z + 0 to z — identities of the complex
// numbers, not of floating point (exp(2^31·i) - 2^31·i + 2^31·i loses the imaginary part;
// log(exp(10i)) is (10 - 4π)i; (inf+0i)·1 is inf+nan·i), so jit differed from eager. Folding is
// off in this conversion for the same reason. The bodies of named linalg ops (a complex GEMM's
// mul and add) are left as they are: the runtime GEMM replaces them, and nothing folds there.
// The other complex ops (abs, pow, sqrt, ...) have no such folders; they are expanded at the
// LLVM stage as before.
LogicalResult expandComplexArithmetic(ModuleOp module) {
  auto kept = [](Operation* op) {
    Operation* parent = op->getParentOp();
    return isa<linalg::LinalgOp>(parent) && !isa<linalg::GenericOp>(parent);
  };
  bool any = module
                 .walk([&](Operation* op) {
                   bool folds = isa<complex::AddOp, complex::SubOp, complex::MulOp, complex::DivOp, complex::ExpOp,
                                    complex::LogOp>(op);
                   return folds && !kept(op) ? WalkResult::interrupt() : WalkResult::advance();
                 })
                 .wasInterrupted();
  if (!any) return success();  // most programs: no conversion run (compile latency)
  MLIRContext* ctx = module.getContext();
  ConversionTarget target(*ctx);
  target.markUnknownOpDynamicallyLegal([](Operation*) { return true; });
  target.addDynamicallyLegalOp<complex::AddOp, complex::SubOp, complex::MulOp, complex::DivOp, complex::ExpOp,
                               complex::LogOp>(kept);
  RewritePatternSet patterns(ctx);
  populateComplexToStandardPatterns(patterns);  // complex.mul as XLA's fused multiply-adds
  ConversionConfig config;
  config.foldingMode = DialectConversionFoldingMode::Never;
  return applyPartialConversion(module, target, std::move(patterns), config);
}

struct StrataToLinalgPass : impl::StrataToLinalgPassBase<StrataToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    numInlinedCalls += inlineCalls(module);  // what --strata-inline-calls left (a module given at this stage)
    expandRngBitGenerators(module);          // likewise --strata-expand-rng-bit-generator
    if (failed(eraseSignedness(module))) return signalPassFailure();
    module.walk([&](FusionOp) { ++numFusions; });
    lowerFusions(module);
    MLIRContext* ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addLegalDialect<linalg::LinalgDialect, arith::ArithDialect, math::MathDialect, complex::ComplexDialect,
                           tensor::TensorDialect, func::FuncDialect, scf::SCFDialect,
                           bufferization::BufferizationDialect, memref::MemRefDialect, LLVM::LLVMDialect>();
    // The ops of a reduce body (or a sort comparator, or a window op's regions) are consumed
    // by the op's pattern.
    target.addDynamicallyLegalDialect<StrataDialect>([](Operation* op) {
      return op->getParentOfType<ReduceOp>() || op->getParentOfType<SortOp>() ||
             op->getParentOfType<ReduceWindowOp>() || op->getParentOfType<SelectAndScatterOp>();
    });
    RewritePatternSet patterns(ctx);
    populateStrataToLinalgPatterns(patterns);
    if (runtimeConvolution) populateConvolutionToRuntimePatterns(patterns);
    if (failed(applyPartialConversion(module, target, std::move(patterns)))) return signalPassFailure();
    if (failed(expandComplexArithmetic(module))) signalPassFailure();
  }
};

}  // namespace
}  // namespace mlir::strata
