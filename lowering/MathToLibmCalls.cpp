// --strata-math-to-libm-calls: the math ops LLVM has no accurate intrinsic for (LibmCalls.def:
// log1p, expm1, tanh, erf, …) become Eigen's rational approximation (f32 tanh) or calls of libm
// (Passes.td).
#include "lowering/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include <cmath>
#include <limits>

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/bit.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::strata {

#define GEN_PASS_DEF_MATHTOLIBMCALLSPASS
#include "lowering/Passes.h.inc"

namespace {

// glibc's libmvec, which LLVM's vectoriser calls for exp and log (VectorMath.cpp), computes a
// vector with any "special" lane (log of 0, a negative number, inf or nan; exp whose result is
// not a normal number) by calling the scalar function for each such lane: 20-40x slower, and
// common (log of zeros in entropies and at lgamma's poles, exp of -inf in masked softmax, of
// gaussian tails). So those lanes never reach the call: it gets a harmless argument and the
// result is selected afterwards. Scalar arithmetic, vectorised with the call.
struct Guard {
  OpBuilder& b;
  Location loc;
  Type t;
  Value c(double v) { return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v)); }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) { return arith::CmpFOp::create(b, loc, p, x, y); }
  Value sel(Value cond, Value x, Value y) { return arith::SelectOp::create(b, loc, cond, x, y); }
  // The same tests as cmp, on the bits: LLVM folds select(c, f(select(c, x, y)), z) to
  // select(c, f(x), z), which would hand the special lanes back to the call; a test it cannot
  // relate to the argument's keeps them out.
  unsigned width() { return t.getIntOrFloatBitWidth(); }
  Value bits(Value x) { return arith::BitcastOp::create(b, loc, b.getIntegerType(width()), x); }
  Value intC(const APInt& v) { return arith::ConstantOp::create(b, loc, b.getIntegerAttr(b.getIntegerType(width()), v)); }
  APInt bitsOf(double v) {
    return t.isF32() ? APInt(32, llvm::bit_cast<uint32_t>(static_cast<float>(v))) : APInt(64, llvm::bit_cast<uint64_t>(v));
  }
  // x in (0, inf): its bits in [1, bits(largest finite)].
  Value positiveFinite(Value x) {
    Value minus1 = arith::SubIOp::create(b, loc, bits(x), intC(APInt(width(), 1)));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, minus1, intC(bitsOf(t.isF32() ? 3.4028234663852886e38 : 1.7976931348623157e308)));
  }
  // m·factor for positive normal m and a normal factor, where the product may be subnormal: an
  // arithmetic result there (or just below it) costs a microcode assist on x86, ~50 ns a vector
  // op, in every lane of the vector (libmvec's own scalar paths pay it too). So the subnormal's
  // bits are made as an integer, m·factor in units of the least subnormal rounded, and the
  // normal products come from m raised to where they are normal (unchanged where they are
  // already); one rounding more than the product (within an ulp).
  Value timesTiny(Value m, double factor) {
    const int mantissa = t.isF32() ? 23 : 52;
    const double least = std::ldexp(1.0, t.isF32() ? -149 : -1074), normalUnits = std::ldexp(1.0, mantissa);
    Value q = arith::MulFOp::create(b, loc, m, c(factor / least));
    // m·factor is normal from `lowest` (an ulp of margin for the division's rounding): where
    // q says normal, m is at least `lowest` but for an ulp.
    const double lowest = least * normalUnits / factor * (1 + std::ldexp(1.0, -mantissa));
    // (maximumf keeps a nan m: it is the result.)
    Value normal = arith::MulFOp::create(b, loc, arith::MaximumFOp::create(b, loc, m, c(lowest)), c(factor));
    Value clamped = arith::MaxNumFOp::create(b, loc, arith::MinNumFOp::create(b, loc, q, c(normalUnits)), c(0));
    Value units = arith::FPToSIOp::create(b, loc, b.getIntegerType(width()), math::RoundEvenOp::create(b, loc, clamped));
    return sel(cmp(arith::CmpFPredicate::UGE, q, c(normalUnits)), normal, arith::BitcastOp::create(b, loc, t, units));
  }
  // x < v for a negative v (nan with the sign bit set counts as below: its result is nan either way).
  Value belowNegative(Value x, double v) {
    Value i = bits(x);
    Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, intC(APInt(width(), 0)));
    Value mag = arith::AndIOp::create(b, loc, i, intC(APInt::getSignedMaxValue(width())));
    Value beyond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, mag, intC(bitsOf(-v)));
    return arith::AndIOp::create(b, loc, negative, beyond);
  }
};

