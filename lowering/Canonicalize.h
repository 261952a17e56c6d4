// lowering/Canonicalize.h — MLIR's canonicalizer with its pattern set built once per context.
//
// MLIR's pass collects every loaded dialect's and op's canonicalization patterns and freezes
// them each time a pass manager initialises it; the stages build a pass manager per stage and
// run the canonicalizer five times per compile on the CPU, and that set-up was ~7% of a small program's
// first call. This one keeps the frozen set in the context (on the strata dialect) and builds
// it again only when more dialects have been loaded. Same patterns, same greedy settings as
// `--canonicalize` (top-down, normal region simplification, at most 10 iterations).
#pragma once

#include <memory>

namespace mlir {
class Pass;
namespace strata {

std::unique_ptr<Pass> createCachedCanonicalizerPass();

}  // namespace strata
}  // namespace mlir
