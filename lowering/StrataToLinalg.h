// lowering/StrataToLinalg.h — `strata` → linalg/arith/math/tensor (StrataToLinalg.cpp), and
// strata.fusion regions → one loop nest each (FusionToLinalg.cpp). Internal to lowering/.
#pragma once

#include <memory>

#include "llvm/ADT/ArrayRef.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class Location;
class ModuleOp;
class OpBuilder;
class Pass;
class RewritePatternSet;
class Value;
}  // namespace mlir

namespace mlir::strata {

class DotGeneralOp;
class FusionOp;

// One pattern per op family; the ops of strata.reduce bodies are consumed by the reduce's.
void populateStrataToLinalgPatterns(RewritePatternSet& patterns);
// --strata-to-linalg: lowers strata.fusion regions (lowerFusions), then converts every other
// strata op.
std::unique_ptr<Pass> createStrataToLinalgPass();

// Each strata.fusion of `module` becomes one linalg.generic (a loop fusion), a reduction nest
// and, for ops after the reduction, a second nest over its result (an input fusion), or a GEMM
// and an in-place epilogue generic marked strata.epilogue (an output fusion). A region of
// another shape is inlined, its ops then lowered one by one.
void lowerFusions(ModuleOp module);
void inlineFusion(FusionOp f);

// `op`'s contraction of `lhs` and `rhs` (values standing for its operands; an operand made by a
// strata.transpose is read through it) as linalg.batch_matmul: the [B, M, N] tensor of the
// products, in the accumulation type (f32 for bf16/f16).
Value emitDotProduct(OpBuilder& b, Location loc, DotGeneralOp op, Value lhs, Value rhs);
// `value` with the same elements under `shape` (collapse/expand, views once bufferized).
Value reshapeTensor(OpBuilder& b, Location loc, Value value, llvm::ArrayRef<int64_t> shape);

}  // namespace mlir::strata