// log(x) for x in (0, inf) as it was; log(±0) = -inf, log(inf) = inf, x's nan, and for x < 0
// libm's nan, the negative one (0/0 on x86; its sign shows in a 6- or 4-bit float's zero).
Value guardedLog(OpBuilder& b, math::LogOp op) {
  Location loc = op.getLoc();
  Value x = op.getOperand();
  Guard g{b, loc, x.getType()};
  using P = arith::CmpFPredicate;
  Value ok = arith::AndIOp::create(b, loc, g.cmp(P::OGT, x, g.c(0)), g.cmp(P::OLT, x, g.c(INFINITY)));
  // The other lanes' argument: |x| or at least the smallest normal, not a constant (LLVM would
  // turn log(select(ok, x, 1)) into select(ok, log(x), 0), the call seeing x again).
  Value other = arith::MaxNumFOp::create(b, loc, math::AbsFOp::create(b, loc, x), g.c(g.t.isF32() ? 1.1754943508222875e-38 : 2.2250738585072014e-308));
  Value r = math::LogOp::create(b, loc, g.sel(ok, x, other), op.getFastmath());
  Value special = g.sel(g.cmp(P::OEQ, x, g.c(0)), g.c(-INFINITY),
                        g.sel(g.cmp(P::OEQ, x, g.c(INFINITY)), g.c(INFINITY), g.sel(g.cmp(P::UNO, x, x), x, g.c(-std::numeric_limits<double>::quiet_NaN()))));
  return g.sel(g.positiveFinite(x), r, special);
}

// exp(x) where the result is not normal (x below ln of the smallest normal; -inf): as
// exp(r)·2^-64 with r = x + 64 ln 2 (a normal result), r kept as r_hi + r_lo (64 ln 2 in two
// parts, the first exact in the sum) and exp(r_hi + r_lo) as exp(r_hi) + exp(r_hi)·r_lo, so the
// subnormal results are within two ulps of libm's (libmvec's own ulp and one rounding more);
// below ln of half the least subnormal, 0. Larger x
// (overflow to inf, nan) stay as they were: rare.
Value guardedExp(OpBuilder& b, math::ExpOp op) {
  Location loc = op.getLoc();
  Value x = op.getOperand();
  Guard g{b, loc, x.getType()};
  using P = arith::CmpFPredicate;
  const bool f32 = x.getType().isF32();
  // ln of the smallest normal (a little above, so the call's results stay normal), ln of half
  // the least subnormal, and 64 ln 2 split: hi exact in x + hi for x in [zero, normal].
  const double normal = f32 ? -87.0 : -708.0, zero = f32 ? -104.0 : -745.5;
  const double ln2Hi = f32 ? 0.693145751953125 : 0.6931471803691238, ln2Lo = f32 ? 1.428606765330187e-06 : 1.9082149292705877e-10;
  Value under = g.cmp(P::OLT, x, g.c(normal));
  Value s = arith::AddFOp::create(b, loc, arith::MaximumFOp::create(b, loc, x, g.c(zero)), g.c(64 * ln2Hi));
  Value lo = g.c(64 * ln2Lo);
  Value rHi = arith::AddFOp::create(b, loc, s, lo);
  Value rLo = arith::AddFOp::create(b, loc, arith::SubFOp::create(b, loc, s, rHi), lo);
  Value e = math::ExpOp::create(b, loc, g.sel(under, rHi, x), op.getFastmath());
  Value scaled = g.timesTiny(math::FmaOp::create(b, loc, e, rLo, e), std::ldexp(1.0, -64));
  Value small = g.sel(g.cmp(P::OLT, x, g.c(zero)), g.c(0), scaled);
  return g.sel(g.belowNegative(x, normal), small, e);
}

