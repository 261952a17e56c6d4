// --strata-runtime-gemm: linalg.batch_matmul on buffers → a call of the runtime GEMM
// (strata_rt_dot_<t>, CpuAbi.h), as XLA:CPU calls Eigen rather than generating GEMM loops.
//
// 1. The operands' layouts come from the op's indexing maps: lhs (b, m, k) or (b, k, m), rhs
//    (b, k, n) or (b, n, k); either transposition is a flag, not a copy.
// 2. An operand or result buffer with a non-identity layout (a strided view) goes through a
//    contiguous temporary (memref.alloc, later placed in the scratch arena) — except an operand
//    whose elements are packed row-major at an offset (a step's slice of a stacked array),
//    which is read in place from its address plus the offset.
// 3. The zeroing of the result that the tensor-level lowering put before the matmul (a zero
//    fill, or a copy of a zero-filled buffer that CSE shared) is erased unless something else
//    reads it: the runtime writes C = A·B rather than accumulating. Without such a zeroing the
//    op is left alone (it then lowers to loops, correct but slow).
// 4. Dot epilogues: when the matmul (f32/f64, one batch, writing its buffer directly) is
//    followed by the in-place linalg.generic an output fusion made (strata.epilogue), that
//    generic is outlined into @main_epilogue_N(m0, m1, n0, n1, buffers...), which runs it on the
//    block [m0, m1) × [n0, n1) of the output (subviews of each operand), and the GEMM goes
//    through @main_gemm_N(dot arguments..., buffers...): as written, the GEMM call then the
//    epilogue on the whole output (a correct serial program); --strata-parallel-launch turns it
//    into one strata_rt_dot_ep_<t> call that runs the epilogue on each block as soon as the
//    GEMM has written it (CpuAbi.h).
// REQUIRES: bufferized; static shapes.
#include "dialect/ElementTypes.h"
#include "lowering/CpuAbi.h"
#include "lowering/RuntimeDecl.h"
#include "lowering/BufferAliasing.h"
#include "lowering/LibraryEpilogue.h"
#include "lowering/OutlinedFunction.h"
#include "lowering/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::strata {

#define GEN_PASS_DEF_RUNTIMEGEMMPASS
#include "lowering/Passes.h.inc"

namespace {

const char* typeSuffix(Type t) {
  if (t.isF32()) return "f32";
  if (t.isF64()) return "f64";
  if (t.isBF16()) return "bf16";
  if (t.isF16()) return "f16";
  if (isa<Float8E4M3FNType>(t)) return "f8e4m3fn";  // widened to f32 by the runtime, as bf16
  if (isa<Float8E5M2Type>(t)) return "f8e5m2";
  if (isa<Float8E4M3FNUZType>(t)) return "f8e4m3fnuz";
  if (isa<Float8E5M2FNUZType>(t)) return "f8e5m2fnuz";
  if (isa<Float8E4M3B11FNUZType>(t)) return "f8e4m3b11fnuz";
  if (isa<Float8E4M3Type>(t)) return "f8e4m3";
  if (isa<Float8E3M4Type>(t)) return "f8e3m4";
  if (isa<Float8E8M0FNUType>(t)) return "f8e8m0fnu";
  if (isa<Float6E2M3FNType>(t)) return "f6e2m3fn";
  if (isa<Float6E3M2FNType>(t)) return "f6e3m2fn";
  if (isa<Float4E2M1FNType>(t)) return "f4e2m1fn";
  if (t.isInteger(32)) return "i32";
  if (t.isInteger(64)) return "i64";
  if (auto c = dyn_cast<ComplexType>(t)) {  // Eigen's complex GEMM, as the eager kernel's
    if (c.getElementType().isF32()) return "c64";
    if (c.getElementType().isF64()) return "c128";
  }
  return nullptr;
}

// The allocation (or function argument) a view is of.
Value rootOf(Value v) {
  while (Operation* def = v.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view) break;
    v = view.getViewSource();
  }
  return v;
}

