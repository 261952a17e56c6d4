// strata.sort → a call of the CPU runtime's sort (part of --strata-to-linalg), as XLA:CPU
// calls a library sort. Each input is copied into a fresh buffer (bufferization.alloc_tensor
// copy → to_buffer) which the runtime sorts in place (its pointer, read with
// extract_aligned_pointer_as_index, goes in a stack array); to_tensor restrict gives the
// results. A comparator recognised as lexicographic over leading keys (SortComparator.h) runs
// the runtime's key sort (radix for one key); any other is compiled into a function
// `<fn>_sort_less_N(ctx, lhs, rhs) -> i8` (its region's ops on scalars loaded from the element
// pointers) that the runtime's merge sort calls (CpuAbi.h).
#include "dialect/ElementTypes.h"
#include "dialect/ScalarOps.h"
#include "lowering/CpuAbi.h"
#include "lowering/RuntimeDecl.h"
#include "lowering/SortComparator.h"
#include "lowering/StrataToLinalg.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::strata {
namespace {

// The comparator as a function of (ctx, lhs element pointers, rhs element pointers), or null
// after a diagnostic naming the op it cannot compute.
func::FuncOp buildLess(OpBuilder& b, SortOp op, func::FuncOp parent) {
  ModuleOp module = op->getParentOfType<ModuleOp>();
  MLIRContext* ctx = op.getContext();
  Location loc = op.getLoc();
  Block& body = op.getComparator().front();
  Region& region = op.getComparator();
  for (Operation& bodyOp : body.without_terminator()) {
    if (!isa<ScalarOpInterface, ConstantOp>(bodyOp)) {
      emitError(bodyOp.getLoc()) << "strata.sort: cannot lower comparator op '" << bodyOp.getName() << "' to the CPU";
      return {};
    }
    // Values from above: constants (canonicalisation hoists the region's own out of it).
    for (Value v : bodyOp.getOperands())
      if (!region.isAncestor(v.getParentRegion()) && !v.getDefiningOp<ConstantOp>()) {
        emitError(bodyOp.getLoc()) << "strata.sort: the comparator reads a value from outside its region that is not "
                                      "a constant; the CPU lowering cannot pass it";
        return {};
      }
  }
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto type = FunctionType::get(ctx, {ptr, ptr, ptr}, {b.getI8Type()});
  std::string name;
  for (int i = 0;; ++i) {
    name = (parent.getName() + "_sort_less_" + Twine(i)).str();
    if (!module.lookupSymbol(name)) break;
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfter(parent);
  auto fn = func::FuncOp::create(b, loc, name, type);
  fn.setPrivate();
  Block* entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping map;
  auto constant = [&](ConstantOp c) -> Value {
    auto dense = cast<DenseElementsAttr>(c.getValue());
    return toCompute(b, loc, arith::ConstantOp::create(b, loc, cast<TypedAttr>(dense.getSplatValue<Attribute>())));
  };
  size_t n = op.getInputs().size();
  for (size_t i = 0; i < n; ++i) {
    Type element = cast<RankedTensorType>(op.getInputs()[i].getType()).getElementType();
    for (int side = 0; side < 2; ++side) {
      Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, entry->getArgument(1 + side), ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      Value at = LLVM::LoadOp::create(b, loc, ptr, slot);
      // A byte float has no LLVM type: its bits (i8, or i6/i4 in their byte), read as the float.
      bool byte = isFloat8(element);
      Value v = LLVM::LoadOp::create(b, loc, byte ? b.getIntegerType(element.getIntOrFloatBitWidth()) : element, at);
      if (byte) v = arith::BitcastOp::create(b, loc, element, v);
      map.map(body.getArgument(2 * i + side), toCompute(b, loc, v));
    }
  }
  for (Operation& bodyOp : body.without_terminator()) {
    Value r;
    if (auto c = dyn_cast<ConstantOp>(bodyOp)) {
      r = constant(c);
    } else {
      SmallVector<Value> in;
      for (Value v : bodyOp.getOperands()) {
        if (!map.contains(v)) map.map(v, constant(v.getDefiningOp<ConstantOp>()));  // from above
        in.push_back(map.lookup(v));
      }
      r = emitScalar(b, loc, &bodyOp, in);
      if (!r) {
        emitError(bodyOp.getLoc()) << "strata.sort: cannot lower comparator op '" << bodyOp.getName() << "' to the CPU";
        fn.erase();
        return {};
      }
    }
    map.map(bodyOp.getResult(0), r);
  }
  Value pred = map.lookup(body.getTerminator()->getOperand(0));
  func::ReturnOp::create(b, loc, ValueRange{arith::ExtUIOp::create(b, loc, b.getI8Type(), pred)});
  return fn;
}

struct SortLowering : OpConversionPattern<SortOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SortOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    MLIRContext* ctx = getContext();
    ValueRange inputs = adaptor.getInputs();
    auto type = cast<RankedTensorType>(inputs[0].getType());
    ArrayRef<int64_t> shape = type.getShape();
    int64_t dim = op.getSortDimension(), outer = 1, inner = 1, n = shape[dim];
    for (int64_t d = 0; d < dim; ++d) outer *= shape[d];
    for (int64_t d = dim + 1; d < type.getRank(); ++d) inner *= shape[d];
    if (n < 2 || outer * inner == 0) {  // nothing moves
      rw.replaceOp(op, inputs);
      return success();
    }
    std::optional<StandardSort> standard = recognizeComparator(op);
    func::FuncOp parent = op->getParentOfType<func::FuncOp>();
    ModuleOp module = op->getParentOfType<ModuleOp>();
    func::FuncOp less;
    if (!standard && !(less = buildLess(rw, op, parent))) return failure();

    size_t count = inputs.size();
    Type index = rw.getIndexType(), i64 = rw.getI64Type();
    SmallVector<Value> buffers;
    for (Value in : inputs) {
      auto t = cast<RankedTensorType>(in.getType());
      Value copy = bufferization::AllocTensorOp::create(rw, loc, t, ValueRange{}, in);
      buffers.push_back(bufferization::ToBufferOp::create(rw, loc, MemRefType::get(t.getShape(), t.getElementType()), copy));
    }
    auto c = [&](Type t, int64_t v) -> Value { return arith::ConstantOp::create(rw, loc, rw.getIntegerAttr(t, v)); };
    Value ptrs = memref::AllocaOp::create(rw, loc, MemRefType::get({static_cast<int64_t>(count)}, index));
    Value codes = memref::AllocaOp::create(rw, loc, MemRefType::get({static_cast<int64_t>(count)}, i64));
    for (size_t i = 0; i < count; ++i) {
      Value at = c(index, static_cast<int64_t>(i));
      memref::StoreOp::create(rw, loc, memref::ExtractAlignedPointerAsIndexOp::create(rw, loc, buffers[i]), ptrs, at);
      Type element = cast<RankedTensorType>(inputs[i].getType()).getElementType();
      memref::StoreOp::create(rw, loc, c(i64, standard ? standard->codes[i] : sortKeyCode(element)), codes, at);
    }
    int64_t flags = (op.getIsStable() ? ::strata::cpu_abi::kSortStable : 0);
    if (standard)
      flags |= standard->numKeys << 8 | (standard->descending ? ::strata::cpu_abi::kSortDescending : 0) |
               (standard->canonical ? ::strata::cpu_abi::kSortCanonical : 0);
    SmallVector<Value> args{memref::ExtractAlignedPointerAsIndexOp::create(rw, loc, ptrs),
                            memref::ExtractAlignedPointerAsIndexOp::create(rw, loc, codes),
                            c(i64, static_cast<int64_t>(count)), c(i64, outer), c(i64, n), c(i64, inner), c(i64, flags)};
    SmallVector<Type> argTypes{index, index, i64, i64, i64, i64, i64};
    const char* name = ::strata::cpu_abi::kSort;
    if (less) {
      args.push_back(func::ConstantOp::create(rw, loc, less.getFunctionType(), SymbolRefAttr::get(less)));
      argTypes.push_back(less.getFunctionType());
      name = ::strata::cpu_abi::kSortComparator;
    }
    func::FuncOp runtime = declareRuntime(rw, module, name, FunctionType::get(ctx, argTypes, {}));
    func::CallOp::create(rw, loc, runtime, args);
    SmallVector<Value> results;
    for (auto [i, in] : llvm::enumerate(inputs))
      results.push_back(bufferization::ToTensorOp::create(rw, loc, in.getType(), buffers[i], /*restrict=*/true,
                                                          /*writable=*/true));
    rw.replaceOp(op, results);
    return success();
  }
};

}  // namespace

void populateSortToRuntimePatterns(RewritePatternSet& patterns) { patterns.add<SortLowering>(patterns.getContext()); }

}  // namespace mlir::strata
