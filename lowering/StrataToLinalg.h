// lowering/StrataToLinalg.h — `strata` → linalg/arith/math/tensor (StrataToLinalg.cpp), and
// strata.fusion regions → one loop nest each (FusionToLinalg.cpp). Internal to lowering/.
#pragma once

#include <memory>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class Location;
class ModuleOp;
class OpBuilder;
class Pass;
class RewritePatternSet;
class Type;
class Value;
}  // namespace mlir

namespace mlir::strata {

class DotGeneralOp;
class FusionOp;

// One pattern per op family; the ops of strata.reduce bodies are consumed by the reduce's
// (run by --strata-to-linalg, ConvertStrataToLinalg.cpp, after lowerFusions).
void populateStrataToLinalgPatterns(RewritePatternSet& patterns);
// strata.if/case/while → scf.if/index_switch/while, dynamic slices → tensor slices
// (ControlFlowToScf.cpp; part of populateStrataToLinalgPatterns).
void populateControlFlowToScfPatterns(RewritePatternSet& patterns);
// strata.gather → linalg.generic with clamped tensor.extract; strata.scatter → an scf.for nest
// (IndexingToLinalg.cpp; part of populateStrataToLinalgPatterns).
void populateIndexingToLinalgPatterns(RewritePatternSet& patterns);
// strata.cumulative (and the sorting group's other ops) → loop nests on tensors
// (CumulativeToScf.cpp; part of populateStrataToLinalgPatterns).
void populateSortingLoweringPatterns(RewritePatternSet& patterns);
// strata.sort → a call of the runtime's sort on copies of its inputs (SortToRuntime.cpp; part
// of populateStrataToLinalgPatterns).
void populateSortToRuntimePatterns(RewritePatternSet& patterns);
// strata.linalg → a call of the runtime's linalg kernels (LinalgToRuntime.cpp; part of
// populateStrataToLinalgPatterns; linear algebra, issue 14).
void populateLinalgToRuntimePatterns(RewritePatternSet& patterns);
// strata.fft → strata_rt_fft (lowering/FftToRuntime.cpp).
void populateFftToRuntimePatterns(RewritePatternSet& patterns);
// strata.collective → strata_rt_collective (issue 18; CollectiveToRuntime.cpp).
void populateCollectiveToRuntimePatterns(RewritePatternSet& patterns);
// strata.host_callback → strata_rt_host_callback (HostCallbackToRuntime.cpp).
void populateHostCallbackToRuntimePatterns(RewritePatternSet& patterns);
// strata.convolution of a float type → strata_rt_conv, ahead of the linalg lowering (issue 13;
// ConvolutionToRuntime.cpp; added by --strata-to-linalg with runtime-convolution).
void populateConvolutionToRuntimePatterns(RewritePatternSet& patterns);

// A body of scalar ops (ScalarOpInterface, 0-d constants; a reduce, window or select body)
// evaluated on compute-type `args`, one per block argument: the values it yields, in the compute
// type (bf16/f16 intermediates rounded to their type, as StableHLO computes them). Float
// add/multiply may be reassociated (reduction bodies, so that LLVM vectorises them).
SmallVector<Value> emitScalarBody(OpBuilder& b, Location loc, Block& body, ValueRange args);

// Unsigned integer types → signless, their signedness recorded on the ops that need it
// (EraseSignedness.cpp; run by --strata-to-linalg first).
LogicalResult eraseSignedness(ModuleOp module);

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
// The loop nest of a reduction of an operand of `shape` over `dims`, shared by strata.reduce's
// lowering and input fusions. The innermost loop runs along the operand's innermost (non-unit)
// dimension, so that it reads contiguous memory. Reducing it: kept dimensions outermost, each
// accumulator a sum along a row. Keeping it: reduced dimensions outermost, whole rows of
// accumulators updated per step (as the eager kernel's leading-axis case).
struct ReductionLoops {
  llvm::SmallVector<int64_t> position;   // the loop of each operand dimension
  llvm::SmallVector<int64_t> ranges;     // each loop's trip count
  llvm::SmallVector<int64_t> keptShape;  // the accumulators' shape
  AffineMap inMap, outMap;               // the operand's and the accumulators' indexing
  llvm::SmallVector<utils::IteratorType> iterators;
};
ReductionLoops reductionLoops(MLIRContext* ctx, llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> dims);

// `value` with the same elements under `shape` (collapse/expand, views once bufferized).
Value reshapeTensor(OpBuilder& b, Location loc, Value value, llvm::ArrayRef<int64_t> shape);

// ---- Convolution and pooling (issue 13) ----
// strata.convolution (im2col + GEMM) and strata.reverse (ConvolutionToLinalg.cpp; part of
// populateStrataToLinalgPatterns).
void populateConvolutionToLinalgPatterns(RewritePatternSet& patterns);
// The contraction of tensors `lhs` (batch dims lb, contracting lc) and `rhs` (rb, rc) as
// linalg.batch_matmul: the [B, M, N] tensor of the products in type `acc`, as dot_general's.
Value emitBatchMatmulTensors(OpBuilder& b, Location loc, Value lhs, llvm::ArrayRef<int64_t> lb,
                             llvm::ArrayRef<int64_t> lc, Value rhs, llvm::ArrayRef<int64_t> rb,
                             llvm::ArrayRef<int64_t> rc, Type acc);

// ---- Window reductions (issue 13) ----
// strata.reduce_window (a linalg.generic over result and window) and strata.select_and_scatter
// (an scf.for nest) (WindowToLinalg.cpp; part of populateStrataToLinalgPatterns).
void populateWindowLoweringPatterns(RewritePatternSet& patterns);

}  // namespace mlir::strata
