// A private function holding code moved out of the entry function (OutlinedFunction.h).
#include "lowering/OutlinedFunction.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::strata {

func::FuncOp createOutlinedFunction(OpBuilder& b, func::FuncOp main, Location loc, StringRef name, unsigned leading,
                                    ArrayRef<Value> cloned, ArrayRef<Value> captured, IRMapping& map) {
  SmallVector<Type> argTypes(leading, b.getIndexType());
  for (Value v : captured) argTypes.push_back(v.getType());
  b.setInsertionPointAfter(main);
  auto fn = func::FuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  fn.setPrivate();
  SmallVector<Attribute> typeAttrs;
  for (Type t : argTypes) typeAttrs.push_back(TypeAttr::get(t));
  fn->setAttr("strata.arg_types", b.getArrayAttr(typeAttrs));
  Block* entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  for (Value v : cloned) map.map(v, b.clone(*v.getDefiningOp())->getResult(0));
  for (auto [i, v] : llvm::enumerate(captured)) map.map(v, entry->getArgument(leading + static_cast<unsigned>(i)));
  return fn;
}

}  // namespace mlir::strata
