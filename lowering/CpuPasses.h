// lowering/CpuPasses.h — the passes of the CPU pipeline that are strata's own (the rest are
// upstream MLIR passes) and not yet declared in Passes.td, and the helpers they share.
#pragma once

#include <cstdint>
#include <memory>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class IRMapping;
class Location;
class ModuleOp;
class OpBuilder;
class Pass;
class Value;
namespace func {
class FuncOp;
}
}  // namespace mlir

namespace mlir::strata {

// The function the pipeline compiles: @main, or else the module's one public function with a
// body (null when there is none or several).
func::FuncOp entryFunction(ModuleOp module);


// --strata-mark-readonly-inputs: arguments of public functions are not writable, so that
// bufferization never writes into a caller's buffers.
std::unique_ptr<Pass> createMarkReadOnlyInputsPass();
// --strata-forward-outputs: a result returned through reshapes of a temporary (which
// out-params leave as a copy) is computed in the output buffer itself, viewed with the
// temporary's shape.
std::unique_ptr<Pass> createForwardOutputsPass();
// --strata-expand-strided-copies: memref.copy between buffers that are not both contiguous
// becomes linalg.copy (loops), so that no copy needs MLIR's runtime library.
std::unique_ptr<Pass> createExpandStridedCopiesPass();
// --strata-unshare-fills: a linalg.fill on tensors with several uses is cloned just before
// each use, so that each bufferizes to its own buffer, filled in place where it is needed.
std::unique_ptr<Pass> createUnshareFillsPass();
// --strata-tile-transposes: elementwise loop nests that read or write a buffer across its rows
// (transposes) become parallel loops over 32x32 tiles.
std::unique_ptr<Pass> createTileTransposesPass();
// --strata-fuse-parallel-loops (FuseParallelLoops.cpp).
std::unique_ptr<Pass> createFuseParallelLoopsPass();
// Whether two memrefs of @main may share bytes: traced through views to their bases, arguments
// of @main (distinct buffers) or allocations (at their arena ranges once buffers are assigned).
bool mayShareBytes(Value a, Value b);
// One buffer: the same value, or two allocations of one type at one arena offset.
bool sameBuffer(Value a, Value b);
// No two memrefs among `values` may share bytes: an outlined function may mark them `noalias`.
bool noTwoShareBytes(llvm::ArrayRef<Value> values);
// A private function @name(`leading` index arguments, captured...) after `main`, recording its
// argument types in strata.arg_types; `b` is left at its entry, where each of `cloned` (constants,
// globals) has been copied, and `map` takes those and each captured value to their copy or
// argument (ParallelLoops.cpp).
func::FuncOp createOutlinedFunction(OpBuilder& b, func::FuncOp main, Location loc, llvm::StringRef name,
                                    unsigned leading, llvm::ArrayRef<Value> cloned, llvm::ArrayRef<Value> captured,
                                    IRMapping& map);
// --strata-math-to-libm: math.log1p/expm1/tanh → calls of libm (LLVM has no accurate
// intrinsic for them).
std::unique_ptr<Pass> createMathToLibmCallsPass();
// --strata-parallel-launch (ParallelLoops.cpp), on the LLVM dialect.
std::unique_ptr<Pass> createParallelLaunchPass();
// --strata-cpu-entry (CpuEntry.cpp), on the LLVM dialect.
std::unique_ptr<Pass> createCpuEntryPass();

// Registers the passes above and those of Passes.td with MLIR's pass registry (for strata-opt).
void registerCpuPasses();

}  // namespace mlir::strata
