// Parallel loops on the CPU, in two passes on either side of the conversion to LLVM.
//
// --strata-outline-parallel-loops (on loops, before LLVM):
// 1. Each top-level scf.parallel of @main (or serial scf.for around one scf.parallel, as
//    leading-axis reductions are) that runs at least kParallelThreshold iterations (counting
//    its inner loops) is outlined into a private function
//    @main_parallel_N(%lo: index, %hi: index, captured values...) that runs the same loop nest
//    with iterations [lo, hi) of its outermost non-trivial dimension; constants and globals are
//    cloned in, other values become arguments.
// 2. The loop becomes `func.call @main_parallel_N(0, trips, captured...)`, still a correct
//    serial program; the function carries strata.parallel_grain (the smallest chunk worth a
//    thread) and, when no two captured buffers can overlap, strata.noalias_args.
//
// --strata-parallel-launch (on the LLVM dialect):
// 3. For each outlined function F, a trampoline F_task(ctx, lo, hi) loads the captured values
//    from the struct at ctx and calls F(lo, hi, ...); each call of F becomes: store the
//    captured values in a stack struct, then strata_rt_parallel_for(F_task, ctx, n, grain),
//    which splits [0, n) across the thread pool (CpuAbi.h). The aligned pointers of F's buffer
//    arguments get `noalias` when strata.noalias_args says so (LLVM then vectorises without
//    runtime alias checks and keeps reduction accumulators in registers).
// 4. Dot epilogues (RuntimeGemm.cpp): each call of a GEMM wrapper G (strata.gemm_epilogue_of
//    = @E) becomes strata_rt_dot_ep_<t>(the dot's arguments, E_task, ctx), with ctx the captured
//    values and E_task(ctx, m0, m1, n0, n1) calling E on one output block; G is erased.
#include <algorithm>

#include "lowering/CpuAbi.h"
#include "lowering/CpuPasses.h"
#include "lowering/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::strata {

#define GEN_PASS_DEF_OUTLINEPARALLELLOOPSPASS
#include "lowering/Passes.h.inc"

