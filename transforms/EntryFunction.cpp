// The module's entry function (EntryFunction.h).
#include "transforms/EntryFunction.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {

func::FuncOp entryFunction(ModuleOp module) {
  if (auto main = module.lookupSymbol<func::FuncOp>("main"); main && !main.isExternal()) return main;
  func::FuncOp found;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn.isPublic() || fn.isExternal()) continue;
    if (found) return {};
    found = fn;
  }
  return found;
}

}  // namespace mlir::strata
