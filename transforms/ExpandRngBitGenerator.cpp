// --strata-expand-rng-bit-generator (Passes.td) and expandRngBitGenerators
// (ExpandRngBitGenerator.h): strata.rng_bit_generator → strata ops, as XLA expands it
// (RngBitGeneratorExpander and the bit generators of xla/hlo/builder/lib/prng.cc), so the bits
// equal JAX's on CPU and GPU. The eager kernel (tracer/primitives/rng_bit_generator.cpp) is the
// same arithmetic.
//
// THREE_FRY: key = state[0], counter = state[1]; each counter c of the generated shape G
// (row-major c = counter + linear index) gives Threefry-2x32 under (lo(key), hi(key)) of
// (lo(c), hi(c)):
//   - 64-bit output: G is the output's shape, element = y0 | y1 << 32;
//   - 32-bit and narrower: G is the output's shape with its first even dimension (else its
//     largest) halved (rounded up) and a 1 inserted after it; y0 and y1 are joined along that
//     1, reshaped to the output (the odd dimension's extra element sliced off) and, for 8 and
//     16 bits, truncated;
//   new state = (key, counter + the number of counters).
// PHILOX (and DEFAULT, XLA's CPU and GPU default): key = state[0]; the 128-bit counter is
// (low, high) = (state[1], state[0]) for two words, (state[1], state[2]) for three; block i
// is Philox-4x32-10 under (lo(key), hi(key)) of the four 32-bit words of counter + i, and the
// output's 32-bit words are the blocks' words in order (64-bit elements join pairs, low word
// first; 8/16-bit ones truncate 32-bit ones); new state = (key, low + blocks[, high + carry]).
// Floats take the bits of the unsigned type of their width.
// It runs before fusion (first in the `fused` stage), so the generator's elementwise ops fuse
// into loop nests; the state is bitcast to signless words and back, and the
// arithmetic is on signless integers (zero extension by masks, an UNSIGNED comparison for the
// carry).
#include "transforms/ExpandRngBitGenerator.h"

#include "dialect/StrataOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "transforms/Passes.h"

namespace mlir::strata {

#define GEN_PASS_DEF_STRATAEXPANDRNGBITGENERATOR
#include "transforms/Passes.h.inc"

namespace {

RankedTensorType tensorOf(ArrayRef<int64_t> shape, Type element) { return RankedTensorType::get(shape, element); }
ArrayRef<int64_t> shapeOf(Value v) { return cast<RankedTensorType>(v.getType()).getShape(); }

// Builds the integer arithmetic both generators need on signless i32/i64 tensors.
struct Bits {
  OpBuilder& rw;
  Location loc;
  Type i32 = rw.getI32Type(), i64 = rw.getI64Type();