// What `op` may do to the memory of `root`: nothing, read it, or write it (conservatively a
// write when unknown).
enum class Touch { kNone, kRead, kWrite };
Touch touches(Operation* op, Value root) {
  if (isMemoryEffectFree(op)) return Touch::kNone;
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface) return Touch::kWrite;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  Touch t = Touch::kNone;
  for (const MemoryEffects::EffectInstance& e : effects) {
    if (isa<MemoryEffects::Allocate, MemoryEffects::Free>(e.getEffect())) continue;
    Value v = e.getValue();
    if (v && rootOf(v) != root) continue;
    if (!v || !isa<MemoryEffects::Read>(e.getEffect())) return Touch::kWrite;
    t = Touch::kRead;
  }
  return t;
}

bool isZero(Value v) {
  if (auto z = v.getDefiningOp<complex::ConstantOp>()) {
    ArrayAttr parts = z.getValue();
    return llvm::all_of(parts, [](Attribute a) {
      auto f = dyn_cast<FloatAttr>(a);
      return f && f.getValue().isZero();
    });
  }
  auto c = v.getDefiningOp<arith::ConstantOp>();
  if (!c) return false;
  Attribute a = c.getValue();
  if (auto f = dyn_cast<FloatAttr>(a)) return f.getValue().isZero();
  if (auto i = dyn_cast<IntegerAttr>(a)) return i.getValue().isZero();
  return false;
}

// How `out` was set to zero before `op`: a zero fill of it, or a copy into it of a buffer
// that was zero-filled (bufferization copies a zero tensor that CSE shared between several
// GEMMs). Ops on other buffers may sit in between, and reads of out's memory too — then the
// initialisation must stay for those readers (`erasable` is false); a write ends the search.
struct ZeroInit {
  Operation* op = nullptr;
  bool erasable = false;
};
// Whether `o` (an op without regions) may write the memory of `root`: as touches() says, but a
// call writes only what it is handed (a view of root, or its address: the runtime functions
// reach memory through their arguments), and an address of root stored to memory escapes.
bool mayWrite(Operation* o, Value root) {
  auto derived = [&](Value v) {
    if (isa<MemRefType>(v.getType())) return rootOf(v) == root;
    auto p = v.getDefiningOp<memref::ExtractAlignedPointerAsIndexOp>();
    return p && rootOf(p.getSource()) == root;
  };
  if (isa<func::CallOp>(o)) return llvm::any_of(o->getOperands(), derived);
  if (auto store = dyn_cast<memref::StoreOp>(o); store && derived(store.getValueToStore())) return true;
  return touches(o, root) == Touch::kWrite;
}

ZeroInit findZeroInit(Operation* op, Value out) {
  Value root = rootOf(out);
  bool read = false;
  for (Operation* prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev); fill && fill.getDpsInits()[0] == out)
      return isZero(fill.getDpsInputs()[0]) ? ZeroInit{fill, !read} : ZeroInit{};
    if (auto copy = dyn_cast<memref::CopyOp>(prev); copy && copy.getTarget() == out) {
      if (!findZeroInit(copy, copy.getSource()).op) return {};
      return ZeroInit{copy, !read};
    }
    Touch t = touches(prev, root);
    if (t == Touch::kWrite) return {};
    read = read || t == Touch::kRead;
  }
  // At the start of a loop body: a buffer made outside the loop that nothing in the loop writes
  // holds what it held before the loop (loop-invariant code motion hoists the zero fill of a
  // GEMM's shared zero buffer out of a scan's body). Its zeroing stays: the loop reads it.
  Operation* loop = op->getParentOp();
  if (!loop || isa<func::FuncOp>(loop)) return {};
  Operation* made = root.getDefiningOp() ? root.getDefiningOp() : root.getParentRegion()->getParentOp();
  if (loop->isAncestor(made)) return {};
  bool written = loop->walk([&](Operation* o) {
                       return o->getNumRegions() == 0 && mayWrite(o, root) ? WalkResult::interrupt() : WalkResult::advance();
                     }).wasInterrupted();
  if (written) return {};
  ZeroInit outside = findZeroInit(loop, out);
  return outside.op ? ZeroInit{outside.op, false} : ZeroInit{};
}

bool contiguous(Value v) { return cast<MemRefType>(v.getType()).getLayout().isIdentity(); }

