// lowering/StrataToLinalg.h — `strata` → linalg/arith/math/tensor (StrataToLinalg.cpp).
#pragma once

#include <memory>

namespace mlir {
class Pass;
class RewritePatternSet;
}  // namespace mlir

namespace mlir::strata {

// One pattern per op family; the ops of strata.reduce bodies are consumed by the reduce's.
void populateStrataToLinalgPatterns(RewritePatternSet& patterns);
// --strata-to-linalg: inlines strata.fusion bodies, then converts every strata op.
std::unique_ptr<Pass> createStrataToLinalgPass();

}  // namespace mlir::strata
