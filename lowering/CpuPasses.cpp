// The CPU pipeline's small passes and its module-attribute options (CpuPasses.h).
#include "lowering/CpuPasses.h"
#include "transforms/BufferAssignment.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "lowering/StrataToLinalg.h"

namespace mlir::strata {

int64_t moduleIntAttr(ModuleOp module, const char* name, int64_t otherwise) {
  if (auto a = module->getAttrOfType<IntegerAttr>(name)) return a.getInt();
  return otherwise;
}

func::FuncOp entryFunction(ModuleOp module) { return assignmentFunction(module); }

bool parallelEnabled(ModuleOp module) {
  if (auto a = module->getAttrOfType<BoolAttr>("strata.parallel")) return a.getValue();
  return true;
}

int optLevel(ModuleOp module) { return static_cast<int>(moduleIntAttr(module, "strata.opt_level", 3)); }

void setCpuOptions(ModuleOp module, bool parallel, int level, bool fuse, bool assignBuffers) {
  Builder b(module.getContext());
  module->setAttr("strata.parallel", b.getBoolAttr(parallel));
  module->setAttr("strata.fuse", b.getBoolAttr(fuse));
  module->setAttr("strata.assign_buffers", b.getBoolAttr(assignBuffers));
  module->setAttr("strata.opt_level", b.getI64IntegerAttr(level));
}

namespace {

struct MarkReadOnlyInputsPass : PassWrapper<MarkReadOnlyInputsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MarkReadOnlyInputsPass)
  StringRef getArgument() const override { return "strata-mark-readonly-inputs"; }
  StringRef getDescription() const override {
    return "Mark the tensor arguments of public functions as not writable by bufferization";
  }
  void runOnOperation() override {
    Builder b(&getContext());
    getOperation().walk([&](func::FuncOp fn) {
      if (!fn.isPublic() || fn.isExternal()) return;
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        if (isa<TensorType>(fn.getArgument(i).getType()))
          fn.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName, b.getBoolAttr(false));
    });
  }
};

// The root allocation `v` views through reshapes (contiguous views), or null.
memref::AllocOp reshapedAlloc(Value v) {
  while (Operation* def = v.getDefiningOp()) {
    if (auto a = dyn_cast<memref::AllocOp>(def)) return a;
    if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(def)) return {};
    v = def->getOperand(0);
  }
  return {};
}

// `v` (contiguous, static) viewed with the contiguous static type `type` (as many elements).
Value reshapeBuffer(OpBuilder& b, Location loc, Value v, MemRefType type) {
  auto from = cast<MemRefType>(v.getType());
  if (from == type) return v;
  if (type.getRank() == 0)  // every dimension of `v` is 1
    return memref::CollapseShapeOp::create(b, loc, v, ArrayRef<ReassociationIndices>{});
  if (from.getRank() == 0)
    return memref::ExpandShapeOp::create(b, loc, type, v, ArrayRef<ReassociationIndices>{});
  if (from.getRank() != 1) {
    ReassociationIndices all;
    for (int64_t d = 0; d < from.getRank(); ++d) all.push_back(d);
    v = memref::CollapseShapeOp::create(b, loc, v, ArrayRef<ReassociationIndices>{all});
  }
  if (type.getRank() == 1) return v;
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d) all.push_back(d);
  return memref::ExpandShapeOp::create(b, loc, type, v, ArrayRef<ReassociationIndices>{all});
}