// A view whose elements lie row-major and packed, at some offset (step i of a stacked array, a
// scan's residual or xs): the GEMM reads it in place, from its address plus the offset.
bool dense(Value v) {
  auto t = cast<MemRefType>(v.getType());
  if (t.getLayout().isIdentity()) return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(t.getStridesAndOffset(strides, offset))) return false;
  int64_t expect = 1;
  for (int64_t i = t.getRank() - 1; i >= 0; --i) {
    if (t.getDimSize(i) != 1 && strides[i] != expect) return false;
    expect *= t.getDimSize(i);
  }
  return true;
}

// The address of a dense view's first element (an index).
Value addressOf(OpBuilder& b, Location loc, Value m) {
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, m);
  auto t = cast<MemRefType>(m.getType());
  if (t.getLayout().isIdentity()) return base;
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, m);
  Value bytes = arith::ConstantOp::create(b, loc, b.getIndexAttr(storageBits(t.getElementType()) / 8));
  return arith::AddIOp::create(b, loc, base, arith::MulIOp::create(b, loc, meta.getOffset(), bytes));
}

// A contiguous buffer of `v`'s shape; copies v into it when `copyIn`.
Value contiguousTemp(OpBuilder& b, Location loc, Value v, bool copyIn) {
  auto type = cast<MemRefType>(v.getType());
  auto flat = MemRefType::get(type.getShape(), type.getElementType());
  Value temp = memref::AllocOp::create(b, loc, flat, b.getI64IntegerAttr(64));
  if (copyIn) memref::CopyOp::create(b, loc, v, temp);
  return temp;
}

// The strata.epilogue generic that follows `op` (past side-effect-free ops) and updates `out`
// in place, or null.
linalg::GenericOp findEpilogue(Operation* op, Value out) {
  for (Operation* next = op->getNextNode(); next; next = next->getNextNode()) {
    if (auto g = dyn_cast<linalg::GenericOp>(next)) {
      if (g->hasAttr("strata.epilogue") && g.hasPureBufferSemantics() && g.getNumDpsInits() == 1 &&
          g.getDpsInits()[0] == out && g.getNumLoops() == 3 && g.getNumParallelLoops() == 3)
        return g;
      return {};
    }
    if (!isMemoryEffectFree(next)) return {};
  }
  return {};
}

// With bf16/f16 operands the product is accumulated in an f32 buffer `out` that one generic
// then rounds into a buffer of the operands' type (StrataToLinalg's dot_general). That generic,
// when `out` is read by nothing else, so that a library GEMM (f32 accumulation, one rounding
// on output) can write the rounded buffer itself; null otherwise. With `libraryEpilogues`, the
// generic may also apply an epilogue the library applies (kLibraryEpilogueAttr: it reads the
// bias as a second input, indexed by n).
// The call then goes where that generic is, so nothing in between may write the operands.
linalg::GenericOp findRounding(Operation* op, Value out, Type element, Value lhs, Value rhs, bool libraryEpilogues) {
  auto alloc = out.getDefiningOp<memref::AllocOp>();
  if (!alloc) return {};
  linalg::GenericOp g;
  for (Operation* next = op->getNextNode(); next && !g; next = next->getNextNode()) {
    auto r = dyn_cast<linalg::GenericOp>(next);
    if (r && r.getNumDpsInputs() >= 1 && r.getDpsInputs()[0] == out) {
      g = r;
      break;
    }
    if (touches(next, out) != Touch::kNone || touches(next, rootOf(lhs)) == Touch::kWrite ||
        touches(next, rootOf(rhs)) == Touch::kWrite)
      return {};
  }
  if (!g || g.getNumDpsInits() != 1 || !g.hasPureBufferSemantics() || g.getNumParallelLoops() != g.getNumLoops())
    return {};
  bool withEpilogue = g->hasAttr(kLibraryEpilogueAttr);
  if (withEpilogue && (!libraryEpilogues || g.getNumDpsInputs() > 2)) return {};
  if (!withEpilogue && g.getNumDpsInputs() != 1) return {};
  MLIRContext* ctx = g.getContext();
  AffineMap byColumn = AffineMap::get(3, 0, {getAffineDimExpr(2, ctx)}, ctx);
  for (auto [i, m] : llvm::enumerate(g.getIndexingMapsArray()))
    if (!m.isIdentity() && !(withEpilogue && i == 1 && g.getNumDpsInputs() == 2 && m == byColumn)) return {};
  auto rounded = cast<MemRefType>(g.getDpsInits()[0].getType());
  if (rounded.getElementType() != element || rounded.getShape() != cast<MemRefType>(out.getType()).getShape() ||
      !contiguous(g.getDpsInits()[0]))
    return {};
  Block& body = g.getRegion().front();
  if (!body.getArguments().back().use_empty()) return {};  // a pure function of the f32 sum (and bias)
  for (Operation* user : out.getUsers())
    if (user != op && user != g && !isa<linalg::FillOp>(user)) return {};
  return g;
}

