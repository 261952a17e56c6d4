// --strata-gpu-merge-kernels: one gpu.module (one cubin) for all of a program's kernels; see
// Passes.td.
#include <vector>

#include "lowering/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"

namespace mlir::strata {

#define GEN_PASS_DEF_GPUMERGEKERNELSPASS
#include "lowering/Passes.h.inc"

namespace {

struct GpuMergeKernelsPass : impl::GpuMergeKernelsPassBase<GpuMergeKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::vector<gpu::GPUModuleOp> modules(module.getOps<gpu::GPUModuleOp>().begin(),
                                          module.getOps<gpu::GPUModuleOp>().end());
    if (modules.empty()) return;
    for (gpu::GPUModuleOp m : modules) {
      for (Operation& op : m.getBody()->getOperations())
        if (!isa<gpu::GPUFuncOp>(op)) {
          op.emitError("strata-gpu-merge-kernels: a kernel module holds more than kernels");
          return signalPassFailure();
        }
    }
    // The merged module, first in the module; each kernel named after the module it was in.
    OpBuilder b(modules.front());
    auto merged = gpu::GPUModuleOp::create(b, modules.front().getLoc(), "kernels");
    Block* into = merged.getBody();
    llvm::DenseMap<Attribute, SymbolRefAttr> renamed;
    for (gpu::GPUModuleOp m : modules) {
      for (gpu::GPUFuncOp f : llvm::make_early_inc_range(m.getOps<gpu::GPUFuncOp>())) {
        SymbolRefAttr old = SymbolRefAttr::get(m.getNameAttr(), {FlatSymbolRefAttr::get(f.getNameAttr())});
        StringAttr name = m.getNameAttr();
        f->moveBefore(into, into->end());
        f.setName(name);
        renamed[old] = SymbolRefAttr::get(merged.getNameAttr(), {FlatSymbolRefAttr::get(name)});
      }
    }
    WalkResult r = module.walk([&](gpu::LaunchFuncOp launch) {
      auto it = renamed.find(launch.getKernel());
      if (it == renamed.end()) {
        launch.emitError("strata-gpu-merge-kernels: a launch of an unknown kernel");
        return WalkResult::interrupt();
      }
      launch.setKernelAttr(it->second);
      return WalkResult::advance();
    });
    if (r.wasInterrupted()) return signalPassFailure();
    for (gpu::GPUModuleOp m : modules) m.erase();
  }
};

}  // namespace

}  // namespace mlir::strata
