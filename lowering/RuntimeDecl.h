// lowering/RuntimeDecl.h — the private declaration of a CPU runtime function (CpuAbi.h) in a
// module, made once: what every lowering that calls the runtime (GEMM, sort, linalg,
// collectives) uses.
#pragma once

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {

inline func::FuncOp declareRuntime(OpBuilder& b, ModuleOp module, StringRef name, FunctionType type) {
  if (auto f = module.lookupSymbol<func::FuncOp>(name)) return f;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto f = func::FuncOp::create(b, module.getLoc(), name, type);
  f.setPrivate();
  return f;
}

}  // namespace mlir::strata
