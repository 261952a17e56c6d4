// --strata-inline-calls (Passes.td) and inlineCalls (InlineCalls.h).
#include "transforms/InlineCalls.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "transforms/Passes.h"

namespace mlir::strata {

#define GEN_PASS_DEF_STRATAINLINECALLS
#include "transforms/Passes.h.inc"

int64_t inlineCalls(ModuleOp module) {
  int64_t inlined = 0;
  for (bool changed = true; changed;) {
    changed = false;
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp c) {
      auto callee = module.lookupSymbol<func::FuncOp>(c.getCallee());
      if (callee && !callee.isExternal() && callee.getBody().hasOneBlock()) calls.push_back(c);
    });
    for (func::CallOp call : calls) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      Block& body = callee.getBody().front();
      IRMapping map;
      map.map(body.getArguments(), call.getOperands());
      OpBuilder b(call);
      for (Operation& op : body.without_terminator()) b.clone(op, map);
      for (auto [result, v] : llvm::zip(call.getResults(), body.getTerminator()->getOperands()))
        result.replaceAllUsesWith(map.lookupOrDefault(v));
      call.erase();
      ++inlined;
      changed = true;
    }
  }
  SmallVector<func::FuncOp> dead;
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn.isPrivate() && SymbolTable::symbolKnownUseEmpty(fn, module)) dead.push_back(fn);
  for (func::FuncOp fn : dead) fn.erase();
  return inlined;
}

namespace {

struct StrataInlineCallsPass : impl::StrataInlineCallsBase<StrataInlineCallsPass> {
  using Base::Base;
  void runOnOperation() override { numInlined += inlineCalls(getOperation()); }
};

}  // namespace
}  // namespace mlir::strata
