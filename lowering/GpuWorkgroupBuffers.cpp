// --strata-gpu-workgroup-buffers: a kernel's workgroup-space allocas become its launch's
// workgroup attributions (one buffer in shared memory for the block); the algorithm is in
// Passes.td.
#include "lowering/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {

#define GEN_PASS_DEF_GPUWORKGROUPBUFFERSPASS
#include "lowering/Passes.h.inc"

namespace {

bool inWorkgroupMemory(MemRefType t) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(t.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

struct GpuWorkgroupBuffersPass : impl::GpuWorkgroupBuffersPassBase<GpuWorkgroupBuffersPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaOp> allocas;
    getOperation().walk([&](memref::AllocaOp a) {
      if (inWorkgroupMemory(a.getType())) allocas.push_back(a);
    });
    for (memref::AllocaOp a : allocas) {
      auto launch = a->getParentOfType<gpu::LaunchOp>();
      if (!launch || !a.getType().hasStaticShape()) {
        a.emitError("strata-gpu-workgroup-buffers: a workgroup buffer outside a kernel, or of dynamic size");
        return signalPassFailure();
      }
      BlockArgument buffer = launch.addWorkgroupAttribution(a.getType(), a.getLoc());
      a.getResult().replaceAllUsesWith(buffer);
      a.erase();
      ++numBuffers;
    }
  }
};

}  // namespace
}  // namespace mlir::strata
