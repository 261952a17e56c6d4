// transforms/EntryFunction.h — which function of a module the compiler compiles. Used by the
// passes of transforms/ and lowering/ alike.
#pragma once

namespace mlir {
class ModuleOp;
namespace func {
class FuncOp;
}

namespace strata {

// The module's entry function: @main (with a body), or else its one public function with a
// body; null when there is none or several.
func::FuncOp entryFunction(ModuleOp module);

}  // namespace strata
}  // namespace mlir