struct ForwardOutputsPass : PassWrapper<ForwardOutputsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ForwardOutputsPass)
  StringRef getArgument() const override { return "strata-forward-outputs"; }
  StringRef getDescription() const override {
    return "Compute results that are reshaped before being returned directly in the output buffer";
  }
  void runOnOperation() override {
    func::FuncOp main = entryFunction(getOperation());
    if (!main) return;
    Block& block = main.getBody().front();
    DenseMap<Operation*, int64_t> position;
    int64_t i = 0;
    for (Operation& op : block) position[&op] = i++;
    SmallVector<memref::CopyOp> copies;
    for (Operation& op : block)
      if (auto c = dyn_cast<memref::CopyOp>(op)) copies.push_back(c);
    for (memref::CopyOp copy : copies) {
      auto out = dyn_cast<BlockArgument>(copy.getTarget());
      memref::AllocOp alloc = reshapedAlloc(copy.getSource());
      if (!out || out.getOwner() != &block || !out.hasOneUse() || !alloc || alloc->getBlock() != &block)
        continue;
      auto outType = cast<MemRefType>(out.getType());
      MemRefType allocType = alloc.getType();
      if (!outType.hasStaticShape() || !outType.getLayout().isIdentity() || !allocType.hasStaticShape() ||
          !allocType.getLayout().isIdentity() || outType.getNumElements() != allocType.getNumElements() ||
          outType.getElementType() != allocType.getElementType())
        continue;
      // Nothing may use the buffer (or a view of it) after the copy.
      bool usedAfter = false;
      SmallVector<Value> work{alloc.getResult()};
      while (!work.empty() && !usedAfter) {
        Value v = work.pop_back_val();
        for (Operation* user : v.getUsers()) {
          Operation* top = block.findAncestorOpInBlock(*user);
          if (top && top != copy && position[top] > position[copy]) usedAfter = true;
          if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(user)) work.push_back(user->getResult(0));
        }
      }
      if (usedAfter) continue;
      OpBuilder b(alloc);
      Value view = reshapeBuffer(b, alloc.getLoc(), out, allocType);
      alloc.replaceAllUsesWith(view);
      alloc.erase();
      copy.erase();
    }
  }
};

// A transposing loop nest reads (or writes) one buffer across its rows: each step of the
// innermost loop jumps a whole row, and large transposes thrash the caches. Tiling the two
// dimensions involved by 32 keeps a tile of each buffer in L1.
struct TileTransposesPass : PassWrapper<TileTransposesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TileTransposesPass)
  StringRef getArgument() const override { return "strata-tile-transposes"; }
  StringRef getDescription() const override {
    return "Tile elementwise loop nests that transpose a buffer into 32x32 tiles (parallel loops)";
  }
  void getDependentDialects(DialectRegistry& registry) const override {
    registry.insert<scf::SCFDialect, affine::AffineDialect, memref::MemRefDialect>();
  }
  static constexpr int64_t kTile = 32;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) {
      if (op.hasPureBufferSemantics() && op.getNumLoops() >= 2 &&
          op.getNumParallelLoops() == op.getNumLoops())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : ops) {
      unsigned n = op.getNumLoops(), inner = n - 1;
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      // The loop along which some operand is contiguous, when it is not the innermost one.
      std::optional<unsigned> across;
      for (OpOperand& operand : op->getOpOperands()) {
        AffineMap map = op.getMatchingIndexingMap(&operand);
        if (map.getNumResults() < 2) continue;
        auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
        if (last && last.getPosition() != inner) across = last.getPosition();
      }
      if (!across || ranges[*across] < 2 * kTile || ranges[inner] < 2 * kTile) continue;
      SmallVector<int64_t> sizes(n, 0);
      for (unsigned d = 0; d < n; ++d) sizes[d] = d == *across || d == inner ? kTile : 1;
      rewriter.setInsertionPoint(op);
      auto options = linalg::LinalgTilingOptions().setTileSizes(sizes).setLoopType(
          linalg::LinalgTilingLoopType::ParallelLoops);
      if (succeeded(linalg::tileLinalgOp(rewriter, op, options))) rewriter.eraseOp(op);
    }
  }
};

struct UnshareFillsPass : PassWrapper<UnshareFillsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(UnshareFillsPass)
  StringRef getArgument() const override { return "strata-unshare-fills"; }
  StringRef getDescription() const override {
    return "Clone each linalg.fill on tensors with several uses just before each use";
  }
  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    getOperation().walk([&](linalg::FillOp f) {
      if (f.hasPureTensorSemantics() && !f->getResult(0).hasOneUse() && !f->use_empty()) fills.push_back(f);
    });
    // Each copy just before its user, so that the buffer is live (and filled) only there.
    for (linalg::FillOp f : fills) {
      SmallVector<OpOperand*> uses;
      for (OpOperand& u : f->getResult(0).getUses()) uses.push_back(&u);
      for (OpOperand* u : uses) {
        OpBuilder b(u->getOwner());
        u->set(b.clone(*f)->getResult(0));
      }
      f.erase();
    }
  }
};

