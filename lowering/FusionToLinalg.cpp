// strata.fusion → linalg: each region the fusion pass made becomes one loop nest.
//
// Every value of a region is computed at an index map: affine expressions, in the nest's loop
// indices, of the value's own index. The region's results are computed at the identity, and
// each op maps its result's index to its operands': an elementwise op (ScalarOpInterface)
// passes it on, an index map (IndexMapOpInterface: broadcast_in_dim, transpose, slice, a unit
// reshape) composes its operand map with it. Values
// read from outside the region (its inputs, or a previous nest's results) at some map become
// the nest's inputs with that indexing map, each (value, map) once; everything else is scalar
// code in the nest's body (each op's buildScalar, its result rounded to its storage type as
// the eager kernels round). A value needed at two maps is computed twice: the fusion pass only
// lets cheap ops be recomputed.
//
//  - loop region (elementwise ops): one parallel linalg.generic over the results' shape, one
//    output per result;
//  - input region (reductions of one operand shape and dimensions): one generic with the
//    reductions' loop order (StrataToLinalg's: the innermost loop along the operand's innermost
//    dimension) whose outputs are the accumulators (bf16/f16 in f32) and any result of the full
//    operand shape; ops on the reduced values (the reduction's epilogue, results of the kept
//    shape up to size-1 dimensions) form a second, parallel nest over the kept shape (once in
//    loops, --strata-fuse-parallel-loops runs the accumulators' fill, the reduction and this
//    epilogue as one nest per kept index);
//  - output region (a 2-D f32/f64 dot_general and its epilogue): the batch_matmul, then one
//    generic over its [1, M, N] result that reads and writes it in place, marked strata.epilogue,
//    which the runtime-GEMM pass runs on each output block right after the GEMM; a bf16/f16
//    dot whose epilogue the GEMM library applies itself: the f32 product, then one generic
//    computing the epilogue in f32 and rounding once (libraryOutput).
// A region of any other form is inlined (its ops then lower one by one): correct, not fused.
#include "dialect/ScalarOps.h"
#include "dialect/StrataOps.h"
#include "lowering/LibraryEpilogue.h"
#include "lowering/StrataToLinalg.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::strata {
namespace {

using utils::IteratorType;

RankedTensorType tensorOf(Value v) { return cast<RankedTensorType>(v.getType()); }

SmallVector<int64_t> nonUnitSizes(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> r;
  for (int64_t d : shape)
    if (d != 1) r.push_back(d);
  return r;
}

SmallVector<int64_t> nonUnitDims(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> r;
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] != 1) r.push_back(static_cast<int64_t>(d));
  return r;
}

// The map at which `op` reads operand `i` when its result is wanted at `m`, or failure for an
// op this emitter does not compute: an elementwise op passes `m` on; an index map composes its
// operand map with `m`.
FailureOr<AffineMap> operandMap(Operation* op, unsigned i, AffineMap m) {
  if (isa<ScalarOpInterface>(op)) return m;
  if (auto map = dyn_cast<IndexMapOpInterface>(op); map && i == 0)
    if (AffineMap operand = map.getOperandIndexMap()) return operand.compose(m);
  return failure();
}

// A splat constant's value (scalar::splatConstant makes its element), or null.
DenseElementsAttr splatOf(Operation* op) {
  auto c = dyn_cast_or_null<ConstantOp>(op);
  if (!c) return {};
  auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
  if (!dense || !dense.isSplat()) return {};
  return dense;
}

// One loop nest: which (value, map) pairs it reads from outside, and the scalar code for the
// values it computes.
class Nest {
 public:
  // `outer`: how a value from outside the nest is read: its tensor, and how its element (a
  // block argument of the nest) becomes the value's storage scalar.
  struct Outer {
    Value tensor;
    Type storage;  // null: the element is the value itself
  };
  using OuterFn = std::function<std::optional<Outer>(Value)>;

  Nest(unsigned dims, OuterFn outer) : dims_(dims), outer_(std::move(outer)) {}

  // Phase 1: records the leaves `v` at `m` needs; fails on an op it cannot compute.
  LogicalResult plan(Value v, AffineMap m) {
    if (!planned_.insert({v, m}).second) return success();
    if (auto o = outer_(v)) {
      if (!leafIndex_.count({v, m})) {
        leafIndex_[{v, m}] = leaves_.size();
        leaves_.push_back({*o, m});
      }
      return success();
    }
    Operation* op = v.getDefiningOp();
    if (!op) return failure();
    if (splatOf(op)) return success();
    if (isPiecewise(op)) {
      for (Value o : op->getOperands())
        if (failed(planIndexed(o))) return failure();
      return success();
    }
    if (!isa<ScalarOpInterface, IndexMapOpInterface>(op)) return failure();
    for (unsigned i = 0; i < op->getNumOperands(); ++i) {
      FailureOr<AffineMap> om = operandMap(op, i, m);
      if (failed(om) || failed(plan(op->getOperand(i), *om))) return failure();
    }
    return success();
  }

