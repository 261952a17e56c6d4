// lowering/GpuWideAccesses.h — wide (vector) loads and stores for the GPU's elementwise loops.
#pragma once

#include <cstdint>

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::strata {

// Makes each iteration of an elementwise parallel loop handle `lanes` consecutive elements of
// its innermost dimension, so a GPU thread moves them with one 8- or 16-byte access: the
// innermost step becomes `lanes`, each load or store indexed by the innermost induction
// variable in its last place (a contiguous run) becomes one vector.load / vector.store of
// `lanes` elements, and the computation between them is repeated per lane (scalar: the GPU
// has no wide arithmetic). Whether every such buffer is aligned is known only at run time,
// so the iteration tests its pointers and otherwise runs the same lanes with scalar accesses.
//
// Applies when the loop has static bounds from 0 with step 1, an innermost extent divisible
// by `lanes`, a body of loads, stores and pure operations without regions, and no load or
// store indexed by the innermost variable other than in its last place (a gather or a
// transpose); returns the new loop, or null (and changes nothing) otherwise.
scf::ParallelOp widenAccesses(scf::ParallelOp loop, int64_t lanes);

}  // namespace mlir::strata