struct ExpandStridedCopiesPass : PassWrapper<ExpandStridedCopiesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ExpandStridedCopiesPass)
  StringRef getArgument() const override { return "strata-expand-strided-copies"; }
  StringRef getDescription() const override {
    return "Turn memref.copy between non-contiguous buffers into linalg.copy";
  }
  void getDependentDialects(DialectRegistry& registry) const override {
    registry.insert<linalg::LinalgDialect>();
  }
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp c) {
      auto contiguous = [](Value v) { return cast<MemRefType>(v.getType()).getLayout().isIdentity(); };
      if (!contiguous(c.getSource()) || !contiguous(c.getTarget())) copies.push_back(c);
    });
    for (memref::CopyOp c : copies) {
      OpBuilder b(c);
      linalg::CopyOp::create(b, c.getLoc(), c.getSource(), c.getTarget());
      c.erase();
    }
  }
};

struct MathToLibmCallsPass : PassWrapper<MathToLibmCallsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MathToLibmCallsPass)
  StringRef getArgument() const override { return "strata-math-to-libm"; }
  StringRef getDescription() const override {
    return "Lower f32 math.tanh to Eigen's rational approximation, and math.log1p, math.expm1, math.erf and f64 math.tanh to calls of libm";
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // f32 tanh first becomes Eigen's rational approximation (MLIR's port of it, the same
    // algorithm as the eager kernel): inline arithmetic that LLVM vectorises, 40x faster than a
    // libm call per element. f64 tanh stays a libm call, as it is in Eigen.
    {
      RewritePatternSet patterns(&getContext());
      populatePolynomialApproximateTanhPattern(patterns);
      if (failed(applyPatternsGreedily(module, std::move(patterns)))) return signalPassFailure();
    }
    SmallVector<Operation*> ops;
    module.walk([&](Operation* op) {
      if (isa<math::Log1pOp, math::ExpM1Op, math::TanhOp, math::ErfOp>(op)) ops.push_back(op);
    });
    for (Operation* op : ops) {
      Type t = op->getResult(0).getType();
      if (!t.isF32() && !t.isF64()) {
        op->emitError("strata-math-to-libm: expects f32 or f64, but got ") << t;
        return signalPassFailure();
      }
      std::string name = isa<math::Log1pOp>(op) ? "log1p" : isa<math::ExpM1Op>(op) ? "expm1" : isa<math::ErfOp>(op) ? "erf" : "tanh";
      if (t.isF32()) name += "f";
      if (!module.lookupSymbol(name)) {
        OpBuilder b(module.getBodyRegion());
        b.setInsertionPointToStart(module.getBody());
        auto fn = func::FuncOp::create(b, module.getLoc(), name, b.getFunctionType({t}, {t}));
        fn.setPrivate();
        // Pure: LLVM may hoist, CSE and drop these calls.
        fn->setAttr("llvm.readnone", b.getUnitAttr());
      }
      OpBuilder b(op);
      auto call = func::CallOp::create(b, op->getLoc(), name, TypeRange{t}, op->getOperands());
      op->replaceAllUsesWith(call);
      op->erase();
    }
  }
};

}  // namespace

std::unique_ptr<Pass> createMarkReadOnlyInputsPass() { return std::make_unique<MarkReadOnlyInputsPass>(); }
std::unique_ptr<Pass> createTileTransposesPass() { return std::make_unique<TileTransposesPass>(); }
std::unique_ptr<Pass> createUnshareFillsPass() { return std::make_unique<UnshareFillsPass>(); }
std::unique_ptr<Pass> createForwardOutputsPass() { return std::make_unique<ForwardOutputsPass>(); }
std::unique_ptr<Pass> createExpandStridedCopiesPass() { return std::make_unique<ExpandStridedCopiesPass>(); }
std::unique_ptr<Pass> createMathToLibmCallsPass() { return std::make_unique<MathToLibmCallsPass>(); }

void registerCpuPasses() {
  static bool done = false;
  if (done) return;
  done = true;
  for (auto create : {createStrataToLinalgPass, createMarkReadOnlyInputsPass, createRuntimeGemmPass,
                      createExpandStridedCopiesPass, createFuseParallelLoopsPass, createOutlineParallelLoopsPass, createForwardOutputsPass, createTileTransposesPass, createUnshareFillsPass, createDonateInputsPass,
                      createScratchArenaPass, createMathToLibmCallsPass, createParallelLaunchPass,
                      createCpuEntryPass})
    registerPass(create);
}

}  // namespace mlir::strata
