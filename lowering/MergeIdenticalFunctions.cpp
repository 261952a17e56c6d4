// --strata-merge-identical-functions: private functions with one signature, one set of
// attributes and structurally equal bodies become one; their calls go to the first (Passes.td).
#include "llvm/ADT/DenseMap.h"
#include "lowering/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::strata {

#define GEN_PASS_DEF_MERGEIDENTICALFUNCTIONSPASS
#include "lowering/Passes.h.inc"

namespace {

constexpr auto kFlags = OperationEquivalence::IgnoreLocations;

// The function's attributes but its name: what, besides the body, must agree.
DictionaryAttr attributesButName(func::FuncOp f) {
  NamedAttrList attrs(f->getAttrDictionary());
  attrs.erase(SymbolTable::getSymbolAttrName());
  return attrs.getDictionary(f->getContext());
}

// A hash of the body's operations in order (names, attributes, types; not which values they
// use), so that only functions in one bucket are compared op by op.
llvm::hash_code bodyHash(func::FuncOp f) {
  llvm::hash_code h = llvm::hash_value(f.getBody().getBlocks().size());
  f.getBody().walk([&](Operation* op) {
    h = llvm::hash_combine(h, OperationEquivalence::computeHash(op, OperationEquivalence::ignoreHashValue,
                                                                OperationEquivalence::ignoreHashValue, kFlags));
  });
  return h;
}

bool identical(func::FuncOp a, func::FuncOp b) {
  return a.getFunctionType() == b.getFunctionType() && attributesButName(a) == attributesButName(b) &&
         OperationEquivalence::isRegionEquivalentTo(&a.getBody(), &b.getBody(), kFlags);
}

struct MergeIdenticalFunctionsPass : impl::MergeIdenticalFunctionsPassBase<MergeIdenticalFunctionsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Until nothing merges: functions that differed only in which (now merged) function they
    // name (a GEMM wrapper and its epilogue) merge in the next round.
    while (true) {
      FailureOr<bool> merged = mergeOnce(getOperation());
      if (failed(merged)) return signalPassFailure();
      if (!*merged) return;
    }
  }

  FailureOr<bool> mergeOnce(ModuleOp module) {
    // Candidates in module order, so that the kept copy is the first one defined.
    llvm::DenseMap<llvm::hash_code, SmallVector<func::FuncOp>> buckets;
    SmallVector<std::pair<func::FuncOp, func::FuncOp>> merges;  // (duplicate, kept)
    for (auto f : module.getOps<func::FuncOp>()) {
      if (!f.isPrivate() || f.isExternal()) continue;
      SmallVector<func::FuncOp>& bucket = buckets[bodyHash(f)];
      auto kept = llvm::find_if(bucket, [&](func::FuncOp k) { return identical(k, f); });
      if (kept != bucket.end()) merges.push_back({f, *kept});
      else bucket.push_back(f);
    }
    for (auto [dup, kept] : merges) {
      if (failed(SymbolTable::replaceAllSymbolUses(dup, kept.getSymNameAttr(), module))) return failure();
      dup.erase();
      ++numMerged;
    }
    return !merges.empty();
  }
};

}  // namespace
}  // namespace mlir::strata
