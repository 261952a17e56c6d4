// The canonicalizer with its patterns cached per context (Canonicalize.h).
#include "lowering/Canonicalize.h"

#include <mutex>

#include "dialect/StrataDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::strata {

// The context's frozen patterns and the dialects and ops they were collected from.
struct StrataDialect::CanonicalizationCache {
  size_t dialects = 0, ops = 0;
  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

namespace {

std::shared_ptr<const FrozenRewritePatternSet> collectPatterns(MLIRContext* context) {
  RewritePatternSet owning(context);
  for (Dialect* dialect : context->getLoadedDialects()) dialect->getCanonicalizationPatterns(owning);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(owning, context);
  return std::make_shared<const FrozenRewritePatternSet>(std::move(owning));
}

// The patterns of every loaded dialect, from the context's cache when no dialect has been
// loaded since they were collected. Without the strata dialect loaded (strata-opt on a module
// of other dialects) there is no cache: collected afresh, as MLIR's pass does.
std::shared_ptr<const FrozenRewritePatternSet> canonicalizationPatterns(MLIRContext* context) {
  auto* strata = context->getLoadedDialect<StrataDialect>();
  if (!strata) return collectPatterns(context);
  // One lock for every context's cache: taken once per pass manager run, never contended long.
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  if (!strata->canonicalizationCache) strata->canonicalizationCache = std::make_shared<StrataDialect::CanonicalizationCache>();
  StrataDialect::CanonicalizationCache& cache = *strata->canonicalizationCache;
  const size_t dialects = context->getLoadedDialects().size(), ops = context->getRegisteredOperations().size();
  if (!cache.patterns || cache.dialects != dialects || cache.ops != ops) {
    cache.patterns = collectPatterns(context);
    cache.dialects = dialects;
    cache.ops = ops;
  }
  return cache.patterns;
}

struct CachedCanonicalizer : PassWrapper<CachedCanonicalizer, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CachedCanonicalizer)
  // Named as MLIR's pass (--mlir-print-ir-after-all, reproducers): it is that pass.
  StringRef getName() const override { return "Canonicalizer"; }
  StringRef getArgument() const override { return "canonicalize"; }
  StringRef getDescription() const override {
    return "MLIR's canonicalizer, with its patterns built once per context";
  }
  LogicalResult initialize(MLIRContext* context) override {
    patterns = canonicalizationPatterns(context);
    return success();
  }
  void runOnOperation() override {
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true).setRegionSimplificationLevel(GreedySimplifyRegionLevel::Normal).setMaxIterations(10);
    // Best effort, as --canonicalize: not converging within the iterations is no failure.
    (void)applyPatternsGreedily(getOperation(), *patterns, config);
  }
  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

}  // namespace

std::unique_ptr<Pass> createCachedCanonicalizerPass() { return std::make_unique<CachedCanonicalizer>(); }

}  // namespace mlir::strata
