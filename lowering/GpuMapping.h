// lowering/GpuMapping.h — what strata-gpu-map-loops and the kernels it builds itself
// (GpuTransposeTiles.h) share: a loop's mapping onto a GPU processor, the grid's size limit.
#pragma once

#include <cstdint>

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::strata {

// More blocks than a grid should have (CUDA's limit is 2^31 - 1; far fewer fill an H200).
constexpr int64_t kMaxGpuBlocks = int64_t{1} << 24;

// The mapping of a one-dimensional loop onto processor `p` (blocks, threads or sequential).
inline gpu::ParallelLoopDimMappingAttr processorMapping(MLIRContext* ctx, gpu::Processor p) {
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  return gpu::ParallelLoopDimMappingAttr::get(ctx, p, id, id);
}

}  // namespace mlir::strata