// Offsets and sizes of an operand's block under map `m` (over loops b, m, n), or failure for a
// map that is not plain loop indices and zeros.
LogicalResult blockOf(OpBuilder& b, Location loc, AffineMap m, ValueRange bounds,
                      SmallVector<OpFoldResult>& offsets, SmallVector<OpFoldResult>& sizes) {
  // bounds: m0, m1, n0, n1
  for (AffineExpr e : m.getResults()) {
    if (auto c = dyn_cast<AffineConstantExpr>(e); c && c.getValue() == 0) {
      offsets.push_back(b.getIndexAttr(0));
      sizes.push_back(b.getIndexAttr(1));
      continue;
    }
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d) return failure();
    if (d.getPosition() == 0) {
      offsets.push_back(b.getIndexAttr(0));
      sizes.push_back(b.getIndexAttr(1));
    } else {
      Value lo = bounds[d.getPosition() == 1 ? 0 : 2], hi = bounds[d.getPosition() == 1 ? 1 : 3];
      offsets.push_back(lo);
      sizes.push_back(arith::SubIOp::create(b, loc, hi, lo).getResult());
    }
  }
  return success();
}

// Outlines `epilogue` into @F(m0, m1, n0, n1, captured...) and returns F with the captured
// values (null when an operand's map is not a block's).
func::FuncOp outlineEpilogue(ModuleOp module, func::FuncOp main, linalg::GenericOp epilogue,
                             SmallVector<Value>& captured, int counter) {
  for (AffineMap m : epilogue.getIndexingMapsArray())
    for (AffineExpr e : m.getResults()) {
      auto c = dyn_cast<AffineConstantExpr>(e);
      if (!isa<AffineDimExpr>(e) && !(c && c.getValue() == 0)) return {};
    }
  SetVector<Value> used(epilogue->getOperands().begin(), epilogue->getOperands().end());
  getUsedValuesDefinedAbove(epilogue->getRegion(0), used);
  SmallVector<Value> cloned;
  for (Value v : used) {
    Operation* d = v.getDefiningOp();
    (d && isa<arith::ConstantOp>(d) ? cloned : captured).push_back(v);
  }
  OpBuilder b(module.getContext());
  Location loc = epilogue.getLoc();
  IRMapping map;
  func::FuncOp fn = createOutlinedFunction(b, main, loc, (main.getName() + "_epilogue_" + Twine(counter)).str(), 4,
                                           cloned, captured, map);
  fn->setAttr("strata.gemm_epilogue", b.getUnitAttr());
  Block* entry = &fn.getBody().front();
  ValueRange bounds = entry->getArguments().take_front(4);
  for (OpOperand& operand : epilogue->getOpOperands()) {
    SmallVector<OpFoldResult> offsets, sizes;
    if (failed(blockOf(b, loc, epilogue.getMatchingIndexingMap(&operand), bounds, offsets, sizes))) {
      fn.erase();
      return {};
    }
    SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
    Value view = memref::SubViewOp::create(b, loc, map.lookup(operand.get()), offsets, sizes, strides);
    map.map(operand.get(), view);
  }
  Operation* copy = b.clone(*epilogue, map);
  copy->removeAttr("strata.epilogue");
  func::ReturnOp::create(b, loc);
  // `noalias` holds unless two captured buffers may share bytes (views of one buffer, or
  // temporaries placed over each other; the output, read and written in place, is one).
  if (noTwoShareBytes(captured)) fn->setAttr("strata.noalias_args", b.getUnitAttr());
  return fn;
}

