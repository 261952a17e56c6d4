// --strata-runtime-gemm: linalg.batch_matmul on buffers → a call of the runtime GEMM
// (strata_rt_dot_<t>, CpuAbi.h), as XLA:CPU calls Eigen rather than generating GEMM loops.
//
// 1. The operands' layouts come from the op's indexing maps: lhs (b, m, k) or (b, k, m), rhs
//    (b, k, n) or (b, n, k); either transposition is a flag, not a copy.
// 2. An operand or result buffer with a non-identity layout (a strided view) goes through a
//    contiguous temporary (memref.alloc, later placed in the scratch arena).
// 3. The zero fill of the result that the tensor-level lowering put before the matmul is
//    erased: the runtime writes C = A·B rather than accumulating. Without such a fill the op is
//    left alone (it then lowers to loops, correct but slow).
// REQUIRES: bufferized; static shapes.
#include "lowering/CpuPasses.h"

#include "lowering/CpuAbi.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace mlir::strata {
namespace {

const char* typeSuffix(Type t) {
  if (t.isF32()) return "f32";
  if (t.isF64()) return "f64";
  if (t.isBF16()) return "bf16";
  if (t.isF16()) return "f16";
  if (t.isInteger(32)) return "i32";
  if (t.isInteger(64)) return "i64";
  return nullptr;
}

// The zero linalg.fill of `out` just before `op` (skipping side-effect-free ops), or null.
linalg::FillOp findZeroFill(Operation* op, Value out) {
  for (Operation* prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev)) {
      if (fill.getDpsInits()[0] != out) return {};
      auto c = fill.getDpsInputs()[0].getDefiningOp<arith::ConstantOp>();
      if (!c) return {};
      Attribute v = c.getValue();
      if (auto f = dyn_cast<FloatAttr>(v); f && f.getValue().isZero()) return fill;
      if (auto i = dyn_cast<IntegerAttr>(v); i && i.getValue().isZero()) return fill;
      return {};
    }
    if (!isMemoryEffectFree(prev)) return {};
  }
  return {};
}

bool contiguous(Value v) { return cast<MemRefType>(v.getType()).getLayout().isIdentity(); }

// A contiguous buffer of `v`'s shape; copies v into it when `copyIn`.
Value contiguousTemp(OpBuilder& b, Location loc, Value v, bool copyIn) {
  auto type = cast<MemRefType>(v.getType());
  auto flat = MemRefType::get(type.getShape(), type.getElementType());
  Value temp = memref::AllocOp::create(b, loc, flat, b.getI64IntegerAttr(64));
  if (copyIn) memref::CopyOp::create(b, loc, v, temp);
  return temp;
}

func::FuncOp declareRuntime(ModuleOp module, StringRef name, FunctionType type) {
  if (auto f = module.lookupSymbol<func::FuncOp>(name)) return f;
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointToStart(module.getBody());
  auto f = func::FuncOp::create(b, module.getLoc(), name, type);
  f.setPrivate();
  return f;
}

LogicalResult lowerMatmul(linalg::BatchMatmulOp op, bool parallel) {
  Location loc = op.getLoc();
  ModuleOp module = op->getParentOfType<ModuleOp>();
  if (!op.hasPureBufferSemantics()) return success();
  Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1], out = op.getDpsInits()[0];
  auto lt = cast<MemRefType>(lhs.getType()), ot = cast<MemRefType>(out.getType());
  const char* suffix = typeSuffix(lt.getElementType());
  if (!suffix) return success();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  MLIRContext* ctx = op.getContext();
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  // Loop dims: d0 = b, d1 = m, d2 = n, d3 = k.
  bool lhsKM = maps[0] == AffineMap::get(4, 0, {d(0), d(3), d(1)}, ctx);
  bool lhsMK = maps[0] == AffineMap::get(4, 0, {d(0), d(1), d(3)}, ctx);
  bool rhsKN = maps[1] == AffineMap::get(4, 0, {d(0), d(3), d(2)}, ctx);
  bool rhsNK = maps[1] == AffineMap::get(4, 0, {d(0), d(2), d(3)}, ctx);
  bool outMN = maps[2] == AffineMap::get(4, 0, {d(0), d(1), d(2)}, ctx);
  if (!(lhsKM || lhsMK) || !(rhsKN || rhsNK) || !outMN) return success();
  linalg::FillOp fill = findZeroFill(op, out);
  if (!fill) return success();

  int64_t B = ot.getDimSize(0), M = ot.getDimSize(1), N = ot.getDimSize(2);
  int64_t K = lhsMK ? lt.getDimSize(2) : lt.getDimSize(1);
  OpBuilder b(op);
  if (!contiguous(lhs)) lhs = contiguousTemp(b, loc, lhs, true);
  if (!contiguous(rhs)) rhs = contiguousTemp(b, loc, rhs, true);
  Value result = contiguous(out) ? out : contiguousTemp(b, loc, out, false);
  Type index = b.getIndexType(), i64 = b.getI64Type();
  auto ptr = [&](Value m) -> Value { return memref::ExtractAlignedPointerAsIndexOp::create(b, loc, m); };
  Value workspace;
  Type element = lt.getElementType();
  if (element.isBF16() || element.isF16()) {
    int64_t bytes = 4 * (B * M * K + B * K * N);
    auto wsType = MemRefType::get({bytes}, b.getI8Type());
    workspace = ptr(memref::AllocOp::create(b, loc, wsType, b.getI64IntegerAttr(64)));
  } else {
    workspace = arith::ConstantOp::create(b, loc, b.getIndexAttr(0));
  }
  int64_t flags = (lhsKM ? ::strata::cpu_abi::kLhsContractFirst : 0) |
                  (rhsNK ? ::strata::cpu_abi::kRhsFreeFirst : 0) |
                  (parallel ? ::strata::cpu_abi::kDotParallel : 0);
  auto c = [&](int64_t v) -> Value { return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v)); };
  SmallVector<Value> args{c(flags), c(B), c(M), c(N), c(K), ptr(lhs), ptr(rhs), ptr(result), workspace};
  std::string name = std::string(::strata::cpu_abi::kDotPrefix) + suffix;
  auto type = FunctionType::get(ctx, {i64, i64, i64, i64, i64, index, index, index, index}, {});
  declareRuntime(module, name, type);
  func::CallOp::create(b, loc, name, TypeRange{}, args);
  if (result != out) memref::CopyOp::create(b, loc, result, out);
  fill.erase();
  op.erase();
  return success();
}

struct RuntimeGemmPass : PassWrapper<RuntimeGemmPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RuntimeGemmPass)
  StringRef getArgument() const override { return "strata-runtime-gemm"; }
  StringRef getDescription() const override {
    return "Replace linalg.batch_matmul on buffers by calls of the runtime GEMM";
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool parallel = parallelEnabled(module);
    SmallVector<linalg::BatchMatmulOp> ops;
    module.walk([&](linalg::BatchMatmulOp op) { ops.push_back(op); });
    for (linalg::BatchMatmulOp op : ops)
      if (failed(lowerMatmul(op, parallel))) return signalPassFailure();
  }
};

}  // namespace

std::unique_ptr<Pass> createRuntimeGemmPass() { return std::make_unique<RuntimeGemmPass>(); }

}  // namespace mlir::strata
