// strata.rng_bit_generator (THREE_FRY) → strata ops, as XLA expands it (RngBitGeneratorExpander
// and ThreeFryBitGenerator of xla/hlo/builder/lib/prng.cc), so the bits equal JAX's on CPU:
//   key = state[0], counter = state[1]; each counter c of the generated shape G (row-major
//   c = counter + linear index) gives Threefry-2x32 under (lo(key), hi(key)) of (lo(c), hi(c)):
//   - 64-bit output: G is the output's shape, element = y0 | y1 << 32;
//   - 32-bit and narrower: G is the output's shape with its first even dimension (else its
//     largest) halved (rounded up) and a 1 inserted after it; y0 and y1 are joined along that
//     1, reshaped to the output (the odd dimension's extra element sliced off) and, for 8 and
//     16 bits, truncated;
//   - floats take the bits of the unsigned type of their width;
//   new state = (key, counter + the number of counters).
// Part of --strata-to-linalg: it runs after EraseSignedness (every type signless), and the ops
// made here are lowered by their own patterns.
#include "dialect/StrataOps.h"
#include "lowering/StrataToLinalg.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::strata {
namespace {

RankedTensorType tensorOf(ArrayRef<int64_t> shape, Type element) { return RankedTensorType::get(shape, element); }

struct RngBitGeneratorLowering : OpConversionPattern<RngBitGeneratorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(RngBitGeneratorOp op, OpAdaptor adaptor, ConversionPatternRewriter& rw) const override {
    Location loc = op.getLoc();
    if (op.getRngAlgorithm() != RngAlgorithm::THREE_FRY) return rw.notifyMatchFailure(op, "not THREE_FRY");
    Type i32 = rw.getI32Type(), i64 = rw.getI64Type();
    auto outType = cast<RankedTensorType>(op.getOutput().getType());
    ArrayRef<int64_t> shape = outType.getShape();
    const unsigned width = outType.getElementType().getIntOrFloatBitWidth();
    auto splat64 = [&](ArrayRef<int64_t> s, int64_t v) {
      return ConstantOp::create(rw, loc, DenseElementsAttr::get(tensorOf(s, i64), rw.getI64IntegerAttr(v)));
    };
    auto low32 = [&](Value v) {  // i64 → its low 32 bits
      return ConvertOp::create(rw, loc, tensorOf(cast<RankedTensorType>(v.getType()).getShape(), i32), v);
    };
    auto high32 = [&](Value v) {
      ArrayRef<int64_t> s = cast<RankedTensorType>(v.getType()).getShape();
      return low32(ShiftRightLogicalOp::create(rw, loc, v, splat64(s, 32)));
    };
    Value state = adaptor.getInitialState();
    auto scalarAt = [&](int64_t i) -> Value {
      Value one = SliceOp::create(rw, loc, tensorOf({1}, i64), state, ArrayRef<int64_t>{i}, ArrayRef<int64_t>{i + 1},
                                  ArrayRef<int64_t>{1});
      return ReshapeOp::create(rw, loc, tensorOf({}, i64), one);
    };
    Value key = scalarAt(0), counter = scalarAt(1);

    // The generated shape, and (narrow outputs) where the halves split and join.
    SmallVector<int64_t> gen(shape);
    int64_t split = -1;
    if (width <= 32) {
      if (shape.empty()) {
        gen = {1};
      } else {
        for (int64_t d = 0; d < outType.getRank() && split < 0; ++d)
          if (shape[d] % 2 == 0) split = d;
        if (split < 0)
          for (int64_t d = 0; d < outType.getRank(); ++d)
            if (split < 0 || shape[d] > shape[split]) split = d;
        gen.assign(shape.begin(), shape.end());
        gen[split] = (shape[split] + 1) / 2;
        gen.insert(gen.begin() + split + 1, 1);
      }
    }
    int64_t n = 1;
    for (int64_t d : gen) n *= d;
    Value index = ReshapeOp::create(rw, loc, tensorOf(gen, i64), IotaOp::create(rw, loc, tensorOf({n}, i64), 0));
    SmallVector<int64_t> all;
    Value counters = AddOp::create(
        rw, loc, BroadcastInDimOp::create(rw, loc, tensorOf(gen, i64), counter, rw.getDenseI64ArrayAttr(all)), index);
    auto words = Threefry2x32Op::create(rw, loc, tensorOf(gen, i32), tensorOf(gen, i32), low32(key), high32(key),
                                        low32(counters), high32(counters));
    Value y0 = words.getY0(), y1 = words.getY1();

    Value bits;
    if (width == 64) {
      auto widen = [&](Value w) {  // zero-extended (convert sign-extends: masked)
        return AndOp::create(rw, loc, ConvertOp::create(rw, loc, tensorOf(gen, i64), w), splat64(gen, 0xFFFFFFFFLL));
      };
      bits = OrOp::create(rw, loc, widen(y0), ShiftLeftOp::create(rw, loc, widen(y1), splat64(gen, 32)));
    } else if (shape.empty()) {
      bits = ReshapeOp::create(rw, loc, tensorOf({}, i32), y0);
    } else {
      SmallVector<int64_t> joined(gen);
      joined[split + 1] = 2;
      Value both = ConcatenateOp::create(rw, loc, tensorOf(joined, i32), ValueRange{y0, y1}, rw.getI64IntegerAttr(split + 1));
      SmallVector<int64_t> even(shape);
      even[split] = 2 * gen[split];
      bits = ReshapeOp::create(rw, loc, tensorOf(even, i32), both);
      if (even[split] != shape[split])
        bits = SliceOp::create(rw, loc, tensorOf(shape, i32), bits, SmallVector<int64_t>(shape.size(), 0), shape,
                               SmallVector<int64_t>(shape.size(), 1));
    }
    Type intType = rw.getIntegerType(width);
    if (width < 32) bits = ConvertOp::create(rw, loc, tensorOf(shape, intType), bits);  // the low bits
    Type element = outType.getElementType();
    if (element != intType) bits = BitcastConvertOp::create(rw, loc, tensorOf(shape, element), bits);

    Value next = AddOp::create(rw, loc, counter, splat64({}, n));
    Value newState = ConcatenateOp::create(
        rw, loc, tensorOf({2}, i64),
        ValueRange{ReshapeOp::create(rw, loc, tensorOf({1}, i64), key), ReshapeOp::create(rw, loc, tensorOf({1}, i64), next)},
        rw.getI64IntegerAttr(0));
    rw.replaceOp(op, ValueRange{newState, bits});
    return success();
  }
};

}  // namespace

void populateRngBitGeneratorPatterns(RewritePatternSet& patterns) {
  patterns.add<RngBitGeneratorLowering>(patterns.getContext());
}

}  // namespace mlir::strata