// @G(dot arguments..., captured...): the GEMM, then the epilogue over the whole output.
func::FuncOp gemmWithEpilogue(ModuleOp module, func::FuncOp main, func::FuncOp runtime, func::FuncOp epilogue,
                              StringRef suffix, int64_t M, int64_t N, int counter) {
  MLIRContext* ctx = module.getContext();
  OpBuilder b(ctx);
  SmallVector<Type> argTypes(runtime.getFunctionType().getInputs());
  ArrayRef<Type> epilogueTypes = epilogue.getFunctionType().getInputs();
  argTypes.append(epilogueTypes.begin() + 4, epilogueTypes.end());
  b.setInsertionPointAfter(main);
  Location loc = epilogue.getLoc();
  auto fn = func::FuncOp::create(b, loc, (main.getName() + "_gemm_" + Twine(counter)).str(),
                                 b.getFunctionType(argTypes, {}));
  fn.setPrivate();
  fn->setAttr("strata.gemm_epilogue_of", FlatSymbolRefAttr::get(epilogue));
  fn->setAttr("strata.runtime", b.getStringAttr(std::string(::strata::cpu_abi::kDotEpiloguePrefix) + suffix.str()));
  Block* entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  size_t n = runtime.getNumArguments();
  func::CallOp::create(b, loc, runtime, entry->getArguments().take_front(n));
  auto c = [&](int64_t v) -> Value { return arith::ConstantOp::create(b, loc, b.getIndexAttr(v)); };
  SmallVector<Value> args{c(0), c(M), c(0), c(N)};
  for (Value v : entry->getArguments().drop_front(n)) args.push_back(v);
  func::CallOp::create(b, loc, epilogue, args);
  func::ReturnOp::create(b, loc);
  return fn;
}

struct GemmOptions {
  bool parallel = true;
  llvm::ArrayRef<std::string> types;  // empty: every type typeSuffix names
  bool halfWorkspace = true;
  bool libraryEpilogues = false;
};

