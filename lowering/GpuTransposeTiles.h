// lowering/GpuTransposeTiles.h — transposes on a GPU through shared memory.
#pragma once

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::strata {

// An elementwise parallel loop over (outer..., i, j) (static bounds from 0, step 1; i and j
// at least 32 long) that reads some operand transposed — `x[..., j, ..., i]`, i last, so
// consecutive threads would read a column — becomes a grid of 32x32 tiles of (i, j), a block
// of 256 threads each: the block reads each transposed operand's tile along i (coalesced) into
// shared memory (a workgroup-space memref.alloca, padded to 33 columns against bank
// conflicts), waits at a barrier, then computes and stores its tile along j (coalesced),
// taking the transposed values from shared memory. Up to two transposed operands; every
// buffer and every index must be defined outside the loop (or be an induction variable), and
// every store indexes j last. Returns the mapped loop of blocks, or null (and changes nothing).
scf::ParallelOp tileTranspose(scf::ParallelOp loop);

}  // namespace mlir::strata