  ArrayRef<std::pair<Outer, AffineMap>> leaves() const { return leaves_; }
  SmallVector<AffineMap> leafMaps() const {
    SmallVector<AffineMap> r;
    for (auto& [o, m] : leaves_) r.push_back(m);
    return r;
  }

  // Phase 2, in the nest's body: `v` at `m` as a storage scalar. `args` are the body's block
  // arguments for the leaves, in order.
  Value scalar(OpBuilder& b, Location l, Value v, AffineMap m, ValueRange args) {
    auto key = std::make_pair(v, m);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    Value r;
    if (auto it = leafIndex_.find(key); it != leafIndex_.end()) {
      r = args[it->second];
      const Outer& o = leaves_[it->second].first;
      if (o.storage && o.storage != r.getType()) r = toStorage(b, l, r, o.storage);
    } else {
      Operation* op = v.getDefiningOp();
      if (DenseElementsAttr splat = splatOf(op)) {
        r = splatConstant(b, l, splat);
      } else if (isPiecewise(op)) {
        SmallVector<Value> loops, idx;
        for (unsigned d = 0; d < dims_; ++d) loops.push_back(linalg::IndexOp::create(b, l, d));
        for (AffineExpr e : m.getResults()) idx.push_back(evaluate(b, l, e, loops));
        r = scalarAt(b, l, v, idx);
      } else {
        SmallVector<Value> in;
        for (unsigned i = 0; i < op->getNumOperands(); ++i)
          in.push_back(scalar(b, l, op->getOperand(i), *operandMap(op, i, m), args));
        if (auto scalarOp = dyn_cast<ScalarOpInterface>(op)) r = emitElement(b, l, scalarOp, in);
        else r = in[0];  // an index map
      }
    }
    memo_[key] = r;
    return r;
  }

  void resetMemo() { memo_.clear(); }

  // Piecewise ops (pad without interior padding, concatenate): each element is one of a few
  // reads chosen by its index, at indices not affine in the loops. Their operands are read at
  // index values ("indexed mode": index maps pass the index on, values from outside the nest
  // are read with tensor.extract at a clamped index, and a select picks the piece), so a
  // stencil written with slices and concatenates is one loop nest.
  static bool isPiecewise(Operation* op) {
    if (auto pad = dyn_cast_or_null<PadOp>(op))
      return llvm::all_of(pad.getInteriorPadding(), [](int64_t x) { return x == 0; });
    return isa_and_nonnull<ConcatenateOp>(op);
  }

  // Whether `v` can be computed at index values (phase 1 of indexed mode): values from outside,
  // splats, and index maps of them (the fusion pass puts nothing else under a piecewise op, so
  // that pieces never multiply: each piece is one read).
  LogicalResult planIndexed(Value v) {
    if (auto o = outer_(v)) return o->tensor ? success() : failure();
    Operation* op = v.getDefiningOp();
    if (!op) return failure();
    if (splatOf(op)) return success();
    auto map = dyn_cast<IndexMapOpInterface>(op);
    if (!map || !map.getOperandIndexMap()) return failure();
    return planIndexed(op->getOperand(0));
  }

  // An affine expression of index values, in arith ops.
  static Value evaluate(OpBuilder& b, Location l, AffineExpr e, ArrayRef<Value> dims) {
    if (auto d = dyn_cast<AffineDimExpr>(e)) return dims[d.getPosition()];
    if (auto c = dyn_cast<AffineConstantExpr>(e)) return arith::ConstantIndexOp::create(b, l, c.getValue());
    auto bin = cast<AffineBinaryOpExpr>(e);
    Value x = evaluate(b, l, bin.getLHS(), dims), y = evaluate(b, l, bin.getRHS(), dims);
    switch (e.getKind()) {
      case AffineExprKind::Add: return arith::AddIOp::create(b, l, x, y);
      case AffineExprKind::Mul: return arith::MulIOp::create(b, l, x, y);
      case AffineExprKind::FloorDiv: return arith::FloorDivSIOp::create(b, l, x, y);
      case AffineExprKind::CeilDiv: return arith::CeilDivSIOp::create(b, l, x, y);
      default: return arith::RemSIOp::create(b, l, x, y);  // Mod of a non-negative index
    }
  }

