// lowering/ComplexToStandard.h — complex arithmetic as arith and math on the parts: MLIR's
// patterns, complex.mul as XLA's fused multiply-adds (ComplexToStandard.cpp). Compiler-side only.
#pragma once

#include "mlir/IR/PatternMatch.h"

namespace mlir::strata {

// MLIR's complex-to-standard patterns (Smith's division, the careful abs, log1p …) and, before
// its own, the complex.mul of fused multiply-adds.
void populateComplexToStandardPatterns(RewritePatternSet& patterns);

}  // namespace mlir::strata
