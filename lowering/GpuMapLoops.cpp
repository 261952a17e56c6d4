// --strata-gpu-map-loops: every loop nest of the entry function becomes one GPU kernel's grid;
// the algorithm is in Passes.td.
#include <algorithm>
#include <numeric>
#include <vector>

#include "lowering/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "transforms/EntryFunction.h"

namespace mlir::strata {

#define GEN_PASS_DEF_GPUMAPLOOPSPASS
#include "lowering/Passes.h.inc"

namespace {

// What the host itself runs of a cuda program: constants, views (pointer arithmetic), whole
// buffer copies (a copy step) and the loops handed to the GPU.
bool runsOnHost(Operation* op) {
  return isa<arith::ConstantOp, memref::ViewOp, memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
             memref::ReinterpretCastOp, memref::CastOp, memref::GetGlobalOp, memref::CopyOp, func::ReturnOp,
             scf::ParallelOp, memref::ExtractAlignedPointerAsIndexOp, func::CallOp>(op);
}

gpu::ParallelLoopDimMappingAttr mapping(MLIRContext* ctx, gpu::Processor p) {
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  return gpu::ParallelLoopDimMappingAttr::get(ctx, p, id, id);
}

std::optional<int64_t> constant(Value v) {
  if (auto c = v.getDefiningOp<arith::ConstantIndexOp>()) return c.value();
  return std::nullopt;
}

struct GpuMapLoopsPass : impl::GpuMapLoopsPassBase<GpuMapLoopsPass> {
  using Base::Base;

  // 1. Moves [first, last] (top-level ops of `block`) into `scf.parallel (0) to (1)`.
  LogicalResult serialize(Operation* first, Operation* last) {
    OpBuilder b(first);
    Location loc = first->getLoc();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0), one = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ParallelOp::create(b, loc, ValueRange{zero}, ValueRange{one}, ValueRange{one});
    Block* body = loop.getBody();
    std::vector<Operation*> ops;
    for (Operation* op = first;; op = op->getNextNode()) {
      ops.push_back(op);
      if (op == last) break;
    }
    for (Operation* op : ops) {
      for (Value r : op->getResults())
        for (Operation* user : r.getUsers())
          if (!llvm::any_of(ops, [&](Operation* o) { return o->isAncestor(user); }))
            return op->emitError("strata-gpu-map-loops: a value computed on the device is used by the host");
    }
    for (Operation* op : ops) {
      op->moveBefore(body->getTerminator());
    }
    ++numSerial;
    return success();
  }

  // 2. Collapses, tiles and maps one top-level parallel loop.
  LogicalResult map(scf::ParallelOp loop) {
    MLIRContext* ctx = &getContext();
    IRRewriter rewriter(ctx);
    unsigned n = loop.getNumLoops();
    int64_t trips = 1;
    for (unsigned d = 0; d < n; ++d) {
      std::optional<int64_t> lo = constant(loop.getLowerBound()[d]), hi = constant(loop.getUpperBound()[d]),
                             st = constant(loop.getStep()[d]);
      if (!lo || !hi || !st || *st <= 0)
        return loop.emitError("strata-gpu-map-loops: a parallel loop with dynamic bounds");
      trips *= std::max<int64_t>(0, (*hi - *lo + *st - 1) / *st);
    }
    if (n > 1) {
      std::vector<unsigned> all(n);
      std::iota(all.begin(), all.end(), 0u);
      // The collapsed loop is created just before the original, which is erased.
      Operation* next = loop->getNextNode();
      rewriter.setInsertionPoint(loop);
      collapseParallelLoops(rewriter, loop, {all});
      loop = cast<scf::ParallelOp>(next->getPrevNode());
    }
    int64_t block = std::min<int64_t>(blockSize, std::max<int64_t>(32, (trips + 31) / 32 * 32));
    auto [outer, inner] = scf::tileParallelLoop(loop, {block}, /*noMinMaxBounds=*/true);
    if (failed(gpu::setMappingAttr(outer, {mapping(ctx, gpu::Processor::BlockX)})) ||
        failed(gpu::setMappingAttr(inner, {mapping(ctx, gpu::Processor::ThreadX)})))
      return failure();
    // 3. Nested parallel loops run in their thread.
    inner.getBody()->walk([&](scf::ParallelOp nested) {
      SmallVector<gpu::ParallelLoopDimMappingAttr> seq(nested.getNumLoops(), mapping(ctx, gpu::Processor::Sequential));
      (void)gpu::setMappingAttr(nested, seq);
    });
    ++numKernels;
    return success();
  }

  // 0. A value the host would compute from device memory for a loop (a 0-d input read once,
  //    as pad's padding value): the read, and the pure ops on it, are cloned into each loop
  //    that uses it. Only reads of the function's arguments (inputs are never written).
  void sinkReads(Block& body) {
    llvm::SetVector<Operation*> sinkable;
    for (Operation& op : body) {
      bool ok = false;
      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        Value m = load.getMemref();
        while (Operation* def = m.getDefiningOp()) {
          if (!isa<memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp, memref::CastOp>(def)) break;
          m = def->getOperand(0);
        }
        ok = isa<BlockArgument>(m);
      } else if (isMemoryEffectFree(&op) && op.getNumRegions() == 0 && !isa<arith::ConstantOp>(op) &&
                 op.getNumResults() == 1 && !isa<MemRefType>(op.getResult(0).getType())) {
        ok = llvm::any_of(op.getOperands(), [&](Value v) { return v.getDefiningOp() && sinkable.count(v.getDefiningOp()); });
      }
      if (ok) sinkable.insert(&op);
    }
    for (Operation* op : llvm::reverse(sinkable)) {
      llvm::SetVector<Operation*> loops;
      for (Operation* user : op->getUsers())
        if (auto loop = user->getParentOfType<scf::ParallelOp>()) {
          while (auto outer = loop->getParentOfType<scf::ParallelOp>()) loop = outer;
          loops.insert(loop);
        }
      for (Operation* loop : loops) {
        OpBuilder b(&cast<scf::ParallelOp>(loop).getBody()->front());
        Operation* copy = b.clone(*op);
        op->getResult(0).replaceUsesWithIf(copy->getResult(0),
                                           [&](OpOperand& use) { return loop->isProperAncestor(use.getOwner()); });
      }
      if (op->use_empty()) op->erase();
    }
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp main = entryFunction(module);
    if (!main) {
      module.emitError("strata-gpu-map-loops: expects a function @main (or one public function)");
      return signalPassFailure();
    }
    if (!main.getBody().hasOneBlock()) {
      main.emitError("strata-gpu-map-loops: expects a function of one block");
      return signalPassFailure();
    }
    Block& body = main.getBody().front();
    sinkReads(body);
    // 1. Runs of device work outside parallel loops.
    std::vector<std::pair<Operation*, Operation*>> runs;
    Operation* start = nullptr;
    for (Operation& op : body) {
      bool device = !runsOnHost(&op);
      if (device && !start) start = &op;
      if (!device && start) {
        runs.push_back({start, op.getPrevNode()});
        start = nullptr;
      }
    }
    for (auto [first, last] : runs)
      if (failed(serialize(first, last))) return signalPassFailure();
    // 2. Every top-level parallel loop.
    std::vector<scf::ParallelOp> loops;
    for (Operation& op : body)
      if (auto p = dyn_cast<scf::ParallelOp>(op)) loops.push_back(p);
    for (scf::ParallelOp p : loops)
      if (failed(map(p))) return signalPassFailure();
  }
};

}  // namespace

}  // namespace mlir::strata
