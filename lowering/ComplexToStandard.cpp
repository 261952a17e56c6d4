// --strata-complex-to-standard: MLIR's complex-to-standard conversion, with complex.mul as XLA
// computes it: a·c - b·d and a·d + b·c each one fused multiply-add (Passes.td).
//
// Why: XLA's CPU and GPU backends let LLVM fuse multiply-adds, so JAX's complex product rounds
// once where MLIR's expansion rounds twice; where a product overflows or cancels the two part
// ways ((1e30 + 1e30i)² in c64 is -inf + inf·i in JAX, nan + inf·i unfused). Left to LLVM the
// fusion is not even the same in one program: x86's vectorised complex multiply (an addsub of
// two products) stays unfused while the scalar tail fuses. Stated as math.fma it is the same
// everywhere, and the eager kernels compute the same (tracer/primitives/complex_arith.h).
#include "lowering/ComplexToStandard.h"
#include "lowering/Passes.h"
#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::strata {

#define GEN_PASS_DEF_COMPLEXTOSTANDARDPASS
#include "lowering/Passes.h.inc"

namespace {

// (a + bi)(c + di) = fma(a, c, -(b·d)) + fma(b, c, a·d)·i: which product of each part is
// fused is XLA's (found against jax 0.10.2: (1e30 - 1e30i)(1e30 + 1e30i) is inf + inf·i there).
struct MulAsFma : OpConversionPattern<complex::MulOp> {
  MulAsFma(MLIRContext* ctx) : OpConversionPattern(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(complex::MulOp op, OpAdaptor adaptor, ConversionPatternRewriter& rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<ComplexType>(op.getType());
    Value a = complex::ReOp::create(rewriter, loc, adaptor.getLhs()), b = complex::ImOp::create(rewriter, loc, adaptor.getLhs());
    Value c = complex::ReOp::create(rewriter, loc, adaptor.getRhs()), d = complex::ImOp::create(rewriter, loc, adaptor.getRhs());
    Value bd = arith::MulFOp::create(rewriter, loc, b, d), ad = arith::MulFOp::create(rewriter, loc, a, d);
    Value re = math::FmaOp::create(rewriter, loc, a, c, arith::NegFOp::create(rewriter, loc, bd));
    Value im = math::FmaOp::create(rewriter, loc, b, c, ad);
    rewriter.replaceOpWithNewOp<complex::CreateOp>(op, type, re, im);
    return success();
  }
};

struct ComplexToStandardPass : impl::ComplexToStandardPassBase<ComplexToStandardPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateComplexToStandardPatterns(patterns);
    ConversionTarget target(getContext());  // as MLIR's pass: complex values stay, their arithmetic goes
    target.addLegalDialect<arith::ArithDialect, math::MathDialect>();
    target.addLegalOp<complex::CreateOp, complex::ImOp, complex::ReOp>();
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns)))) signalPassFailure();
  }
};

}  // namespace

void populateComplexToStandardPatterns(RewritePatternSet& patterns) {
  patterns.add<MulAsFma>(patterns.getContext());
  populateComplexToStandardConversionPatterns(patterns);
}

}  // namespace mlir::strata
