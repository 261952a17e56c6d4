// lowering/OutlinedFunction.h — a private function that code moved out of the entry function
// runs in (parallel loops, GEMM epilogues).
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class IRMapping;
class Location;
class OpBuilder;
class Value;
namespace func {
class FuncOp;
}

namespace strata {

// A private function @name(`leading` index arguments, captured...) after `main`, recording its
// argument types in strata.arg_types (the LLVM dialect no longer shows which arguments were
// buffers); `b` is left at its entry, where each of `cloned` (constants, globals) has been
// copied, and `map` takes those and each captured value to their copy or argument.
func::FuncOp createOutlinedFunction(OpBuilder& b, func::FuncOp main, Location loc, llvm::StringRef name,
                                    unsigned leading, llvm::ArrayRef<Value> cloned, llvm::ArrayRef<Value> captured,
                                    IRMapping& map);

}  // namespace strata
}  // namespace mlir