// erfc(x) beyond its underflow to 0 (+inf too) and of nan: libmvec calls the scalar erfc for
// each such lane, 12-40x slower. They get a harmless argument and their result, 0 (the least
// subnormal at f32's threshold) or x's nan, is selected afterwards. (Where erfc is subnormal,
// from 9.194 (f32) and 26.543 (f64), libmvec stays vectorised but multiplies into the subnormal
// range, a microcode assist: 4.5x slower in a vector with such a lane. A tail for those lanes
// computed in every lane — 2^(log2 erfc) as an integer count of the least subnormal, within an
// ulp — made ordinary erfc 1.6x (f32) and 2x (f64) slower, so they are left to libmvec.)
Value guardedErfc(OpBuilder& b, math::ErfcOp op) {
  Location loc = op.getLoc();
  Value x = op.getOperand();
  Guard g{b, loc, x.getType()};
  using P = arith::CmpFPredicate;
  // libmvec's threshold, from which it calls the scalar function: erfc rounds to 0 there in f64
  // (27.226017111108366) and from the next float in f32 (10.054194 rounds to the least subnormal).
  const bool f32 = x.getType().isF32();
  const double zero = f32 ? static_cast<double>(llvm::bit_cast<float>(0x4120DDFBu)) : 27.226017111108366;
  Value arg = g.sel(g.cmp(P::OLT, x, g.c(zero)), x, arith::MinNumFOp::create(b, loc, x, g.c(1)));
  Value call = math::ErfcOp::create(b, loc, arg, op.getFastmath());
  // The call's lanes by x's bits (below `zero`, a negative nan too: it is x's at the end).
  Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, g.bits(x), g.intC(g.bitsOf(zero)));
  Value beyond = f32 ? g.sel(g.cmp(P::OEQ, x, g.c(zero)), g.c(0x1p-149), g.c(0)) : g.c(0);
  return g.sel(g.cmp(P::UNO, x, x), x, g.sel(below, call, beyond));
}

struct MathToLibmCallsPass : impl::MathToLibmCallsPassBase<MathToLibmCallsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // exp, log and erfc with their special lanes kept from libmvec (guardedExp, guardedLog,
    // guardedErfc).
    {
      SmallVector<Operation*> guarded;
      module.walk([&](Operation* op) {
        if (!isa<math::ExpOp, math::LogOp, math::ErfcOp>(op)) return;
        Type t = op->getResult(0).getType();
        if (t.isF32() || t.isF64()) guarded.push_back(op);
      });
      for (Operation* op : guarded) {
        OpBuilder b(op);
        // (The ops made here are not visited again: the list was taken first.)
        Value r = TypeSwitch<Operation*, Value>(op)
                      .Case([&](math::ExpOp e) { return guardedExp(b, e); })
                      .Case([&](math::LogOp l) { return guardedLog(b, l); })
                      .Case([&](math::ErfcOp c) { return guardedErfc(b, c); });
        op->getResult(0).replaceAllUsesWith(r);
        op->erase();
        ++numGuarded;
      }
    }
    // f32 tanh first becomes Eigen's rational approximation (MLIR's port of it, the same
    // algorithm as the eager kernel): inline arithmetic that LLVM vectorises, 40x faster than a
    // libm call per element. f64 tanh stays a libm call, as it is in Eigen.
    module.walk([&](math::TanhOp op) { numApproximated += op.getType().isF32(); });
    {
      RewritePatternSet patterns(&getContext());
      populatePolynomialApproximateTanhPattern(patterns);
      if (failed(applyPatternsGreedily(module, std::move(patterns)))) return signalPassFailure();
    }
    SmallVector<std::pair<Operation*, const char*>> ops;
    module.walk([&](Operation* op) {
#define STRATA_LIBM(OpClass, name) \
  if (isa<math::OpClass>(op)) ops.push_back({op, #name});
#define STRATA_LIBM2 STRATA_LIBM
#include "lowering/LibmCalls.def"
#undef STRATA_LIBM2
#undef STRATA_LIBM
    });
    for (auto [op, libm] : ops) {
      Type t = op->getResult(0).getType();
      if (!t.isF32() && !t.isF64()) {
        op->emitError("strata-math-to-libm-calls: expects f32 or f64, but got ") << t;
        return signalPassFailure();
      }
      std::string name = libm;
      if (t.isF32()) name += "f";
      if (!module.lookupSymbol(name)) {
        OpBuilder b(module.getBodyRegion());
        b.setInsertionPointToStart(module.getBody());
        auto fn = func::FuncOp::create(b, module.getLoc(), name, b.getFunctionType(SmallVector<Type, 2>(op->getNumOperands(), t), {t}));
        fn.setPrivate();
        // Pure: LLVM may hoist, CSE and drop these calls.
        fn->setAttr("llvm.readnone", b.getUnitAttr());
      }
      OpBuilder b(op);
      auto call = func::CallOp::create(b, op->getLoc(), name, TypeRange{t}, op->getOperands());
      op->replaceAllUsesWith(call);
      op->erase();
      ++numCalls;
    }
  }
};

}  // namespace
}  // namespace mlir::strata