LogicalResult lowerMatmul(linalg::BatchMatmulOp op, ZeroInit init, const GemmOptions& options, int& epilogues) {
  const bool parallel = options.parallel;
  Location loc = op.getLoc();
  ModuleOp module = op->getParentOfType<ModuleOp>();
  if (!op.hasPureBufferSemantics()) return success();
  Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1], out = op.getDpsInits()[0];
  auto lt = cast<MemRefType>(lhs.getType()), ot = cast<MemRefType>(out.getType());
  const char* suffix = typeSuffix(lt.getElementType());
  if (!suffix) return success();
  // A library of fixed types (the cuda target's) computes the product in f32 and writes it in
  // the operands' type, rounding once: bf16/f16 GEMMs take the generic that rounds their f32 sum.
  linalg::GenericOp rounding;
  if (!options.types.empty()) {
    if (!llvm::is_contained(options.types, suffix) ||
        cast<MemRefType>(rhs.getType()).getElementType() != lt.getElementType())
      return success();
    if (ot.getElementType() != lt.getElementType() &&
        !(rounding = findRounding(op, out, lt.getElementType(), lhs, rhs, options.libraryEpilogues)))
      return success();
  }
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
  if (!init.op) return success();

  int64_t B = ot.getDimSize(0), M = ot.getDimSize(1), N = ot.getDimSize(2);
  int64_t K = lhsMK ? lt.getDimSize(2) : lt.getDimSize(1);
  OpBuilder b(rounding ? rounding.getOperation() : op.getOperation());
  if (!dense(lhs)) lhs = contiguousTemp(b, loc, lhs, true);
  if (!dense(rhs)) rhs = contiguousTemp(b, loc, rhs, true);
  Value written = rounding ? rounding.getDpsInits()[0] : out;
  Value result = contiguous(written) ? written : contiguousTemp(b, loc, written, false);
  Type index = b.getIndexType(), i64 = b.getI64Type();
  auto ptr = [&](Value m) -> Value { return memref::ExtractAlignedPointerAsIndexOp::create(b, loc, m); };
  Value workspace;
  Type element = lt.getElementType();
  if ((element.isBF16() || element.isF16() || isFloat8(element)) && options.halfWorkspace) {
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
  SmallVector<Value> args{c(flags), c(B), c(M), c(N), c(K), addressOf(b, loc, lhs), addressOf(b, loc, rhs),
                          ptr(result), workspace};
  std::string name = std::string(::strata::cpu_abi::kDotPrefix) + suffix;
  auto type = FunctionType::get(ctx, {i64, i64, i64, i64, i64, index, index, index, index}, {});
  linalg::GenericOp epilogue = rounding ? linalg::GenericOp() : findEpilogue(op, out);
  if (options.libraryEpilogues) {
    // The library applies + bias, relu and gelu itself (two more arguments: the epilogue and
    // the bias pointer, 0 for none); any other epilogue stays after the call.
    Value bias;
    int64_t kind = epilogue && result == out && K > 0 ? libraryEpilogue(epilogue, bias) : kNoEpilogue;
    if (kind != kNoEpilogue && bias && !contiguous(bias)) kind = kNoEpilogue;
    if (auto attr = rounding ? rounding->getAttrOfType<IntegerAttr>(kLibraryEpilogueAttr) : IntegerAttr()) {
      // A bf16/f16 epilogue that only the library computes (the generic goes): a strided
      // bias is copied.
      kind = attr.getInt();
      if (rounding.getNumDpsInputs() == 2) {
        bias = rounding.getDpsInputs()[1];
        if (!contiguous(bias)) bias = contiguousTemp(b, loc, bias, true);
      }
    }
    if (kind != kNoEpilogue && epilogue) b.setInsertionPoint(epilogue);  // after whatever views the epilogue reads
    args.push_back(c(kind));
    args.push_back(kind != kNoEpilogue && bias ? ptr(bias) : arith::ConstantOp::create(b, loc, b.getIndexAttr(0)).getResult());
    SmallVector<Type> types;
    for (Value v : args) types.push_back(v.getType());
    func::CallOp::create(b, loc, declareRuntime(b, module, name, FunctionType::get(ctx, types, {})), args);
    if (kind != kNoEpilogue && epilogue) epilogue.erase();
  } else {
    func::FuncOp runtime = declareRuntime(b, module, name, type);
    func::FuncOp main = op->getParentOfType<func::FuncOp>();
    SmallVector<Value> captured;
    func::FuncOp outlined;
    if (epilogue && result == out && B == 1 && (element.isF32() || element.isF64()) &&
        ot.getElementType() == element)
      outlined = outlineEpilogue(module, main, epilogue, captured, epilogues);
    if (outlined) {
      func::FuncOp gemm = gemmWithEpilogue(module, main, runtime, outlined, suffix, M, N, epilogues++);
      args.append(captured.begin(), captured.end());
      b.setInsertionPoint(epilogue);  // after whatever views the epilogue reads
      func::CallOp::create(b, loc, gemm, args);
      epilogue.erase();
    } else {
      func::CallOp::create(b, loc, name, TypeRange{}, args);
    }
  }
  if (result != written) memref::CopyOp::create(b, loc, result, written);
  // The runtime GEMM overwrites its output: the zeroing is dead unless something else reads it.
  if (init.erasable || rounding) init.op->erase();
  op.erase();
  if (rounding) {
    rounding.erase();
    if (out.use_empty()) out.getDefiningOp()->erase();
  }
  return success();
}

struct RuntimeGemmPass : impl::RuntimeGemmPassBase<RuntimeGemmPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Every GEMM's zero initialisation is found first: a GEMM already turned into a runtime
    // call (an opaque call) would hide the initialisations of the GEMMs after it.
    SmallVector<std::pair<linalg::BatchMatmulOp, ZeroInit>> ops;
    module.walk([&](linalg::BatchMatmulOp op) {
      ops.push_back({op, op.hasPureBufferSemantics() ? findZeroInit(op, op.getDpsInits()[0]) : ZeroInit{}});
    });
    int epilogues = 0;
    for (auto [op, init] : ops)
      if (failed(lowerMatmul(op, init, GemmOptions{parallel, types, halfWorkspace, libraryEpilogues}, epilogues)))
        return signalPassFailure();
    int64_t left = 0;
    module.walk([&](linalg::BatchMatmulOp) { ++left; });
    numGemms += static_cast<int64_t>(ops.size()) - left;
    numEpilogues += epilogues;
  }
};

}  // namespace
}  // namespace mlir::strata