  Value splat(ArrayRef<int64_t> s, Type t, int64_t v) {
    return ConstantOp::create(rw, loc, DenseElementsAttr::get(tensorOf(s, t), rw.getIntegerAttr(t, v)));
  }
  Value low32(Value v) { return ConvertOp::create(rw, loc, tensorOf(shapeOf(v), i32), v); }
  Value high32(Value v) { return low32(ShiftRightLogicalOp::create(rw, loc, v, splat(shapeOf(v), i64, 32))); }
  Value widen(Value w) {  // zero-extended (convert sign-extends: masked)
    ArrayRef<int64_t> s = shapeOf(w);
    return AndOp::create(rw, loc, ConvertOp::create(rw, loc, tensorOf(s, i64), w), splat(s, i64, 0xFFFFFFFFLL));
  }
  Value join(Value lo, Value hi) {  // lo | hi << 32
    return OrOp::create(rw, loc, widen(lo), ShiftLeftOp::create(rw, loc, widen(hi), splat(shapeOf(lo), i64, 32)));
  }
  Value broadcast(Value scalar, ArrayRef<int64_t> s) {
    return BroadcastInDimOp::create(rw, loc, tensorOf(s, cast<RankedTensorType>(scalar.getType()).getElementType()),
                                    scalar, rw.getDenseI64ArrayAttr({}));
  }
  Value scalarAt(Value state, int64_t i) {
    Value one = SliceOp::create(rw, loc, tensorOf({1}, i64), state, ArrayRef<int64_t>{i}, ArrayRef<int64_t>{i + 1},
                                ArrayRef<int64_t>{1});
    return ReshapeOp::create(rw, loc, tensorOf({}, i64), one);
  }
  // a + b, and whether it wrapped past 2^64 (unsigned a + b < a) as 0 or 1.
  std::pair<Value, Value> addWithCarry(Value a, Value b) {
    ArrayRef<int64_t> s = shapeOf(a);
    Value sum = AddOp::create(rw, loc, a, b);
    auto wrapped = CompareOp::create(rw, loc, tensorOf(s, rw.getI1Type()), ComparisonDirection::LT, sum, a);
    wrapped.setCompareType(ComparisonType::UNSIGNED);
    Value carry = SelectOp::create(rw, loc, tensorOf(s, i64), wrapped, splat(s, i64, 1), splat(s, i64, 0));
    return {sum, carry};
  }
  Value state(ArrayRef<Value> words) {
    SmallVector<Value> parts;
    for (Value w : words) parts.push_back(ReshapeOp::create(rw, loc, tensorOf({1}, i64), w));
    return ConcatenateOp::create(rw, loc, tensorOf({static_cast<int64_t>(words.size())}, i64), parts,
                                 rw.getI64IntegerAttr(0));
  }
};

// THREE_FRY's 32- or 64-bit words in the output's shape, and the number of counters used.
std::pair<Value, int64_t> threeFry(Bits& k, Value key, Value counter, ArrayRef<int64_t> shape, unsigned width) {
  OpBuilder& rw = k.rw;
  Location loc = k.loc;
  // The generated shape, and (narrow outputs) where the halves split and join.
  SmallVector<int64_t> gen(shape);
  int64_t split = -1;
  if (width <= 32) {
    if (shape.empty()) {
      gen = {1};
    } else {
      for (int64_t d = 0; d < static_cast<int64_t>(shape.size()) && split < 0; ++d)
        if (shape[d] % 2 == 0) split = d;
      if (split < 0)
        for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
          if (split < 0 || shape[d] > shape[split]) split = d;
      gen[split] = (shape[split] + 1) / 2;
      gen.insert(gen.begin() + split + 1, 1);
    }
  }
  int64_t n = 1;
  for (int64_t d : gen) n *= d;
  Value index = ReshapeOp::create(rw, loc, tensorOf(gen, k.i64), IotaOp::create(rw, loc, tensorOf({n}, k.i64), 0));
  Value counters = AddOp::create(rw, loc, k.broadcast(counter, gen), index);
  auto words = Threefry2x32Op::create(rw, loc, tensorOf(gen, k.i32), tensorOf(gen, k.i32), k.low32(key),
                                      k.high32(key), k.low32(counters), k.high32(counters));
  Value y0 = words.getY0(), y1 = words.getY1();
  if (width == 64) return {k.join(y0, y1), n};
  if (shape.empty()) return {ReshapeOp::create(rw, loc, tensorOf({}, k.i32), y0), n};
  SmallVector<int64_t> joined(gen);
  joined[split + 1] = 2;
  Value both = ConcatenateOp::create(rw, loc, tensorOf(joined, k.i32), ValueRange{y0, y1}, rw.getI64IntegerAttr(split + 1));
  SmallVector<int64_t> even(shape);
  even[split] = 2 * gen[split];
  Value bits = ReshapeOp::create(rw, loc, tensorOf(even, k.i32), both);
  if (even[split] != shape[split])
    bits = SliceOp::create(rw, loc, tensorOf(shape, k.i32), bits, SmallVector<int64_t>(shape.size(), 0), shape,
                           SmallVector<int64_t>(shape.size(), 1));
  return {bits, n};
}

// PHILOX's 32- or 64-bit words in the output's shape, and the number of blocks used.
std::pair<Value, int64_t> philox(Bits& k, Value key, Value low, Value high, ArrayRef<int64_t> shape, unsigned width) {
  OpBuilder& rw = k.rw;
  Location loc = k.loc;
  int64_t elements = 1;
  for (int64_t d : shape) elements *= d;
  const int64_t words = width == 64 ? 2 * elements : elements, blocks = (words + 3) / 4;
  SmallVector<int64_t> b{blocks};
  Value i = IotaOp::create(rw, loc, tensorOf(b, k.i64), 0);
  auto [lo, carry] = k.addWithCarry(k.broadcast(low, b), i);
  Value hi = AddOp::create(rw, loc, k.broadcast(high, b), carry);
  Value x[4] = {k.low32(lo), k.high32(lo), k.low32(hi), k.high32(hi)};
  // The key schedule is 0-d: each round's key broadcast once.
  Value k0 = k.low32(key), k1 = k.high32(key);
  auto mulHiLo = [&](Value v, uint32_t m) -> std::pair<Value, Value> {
    Value p = MultiplyOp::create(rw, loc, k.widen(v), k.splat(b, k.i64, m));
    return {k.high32(p), k.low32(p)};
  };
  for (int round = 0; round < 10; ++round) {
    auto [hi0, lo0] = mulHiLo(x[0], 0xD2511F53u);
    auto [hi1, lo1] = mulHiLo(x[2], 0xCD9E8D57u);
    Value r0 = XorOp::create(rw, loc, XorOp::create(rw, loc, hi1, x[1]), k.broadcast(k0, b));
    Value r2 = XorOp::create(rw, loc, XorOp::create(rw, loc, hi0, x[3]), k.broadcast(k1, b));
    x[0] = r0, x[1] = lo1, x[2] = r2, x[3] = lo0;
    k0 = AddOp::create(rw, loc, k0, k.splat({}, k.i32, static_cast<int32_t>(0x9E3779B9u)));
    k1 = AddOp::create(rw, loc, k1, k.splat({}, k.i32, static_cast<int32_t>(0xBB67AE85u)));
  }
  // Word j of block i goes to position (4 or 2)·i + j: the blocks' words side by side, flattened.
  SmallVector<Value> parts;
  Type t = width == 64 ? k.i64 : k.i32;
  if (width == 64) {
    parts = {k.join(x[0], x[1]), k.join(x[2], x[3])};
  } else {
    parts.assign(std::begin(x), std::end(x));
  }
  const int64_t per = static_cast<int64_t>(parts.size());
  for (Value& v : parts) v = ReshapeOp::create(rw, loc, tensorOf({blocks, 1}, t), v);
  Value all = ConcatenateOp::create(rw, loc, tensorOf({blocks, per}, t), parts, rw.getI64IntegerAttr(1));
  all = ReshapeOp::create(rw, loc, tensorOf({blocks * per}, t), all);
  if (blocks * per != elements)
    all = SliceOp::create(rw, loc, tensorOf({elements}, t), all, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{elements},
                          ArrayRef<int64_t>{1});
  if (shape.size() == 1) return {all, blocks};
  return {ReshapeOp::create(rw, loc, tensorOf(shape, t), all), blocks};
}

void expand(RngBitGeneratorOp op) {
  Operation* before = op->getPrevNode();  // null: op was first in its block
  OpBuilder rw(op);
  Bits k{rw, op.getLoc()};
  auto outType = cast<RankedTensorType>(op.getOutput().getType());
  ArrayRef<int64_t> shape = outType.getShape();
  const unsigned width = outType.getElementType().getIntOrFloatBitWidth();
  auto stateType = cast<RankedTensorType>(op.getInitialState().getType());
  const int64_t words = stateType.getDimSize(0);
  Value state = op.getInitialState();
  if (!stateType.getElementType().isSignlessInteger())
    state = BitcastConvertOp::create(rw, k.loc, tensorOf({words}, k.i64), state);
  Value key = k.scalarAt(state, 0), newState, bits;
  if (op.getRngAlgorithm() == RngAlgorithm::THREE_FRY) {
    Value counter = k.scalarAt(state, 1);
    auto [b, n] = threeFry(k, key, counter, shape, width);
    bits = b;
    newState = k.state({key, AddOp::create(rw, k.loc, counter, k.splat({}, k.i64, n))});
  } else {
    Value low = k.scalarAt(state, 1), high = words == 3 ? k.scalarAt(state, 2) : key;
    auto [b, n] = philox(k, key, low, high, shape, width);
    bits = b;
    auto [next, carry] = k.addWithCarry(low, k.splat({}, k.i64, n));
    newState = words == 3 ? k.state({key, next, AddOp::create(rw, k.loc, high, carry)}) : k.state({key, next});
  }
  if (newState.getType() != stateType) newState = BitcastConvertOp::create(rw, k.loc, stateType, newState);
  Type intType = rw.getIntegerType(width);
  if (width < 32) bits = ConvertOp::create(rw, k.loc, tensorOf(shape, intType), bits);  // the low bits
  if (outType.getElementType() != intType) bits = BitcastConvertOp::create(rw, k.loc, outType, bits);
  op.getOutputState().replaceAllUsesWith(newState);
  op.getOutput().replaceAllUsesWith(bits);
  // The expansion runs after canonicalization, and fusion expects no dead ops: what it made
  // that nobody reads (the carry of a 2-word state, a new state or bits unused) goes here. Its
  // ops stand in order just before `op`: walked backwards, users go before what they read.
  Operation* end = op->getPrevNode();
  op.erase();
  for (Operation* o = end; o && o != before;) {
    Operation* prev = o->getPrevNode();
    if (isOpTriviallyDead(o)) o->erase();
    o = prev;
  }
}

struct StrataExpandRngBitGeneratorPass : impl::StrataExpandRngBitGeneratorBase<StrataExpandRngBitGeneratorPass> {
  using Base::Base;
  void runOnOperation() override { numExpanded += expandRngBitGenerators(getOperation()); }
};

}  // namespace

int64_t expandRngBitGenerators(ModuleOp module) {
  SmallVector<RngBitGeneratorOp> ops;
  module.walk([&](RngBitGeneratorOp op) { ops.push_back(op); });
  for (RngBitGeneratorOp op : ops) expand(op);
  return static_cast<int64_t>(ops.size());
}

}  // namespace mlir::strata