  // `v`'s element at index values `idx` (phase 2 of indexed mode), as a storage scalar.
  Value scalarAt(OpBuilder& b, Location l, Value v, ArrayRef<Value> idx) {
    auto index = [&](int64_t c) -> Value { return arith::ConstantIndexOp::create(b, l, c); };
    if (auto o = outer_(v)) {
      Value r = tensor::ExtractOp::create(b, l, o->tensor, idx);
      if (o->storage && o->storage != r.getType()) r = toStorage(b, l, r, o->storage);
      return r;
    }
    Operation* op = v.getDefiningOp();
    if (DenseElementsAttr splat = splatOf(op)) return splatConstant(b, l, splat);
    // An index clamped into [0, size): reads that stay in bounds (the select drops them).
    auto clamped = [&](Value i, int64_t size) -> Value {
      return arith::MaxSIOp::create(b, l, arith::MinSIOp::create(b, l, i, index(size - 1)), index(0));
    };
    if (auto pad = dyn_cast<PadOp>(op)) {
      Value padding = scalarAt(b, l, pad.getPaddingValue(), {});
      ArrayRef<int64_t> shape = tensorOf(pad.getOperand()).getShape();
      if (llvm::is_contained(shape, 0)) return padding;
      SmallVector<Value> at;
      Value inside;
      for (size_t d = 0; d < shape.size(); ++d) {
        Value i = arith::SubIOp::create(b, l, idx[d], index(pad.getEdgePaddingLow()[d]));
        at.push_back(clamped(i, shape[d]));
        Value ok = arith::AndIOp::create(b, l, arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, i, index(0)),
                                         arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, i, index(shape[d])));
        inside = inside ? arith::AndIOp::create(b, l, inside, ok).getResult() : ok;
      }
      Value x = scalarAt(b, l, pad.getOperand(), at);
      return inside ? arith::SelectOp::create(b, l, inside, x, padding).getResult() : x;
    }
    if (auto cat = dyn_cast<ConcatenateOp>(op)) {
      size_t d = static_cast<size_t>(cat.getDimension());
      SmallVector<std::pair<Value, int64_t>> pieces;  // operand, offset
      int64_t offset = 0;
      for (Value in : cat.getInputs()) {
        int64_t size = tensorOf(in).getShape()[d];
        if (size > 0) pieces.push_back({in, offset});
        offset += size;
      }
      Value r;
      for (size_t j = pieces.size(); j-- > 0;) {
        SmallVector<Value> at(idx);
        at[d] = clamped(arith::SubIOp::create(b, l, idx[d], index(pieces[j].second)), tensorOf(pieces[j].first).getShape()[d]);
        Value x = scalarAt(b, l, pieces[j].first, at);
        r = !r ? x
               : arith::SelectOp::create(
                     b, l, arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, idx[d], index(pieces[j + 1].second)), x, r)
                     .getResult();
      }
      return r;
    }
    // An index map (planIndexed admits nothing else).
    auto map = cast<IndexMapOpInterface>(op);
    SmallVector<Value> at;
    for (AffineExpr e : map.getOperandIndexMap().getResults()) at.push_back(evaluate(b, l, e, idx));
    return scalarAt(b, l, op->getOperand(0), at);
  }

  // Whether every loop appears as a plain index of some leaf or output map (linalg derives
  // the loop bounds from them).
  bool boundsKnown(ArrayRef<AffineMap> outputs) const {
    SmallVector<bool> seen(dims_, false);
    auto mark = [&](AffineMap m) {
      for (AffineExpr e : m.getResults())
        if (auto d = dyn_cast<AffineDimExpr>(e)) seen[d.getPosition()] = true;
    };
    for (auto& [o, m] : leaves_) mark(m);
    for (AffineMap m : outputs) mark(m);
    return llvm::all_of(seen, [](bool x) { return x; });
  }

 private:
  unsigned dims_;
  OuterFn outer_;
  DenseSet<std::pair<Value, AffineMap>> planned_;
  DenseMap<std::pair<Value, AffineMap>, size_t> leafIndex_;
  SmallVector<std::pair<Outer, AffineMap>> leaves_;
  DenseMap<std::pair<Value, AffineMap>, Value> memo_;
};

SmallVector<IteratorType> parallel(unsigned n) { return SmallVector<IteratorType>(n, IteratorType::parallel); }