namespace {

namespace abi = ::strata::cpu_abi;

std::optional<int64_t> constant(Value v) { return getConstantIntValue(v); }

// A constant upper bound of `v`: its value, or the smallest constant of an affine.min (the
// size of a partial tile).
std::optional<int64_t> upperBound(Value v) {
  if (auto c = constant(v)) return c;
  auto min = v.getDefiningOp<affine::AffineMinOp>();
  if (!min) return std::nullopt;
  std::optional<int64_t> best;
  for (AffineExpr e : min.getAffineMap().getResults())
    if (auto c = dyn_cast<AffineConstantExpr>(e)) best = best ? std::min(*best, c.getValue()) : c.getValue();
  return best;
}

int64_t tripCount(Value lb, Value ub, Value step) {
  auto l = constant(lb), u = upperBound(ub), s = constant(step);
  if (!l || !u || !s || *s <= 0) return 1;  // unknown: count as one
  return std::max<int64_t>(0, (*u - *l + *s - 1) / *s);
}

// Iterations of the deepest loop nest in `region` (1 when it has no loops).
int64_t iterations(Region& region) {
  int64_t most = 1;
  region.walk<WalkOrder::PreOrder>([&](Operation* op) {
    if (auto f = dyn_cast<scf::ForOp>(op)) {
      most = std::max(most, tripCount(f.getLowerBound(), f.getUpperBound(), f.getStep()) *
                                iterations(f.getRegion()));
      return WalkResult::skip();
    }
    if (auto p = dyn_cast<scf::ParallelOp>(op)) {
      int64_t n = 1;
      for (auto [l, u, s] : llvm::zip(p.getLowerBound(), p.getUpperBound(), p.getStep()))
        n *= tripCount(l, u, s);
      most = std::max(most, n * iterations(p.getRegion()));
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  return most;
}

bool cloneable(Value v) {
  Operation* def = v.getDefiningOp();
  return def && (isa<arith::ConstantOp, memref::GetGlobalOp>(def));
}

struct OutlineParallelLoopsPass : impl::OutlineParallelLoopsPassBase<OutlineParallelLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp main = entryFunction(module);
    if (!main) return;
    SmallVector<Operation*> roots;
    for (Operation& op : main.getBody().front())
      if (isa<scf::ParallelOp, scf::ForOp>(op)) roots.push_back(&op);
    int counter = 0;
    for (Operation* root : roots) outline(module, main, root, counter);
  }

  // The parallel loop to split for `root`: root itself, or the one scf.parallel that makes up
  // the body of a serial loop around it (reductions along a leading axis: for k { parallel n }),
  // whose chunks of n can run the whole k loop independently.
  static scf::ParallelOp splittable(Operation* root, int64_t& outerTrips) {
    outerTrips = 1;
    if (auto p = dyn_cast<scf::ParallelOp>(root)) return p;
    auto f = dyn_cast<scf::ForOp>(root);
    if (!f || !f.getInitArgs().empty()) return {};
    scf::ParallelOp inner;
    for (Operation& op : f.getBody()->without_terminator()) {
      if (auto p = dyn_cast<scf::ParallelOp>(op); p && !inner) inner = p;
      else if (!isa<arith::ConstantOp>(op)) return {};
    }
    if (inner) outerTrips = tripCount(f.getLowerBound(), f.getUpperBound(), f.getStep());
    return inner;
  }

  void outline(ModuleOp module, func::FuncOp main, Operation* root, int& counter) {
    int64_t outerTrips = 1;
    scf::ParallelOp loop = splittable(root, outerTrips);
    if (!loop || !loop.getInitVals().empty()) return;
    size_t rank = loop.getNumLoops();
    SmallVector<int64_t> trips;
    for (size_t d = 0; d < rank; ++d)
      trips.push_back(tripCount(loop.getLowerBound()[d], loop.getUpperBound()[d], loop.getStep()[d]));
    int64_t total = outerTrips;
    for (int64_t t : trips) total *= t;
    total *= iterations(loop.getRegion());
    if (total < minIterations) return;
    size_t p = 0;
    while (p < rank && trips[p] < 2) ++p;
    if (p == rank || !constant(loop.getLowerBound()[p]) || !constant(loop.getUpperBound()[p]) ||
        !constant(loop.getStep()[p]))
      return;
    int64_t perIteration = std::max<int64_t>(1, total / trips[p]);
    int64_t grain = std::max<int64_t>(1, (minIterations / 2 + perIteration - 1) / perIteration);

    // Values the loop nest reads from outside: its bounds and what its bodies use.
    SetVector<Value> used;
    for (Region& r : root->getRegions()) getUsedValuesDefinedAbove(r, used);
    for (Value v : root->getOperands()) used.insert(v);
    // Two allocations that buffer assignment put at one offset (an op writing in place over its
    // input) are one buffer: captured once, so that the function sees one pointer.
    SmallVector<Value> captured, cloned;
    SmallVector<std::pair<Value, Value>> sameAs;
    for (Value v : used) {
      if (cloneable(v)) {
        cloned.push_back(v);
        continue;
      }
      auto earlier = llvm::find_if(captured, [&](Value c) { return sameBuffer(c, v); });
      if (earlier != captured.end()) sameAs.emplace_back(v, *earlier);
      else captured.push_back(v);
    }

    OpBuilder b(module.getContext());
    IRMapping map;
    std::string name = (main.getName() + "_parallel_" + Twine(counter++)).str();
    func::FuncOp fn = createOutlinedFunction(b, main, loop.getLoc(), name, 2, cloned, captured, map);
    fn->setAttr("strata.parallel_grain", b.getI64IntegerAttr(grain));
    Block* entry = &fn.getBody().front();
    for (auto [v, c] : sameAs) map.map(v, map.lookup(c));
    // Chunks are in iterations: [lo, hi) runs lb + lo·step ... min(lb + hi·step, ub).
    Location loc = loop.getLoc();
    Value lb = map.lookupOrDefault(loop.getLowerBound()[p]), ub = map.lookupOrDefault(loop.getUpperBound()[p]);
    Value step = map.lookupOrDefault(loop.getStep()[p]);
    Value first = arith::AddIOp::create(b, loc, lb, arith::MulIOp::create(b, loc, entry->getArgument(0), step));
    Value last = arith::MinSIOp::create(
        b, loc, arith::AddIOp::create(b, loc, lb, arith::MulIOp::create(b, loc, entry->getArgument(1), step)), ub);
    Operation* copy = b.clone(*root, map);
    Operation* split = copy;
    if (!isa<scf::ParallelOp>(copy)) copy->walk([&](scf::ParallelOp p) { split = p; return WalkResult::interrupt(); });
    split->setOperand(p, first);         // lower bound of dim p
    split->setOperand(rank + p, last);   // upper bound of dim p
    func::ReturnOp::create(b, loop.getLoc());

    // `noalias` holds unless two captured buffers may share bytes (two views of one buffer, or
    // two temporaries that buffer assignment placed over each other).
    if (noTwoShareBytes(captured)) {
      fn->setAttr("strata.noalias_args", b.getUnitAttr());
      ++numNoalias;
    }
    ++numOutlined;

    b.setInsertionPoint(root);
    SmallVector<Value> args{arith::ConstantOp::create(b, loc, b.getIndexAttr(0)),
                            arith::ConstantOp::create(b, loc, b.getIndexAttr(trips[p]))};
    args.append(captured.begin(), captured.end());
    func::CallOp::create(b, loop.getLoc(), fn, args);
    root->erase();
  }
};

// ---- On the LLVM dialect --------------------------------------------------------------

// The positions, among F's LLVM arguments, of the aligned pointer of each buffer argument
// (memref → allocated ptr, aligned ptr, offset, sizes, strides; scalars → one argument).
SmallVector<unsigned> alignedPointerPositions(ArrayAttr types) {
  SmallVector<unsigned> r;
  unsigned pos = 0;
  for (Attribute a : types) {
    Type t = cast<TypeAttr>(a).getValue();
    if (auto m = dyn_cast<MemRefType>(t)) {
      r.push_back(pos + 1);
      pos += 3 + 2 * static_cast<unsigned>(m.getRank());
    } else {
      pos += 1;
    }
  }
  return r;
}

LLVM::LLVMFuncOp declareLlvm(ModuleOp module, StringRef name, LLVM::LLVMFunctionType type) {
  if (auto f = module.lookupSymbol<LLVM::LLVMFuncOp>(name)) return f;
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

struct ParallelLaunchPass : PassWrapper<ParallelLaunchPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ParallelLaunchPass)
  StringRef getArgument() const override { return "strata-parallel-launch"; }
  StringRef getDescription() const override {
    return "Launch outlined parallel loops through the runtime's parallel_for (LLVM dialect)";
  }
  void getDependentDialects(DialectRegistry& registry) const override {
    registry.insert<LLVM::LLVMDialect>();
  }
  void runOnOperation() override {
    if (failed(launchGemmEpilogues())) return signalPassFailure();
    ModuleOp module = getOperation();
    SmallVector<LLVM::LLVMFuncOp> bodies;
    module.walk([&](LLVM::LLVMFuncOp f) {
      if (f->hasAttr("strata.parallel_grain")) bodies.push_back(f);
    });
    if (bodies.empty()) return;
    MLIRContext* ctx = &getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    auto voidType = LLVM::LLVMVoidType::get(ctx);
    auto runtime = declareLlvm(module, abi::kParallelFor,
                               LLVM::LLVMFunctionType::get(voidType, {ptr, ptr, i64, i64}));
    for (LLVM::LLVMFuncOp body : bodies) {
      if (body->hasAttr("strata.noalias_args"))
        if (auto types = body->getAttrOfType<ArrayAttr>("strata.arg_types"))
          for (unsigned pos : alignedPointerPositions(types))
            if (pos < body.getNumArguments()) body.setArgAttr(pos, "llvm.noalias", UnitAttr::get(ctx));
      ArrayRef<Type> params = body.getFunctionType().getParams();
      if (params.size() < 2) {
        body.emitError("strata-parallel-launch: expects (lo, hi, ...) arguments");
        return signalPassFailure();
      }
      auto capturedTypes = params.drop_front(2);
      auto structType = LLVM::LLVMStructType::getLiteral(ctx, capturedTypes);
      // The calls to launch: collected before the trampoline adds its own call of the body.
      SmallVector<LLVM::CallOp> calls;
      module.walk([&](LLVM::CallOp call) {
        if (call.getCallee() == body.getName()) calls.push_back(call);
      });
      LLVM::LLVMFuncOp task = makeTask(module, body, structType);
      int64_t grain = body->getAttrOfType<IntegerAttr>("strata.parallel_grain").getInt();
      for (LLVM::CallOp call : calls) {
        OpBuilder b(call);
        Location loc = call.getLoc();
        Value one = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(1));
        Value frame = LLVM::AllocaOp::create(b, loc, ptr, structType, one, 16);
        ValueRange operands = call.getArgOperands();
        for (size_t i = 2; i < operands.size(); ++i) {
          Value slot = LLVM::GEPOp::create(b, loc, ptr, structType, frame,
                                           ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i - 2)});
          LLVM::StoreOp::create(b, loc, operands[i], slot);
        }
        Value fn = LLVM::AddressOfOp::create(b, loc, task);
        Value n = LLVM::SubOp::create(b, loc, operands[1], operands[0]);
        Value g = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(grain));
        LLVM::CallOp::create(b, loc, runtime, ValueRange{fn, frame, n, g});
        call.erase();
      }
    }
  }

  static void markNoalias(LLVM::LLVMFuncOp body) {
    if (!body->hasAttr("strata.noalias_args")) return;
    if (auto types = body->getAttrOfType<ArrayAttr>("strata.arg_types"))
      for (unsigned pos : alignedPointerPositions(types))
        if (pos < body.getNumArguments()) body.setArgAttr(pos, "llvm.noalias", UnitAttr::get(body.getContext()));
  }

  // Step 4: GEMM wrappers → strata_rt_dot_ep_<t>(dot arguments, E_task, ctx).
  LogicalResult launchGemmEpilogues() {
    ModuleOp module = getOperation();
    SmallVector<LLVM::LLVMFuncOp> wrappers;
    module.walk([&](LLVM::LLVMFuncOp f) {
      if (f->hasAttr("strata.gemm_epilogue_of")) wrappers.push_back(f);
    });
    MLIRContext* ctx = &getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    constexpr unsigned kDotArgs = 9;  // flags, B, M, N, K, lhs, rhs, out, workspace
    for (LLVM::LLVMFuncOp wrapper : wrappers) {
      auto epilogueName = wrapper->getAttrOfType<FlatSymbolRefAttr>("strata.gemm_epilogue_of");
      auto runtimeName = wrapper->getAttrOfType<StringAttr>("strata.runtime");
      auto epilogue = module.lookupSymbol<LLVM::LLVMFuncOp>(epilogueName.getValue());
      ArrayRef<Type> params = wrapper.getFunctionType().getParams();
      if (!epilogue || !runtimeName || params.size() < kDotArgs ||
          epilogue.getFunctionType().getNumParams() < 4)
        return wrapper.emitError("strata-parallel-launch: malformed GEMM epilogue wrapper");
      markNoalias(epilogue);
      SmallVector<Type> runtimeParams(params.take_front(kDotArgs));
      runtimeParams.append({ptr, ptr});
      auto runtime = declareLlvm(module, runtimeName.getValue(),
                                 LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), runtimeParams));
      auto structType =
          LLVM::LLVMStructType::getLiteral(ctx, epilogue.getFunctionType().getParams().drop_front(4));
      SmallVector<LLVM::CallOp> calls;
      module.walk([&](LLVM::CallOp call) {
        if (call.getCallee() == wrapper.getName()) calls.push_back(call);
      });
      LLVM::LLVMFuncOp task = makeTask(module, epilogue, structType, 4);
      for (LLVM::CallOp call : calls) {
        OpBuilder b(call);
        Location loc = call.getLoc();
        ValueRange operands = call.getArgOperands();
        Value frame = storeFrame(b, loc, structType, operands.drop_front(kDotArgs));
        SmallVector<Value> args(operands.take_front(kDotArgs));
        args.push_back(LLVM::AddressOfOp::create(b, loc, task));
        args.push_back(frame);
        LLVM::CallOp::create(b, loc, runtime, args);
        call.erase();
      }
      wrapper.erase();
    }
    return success();
  }

  // A stack struct holding `values`.
  static Value storeFrame(OpBuilder& b, Location loc, LLVM::LLVMStructType structType, ValueRange values) {
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    Value one = LLVM::ConstantOp::create(b, loc, b.getI64Type(), b.getI64IntegerAttr(1));
    Value frame = LLVM::AllocaOp::create(b, loc, ptr, structType, one, 16);
    for (auto [i, v] : llvm::enumerate(values)) {
      Value slot = LLVM::GEPOp::create(b, loc, ptr, structType, frame,
                                       ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      LLVM::StoreOp::create(b, loc, v, slot);
    }
    return frame;
  }

  // F_task(ctx, bounds...) { F(bounds..., ctx->captured...) } with `bounds` i64 arguments.
  LLVM::LLVMFuncOp makeTask(ModuleOp module, LLVM::LLVMFuncOp body, LLVM::LLVMStructType structType,
                            unsigned bounds = 2) {
    MLIRContext* ctx = module.getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    OpBuilder b(ctx);
    b.setInsertionPointAfter(body);
    Location loc = body.getLoc();
    SmallVector<Type> params{ptr};
    params.append(bounds, i64);
    auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), params);
    auto task = LLVM::LLVMFuncOp::create(b, loc, (body.getName() + "_task").str(), type,
                                         LLVM::Linkage::Internal);
    Block* entry = task.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    SmallVector<Value> args(entry->getArguments().drop_front(1));
    for (auto [i, t] : llvm::enumerate(structType.getBody())) {
      Value slot = LLVM::GEPOp::create(b, loc, ptr, structType, entry->getArgument(0),
                                       ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      args.push_back(LLVM::LoadOp::create(b, loc, t, slot));
    }
    LLVM::CallOp::create(b, loc, body, args);
    LLVM::ReturnOp::create(b, loc, ValueRange{});
    return task;
  }
};

}  // namespace

func::FuncOp createOutlinedFunction(OpBuilder& b, func::FuncOp main, Location loc, StringRef name, unsigned leading,
                                    ArrayRef<Value> cloned, ArrayRef<Value> captured, IRMapping& map) {
  SmallVector<Type> argTypes(leading, b.getIndexType());
  for (Value v : captured) argTypes.push_back(v.getType());
  b.setInsertionPointAfter(main);
  auto fn = func::FuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  fn.setPrivate();
  SmallVector<Attribute> typeAttrs;
  for (Type t : argTypes) typeAttrs.push_back(TypeAttr::get(t));
  fn->setAttr("strata.arg_types", b.getArrayAttr(typeAttrs));
  Block* entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  for (Value v : cloned) map.map(v, b.clone(*v.getDefiningOp())->getResult(0));
  for (auto [i, v] : llvm::enumerate(captured)) map.map(v, entry->getArgument(leading + static_cast<unsigned>(i)));
  return fn;
}

std::unique_ptr<Pass> createParallelLaunchPass() { return std::make_unique<ParallelLaunchPass>(); }

}  // namespace mlir::strata