class FusionLowering {
 public:
  explicit FusionLowering(FusionOp f) : f_(f), body_(f.getBody().front()), b_(f) {}

  LogicalResult run() {
    for (Operation& op : body_.without_terminator()) {
      if (auto d = dyn_cast<DotGeneralOp>(op)) dots_.push_back(d);
      if (auto r = dyn_cast<ReduceOp>(op)) reduces_.push_back(r);
    }
    results_ = llvm::to_vector(body_.getTerminator()->getOperands());
    for (Value r : results_)  // a region result is computed by the region
      if (isa<BlockArgument>(r) || splatOf(r.getDefiningOp())) return failure();
    if (!dots_.empty()) return dots_.size() == 1 && reduces_.empty() ? output() : failure();
    if (!reduces_.empty()) return input();
    return loop();
  }

 private:
  MLIRContext* ctx() { return f_.getContext(); }
  Location loc() { return f_.getLoc(); }

  // A value from outside the region: its tensor.
  std::optional<Nest::Outer> regionInput(Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v); arg && arg.getOwner() == &body_)
      return Nest::Outer{f_.getInputs()[arg.getArgNumber()], Type()};
    return std::nullopt;
  }

  Value empty(ArrayRef<int64_t> shape, Type element) { return tensor::EmptyOp::create(b_, loc(), shape, element); }

  // The nest's leaf tensors, each cut to the loop range along the dimensions it reads at a
  // plain loop index (linalg derives loop bounds from those): a leaf read through a slice that
  // starts at 0 becomes that slice (a view once bufferized).
  SmallVector<Value> fitLeaves(const Nest& nest, ArrayRef<int64_t> ranges) {
    SmallVector<Value> out;
    for (auto& [o, m] : nest.leaves()) {
      Value t = o.tensor;
      if (!t) {
        out.push_back(t);
        continue;
      }
      ArrayRef<int64_t> shape = tensorOf(t).getShape();
      SmallVector<int64_t> sizes(shape);
      for (auto [i, e] : llvm::enumerate(m.getResults()))
        if (auto d = dyn_cast<AffineDimExpr>(e)) sizes[i] = ranges[d.getPosition()];
      if (ArrayRef<int64_t>(sizes) != shape) {
        SmallVector<OpFoldResult> offsets(sizes.size(), b_.getIndexAttr(0)), strides(sizes.size(), b_.getIndexAttr(1)), sz;
        for (int64_t x : sizes) sz.push_back(b_.getIndexAttr(x));
        auto type = RankedTensorType::get(sizes, tensorOf(t).getElementType());
        t = tensor::ExtractSliceOp::create(b_, loc(), type, t, offsets, sz, strides);
      }
      out.push_back(t);
    }
    return out;
  }

  // ---- Loop regions ----

  LogicalResult loop() {
    ArrayRef<int64_t> shape = tensorOf(results_[0]).getShape();
    for (Value r : results_)
      if (tensorOf(r).getShape() != shape) return failure();
    unsigned n = static_cast<unsigned>(shape.size());
    AffineMap id = AffineMap::getMultiDimIdentityMap(n, ctx());
    Nest nest(n, [&](Value v) { return regionInput(v); });
    for (Value r : results_)
      if (failed(nest.plan(r, id))) return failure();
    SmallVector<Value> inits;
    SmallVector<Type> types;
    SmallVector<AffineMap> maps = nest.leafMaps(), outMaps;
    for (Value r : results_) {
      inits.push_back(empty(shape, tensorOf(r).getElementType()));
      types.push_back(r.getType());
      maps.push_back(id);
      outMaps.push_back(id);
    }
    if (!nest.boundsKnown(outMaps)) return failure();
    size_t leaves = nest.leaves().size();
    auto generic = linalg::GenericOp::create(
        b_, loc(), types, fitLeaves(nest, shape), inits, maps, parallel(n),
        [&](OpBuilder& b, Location l, ValueRange args) {
          SmallVector<Value> yields;
          for (Value r : results_) yields.push_back(nest.scalar(b, l, r, id, args.take_front(leaves)));
          linalg::YieldOp::create(b, l, yields);
        });
    f_->replaceAllUsesWith(generic.getResults());
    f_->erase();
    return success();
  }

  // ---- Input regions ----

  LogicalResult input() {
    ReduceOp first = reduces_.front();
    auto inType = tensorOf(first.getInputs()[0]);
    ArrayRef<int64_t> dims = first.getDimensions();
    for (ReduceOp r : reduces_)
      if (tensorOf(r.getInputs()[0]).getShape() != inType.getShape() || r.getDimensions() != dims) return failure();
    int64_t rank = inType.getRank();
    // The loop order of StrataToLinalg's reduce lowering.
    ReductionLoops loops = reductionLoops(ctx(), inType.getShape(), dims);
    ArrayRef<int64_t> keptShape = loops.keptShape;
    unsigned n = static_cast<unsigned>(rank);
    AffineMap inMap = loops.inMap, outMap = loops.outMap;

    // Which results each nest makes.
    DenseSet<Operation*> afterReduce;  // ops that read a reduction's result
    for (ReduceOp r : reduces_) afterReduce.insert(r);
    for (Operation& op : body_.without_terminator())
      for (Value v : op.getOperands())
        if (afterReduce.contains(v.getDefiningOp())) afterReduce.insert(&op);
    // Results of the operand's shape; of the kept shape, up to size-1 dimensions.
    SmallVector<Value> full, post;
    for (Value r : results_) {
      Operation* d = r.getDefiningOp();
      if (isa<ReduceOp>(d)) continue;
      if (!afterReduce.contains(d) && tensorOf(r).getShape() == inType.getShape()) full.push_back(r);
      else if (afterReduce.contains(d) && nonUnitSizes(tensorOf(r).getShape()) == nonUnitSizes(keptShape)) post.push_back(r);
      else return failure();
    }

    // The reduction nest: accumulators, then the full-shape results.
    Nest nest(n, [&](Value v) { return regionInput(v); });
    for (ReduceOp r : reduces_)
      for (Value in : r.getInputs())
        if (failed(nest.plan(in, inMap))) return failure();
    for (Value v : full)
      if (failed(nest.plan(v, inMap))) return failure();
    // Checks first: nothing is built for a region that falls back to inlining.
    SmallVector<AffineMap> maps = nest.leafMaps(), outMaps;
    for (ReduceOp r : reduces_)
      for (Value init : r.getInitValues()) {
        if (!regionInput(init) && !splatOf(init.getDefiningOp())) return failure();
        outMaps.push_back(outMap);
      }
    for (size_t i = 0; i < full.size(); ++i) outMaps.push_back(inMap);
    if (!nest.boundsKnown(outMaps)) return failure();
    maps.append(outMaps.begin(), outMaps.end());
    SmallVector<Value> inits;
    SmallVector<Type> types;
    for (ReduceOp r : reduces_)
      for (Value init : r.getInitValues()) {
        Value start;
        Type storage = tensorOf(init).getElementType();
        if (auto o = regionInput(init)) start = tensor::ExtractOp::create(b_, loc(), o->tensor, ValueRange{});
        else start = splatConstant(b_, loc(), splatOf(init.getDefiningOp()));
        start = toCompute(b_, loc(), start);
        Value acc = empty(keptShape, computeType(storage));
        inits.push_back(linalg::FillOp::create(b_, loc(), ValueRange{start}, ValueRange{acc}).getResult(0));
        types.push_back(inits.back().getType());
      }
    for (Value v : full) {
      inits.push_back(empty(inType.getShape(), tensorOf(v).getElementType()));
      types.push_back(v.getType());
    }
    size_t leaves = nest.leaves().size();
    auto generic = linalg::GenericOp::create(
        b_, loc(), types, fitLeaves(nest, loops.ranges), inits, maps, loops.iterators,
        [&](OpBuilder& b, Location l, ValueRange args) {
          ValueRange leafArgs = args.take_front(leaves);
          size_t acc = leaves;
          SmallVector<Value> yields;
          for (ReduceOp r : reduces_) {
            Block& rb = r.getBody().front();
            size_t k = r.getInputs().size();
            SmallVector<Value> bodyArgs(args.begin() + acc, args.begin() + acc + k);  // accumulators
            for (size_t i = 0; i < k; ++i)
              bodyArgs.push_back(toCompute(b, l, nest.scalar(b, l, r.getInputs()[i], inMap, leafArgs)));
            llvm::append_range(yields, emitScalarBody(b, l, rb, bodyArgs));
            acc += k;
          }
          for (Value v : full) yields.push_back(nest.scalar(b, l, v, inMap, leafArgs));
          linalg::YieldOp::create(b, l, yields);
        });

    // Each reduction result: its accumulator tensor (compute type).
    DenseMap<Value, Value> accumulator;
    size_t k = 0;
    for (ReduceOp r : reduces_)
      for (Value res : r.getResults()) accumulator[res] = generic.getResult(static_cast<unsigned>(k++));
    DenseMap<Value, Value> replacement;
    for (auto [i, v] : llvm::enumerate(full)) replacement[v] = generic.getResult(static_cast<unsigned>(k + i));
    // Results still to make over the kept shape: ops after the reduction, and reductions
    // whose storage type is not their accumulator's (rounded once).
    SmallVector<Value> tail(post);
    for (Value r : results_)
      if (isa<ReduceOp>(r.getDefiningOp())) {
        Value a = accumulator[r];
        if (a.getType() == r.getType()) replacement[r] = a;
        else tail.push_back(r);
      }
    if (!tail.empty()) {
      unsigned kn = static_cast<unsigned>(keptShape.size());
      AffineMap id = AffineMap::getMultiDimIdentityMap(kn, ctx());
      // A value of the kept shape with size-1 dimensions added or dropped: those are index 0.
      auto at = [&](Value v) {
        ArrayRef<int64_t> shape = tensorOf(v).getShape();
        if (shape == ArrayRef<int64_t>(keptShape)) return id;
        SmallVector<int64_t> vd = nonUnitDims(shape), kd = nonUnitDims(keptShape);
        SmallVector<AffineExpr> exprs(shape.size(), getAffineConstantExpr(0, ctx()));
        for (size_t k = 0; k < vd.size(); ++k) exprs[vd[k]] = getAffineDimExpr(static_cast<unsigned>(kd[k]), ctx());
        return AffineMap::get(kn, 0, exprs, ctx());
      };
      Nest after(kn, [&](Value v) -> std::optional<Nest::Outer> {
        if (auto it = accumulator.find(v); it != accumulator.end())
          return Nest::Outer{it->second, tensorOf(v).getElementType()};
        return regionInput(v);
      });
      for (Value v : tail)
        if (failed(after.plan(v, at(v)))) return failure();
      SmallVector<Value> tailInits;
      SmallVector<Type> tailTypes;
      SmallVector<AffineMap> tailMaps = after.leafMaps(), tailOut;
      for (Value v : tail) {
        tailInits.push_back(empty(keptShape, tensorOf(v).getElementType()));
        tailTypes.push_back(tailInits.back().getType());
        tailMaps.push_back(id);
        tailOut.push_back(id);
      }
      if (!after.boundsKnown(tailOut)) return failure();
      size_t tl = after.leaves().size();
      auto g2 = linalg::GenericOp::create(
          b_, loc(), tailTypes, fitLeaves(after, keptShape), tailInits, tailMaps, parallel(kn),
          [&](OpBuilder& b, Location l, ValueRange args) {
            SmallVector<Value> yields;
            for (Value v : tail) yields.push_back(after.scalar(b, l, v, at(v), args.take_front(tl)));
            linalg::YieldOp::create(b, l, yields);
          });
      for (auto [i, v] : llvm::enumerate(tail))
        replacement[v] = reshapeTensor(b_, loc(), g2.getResult(static_cast<unsigned>(i)), tensorOf(v).getShape());
    }
    SmallVector<Value> values;
    for (Value r : results_) values.push_back(replacement.lookup(r));
    f_->replaceAllUsesWith(values);
    f_->erase();
    return success();
  }

  // ---- Output regions ----

  LogicalResult output() {
    DotGeneralOp dot = dots_.front();
    auto type = dot.getType();
    Type element = type.getElementType();
    if (results_.size() != 1 || type.getRank() != 2 ||
        !dot.getLhsBatchingDimensions().empty() || results_[0].getType() != type || results_[0] == dot.getResult())
      return failure();
    // The product is [1, M, N] with M the lhs's free dimensions and N the rhs's: the result's
    // two dimensions are (M, N) only when each side has one free dimension (a scalar times a
    // [3, 1] matrix is also 2-D, both dimensions from the rhs; found by fuzz_differential).
    auto freeDims = [](Value v, size_t contracted) {
      return cast<RankedTensorType>(v.getType()).getRank() - static_cast<int64_t>(contracted);
    };
    if (freeDims(dot.getLhs(), dot.getLhsContractingDimensions().size()) != 1 ||
        freeDims(dot.getRhs(), dot.getRhsContractingDimensions().size()) != 1)
      return failure();
    auto outer = [&](Value v) -> Value {
      if (auto o = regionInput(v)) return o->tensor;
      return {};
    };
    Value lhs = outer(dot.getLhs()), rhs = outer(dot.getRhs());
    if (!lhs || !rhs) return failure();
    if (computeType(element) != element) return libraryOutput(dot, lhs, rhs);
    // Loops (b, m, n) over the [1, M, N] product; the region's [M, N] values at (m, n).
    AffineMap home = AffineMap::get(3, 0, {getAffineDimExpr(1, ctx()), getAffineDimExpr(2, ctx())}, ctx());
    Value dotValue = dot.getResult();
    Nest nest(3, [&](Value v) -> std::optional<Nest::Outer> {
      if (v == dotValue) return Nest::Outer{Value(), Type()};  // the output itself
      return regionInput(v);
    });
    if (failed(nest.plan(results_[0], home))) return failure();
    // The dot's value is the nest's output element, read at home only.
    SmallVector<AffineMap> maps;
    int dotLeaf = -1;
    for (auto [i, leaf] : llvm::enumerate(nest.leaves())) {
      if (!leaf.first.tensor) {
        if (leaf.second != home || dotLeaf >= 0) return failure();
        dotLeaf = static_cast<int>(i);
        continue;
      }
      maps.push_back(leaf.second);
    }
    if (dotLeaf < 0) return failure();
    SmallVector<Value> tensors;
    for (Value t : fitLeaves(nest, {1, type.getDimSize(0), type.getDimSize(1)}))
      if (t) tensors.push_back(t);
    AffineMap id3 = AffineMap::getMultiDimIdentityMap(3, ctx());
    maps.push_back(id3);
    Value product = emitDotProduct(b_, loc(), dot, lhs, rhs);
    auto generic = linalg::GenericOp::create(
        b_, loc(), TypeRange{product.getType()}, tensors, ValueRange{product}, maps, parallel(3),
        [&](OpBuilder& b, Location l, ValueRange args) {
          // Leaf arguments in the nest's order, the dot's element (the output) in its place.
          SmallVector<Value> leafArgs;
          size_t next = 0;
          for (size_t i = 0; i < nest.leaves().size(); ++i)
            leafArgs.push_back(static_cast<int>(i) == dotLeaf ? args.back() : args[next++]);
          linalg::YieldOp::create(b, l, nest.scalar(b, l, results_[0], home, leafArgs));
        });
    generic->setAttr("strata.epilogue", UnitAttr::get(ctx()));
    Value result = reshapeTensor(b_, loc(), generic.getResult(0), type.getShape());
    f_->replaceAllUsesWith(ValueRange{result});
    f_->erase();
    return success();
  }

  // A bf16/f16 output region (the cuda target's GEMM library accumulates in f32 and rounds
  // once on output): when its epilogue is one the library applies itself (+ bias[n], relu,
  // gelu; LibraryEpilogue.h), it is computed as the library computes it — in f32 from the
  // unrounded product, rounded once — by a generic that reads the f32 product (and the bias)
  // and writes the result, marked with the kind (kLibraryEpilogueAttr); the runtime-GEMM pass
  // hands the kind to the library call. Any other epilogue: failure, so the ops lower one by
  // one, each rounded as eager rounds.
  LogicalResult libraryOutput(DotGeneralOp dot, Value lhs, Value rhs) {
    auto type = dot.getType();
    Type element = type.getElementType(), f32 = computeType(element);
    auto lhsType = cast<RankedTensorType>(dot.getLhs().getType());
    int64_t k = 1;
    for (int64_t d : dot.getLhsContractingDimensions()) k *= lhsType.getDimSize(d);
    if (k == 0) return failure();  // an empty sum: the library is not called
    // Which kind, read off the epilogue built in a scratch block.
    int64_t kind = kNoEpilogue;
    BlockArgument bias;
    {
      Block scratch;
      Value product = scratch.addArgument(f32, loc()), stored = scratch.addArgument(element, loc());
      OpBuilder sb(ctx());  // (a detached block has no context to give a builder)
      sb.setInsertionPointToStart(&scratch);
      DenseMap<Value, Value> memo;
      Value widened;
      if (Value r = epilogueInF32(sb, dot, results_[0], product, stored, bias, widened, memo))
        kind = libraryEpilogueOf(r, product, widened, element.isBF16() ? 0x1p-8 : 0x1p-11);
      scratch.dropAllDefinedValueUses();
    }
    if (kind == kNoEpilogue) return failure();
    MLIRContext* c = ctx();
    AffineMap id3 = AffineMap::getMultiDimIdentityMap(3, c);
    SmallVector<Value> ins{emitDotProduct(b_, loc(), dot, lhs, rhs)};
    SmallVector<AffineMap> maps{id3};
    if (bias) {
      ins.push_back(regionInput(bias)->tensor);
      maps.push_back(AffineMap::get(3, 0, {getAffineDimExpr(2, c)}, c));
    }
    maps.push_back(id3);
    SmallVector<int64_t> shape{1, type.getDimSize(0), type.getDimSize(1)};
    auto generic = linalg::GenericOp::create(
        b_, loc(), TypeRange{RankedTensorType::get(shape, element)}, ins, ValueRange{empty(shape, element)}, maps,
        parallel(3), [&](OpBuilder& b, Location l, ValueRange args) {
          DenseMap<Value, Value> memo;
          BlockArgument unused;
          Value widened;
          Value r = epilogueInF32(b, dot, results_[0], args[0], bias ? args[1] : Value(), unused, widened, memo);
          linalg::YieldOp::create(b, l, toStorage(b, l, r, element));
        });
    generic->setAttr(kLibraryEpilogueAttr, b_.getI64IntegerAttr(kind));
    f_->replaceAllUsesWith(ValueRange{reshapeTensor(b_, loc(), generic.getResult(0), type.getShape())});
    f_->erase();
    return success();
  }

  // Region value `v` of an output region's epilogue in f32, from the f32 `product` (the dot's
  // element) and `stored` (the bias element as stored; `bias` receives the region argument
  // broadcast along the rows that it stands for, `widened` its f32 value); null when the
  // epilogue reads anything else or computes in another type.
  Value epilogueInF32(OpBuilder& b, DotGeneralOp dot, Value v, Value product, Value stored, BlockArgument& bias,
                      Value& widened, DenseMap<Value, Value>& memo) {
    if (v == dot.getResult()) return product;
    if (Value known = memo.lookup(v)) return known;
    Operation* op = v.getDefiningOp();
    Type element = dot.getType().getElementType();
    if (!op || getElementTypeOrSelf(v.getType()) != element) return {};
    Location l = op->getLoc();
    Value r;
    auto bc = dyn_cast<BroadcastInDimOp>(op);
    DenseElementsAttr splat = bc ? splatOf(bc.getOperand().getDefiningOp()) : splatOf(op);  // a constant, maybe broadcast
    if (splat) {
      if (!isa<FloatType>(splat.getElementType())) return {};
      auto f = dyn_cast<FloatAttr>(splat.getSplatValue<Attribute>());
      if (!f) return {};
      r = arith::ConstantOp::create(b, l, b.getF32FloatAttr(static_cast<float>(f.getValueAsDouble())));
    } else if (bc) {  // the bias, broadcast along the rows
      auto arg = dyn_cast<BlockArgument>(bc.getOperand());
      if (!arg || arg.getOwner() != &body_ || tensorOf(arg).getShape() != ArrayRef<int64_t>{tensorOf(v).getDimSize(1)} ||
          bc.getBroadcastDimensions() != ArrayRef<int64_t>{1} || (bias && bias != arg) || !stored)
        return {};
      bias = arg;
      r = widened = toCompute(b, l, stored);
    } else if (isa<ScalarOpInterface>(op)) {
      SmallVector<Value> in;
      for (Value operand : op->getOperands()) {
        if (getElementTypeOrSelf(operand.getType()) != element) return {};
        Value x = epilogueInF32(b, dot, operand, product, stored, bias, widened, memo);
        if (!x) return {};
        in.push_back(x);
      }
      r = emitScalar(b, l, op, in);
    }
    if (r) memo[v] = r;
    return r;
  }

  FusionOp f_;
  Block& body_;
  OpBuilder b_;
  SmallVector<DotGeneralOp> dots_;
  SmallVector<ReduceOp> reduces_;
  SmallVector<Value> results_;
};

}  // namespace

void lowerFusions(ModuleOp module) {
  SmallVector<FusionOp> fusions;
  module.walk([&](FusionOp f) { fusions.push_back(f); });
  for (FusionOp f : fusions) {
    // A fusion inside a body evaluated on scalars (a called function inlined into a reduce or
    // window op's region) is plain scalar code for that op's pattern.
    if (f->getParentOfType<ReduceOp>() || f->getParentOfType<ReduceWindowOp>() ||
        f->getParentOfType<SelectAndScatterOp>()) {
      inlineFusion(f);
      continue;
    }
    // Emitted ops before the region; on failure they are dead and canonicalization drops them.
    if (failed(FusionLowering(f).run())) inlineFusion(f);
  }
}

}  // namespace mlir::strata
