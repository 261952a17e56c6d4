// The scalar helpers of the `strata` elementwise ops (see ScalarOps.h): the parts of their
// semantics too long for an ODS record. Each restates the eager kernel of the primitive the op
// lowers from; the comment names the kernel's file.
#include "dialect/ScalarOps.h"

#include <cmath>
#include <limits>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"
#include "bessel_i.h"
#include "dialect/ElementTypes.h"
#include "kernels/float8.h"
#include "erf_inv_poly.h"
#include "gamma_lanczos.h"
#include "incomplete_beta.h"
#include "incomplete_gamma.h"
#include "zeta.h"

namespace mlir::strata {
namespace {

// The byte floats' nextafter, defined with their conversions below.
Value float8NextAfter(scalar::Emitter& e, Value x, Value y, const ::strata::kernels::Float8Format& f);

using scalar::Emitter;
using arith::CmpFPredicate;
using arith::CmpIPredicate;

bool isFloat(Type t) { return isa<FloatType>(t); }
bool isBool(Type t) { return t.isInteger(1); }

// The complex constant re + i·im of type t.
Value complexC(Emitter& e, ComplexType t, double re, double im) {
  Type p = t.getElementType();
  return complex::CreateOp::create(e.b, e.loc, t, e.floatC(p, re), e.floatC(p, im));
}

// ---- Conversions (tracer/kernels/types.h, convert_value) ----

// v (f64) rounded to f32 *to odd*: inexact results become the neighbour whose last mantissa
// bit is 1, so that a later rounding to bf16/f16 equals rounding v directly.
Value roundToOddF32(Emitter& e, Value v) {
  Type f32 = e.b.getF32Type(), i32 = e.b.getI32Type();
  Value f = arith::TruncFOp::create(e.b, e.loc, f32, v);
  Value back = arith::ExtFOp::create(e.b, e.loc, v.getType(), f);
  Value finite = e.cmpf(CmpFPredicate::OLT, e.absf(f), e.floatC(f32, INFINITY));
  Value inexact = e.cmpf(CmpFPredicate::UNE, back, v);
  Value bits = e.bitcast(i32, f);
  Value even = e.cmpi(CmpIPredicate::eq, e.andi(bits, e.intC(i32, 1)), e.intC(i32, 0));
  Value fix = e.andi(e.andi(finite, inexact), even);
  // Toward v: one more in magnitude when |v| > |f|, one less otherwise.
  Value up = e.cmpf(CmpFPredicate::OGT, e.absf(v), e.absf(back));
  Value moved = e.select(up, e.addi(bits, e.intC(i32, 1)), e.subi(bits, e.intC(i32, 1)));
  return e.bitcast(f32, e.select(fix, moved, bits));
}

// An i32/i64 (u32/u64 when `uns`) as f32 rounded to odd (kernels::round_to_odd_f32_int): keep
// 24 significant bits, OR-ing any dropped bit into the last kept one.
Value intRoundToOddF32(Emitter& e, Value v, bool uns) {
  Type t = v.getType();
  unsigned w = t.getIntOrFloatBitWidth();
  Value zero = e.intC(t, 0), one = e.intC(t, 1);
  Value neg = uns ? e.cmpi(CmpIPredicate::ne, zero, zero) : e.cmpi(CmpIPredicate::slt, v, zero);
  Value u = e.select(neg, e.subi(zero, v), v);  // |v| as unsigned (INT_MIN stays 2^(w-1))
  Value width = e.subi(e.intC(t, w), math::CountLeadingZerosOp::create(e.b, e.loc, u));
  Value shift = arith::MaxSIOp::create(e.b, e.loc, e.subi(width, e.intC(t, 24)), zero);
  Value lowBit = e.shli(one, shift);
  Value mask = e.subi(lowBit, one);
  Value dropped = e.cmpi(CmpIPredicate::ne, e.andi(u, mask), zero);
  Value kept = e.andi(u, e.xori(mask, e.intC(t, -1)));
  kept = e.select(dropped, e.ori(kept, lowBit), kept);
  Value f = arith::UIToFPOp::create(e.b, e.loc, e.b.getF32Type(), kept);  // exact
  return e.select(neg, e.negf(f), f);
}

// Float (f32/f64) → signed integer: truncate toward zero, saturate, nan → 0.
Value floatToInt(Emitter& e, Value v, Type to) {
  unsigned w = to.getIntOrFloatBitWidth();
  Type ft = v.getType();
  double hiV = std::ldexp(1.0, static_cast<int>(w) - 1);
  Value hi = e.floatC(ft, hiV), lo = e.floatC(ft, -hiV);
  Value inRange = e.andi(e.cmpf(CmpFPredicate::OGT, v, lo), e.cmpf(CmpFPredicate::OLT, v, hi));
  Value safe = e.select(inRange, v, e.floatC(ft, 0.0));
  Value r = arith::FPToSIOp::create(e.b, e.loc, to, safe);
  r = e.select(e.cmpf(CmpFPredicate::OGE, v, hi), e.intC(to, APInt::getSignedMaxValue(w)), r);
  return e.select(e.cmpf(CmpFPredicate::OLE, v, lo), e.intC(to, APInt::getSignedMinValue(w)), r);
}

// Float (f32/f64) → unsigned integer (signless `to`): truncate toward zero, saturate to
// [0, 2^w - 1], nan → 0.
Value floatToUint(Emitter& e, Value v, Type to) {
  unsigned w = to.getIntOrFloatBitWidth();
  Type ft = v.getType();
  Value hi = e.floatC(ft, std::ldexp(1.0, static_cast<int>(w)));
  Value inRange = e.andi(e.cmpf(CmpFPredicate::OGT, v, e.floatC(ft, -1.0)), e.cmpf(CmpFPredicate::OLT, v, hi));
  Value safe = e.select(inRange, v, e.floatC(ft, 0.0));
  Value r = arith::FPToUIOp::create(e.b, e.loc, to, safe);
  return e.select(e.cmpf(CmpFPredicate::OGE, v, hi), e.intC(to, APInt::getMaxValue(w)), r);
}

}  // namespace

namespace scalar {

using arith::CmpFPredicate;
using arith::CmpIPredicate;

// ---- Integer arithmetic that must not trap (div.cpp, rem.cpp, pow.cpp, shift_right_logical.cpp)

// A divisor that is safe for divsi/remsi: 1 where y is 0 or -1 (those cases are selected away).
static Value safeDivisor(Emitter& e, Value y) {
  Type t = y.getType();
  Value bad = e.ori(e.cmpi(CmpIPredicate::eq, y, e.intC(t, 0)), e.cmpi(CmpIPredicate::eq, y, e.intC(t, -1)));
  return e.select(bad, e.intC(t, 1), y);
}

// Unsigned: x / 0 is all ones and x % 0 is x, as for signed integers; nothing else traps.
static Value uintDivRem(Emitter& e, Value x, Value y, bool rem) {
  Type t = x.getType();
  Value isZero = e.cmpi(CmpIPredicate::eq, y, e.intC(t, 0));
  Value safe = e.select(isZero, e.intC(t, 1), y);
  if (rem) return e.select(isZero, x, arith::RemUIOp::create(e.b, e.loc, x, safe));
  return e.select(isZero, e.intC(t, -1), arith::DivUIOp::create(e.b, e.loc, x, safe));
}

Value intDiv(Emitter& e, Value x, Value y, bool uns) {
  if (uns) return uintDivRem(e, x, y, /*rem=*/false);
  Type t = x.getType();
  Value q = arith::DivSIOp::create(e.b, e.loc, x, safeDivisor(e, y));
  Value r = e.select(e.cmpi(CmpIPredicate::eq, y, e.intC(t, -1)), e.subi(e.intC(t, 0), x), q);  // wraps
  return e.select(e.cmpi(CmpIPredicate::eq, y, e.intC(t, 0)), e.intC(t, -1), r);
}

Value intRem(Emitter& e, Value x, Value y, bool uns) {
  if (uns) return uintDivRem(e, x, y, /*rem=*/true);
  Type t = x.getType();
  Value q = arith::RemSIOp::create(e.b, e.loc, x, safeDivisor(e, y));
  Value r = e.select(e.cmpi(CmpIPredicate::eq, y, e.intC(t, -1)), e.intC(t, 0), q);
  return e.select(e.cmpi(CmpIPredicate::eq, y, e.intC(t, 0)), x, r);
}

// x^y by square-and-multiply over every bit of y (no loop: one step per bit, so it
// vectorises); y < 0 gives 0 unless |x| = 1. An unsigned y has no sign bit: every bit counts.
Value intPow(Emitter& e, Value x, Value y, bool uns) {
  Type t = x.getType();
  unsigned w = t.getIntOrFloatBitWidth();
  Value zero = e.intC(t, 0), one = e.intC(t, 1), minusOne = e.intC(t, -1);
  Value result = one, base = x, exp = y;
  for (unsigned i = 0; i < (uns ? w : w - 1); ++i) {  // a signed y's sign bit is handled below
    Value bit = e.cmpi(CmpIPredicate::ne, e.andi(exp, one), zero);
    result = e.select(bit, e.muli(result, base), result);
    base = e.muli(base, base);
    exp = e.shrui(exp, one);
  }
  if (uns) return result;
  Value odd = e.cmpi(CmpIPredicate::ne, e.andi(y, one), zero);
  Value negative = e.select(e.cmpi(CmpIPredicate::eq, x, one), one,
                            e.select(e.cmpi(CmpIPredicate::eq, x, minusOne),
                                     e.select(odd, minusOne, one), zero));
  return e.select(e.cmpi(CmpIPredicate::slt, y, zero), negative, result);
}

// integer_pow.cpp's order: the bits of |y| from the lowest, each set bit multiplying the
// accumulated power in; the squarings after the highest bit are not made.
Value integerPow(Emitter& e, Value x, int64_t y) {
  Type t = x.getType();
  bool fl = isa<FloatType>(t);
  if (auto ct = dyn_cast<ComplexType>(t)) {  // the same multiplications, of complex numbers
    auto mul = [&](Value a, Value c) -> Value { return complex::MulOp::create(e.b, e.loc, a, c); };
    uint64_t n = y < 0 ? uint64_t{0} - static_cast<uint64_t>(y) : static_cast<uint64_t>(y);
    Value acc, base = x;
    for (; n; n >>= 1) {
      if (n & 1) acc = acc ? mul(acc, base) : base;
      if (n > 1) base = mul(base, base);
    }
    Value one = complexC(e, ct, 1.0, 0.0);
    if (!acc) return one;
    return y < 0 ? complex::DivOp::create(e.b, e.loc, one, acc).getResult() : acc;
  }
  auto mul = [&](Value a, Value c) -> Value {
    if (fl) return arith::MulFOp::create(e.b, e.loc, a, c);
    return e.muli(a, c);
  };
  uint64_t n = y < 0 ? uint64_t{0} - static_cast<uint64_t>(y) : static_cast<uint64_t>(y);
  Value acc, base = x;
  for (; n; n >>= 1) {
    if (n & 1) acc = acc ? mul(acc, base) : base;
    if (n > 1) base = mul(base, base);
  }
  if (!acc) return fl ? e.floatC(t, 1.0) : e.intC(t, 1);
  if (y < 0 && fl) return e.divf(e.floatC(t, 1.0), acc);
  return acc;
}

// Shifts by the bit width or more, or by a negative amount, give 0. The shift itself takes the
// amount masked to the width, not `select(ok, y, 0)`: LLVM folds that into
// `select(y < width, x << y, 0)`, which LLVM 22's NVPTX backend turns into one PTX shift (PTX
// clamps large amounts) while truncating a 64-bit amount to 32 bits — so 1 << INT64_MIN gave 1
// on the GPU.
static Value shiftOrZero(Emitter& e, Value x, Value y, bool left) {
  Type t = x.getType();
  unsigned width = t.getIntOrFloatBitWidth();
  Value ok = e.cmpi(CmpIPredicate::ult, y, e.intC(t, width));  // y < 0 too
  Value amount = e.andi(y, e.intC(t, width - 1));
  Value shifted = left ? arith::ShLIOp::create(e.b, e.loc, x, amount).getResult() : e.shrui(x, amount);
  return e.select(ok, shifted, e.intC(t, 0));
}

Value shiftLeft(Emitter& e, Value x, Value y) { return shiftOrZero(e, x, y, true); }
Value shiftRightLogical(Emitter& e, Value x, Value y) { return shiftOrZero(e, x, y, false); }

// ---- Floats

// erf_inv.cpp: every piece of the polynomial evaluated and the one for w selected (no branches,
// so that the loop vectorises); ±1 give ±inf.
Value erfInv(Emitter& e, Value x) {
  namespace P = ::strata::erf_inv_poly;
  Type t = x.getType();
  auto mulf = [&](Value a, Value c) -> Value { return arith::MulFOp::create(e.b, e.loc, a, c); };
  auto subf = [&](Value a, Value c) -> Value { return arith::SubFOp::create(e.b, e.loc, a, c); };
  auto horner = [&](const auto& c, Value w) {
    Value p = e.floatC(t, c[0]);
    for (size_t i = 1; i < c.size(); ++i) p = e.addf(e.floatC(t, c[i]), mulf(p, w));
    return p;
  };
  Value one = e.floatC(t, 1.0);
  Value w = e.negf(math::LogOp::create(e.b, e.loc, mulf(subf(one, x), e.addf(one, x))));
  Value root = math::SqrtOp::create(e.b, e.loc, w);
  Value p;
  if (t.isF64()) {
    Value center = horner(P::kF64Center, subf(w, e.floatC(t, P::kF64Shift[0])));
    Value middle = horner(P::kF64Middle, subf(root, e.floatC(t, P::kF64Shift[1])));
    Value tail = horner(P::kF64Tail, subf(root, e.floatC(t, P::kF64Shift[2])));
    p = e.select(e.cmpf(CmpFPredicate::OLT, w, e.floatC(t, P::kF64Split[0])), center,
                 e.select(e.cmpf(CmpFPredicate::OLT, w, e.floatC(t, P::kF64Split[1])), middle, tail));
  } else {
    Value center = horner(P::kF32Center, subf(w, e.floatC(t, P::kF32Shift[0])));
    Value tail = horner(P::kF32Tail, subf(root, e.floatC(t, P::kF32Shift[1])));
    p = e.select(e.cmpf(CmpFPredicate::OLT, w, e.floatC(t, P::kF32Split)), center, tail);
  }
  Value inf = e.floatC(t, std::numeric_limits<double>::infinity());
  return e.select(e.cmpf(CmpFPredicate::OEQ, e.absf(x), one), mulf(x, inf), mulf(p, x));
}

// tracer/scalar_policy.h's policy for MLIR values: the special functions' expressions, op for op,
// as the eager kernels evaluate them.
namespace {
struct MlirOps {
  using V = Value;
  using B = Value;
  Emitter& e;
  Type t;
  V c(double v) const { return e.floatC(t, v); }
  V add(V a, V b) const { return e.addf(a, b); }
  V sub(V a, V b) const { return arith::SubFOp::create(e.b, e.loc, a, b); }
  V mul(V a, V b) const { return arith::MulFOp::create(e.b, e.loc, a, b); }
  V div(V a, V b) const { return e.divf(a, b); }
  V neg(V a) const { return e.negf(a); }
  V log(V a) const { return math::LogOp::create(e.b, e.loc, a); }
  V log1p(V a) const { return math::Log1pOp::create(e.b, e.loc, a); }
  V exp(V a) const { return e.exp(a); }
  V sqrt(V a) const { return math::SqrtOp::create(e.b, e.loc, a); }
  V sin(V a) const { return math::SinOp::create(e.b, e.loc, a); }
  V cos(V a) const { return math::CosOp::create(e.b, e.loc, a); }
  V floor(V a) const { return math::FloorOp::create(e.b, e.loc, a); }
  V abs(V a) const { return e.absf(a); }
  V pow(V a, V b) const { return math::PowFOp::create(e.b, e.loc, a, b); }
  V rem(V a, V b) const { return arith::RemFOp::create(e.b, e.loc, a, b); }
  V copysign(V a, V b) const { return math::CopySignOp::create(e.b, e.loc, a, b); }
  B lt(V a, V b) const { return e.cmpf(CmpFPredicate::OLT, a, b); }
  B le(V a, V b) const { return e.cmpf(CmpFPredicate::OLE, a, b); }
  B gt(V a, V b) const { return e.cmpf(CmpFPredicate::OGT, a, b); }
  B ge(V a, V b) const { return e.cmpf(CmpFPredicate::OGE, a, b); }
  B eq(V a, V b) const { return e.cmpf(CmpFPredicate::OEQ, a, b); }
  B ne(V a, V b) const { return e.cmpf(CmpFPredicate::UNE, a, b); }
  B isinf(V a) const { return e.cmpf(CmpFPredicate::OEQ, e.absf(a), c(std::numeric_limits<double>::infinity())); }
  B isnan(V a) const { return e.isNan(a); }
  B and_(B a, B b) const { return e.andi(a, b); }
  B or_(B a, B b) const { return e.ori(a, b); }
  B not_(B a) const { return e.xori(a, e.intC(a.getType(), 1)); }
  V select(B p, V a, V b) const { return e.select(p, a, b); }
  V eps() const { return e.floatC(t, epsilon()); }
  V largest() const { return arith::ConstantOp::create(e.b, e.loc, e.b.getFloatAttr(t, APFloat::getLargest(semantics()))); }
  bool f64() const { return t.isF64(); }
  // 2^(1 - precision): the gap between 1 and the next value (2^-23 for f32, 2^-52 for f64).
  double epsilon() const { return std::ldexp(1.0, 1 - static_cast<int>(APFloat::semanticsPrecision(semantics()))); }
  V tiny() const { return arith::ConstantOp::create(e.b, e.loc, e.b.getFloatAttr(t, APFloat::getSmallestNormalized(semantics()))); }
  // An scf.while over (active, state...): each element iterates until its own step says stop.
  template <size_t N, class Step> std::array<V, N> loop(B active, const std::array<V, N>& init, Step step) const {
    SmallVector<Value> inits{active};
    inits.append(init.begin(), init.end());
    TypeRange types{ValueRange(inits)};
    auto w = scf::WhileOp::create(
        e.b, e.loc, types, inits,
        [&](OpBuilder& b, Location l, ValueRange args) { scf::ConditionOp::create(b, l, args[0], args); },
        [&](OpBuilder& b, Location, ValueRange args) {
          OpBuilder::InsertionGuard guard(e.b);
          e.b.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
          std::array<V, N> state;
          for (size_t i = 0; i < N; ++i) state[i] = args[i + 1];
          auto [more, next] = step(state);
          SmallVector<Value> yields{more};
          yields.append(next.begin(), next.end());
          scf::YieldOp::create(e.b, e.loc, yields);
        });
    std::array<V, N> out;
    for (size_t i = 0; i < N; ++i) out[i] = w.getResult(i + 1);
    return out;
  }

 private:
  const llvm::fltSemantics& semantics() const { return cast<FloatType>(t).getFloatSemantics(); }
};
}  // namespace

Value lgamma(Emitter& e, Value x) {
  MlirOps o{e, x.getType()};
  return ::strata::gamma_lanczos::lgamma(o, x);
}

Value digamma(Emitter& e, Value x) {
  MlirOps o{e, x.getType()};
  return ::strata::gamma_lanczos::digamma(o, x);
}

Value igamma(Emitter& e, Value a, Value x) {
  MlirOps o{e, a.getType()};
  return ::strata::incomplete_gamma::igamma(o, a, x);
}
Value igammac(Emitter& e, Value a, Value x) {
  MlirOps o{e, a.getType()};
  return ::strata::incomplete_gamma::igammac(o, a, x);
}
Value igammaGradA(Emitter& e, Value a, Value x) {
  MlirOps o{e, a.getType()};
  return ::strata::incomplete_gamma::igamma_grad_a(o, a, x);
}
Value randomGammaGrad(Emitter& e, Value a, Value x) {
  MlirOps o{e, a.getType()};
  return ::strata::incomplete_gamma::random_gamma_grad(o, a, x);
}
Value besselI0e(Emitter& e, Value x) {
  MlirOps o{e, x.getType()};
  return ::strata::bessel_i::i0e(o, x);
}
Value besselI1e(Emitter& e, Value x) {
  MlirOps o{e, x.getType()};
  return ::strata::bessel_i::i1e(o, x);
}
Value zeta(Emitter& e, Value x, Value q) {
  MlirOps o{e, x.getType()};
  return ::strata::zeta_fn::zeta(o, x, q);
}
Value betainc(Emitter& e, Value a, Value b, Value x) {
  MlirOps o{e, a.getType()};
  return ::strata::incomplete_beta::betainc(o, a, b, x);
}
Value polygamma(Emitter& e, Value n, Value x) {
  MlirOps o{e, n.getType()};
  return ::strata::zeta_fn::polygamma(o, n, x);
}

// nextafter.cpp's step, on the stored bits in integer ops only: LLVM legalises bf16 selects
// through f32 on x86 and lost a subnormal's sign that way.
Value reducePrecision(Emitter& e, Value x, int64_t exponentBits, int64_t mantissaBits) {
  // XLA's algorithm (tracer/primitives/reduce_precision.cpp has the same on C++ integers).
  auto t = cast<FloatType>(x.getType());
  const int64_t width = t.getWidth(), srcMantissa = t.getFPMantissaWidth() - 1;
  const int64_t srcExponent = width - 1 - srcMantissa;
  Type it = e.b.getIntegerType(width);
  Value bits = e.bitcast(it, x);
  if (mantissaBits < srcMantissa) {
    // Round to nearest, ties to even, at the last kept mantissa bit; clear the rest.
    const int64_t shift = srcMantissa - mantissaBits;
    APInt last = APInt::getOneBitSet(width, shift);
    APInt bias = last.lshr(1) - 1;
    Value lastBit = e.shrui(e.andi(bits, e.intC(it, last)), e.intC(it, shift));
    bits = e.andi(e.addi(bits, e.addi(lastBit, e.intC(it, bias))), e.intC(it, ~(last - 1)));
  }
  if (exponentBits < srcExponent) {
    // Beyond the reduced format's largest exponent: infinity; at or below its smallest: zero.
    const int64_t srcBias = (int64_t{1} << (srcExponent - 1)) - 1, bias = (int64_t{1} << (exponentBits - 1)) - 1;
    APInt expMask = APInt::getBitsSet(width, srcMantissa, width - 1);
    APInt signMask = APInt::getSignMask(width);
    Value exponent = e.andi(bits, e.intC(it, expMask));
    Value over = e.cmpi(arith::CmpIPredicate::ugt, exponent, e.intC(it, APInt(width, srcBias + bias) << srcMantissa));
    Value under = e.cmpi(arith::CmpIPredicate::ule, exponent, e.intC(it, APInt(width, srcBias - bias) << srcMantissa));
    Value zero = e.andi(bits, e.intC(it, signMask));
    Value inf = e.ori(zero, e.intC(it, expMask));
    bits = e.select(under, zero, e.select(over, inf, bits));
  }
  Value r = e.bitcast(t, bits);
  return e.select(e.isNan(x), x, r);  // nans unchanged (XLA's CPU code, JAX 0.10.2, keeps them)
}

Value nextAfter(Emitter& e, Value x, Value y) {
  if (auto f8 = float8Format(x.getType())) return float8NextAfter(e, x, y, *f8);
  auto t = cast<FloatType>(x.getType());
  unsigned width = t.getWidth(), mantissa = t.getFPMantissaWidth() - 1;
  Type bitsType = e.b.getIntegerType(width);
  APInt sign = APInt::getSignMask(width), abs = ~sign;
  APInt inf = abs & ~APInt::getLowBitsSet(width, mantissa), quiet = APInt::getOneBitSet(width, mantissa - 1);
  if (!APFloat::semanticsHasInf(t.getFloatSemantics())) inf = abs - 1;  // e4m3fn: above 0x7E is nan
  Value bx = e.bitcast(bitsType, x), by = e.bitcast(bitsType, y);
  Value ax = e.andi(bx, e.intC(bitsType, abs)), ay = e.andi(by, e.intC(bitsType, abs));
  Value signBit = e.intC(bitsType, sign), zero = e.intC(bitsType, 0), one = e.intC(bitsType, 1);
  Value sx = e.andi(bx, signBit), sy = e.andi(by, signBit);
  Value up = e.andi(e.cmpi(CmpIPredicate::eq, sx, sy), e.cmpi(CmpIPredicate::ugt, ay, ax));
  Value r = e.select(up, e.addi(bx, one), e.subi(bx, one));
  Value xZero = e.cmpi(CmpIPredicate::eq, ax, zero), yZero = e.cmpi(CmpIPredicate::eq, ay, zero);
  r = e.select(xZero, e.ori(sy, one), r);
  r = e.select(e.ori(e.cmpi(CmpIPredicate::eq, bx, by), e.andi(xZero, yZero)), by, r);
  Value infC = e.intC(bitsType, inf), quietC = e.intC(bitsType, quiet);
  r = e.select(e.cmpi(CmpIPredicate::ugt, ay, infC), e.ori(by, quietC), r);
  r = e.select(e.cmpi(CmpIPredicate::ugt, ax, infC), e.ori(bx, quietC), r);
  return e.bitcast(t, r);
}

// max/min propagating nan (max.cpp, min.cpp with Eigen::PropagateNaN): IEEE 754-2019's
// maximum/minimum (llvm.maximum), which LLVM vectorises, reductions included. The one
// difference from the eager kernel is the sign of a ±0 tie, which Eigen itself answers
// differently in its vector and scalar paths; nan propagates either way.
Value floatMax(Emitter& e, Value x, Value y, bool max) {
  if (max) return arith::MaximumFOp::create(e.b, e.loc, x, y);
  return arith::MinimumFOp::create(e.b, e.loc, x, y);
}

Value complexMax(Emitter& e, Value x, Value y, bool max) {
  CmpFPredicate beyond = max ? CmpFPredicate::OGT : CmpFPredicate::OLT;
  auto ct = cast<ComplexType>(x.getType());
  Value xr = complex::ReOp::create(e.b, e.loc, x), yr = complex::ReOp::create(e.b, e.loc, y);
  Value xi = complex::ImOp::create(e.b, e.loc, x), yi = complex::ImOp::create(e.b, e.loc, y);
  Value sameRe = e.cmpf(CmpFPredicate::OEQ, xr, yr), sameIm = e.cmpf(CmpFPredicate::OEQ, xi, yi);
  Value pick = e.select(sameRe, e.cmpf(beyond, xi, yi), e.cmpf(beyond, xr, yr));
  // Equal but for the signs of zeros: the partwise IEEE extremum (+0 over -0 for max).
  Value tie = complex::CreateOp::create(e.b, e.loc, ct, floatMax(e, xr, yr, max), floatMax(e, xi, yi, max));
  Value r = e.select(e.andi(sameRe, sameIm), tie, e.select(pick, x, y));
  Value anyNan = e.ori(e.cmpf(CmpFPredicate::UNO, xr, xi), e.cmpf(CmpFPredicate::UNO, yr, yi));
  return e.select(anyNan, complexC(e, ct, NAN, NAN), r);
}

Value complexSqrt(Emitter& e, Value z) {
  auto ct = cast<ComplexType>(z.getType());
  Type p = ct.getElementType();
  Value x = complex::ReOp::create(e.b, e.loc, z), y = complex::ImOp::create(e.b, e.loc, z);
  Value half = e.floatC(p, 0.5), zero = e.floatC(p, 0.0), inf = e.floatC(p, INFINITY);
  // |z| is inf when x is, y nan too (C's hypot; the complex dialect's abs says nan), so that
  // √(-inf + nan·i) is nan ± inf·i, as C's csqrt (an infinite y is mended below).
  Value r = e.select(e.cmpf(CmpFPredicate::OEQ, e.absf(x), inf), inf, complex::AbsOp::create(e.b, e.loc, z));
  Value t = math::SqrtOp::create(e.b, e.loc, e.addf(arith::MulFOp::create(e.b, e.loc, e.absf(x), half),
                                                    arith::MulFOp::create(e.b, e.loc, r, half)));
  Value twoT = e.addf(t, t);
  Value nonneg = e.cmpf(CmpFPredicate::OGE, x, zero);
  Value re = e.select(nonneg, t, e.divf(e.absf(y), twoT));
  Value im = e.select(nonneg, e.divf(y, twoT), math::CopySignOp::create(e.b, e.loc, t, y));
  Value isZero = e.andi(e.cmpf(CmpFPredicate::OEQ, x, zero), e.cmpf(CmpFPredicate::OEQ, y, zero));
  re = e.select(isZero, zero, re);
  im = e.select(isZero, y, im);
  Value yInf = e.cmpf(CmpFPredicate::OEQ, e.absf(y), inf);
  re = e.select(yInf, inf, re);
  im = e.select(yInf, y, im);
  return complex::CreateOp::create(e.b, e.loc, ct, re, im);
}

namespace {
// The parts of a complex value, and one made of parts.
struct Parts {
  Value re, im;
};
Parts parts(Emitter& e, Value z) { return {complex::ReOp::create(e.b, e.loc, z), complex::ImOp::create(e.b, e.loc, z)}; }
Value make(Emitter& e, Type t, Value re, Value im) { return complex::CreateOp::create(e.b, e.loc, t, re, im); }
Value mulf(Emitter& e, Value x, Value y) { return arith::MulFOp::create(e.b, e.loc, x, y); }
Value subf(Emitter& e, Value x, Value y) { return arith::SubFOp::create(e.b, e.loc, x, y); }
// i·z = -im z + (re z)·i, and -i·z = im z - (re z)·i.
Value timesI(Emitter& e, Value z) {
  Parts p = parts(e, z);
  return make(e, z.getType(), e.negf(p.im), p.re);
}
Value timesMinusI(Emitter& e, Value z) {
  Parts p = parts(e, z);
  return make(e, z.getType(), p.im, e.negf(p.re));
}
// √(c + s·z) for c = ±1 and s = ±1 (complexSqrt, as sqrt computes), as parts.
Parts sqrtOf(Emitter& e, Value z, double c, double s) {
  auto t = cast<ComplexType>(z.getType());
  Parts p = parts(e, z);
  Value re = e.addf(e.floatC(t.getElementType(), c), s > 0 ? p.re : e.negf(p.re));
  Value im = s > 0 ? p.im : e.negf(p.im);
  return parts(e, complexSqrt(e, make(e, t, re, im)));
}
Value atan2(Emitter& e, Value y, Value x) { return math::Atan2Op::create(e.b, e.loc, y, x); }
Value asinh(Emitter& e, Value x) { return math::AsinhOp::create(e.b, e.loc, x); }
// u + v and its rounding error (Knuth's two-sum).
Value twoSum(Emitter& e, Value u, Value v, Value& err) {
  Value s = e.addf(u, v), w = subf(e, s, u);
  err = e.addf(subf(e, u, subf(e, s, w)), subf(e, v, w));
  return s;
}
// a + x² + y² for an exact a, compensated: the eager kernels' sum_of_squares_plus
// (tracer/kernels/complex_math.h), the same operations.
Value sumOfSquaresPlus(Emitter& e, Value a, Value x, Value y) {
  Value p = mulf(e, x, x), ep = math::FmaOp::create(e.b, e.loc, x, x, e.negf(p));
  Value q = mulf(e, y, y), eq = math::FmaOp::create(e.b, e.loc, y, y, e.negf(q));
  Value e1, e2;
  Value t = twoSum(e, twoSum(e, a, p, e1), q, e2);
  return e.addf(t, e.addf(e.addf(e.addf(e1, e2), ep), eq));
}
}  // namespace

namespace {
// csinh(x + iy) (odd) or ccosh(x + iy) as glibc computes them (the eager kernels' std::sinh and
// std::cosh), as parts: sinh|x|·cos y and cosh|x|·sin y with the odd factor's sign, so small
// parts keep their precision (the complex dialect's (e^x ∓ e^-x)/2 cancels: sin(1 + 1e-5i) lost
// three digits of its imaginary part, and all of it at 1e-20); above t = ⌊(max_exp - 1)·ln 2⌋,
// e^(|x| - t)·(e^t/2)·(cos y, sin y), so a result that fits does not overflow on the way
// (cosh 89 is finite in f32, e^89 is not); C99 Annex G's values at infinite and nan parts.
Parts sinhOrCosh(Emitter& e, Value x, Value y, bool isSinh) {
  Type p = x.getType();
  const double t = p.isF64() ? 709 : 88;
  Value zero = e.floatC(p, 0), one = e.floatC(p, 1), inf = e.floatC(p, INFINITY), nan = e.floatC(p, NAN);
  Value ax = e.absf(x), ay = e.absf(y);
  Value negative = e.cmpf(CmpFPredicate::OLT, math::CopySignOp::create(e.b, e.loc, one, x), zero);
  Value s = math::SinOp::create(e.b, e.loc, y), c = math::CosOp::create(e.b, e.loc, y);
  if (isSinh)
    c = e.select(negative, e.negf(c), c);
  else
    s = e.select(negative, e.negf(s), s);
  Value sh = math::SinhOp::create(e.b, e.loc, ax), ch = math::CoshOp::create(e.b, e.loc, ax);
  Value re = mulf(e, isSinh ? sh : ch, c), im = mulf(e, isSinh ? ch : sh, s);
  // The scaled path, as glibc's: e^t once more above 2t, the largest finite value above 3t.
  Value tC = e.floatC(p, t), expT = e.floatC(p, std::exp(t)), halfExpT = e.floatC(p, std::exp(t) / 2);
  Value r = subf(e, ax, tC), cs = mulf(e, c, halfExpT), ss = mulf(e, s, halfExpT);
  Value twice = e.cmpf(CmpFPredicate::OGT, r, tC);
  r = e.select(twice, subf(e, r, tC), r);
  cs = e.select(twice, mulf(e, cs, expT), cs);
  ss = e.select(twice, mulf(e, ss, expT), ss);
  Value scale = e.select(e.cmpf(CmpFPredicate::OGT, r, tC), MlirOps{e, p}.largest(), math::ExpOp::create(e.b, e.loc, r));
  Value scaled = e.cmpf(CmpFPredicate::OGT, ax, tC);
  re = e.select(scaled, mulf(e, scale, cs), re);
  im = e.select(scaled, mulf(e, scale, ss), im);
  // Annex G (glibc's branches): x finite, y not; x infinite; x nan.
  Value xFinite = e.cmpf(CmpFPredicate::OLT, ax, inf), yFinite = e.cmpf(CmpFPredicate::OLT, ay, inf);
  Value xInf = e.cmpf(CmpFPredicate::OEQ, ax, inf), xZero = e.cmpf(CmpFPredicate::OEQ, x, zero);
  Value yZero = e.cmpf(CmpFPredicate::OEQ, y, zero);
  Value yMinusY = subf(e, y, y);
  Value infRe, infIm;  // x infinite
  if (isSinh) {
    infRe = e.select(yFinite, e.select(yZero, x, math::CopySignOp::create(e.b, e.loc, inf, c)), inf);
    infIm = e.select(yFinite, e.select(yZero, y, math::CopySignOp::create(e.b, e.loc, inf, s)), yMinusY);
  } else {
    infRe = e.select(e.andi(yFinite, e.cmpf(CmpFPredicate::UNE, y, zero)), math::CopySignOp::create(e.b, e.loc, inf, c), inf);
    Value yTimesSign = e.select(negative, e.negf(y), y);
    infIm = e.select(yFinite, e.select(yZero, yTimesSign, math::CopySignOp::create(e.b, e.loc, inf, s)), yMinusY);
  }
  Value edgeRe = isSinh ? e.select(xZero, x, nan) : yMinusY;  // x finite, y not
  Value edgeIm = isSinh ? yMinusY : e.select(xZero, zero, nan);
  Value yBad = e.andi(xFinite, e.cmpf(CmpFPredicate::UGE, ay, inf));
  re = e.select(xFinite, e.select(yBad, edgeRe, re), e.select(xInf, infRe, nan));
  im = e.select(xFinite, e.select(yBad, edgeIm, im), e.select(xInf, infIm, e.select(yZero, y, nan)));
  return {re, im};
}
}  // namespace

Value complexSinh(Emitter& e, Value z) {
  Parts p = parts(e, z), r = sinhOrCosh(e, p.re, p.im, true);
  return make(e, z.getType(), r.re, r.im);
}

Value complexCosh(Emitter& e, Value z) {
  Parts p = parts(e, z), r = sinhOrCosh(e, p.re, p.im, false);
  return make(e, z.getType(), r.re, r.im);
}

Value complexSin(Emitter& e, Value z) {
  Parts p = parts(e, z), r = sinhOrCosh(e, e.negf(p.im), p.re, true);  // sinh(iz) = a + bi
  // sin z = b - ai; where Annex G leaves the sign of an infinite imaginary part open (a nan
  // real part beside it), glibc's csin says +inf.
  Value im = e.negf(r.re);
  Value inf = e.floatC(r.re.getType(), INFINITY);
  im = e.select(e.andi(e.cmpf(CmpFPredicate::UNO, r.im, r.im), e.cmpf(CmpFPredicate::OEQ, e.absf(im), inf)),
                inf, im);
  return make(e, z.getType(), r.im, im);
}

Value complexCos(Emitter& e, Value z) {
  Parts p = parts(e, z), r = sinhOrCosh(e, e.negf(p.im), p.re, false);  // cos z = cosh(iz)
  return make(e, z.getType(), r.re, r.im);
}

namespace {
// ctanh(x + iy) as glibc computes it (the eager kernel's std::tanh), as parts:
// (sinh x·cosh x + i·sin y·cos y)/(sinh²x + cos²y), whose denominator does not cancel near
// tan's poles as cosh 2x + cos 2y does (the complex dialect's formula: tan(1.5708 + 1e-4i) off by
// 8e-5); above t = ⌊(max_exp - 1)·ln 2 / 2⌋, ±1 + i·4·sin y·cos y/e^2|x|; Annex G's edges.
Parts tanhParts(Emitter& e, Value x, Value y) {
  Type p = x.getType();
  const double t = p.isF64() ? 354 : 44;
  const double eps = MlirOps{e, p}.epsilon();
  Value zero = e.floatC(p, 0), one = e.floatC(p, 1), inf = e.floatC(p, INFINITY), nan = e.floatC(p, NAN);
  Value ax = e.absf(x), ay = e.absf(y);
  Value s = math::SinOp::create(e.b, e.loc, y), c = math::CosOp::create(e.b, e.loc, y);
  Value sh = math::SinhOp::create(e.b, e.loc, x), ch = math::CoshOp::create(e.b, e.loc, x);
  Value cc = mulf(e, c, c), sc = mulf(e, s, c);
  Value den = e.select(e.cmpf(CmpFPredicate::OGT, e.absf(sh), mulf(e, e.absf(c), e.floatC(p, eps))),
                       e.addf(mulf(e, sh, sh), cc), cc);
  Value re = e.divf(mulf(e, sh, ch), den), im = e.divf(sc, den);
  // |x| > t: the imaginary part divided by e^2t, then by e^2(|x| - t) or (beyond 2t) e^2t again.
  Value tC = e.floatC(p, t), exp2T = e.floatC(p, std::exp(2 * t));
  Value r = subf(e, ax, tC);
  Value second = e.select(e.cmpf(CmpFPredicate::OGT, r, tC), exp2T, math::ExpOp::create(e.b, e.loc, e.addf(r, r)));
  Value farIm = e.divf(e.divf(mulf(e, e.floatC(p, 4), sc), exp2T), second);
  Value sign = math::CopySignOp::create(e.b, e.loc, one, x);
  Value far = e.cmpf(CmpFPredicate::OGT, ax, tC);
  re = e.select(far, sign, re);
  im = e.select(far, farIm, im);
  // Annex G: x infinite: ±1 + ±0i (the zero's sign that of sin y·cos y for a finite |y| > 1, else
  // y's); else y = 0 (x nan): z itself; else (y not finite, or x nan): x if it is 0, else nan, and
  // nan.
  Value xFinite = e.cmpf(CmpFPredicate::OLT, ax, inf), yFinite = e.cmpf(CmpFPredicate::OLT, ay, inf);
  Value xInf = e.cmpf(CmpFPredicate::OEQ, ax, inf);
  Value infIm = math::CopySignOp::create(
      e.b, e.loc, zero, e.select(e.andi(yFinite, e.cmpf(CmpFPredicate::OGT, ay, one)), sc, y));
  Value yZero = e.cmpf(CmpFPredicate::OEQ, y, zero);
  Value edgeRe = e.select(xInf, sign, e.select(yZero, x, e.select(e.cmpf(CmpFPredicate::OEQ, x, zero), x, nan)));
  Value edgeIm = e.select(xInf, infIm, e.select(yZero, y, nan));
  Value finite = e.andi(xFinite, yFinite);
  return {e.select(finite, re, edgeRe), e.select(finite, im, edgeIm)};
}
}  // namespace

Value complexTanh(Emitter& e, Value z) {
  Parts p = parts(e, z), r = tanhParts(e, p.re, p.im);
  return make(e, z.getType(), r.re, r.im);
}

Value complexTan(Emitter& e, Value z) {
  Parts p = parts(e, z), r = tanhParts(e, e.negf(p.im), p.re);  // tanh(iz) = a + bi, tan z = b - ai
  return make(e, z.getType(), r.im, e.negf(r.re));
}

Value complexAsin(Emitter& e, Value z) {
  Parts a = sqrtOf(e, z, 1, -1), b = sqrtOf(e, z, 1, 1), p = parts(e, z);
  Value re = atan2(e, p.re, subf(e, mulf(e, a.re, b.re), mulf(e, a.im, b.im)));  // atan2(x, re(a·b))
  Value im = asinh(e, subf(e, mulf(e, a.re, b.im), mulf(e, a.im, b.re)));        // asinh(im(conj(a)·b))
  return make(e, z.getType(), re, im);
}

Value complexAcos(Emitter& e, Value z) {
  Parts a = sqrtOf(e, z, 1, -1), b = sqrtOf(e, z, 1, 1);
  Value t = atan2(e, a.re, b.re);
  Value re = e.addf(t, t);
  Value im = asinh(e, subf(e, mulf(e, b.re, a.im), mulf(e, b.im, a.re)));  // asinh(im(conj(b)·a))
  return make(e, z.getType(), re, im);
}

Value complexAcosh(Emitter& e, Value z) {
  Parts a = sqrtOf(e, z, -1, 1), b = sqrtOf(e, z, 1, 1);
  Value re = asinh(e, e.addf(mulf(e, a.re, b.re), mulf(e, a.im, b.im)));  // asinh(re(conj(a)·b))
  Value t = atan2(e, a.im, b.re);
  return make(e, z.getType(), re, e.addf(t, t));
}

Value complexAsinh(Emitter& e, Value z) { return timesMinusI(e, complexAsin(e, timesI(e, z))); }

Value complexAtanh(Emitter& e, Value z) {
  Parts p = parts(e, z);
  Value x = p.re, y = p.im;
  Type t = x.getType();
  const double eps = MlirOps{e, t}.epsilon();
  Value zero = e.floatC(t, 0), half = e.floatC(t, 0.5), one = e.floatC(t, 1), nan = e.floatC(t, NAN);
  Value inf = e.floatC(t, INFINITY), eps2 = e.floatC(t, eps * eps);
  Value ax = e.absf(x), ay = e.absf(y);
  Value halfPi = math::CopySignOp::create(e.b, e.loc, e.floatC(t, M_PI / 2), y);
  auto lt = [&](Value u, Value v) { return e.cmpf(CmpFPredicate::OLT, u, v); };
  auto ge = [&](Value u, Value v) { return e.cmpf(CmpFPredicate::OGE, u, v); };
  // Far out (|x| or |y| at least 16/eps): 1/z's real part ± iπ/2.
  Value h = complex::AbsOp::create(e.b, e.loc, make(e, z.getType(), mulf(e, x, half), mulf(e, y, half)));
  Value farRe = e.select(e.cmpf(CmpFPredicate::OLE, ay, one), e.divf(one, x),
                         e.select(e.cmpf(CmpFPredicate::OLE, ax, one), e.divf(e.divf(x, y), y),
                                  e.divf(e.divf(e.divf(x, h), h), e.floatC(t, 4))));
  Value bigC = e.floatC(t, 16 / eps);
  Value far = e.ori(ge(ax, bigC), ge(ay, bigC));
  // Real part: ¼·log(|1 + z|²/|1 - z|²), as log1p(4x/|1 - z|²) where that ratio is at least ½.
  Value i2 = e.select(ge(ay, eps2), mulf(e, y, y), zero);
  Value onePlus = e.addf(one, x), oneMinus = subf(e, one, x);
  Value num = e.addf(i2, mulf(e, onePlus, onePlus)), den = e.addf(i2, mulf(e, oneMinus, oneMinus));
  Value f = e.divf(num, den);
  Value quarter = e.floatC(t, 0.25);
  Value re = mulf(e, quarter, e.select(lt(f, half), math::LogOp::create(e.b, e.loc, f),
                                       math::Log1pOp::create(e.b, e.loc, e.divf(mulf(e, e.floatC(t, 4), x), den))));
  Value atOne = e.andi(e.cmpf(CmpFPredicate::OEQ, ax, one), lt(ay, eps2));  // x = ±1, y tiny
  Value oneRe = mulf(e, math::CopySignOp::create(e.b, e.loc, half, x),
                     subf(e, e.floatC(t, M_LN2), math::LogOp::create(e.b, e.loc, ay)));
  re = e.select(atOne, oneRe, re);
  // Imaginary part: ½·atan2(2y, 1 - |z|²), 1 - |z|² without cancellation.
  Value m = arith::MaximumFOp::create(e.b, e.loc, ax, ay), n = arith::MinimumFOp::create(e.b, e.loc, ax, ay);
  Value d1 = mulf(e, subf(e, one, m), e.addf(one, m));
  Value dA = e.select(e.cmpf(CmpFPredicate::OEQ, d1, zero), zero, d1);  // +0, not -0
  Value dB = subf(e, d1, mulf(e, n, n));
  Value dC = e.negf(sumOfSquaresPlus(e, e.floatC(t, -1), m, n));
  Value d = e.select(lt(n, e.floatC(t, eps / 2)), dA,
                     e.select(ge(m, one), dB, e.select(e.ori(ge(m, e.floatC(t, 0.75)), ge(n, half)), dC, dB)));
  Value im = mulf(e, half, atan2(e, e.addf(y, y), d));
  re = e.select(far, farRe, re);
  im = e.select(far, halfPi, im);
  // Annex G (glibc's catanh): y infinite: ±0 ± iπ/2; x infinite or 0 (y nan, or finite beside
  // an infinite x): ±0 and ±π/2 or nan; other nans: nan; 0 + 0i: z.
  Value yInf = e.cmpf(CmpFPredicate::OEQ, ay, inf), xInf = e.cmpf(CmpFPredicate::OEQ, ax, inf);
  Value xZero = e.cmpf(CmpFPredicate::OEQ, x, zero), yFinite = lt(ay, inf);
  Value signedZero = math::CopySignOp::create(e.b, e.loc, zero, x);
  Value axisLike = e.ori(xInf, xZero);
  Value edgeRe = e.select(e.ori(yInf, axisLike), signedZero, nan);
  Value edgeIm = e.select(yInf, halfPi, e.select(axisLike, e.select(yFinite, halfPi, nan), nan));
  Value finite = e.andi(lt(ax, inf), yFinite);
  Value bothZero = e.andi(xZero, e.cmpf(CmpFPredicate::OEQ, y, zero));
  re = e.select(finite, e.select(bothZero, x, re), edgeRe);
  im = e.select(finite, e.select(bothZero, y, im), edgeIm);
  return make(e, z.getType(), re, im);
}
Value complexAtan(Emitter& e, Value z) { return timesMinusI(e, complexAtanh(e, timesI(e, z))); }

Value complexLog(Emitter& e, Value z) {
  Parts p = parts(e, z);
  Value ax = e.absf(p.re), ay = e.absf(p.im);
  Value m = arith::MaximumFOp::create(e.b, e.loc, ax, ay), n = arith::MinimumFOp::create(e.b, e.loc, ax, ay);
  Type t = ax.getType();
  Value s = sumOfSquaresPlus(e, e.floatC(t, -1), m, n);  // |z|² - 1
  Value nearOne = e.andi(e.cmpf(CmpFPredicate::OGE, s, e.floatC(t, -0.5)), e.cmpf(CmpFPredicate::OLE, s, e.floatC(t, 1)));
  Value nearRe = mulf(e, e.floatC(t, 0.5), math::Log1pOp::create(e.b, e.loc, s));
  Value w = complex::LogOp::create(e.b, e.loc, z);
  Parts q = parts(e, w);
  return make(e, z.getType(), e.select(nearOne, nearRe, q.re), q.im);
}

Value complexLog1p(Emitter& e, Value z) {
  Parts p = parts(e, z);
  Type t = p.re.getType();
  Value r = sumOfSquaresPlus(e, e.addf(p.re, p.re), p.re, p.im);
  Value nearOne = e.cmpf(CmpFPredicate::OLT, e.absf(r), e.floatC(t, 0.5));
  Value nearRe = e.divf(math::Log1pOp::create(e.b, e.loc, r), e.floatC(t, 2));
  Parts q = parts(e, complex::Log1pOp::create(e.b, e.loc, z));
  return make(e, z.getType(), e.select(nearOne, nearRe, q.re), q.im);
}

Value complexExpm1(Emitter& e, Value z) {
  Parts p = parts(e, z);
  Type t = p.re.getType();
  Value s = math::SinOp::create(e.b, e.loc, mulf(e, p.im, e.floatC(t, 0.5)));
  Value re = subf(e, mulf(e, math::ExpM1Op::create(e.b, e.loc, p.re), math::CosOp::create(e.b, e.loc, p.im)),
                  mulf(e, mulf(e, e.floatC(t, 2), s), s));
  Value im = mulf(e, math::ExpOp::create(e.b, e.loc, p.re), math::SinOp::create(e.b, e.loc, p.im));
  return make(e, z.getType(), re, im);
}

Value complexRsqrt(Emitter& e, Value z) {
  auto ct = cast<ComplexType>(z.getType());
  Type t = ct.getElementType();
  Value s = complexSqrt(e, z);
  Value q = complex::DivOp::create(e.b, e.loc, complexC(e, ct, 1.0, 0.0), s);
  // 1/s for an s with an infinite part (√(±inf + nan·i)) as C's Annex G divides (eager's
  // 1/std::sqrt): c' = copysign(isinf(c) ? 1 : 0, c) for each part c of s, then 0·(1·c' + 0·d')
  // + 0·(0·c' - 1·d')·i; the complex division gives nan there.
  Value sr = complex::ReOp::create(e.b, e.loc, s), si = complex::ImOp::create(e.b, e.loc, s);
  Value zero = e.floatC(t, 0.0), one = e.floatC(t, 1.0), inf = e.floatC(t, INFINITY);
  Value rInf = e.cmpf(CmpFPredicate::OEQ, e.absf(sr), inf), iInf = e.cmpf(CmpFPredicate::OEQ, e.absf(si), inf);
  Value c = math::CopySignOp::create(e.b, e.loc, e.select(rInf, one, zero), sr);
  Value d = math::CopySignOp::create(e.b, e.loc, e.select(iInf, one, zero), si);
  auto mul = [&](Value x, Value y) { return arith::MulFOp::create(e.b, e.loc, x, y).getResult(); };
  Value re = mul(zero, e.addf(c, mul(zero, d)));
  Value im = mul(zero, arith::SubFOp::create(e.b, e.loc, mul(zero, c), d));
  return e.select(e.ori(rInf, iInf), complex::CreateOp::create(e.b, e.loc, ct, re, im), q);
}

// logistic.cpp: 1 / (1 + exp(-x)) inside ±lim; outside (and nan), e / (1 + e) or 1 / (1 + e)
// with e = exp(-|x|).
Value logistic(Emitter& e, Value x) {
  Type t = x.getType();
  if (auto ct = dyn_cast<ComplexType>(t)) {  // 1 / (1 + e^-x), as the eager kernel
    Value one = complexC(e, ct, 1.0, 0.0);
    Value ex = complex::ExpOp::create(e.b, e.loc, complex::NegOp::create(e.b, e.loc, x));
    return complex::DivOp::create(e.b, e.loc, one, complex::AddOp::create(e.b, e.loc, one, ex));
  }
  Value one = e.floatC(t, 1.0);
  double lim = t.isF32() ? 80.0 : 700.0;
  Value inRange = e.cmpf(CmpFPredicate::OLE, e.absf(x), e.floatC(t, lim));
  Value direct = e.divf(one, e.addf(one, e.exp(e.negf(x))));
  Value ex = e.exp(e.negf(e.absf(x)));
  Value onePlus = e.addf(one, ex);
  Value far = e.select(e.cmpf(CmpFPredicate::OLT, x, e.floatC(t, 0.0)), e.divf(ex, onePlus),
                       e.divf(one, onePlus));
  return e.select(inRange, direct, far);
}

// sign.cpp: ±1 by sign; ±0 and nan pass through (floats), 0 (integers).
Value sign(Emitter& e, Value x, bool uns) {
  Type t = x.getType();
  if (uns) return arith::ExtUIOp::create(e.b, e.loc, t, e.cmpi(CmpIPredicate::ne, x, e.intC(t, 0)));
  if (isFloat(t)) {
    Value zero = e.floatC(t, 0.0);
    return e.select(e.cmpf(CmpFPredicate::OGT, x, zero), e.floatC(t, 1.0),
                    e.select(e.cmpf(CmpFPredicate::OLT, x, zero), e.floatC(t, -1.0), x));
  }
  Value zero = e.intC(t, 0);
  return e.select(e.cmpi(CmpIPredicate::sgt, x, zero), e.intC(t, 1),
                  e.select(e.cmpi(CmpIPredicate::slt, x, zero), e.intC(t, -1), zero));
}

Value compare(Emitter& e, ComparisonDirection d, Value x, Value y, std::optional<ComparisonType> type) {
  Type t = x.getType();
  if (isa<ComplexType>(t)) {  // EQ and NE only (the verifier): both parts equal
    if (d == ComparisonDirection::NE) return complex::NotEqualOp::create(e.b, e.loc, x, y);
    return complex::EqualOp::create(e.b, e.loc, x, y);
  }
  if (isFloat(t) && type == ComparisonType::TOTALORDER) {
    // The bits as a signed integer, with a negative number's magnitude bits flipped, order
    // floats totally: -nan < -inf < ... < -0 < +0 < ... < inf < nan.
    unsigned width = t.getIntOrFloatBitWidth();
    Type it = e.b.getIntegerType(width);
    auto key = [&](Value v) {
      Value bits = e.bitcast(it, v);
      Value sign = arith::ShRSIOp::create(e.b, e.loc, bits, e.intC(it, width - 1));
      return e.xori(bits, e.andi(sign, e.intC(it, APInt::getSignedMaxValue(width))));
    };
    return compare(e, d, key(x), key(y), ComparisonType::SIGNED);
  }
  if (isFloat(t)) {
    // Ordered, except NE: comparisons with nan are false, nan != anything is true.
    CmpFPredicate p = d == ComparisonDirection::EQ   ? CmpFPredicate::OEQ
                      : d == ComparisonDirection::NE ? CmpFPredicate::UNE
                      : d == ComparisonDirection::LT ? CmpFPredicate::OLT
                      : d == ComparisonDirection::LE ? CmpFPredicate::OLE
                      : d == ComparisonDirection::GT ? CmpFPredicate::OGT
                                                     : CmpFPredicate::OGE;
    return e.cmpf(p, x, y);
  }
  bool u = isBool(t) || type == ComparisonType::UNSIGNED;  // bool: false < true
  CmpIPredicate p = d == ComparisonDirection::EQ   ? CmpIPredicate::eq
                    : d == ComparisonDirection::NE ? CmpIPredicate::ne
                    : d == ComparisonDirection::LT ? (u ? CmpIPredicate::ult : CmpIPredicate::slt)
                    : d == ComparisonDirection::LE ? (u ? CmpIPredicate::ule : CmpIPredicate::sle)
                    : d == ComparisonDirection::GT ? (u ? CmpIPredicate::ugt : CmpIPredicate::sgt)
                                                   : (u ? CmpIPredicate::uge : CmpIPredicate::sge);
  return e.cmpi(p, x, y);
}

}  // namespace scalar

bool unsignedOperands(Operation* op) {
  if (op->hasAttr(kUnsignedAttr)) return true;
  return op->getNumOperands() > 0 && getElementTypeOrSelf(op->getOperand(0).getType()).isUnsignedInteger();
}

bool unsignedResult(Operation* op) {
  if (op->hasAttr(kUnsignedResultAttr)) return true;
  return op->getNumResults() > 0 && getElementTypeOrSelf(op->getResult(0).getType()).isUnsignedInteger();
}

Type signless(Type t) {
  if (auto shaped = dyn_cast<ShapedType>(t)) {
    Type element = signless(shaped.getElementType());
    return element == shaped.getElementType() ? t : shaped.clone(element);
  }
  if (auto i = dyn_cast<IntegerType>(t); i && !i.isSignless())
    return IntegerType::get(t.getContext(), i.getWidth());
  return t;
}

namespace {

using ::strata::kernels::Float8Format;
using ::strata::kernels::Float8Specials;

// float8_is_nan (float8.h) on the bits, widened to i32.
Value float8IsNan(Emitter& e, Value w, const Float8Format& f) {
  Type i32 = e.b.getI32Type();
  auto c = [&](int64_t v) { return e.intC(i32, v); };
  switch (f.specials) {
    case Float8Specials::kIEEE: return e.cmpi(CmpIPredicate::ugt, e.andi(w, c(0x7F)), c(f.inf_bits()));
    case Float8Specials::kFN: return e.cmpi(CmpIPredicate::eq, e.andi(w, c(0x7F)), c(0x7F));
    case Float8Specials::kFNUZ: return e.cmpi(CmpIPredicate::eq, w, c(0x80));
    case Float8Specials::kE8M0: return e.cmpi(CmpIPredicate::eq, w, c(0xFF));
    case Float8Specials::kNone: break;
  }
  return e.intC(e.b.getI1Type(), 0);
}

// The stored bits (an iN of the format's width) zero-extended to i32, and back.
Value float8Bits(Emitter& e, Value stored, const Float8Format& f) {
  return arith::ExtUIOp::create(e.b, e.loc, e.b.getI32Type(), e.bitcast(e.b.getIntegerType(f.bits), stored));
}
Value float8FromBits(Emitter& e, Value w, Type storage, const Float8Format& f) {
  return e.bitcast(storage, arith::TruncIOp::create(e.b, e.loc, e.b.getIntegerType(f.bits), w));
}

// float8_to_float (float8.h) on the stored bits: the exact f32.
Value float8ToF32(Emitter& e, Value stored, const Float8Format& f) {
  Type i32 = e.b.getI32Type();
  auto c = [&](int64_t v) { return e.intC(i32, v); };
  Value w = float8Bits(e, stored, f);
  if (f.specials == Float8Specials::kE8M0) {  // 2^(w - 127); 0 is 2^-127, an f32 subnormal
    Value r = e.select(e.cmpi(CmpIPredicate::eq, w, c(0)), c(0x00400000), e.shli(w, c(23)));
    return e.bitcast(e.b.getF32Type(), e.select(float8IsNan(e, w, f), c(0x7FC00000), r));
  }
  Value sign = e.shli(e.andi(w, c(f.sign_bit())), c(32 - f.bits));
  Value mag = e.andi(w, c(f.magnitude_mask()));
  Value exp = e.andi(e.shrui(w, c(f.mant_bits)), c((1 << f.exp_bits) - 1));
  Value mant = e.andi(w, c((1 << f.mant_bits) - 1));
  Value normal = e.ori(e.shli(e.addi(exp, c(127 - f.bias)), c(23)), e.shli(mant, c(23 - f.mant_bits)));
  Value sub = arith::MulFOp::create(e.b, e.loc, arith::UIToFPOp::create(e.b, e.loc, e.b.getF32Type(), mant),
                                    e.floatC(e.b.getF32Type(), std::ldexp(1.0, 1 - f.bias - f.mant_bits)));
  Value r = e.select(e.cmpi(CmpIPredicate::eq, exp, c(0)), e.bitcast(i32, sub), normal);
  if (f.ieee()) r = e.select(e.cmpi(CmpIPredicate::eq, mag, c(f.inf_bits())), c(0x7F800000), r);
  if (f.has_nan()) r = e.select(float8IsNan(e, w, f), c(0x7FC00000), r);
  return e.bitcast(e.b.getF32Type(), e.ori(sign, r));
}

// float_to_float8 (float8.h): round to nearest even on the f32 bits; an overflow gives inf, nan
// or the largest number as the format has them; nan as ml_dtypes converts it. Every path is
// computed and one selected (vectorisable).
Value f32ToFloat8(Emitter& e, Value x, Type storage, const Float8Format& f) {
  Type i32 = e.b.getI32Type();
  auto c = [&](int64_t v) { return e.intC(i32, v); };
  Value bits = e.bitcast(i32, x);
  Value a = e.andi(bits, c(0x7FFFFFFF));
  Value negative = e.cmpi(CmpIPredicate::ne, e.shrui(bits, c(31)), c(0));
  Value nanIn = e.cmpi(CmpIPredicate::ugt, a, c(0x7F800000));
  if (f.specials == Float8Specials::kE8M0) {  // half up on the exponent; 0, < 0, inf, nan: nan
    Value r = e.shrui(e.addi(a, c(0x400000)), c(23));
    Value sub = e.select(e.cmpi(CmpIPredicate::uge, a, c(0x600000)), c(1), c(0));
    r = e.select(e.cmpi(CmpIPredicate::ult, a, c(0x800000)), sub, r);
    Value none = e.ori(e.ori(e.cmpi(CmpIPredicate::eq, a, c(0)), negative), e.cmpi(CmpIPredicate::uge, a, c(0x7F800000)));
    r = e.select(e.ori(none, e.cmpi(CmpIPredicate::ugt, r, c(0xFE))), c(0xFF), r);
    return float8FromBits(e, r, storage, f);
  }
  const int64_t shift = 23 - f.mant_bits, minNormal = 128 - f.bias;
  Value sign = e.select(negative, c(f.sign_bit()), c(0));
  Value exp = e.shrui(a, c(23));
  Value rebased = e.subi(a, c((127 - f.bias) << 23));
  Value rn = e.shrui(e.addi(rebased, e.addi(c((1 << (shift - 1)) - 1), e.andi(e.shrui(rebased, c(shift)), c(1)))), c(shift));
  Value hasExp = e.cmpi(CmpIPredicate::ne, exp, c(0));
  Value m = e.ori(e.andi(a, c(0x7FFFFF)), e.select(hasExp, c(0x800000), c(0)));
  // The subnormal's shift, kept in [1, 31] (outside the subnormal range it is not selected).
  Value s = e.subi(c(shift + minNormal), arith::MaxUIOp::create(e.b, e.loc, exp, c(1)));
  s = arith::MaxUIOp::create(e.b, e.loc, arith::MinUIOp::create(e.b, e.loc, s, c(31)), c(1));
  Value half = e.subi(e.shli(c(1), e.subi(s, c(1))), c(1));
  Value rs = e.shrui(e.addi(m, e.addi(half, e.andi(e.shrui(m, s), c(1)))), s);
  Value r = e.select(e.cmpi(CmpIPredicate::uge, exp, c(minNormal)), rn, rs);
  const bool fnuz = f.specials == Float8Specials::kFNUZ;
  Value overflow = fnuz ? c(f.nan_bits())
                        : e.ori(sign, c(f.has_inf() ? f.inf_bits() : f.has_nan() ? f.nan_bits() : f.max_bits()));
  Value result = e.ori(sign, r);
  if (fnuz) result = e.select(e.cmpi(CmpIPredicate::eq, r, c(0)), c(0), result);  // no -0
  result = e.select(e.cmpi(CmpIPredicate::ugt, r, c(f.max_bits())), overflow, result);  // inf too
  Value nanOut = !f.has_nan() ? e.xori(sign, c(f.sign_bit())) : fnuz ? c(f.nan_bits()) : e.ori(sign, c(f.nan_bits()));
  return float8FromBits(e, e.select(nanIn, nanOut, result), storage, f);
}

// scalar::nextAfter for a byte float: tracer/primitives/nextafter.cpp's step8.
Value float8NextAfter(Emitter& e, Value x, Value y, const Float8Format& f) {
  Type i32 = e.b.getI32Type();
  auto c = [&](int64_t v) { return e.intC(i32, v); };
  Value bx = float8Bits(e, x, f), by = float8Bits(e, y, f);
  Value one = c(1);
  Value r;
  if (!f.has_sign()) {
    r = e.select(e.cmpi(CmpIPredicate::ugt, by, bx), e.addi(bx, one), e.subi(bx, one));
    r = e.select(e.cmpi(CmpIPredicate::eq, bx, by), by, r);
  } else {
    Value abs = c(f.magnitude_mask()), signBit = c(f.sign_bit());
    Value ax = e.andi(bx, abs), ay = e.andi(by, abs), sx = e.andi(bx, signBit), sy = e.andi(by, signBit);
    Value up = e.andi(e.cmpi(CmpIPredicate::eq, sx, sy), e.cmpi(CmpIPredicate::ugt, ay, ax));
    r = e.select(up, e.addi(bx, one), e.subi(bx, one));
    if (f.specials == Float8Specials::kFNUZ) r = e.select(e.cmpi(CmpIPredicate::eq, r, c(0x80)), c(0), r);
    Value xZero = e.cmpi(CmpIPredicate::eq, ax, c(0)), yZero = e.cmpi(CmpIPredicate::eq, ay, c(0));
    r = e.select(xZero, e.ori(sy, one), r);
    r = e.select(e.ori(e.cmpi(CmpIPredicate::eq, bx, by), e.andi(xZero, yZero)), by, r);
  }
  if (f.has_nan()) {
    Value quiet = c(f.ieee() ? 1 << (f.mant_bits - 1) : 0);
    r = e.select(float8IsNan(e, by, f), e.ori(by, quiet), r);
    r = e.select(float8IsNan(e, bx, f), e.ori(bx, quiet), r);
  }
  return float8FromBits(e, r, x.getType(), f);
}

}  // namespace

Type computeType(Type storage) {
  if (storage.isBF16() || storage.isF16() || float8Format(storage)) return Float32Type::get(storage.getContext());
  return storage;
}

Value toCompute(OpBuilder& b, Location loc, Value stored) {
  Type t = stored.getType();
  Emitter e{b, loc};
  if (t.isBF16()) {  // the bf16 bits are the high half of the f32's
    Value bits = e.bitcast(b.getI16Type(), stored);
    Value wide = arith::ExtUIOp::create(b, loc, b.getI32Type(), bits);
    return e.bitcast(b.getF32Type(), e.shli(wide, e.intC(b.getI32Type(), 16)));
  }
  if (t.isF16()) return arith::ExtFOp::create(b, loc, b.getF32Type(), stored);
  if (auto f8 = float8Format(t)) return float8ToF32(e, stored, *f8);
  return stored;
}

Value toStorage(OpBuilder& b, Location loc, Value computed, Type storage) {
  Emitter e{b, loc};
  if (storage.isBF16()) {
    // Round to nearest even on the f32 bits (Eigen's float_to_bfloat16_rtne); nan stays a
    // quiet nan of the same sign. Integer code rather than an fptrunc: x86's vcvtneps2bf16
    // flushes subnormals.
    Type i32 = b.getI32Type();
    Value bits = e.bitcast(i32, computed);
    Value lsb = e.andi(e.shrui(bits, e.intC(i32, 16)), e.intC(i32, 1));
    Value rounded = e.shrui(e.addi(bits, e.addi(e.intC(i32, 0x7FFF), lsb)), e.intC(i32, 16));
    Value nan = e.ori(e.andi(e.shrui(bits, e.intC(i32, 16)), e.intC(i32, 0x8000)), e.intC(i32, 0x7FC0));
    Value half = e.select(e.isNan(computed), nan, rounded);
    return e.bitcast(storage, arith::TruncIOp::create(b, loc, b.getI16Type(), half));
  }
  if (storage.isF16()) return arith::TruncFOp::create(b, loc, storage, computed);
  if (auto f8 = float8Format(storage)) return f32ToFloat8(e, computed, storage, *f8);
  return computed;
}

Value splatConstant(OpBuilder& b, Location loc, DenseElementsAttr splat) {
  if (auto ct = dyn_cast<ComplexType>(splat.getElementType())) {
    std::complex<APFloat> v = splat.getSplatValue<std::complex<APFloat>>();
    auto part = cast<FloatType>(ct.getElementType());
    return complex::ConstantOp::create(b, loc, ct, b.getArrayAttr({FloatAttr::get(part, v.real()), FloatAttr::get(part, v.imag())}));
  }
  return arith::ConstantOp::create(b, loc, cast<TypedAttr>(splat.getSplatValue<Attribute>()));
}

Value zeroConstant(OpBuilder& b, Location loc, Type type) {
  if (auto ct = dyn_cast<ComplexType>(type)) {
    Attribute zero = b.getZeroAttr(ct.getElementType());
    return complex::ConstantOp::create(b, loc, ct, b.getArrayAttr({zero, zero}));
  }
  return arith::ConstantOp::create(b, loc, cast<TypedAttr>(b.getZeroAttr(type)));
}

Value emitConvert(OpBuilder& b, Location loc, Value v, Type from, Type to, bool fromUnsigned,
                  bool toUnsigned) {
  Emitter e{b, loc};
  fromUnsigned = fromUnsigned || from.isUnsignedInteger();
  toUnsigned = toUnsigned || to.isUnsignedInteger();
  from = signless(from);
  to = signless(to);
  if (from == to) return v;  // i32 ↔ u32 too: the same bits
  // Complex numbers (tracer/kernels/types.h, convert_value): to complex, the value and 0i (or
  // each part converted); from complex, the real part (to bool too, as StableHLO's convert).
  auto cfromT = dyn_cast<ComplexType>(from), ctoT = dyn_cast<ComplexType>(to);
  if (cfromT && ctoT) {
    Type pf = cfromT.getElementType(), pt = ctoT.getElementType();
    Value re = emitConvert(b, loc, complex::ReOp::create(b, loc, v), pf, pt, false, false);
    Value im = emitConvert(b, loc, complex::ImOp::create(b, loc, v), pf, pt, false, false);
    return complex::CreateOp::create(b, loc, to, re, im);
  }
  if (cfromT) {
    Type pf = cfromT.getElementType();
    Value re = complex::ReOp::create(b, loc, v);
    return emitConvert(b, loc, re, pf, to, false, toUnsigned);
  }
  if (ctoT) {
    Type pt = ctoT.getElementType();
    Value re = emitConvert(b, loc, v, from, pt, fromUnsigned, false);
    return complex::CreateOp::create(b, loc, to, re, e.floatC(pt, 0.0));
  }
  Type cfrom = computeType(from), cto = computeType(to);
  if (isBool(to)) {
    if (isFloat(from)) return e.cmpf(CmpFPredicate::UNE, v, e.floatC(cfrom, 0.0));
    return e.cmpi(CmpIPredicate::ne, v, e.intC(cfrom, 0));
  }
  if (isBool(from)) {
    if (isFloat(to)) return arith::UIToFPOp::create(b, loc, cto, v);
    return arith::ExtUIOp::create(b, loc, cto, v);
  }
  if (isFloat(from) && !isFloat(to)) return toUnsigned ? floatToUint(e, v, to) : floatToInt(e, v, to);
  if (!isFloat(from) && isFloat(to)) {
    unsigned w = from.getIntOrFloatBitWidth();
    if (cto != to && w > 16) return intRoundToOddF32(e, v, fromUnsigned);  // one rounding to bf16/f16
    if (fromUnsigned) return arith::UIToFPOp::create(b, loc, cto, v);
    return arith::SIToFPOp::create(b, loc, cto, v);  // 8/16-bit integers are exact in f32
  }
  if (isFloat(from)) {  // float → float, in compute types
    if (cfrom == cto) return v;  // f32, bf16, f16 among themselves: toStorage rounds
    if (cfrom.isF32() && cto.isF64()) return arith::ExtFOp::create(b, loc, cto, v);
    if (cto != to) return roundToOddF32(e, v);  // f64 → bf16/f16
    return arith::TruncFOp::create(b, loc, cto, v);  // f64 → f32
  }
  // int → int: sign- or zero-extended by the source's signedness, or truncated.
  if (cfrom.getIntOrFloatBitWidth() < cto.getIntOrFloatBitWidth()) {
    if (fromUnsigned) return arith::ExtUIOp::create(b, loc, cto, v);
    return arith::ExtSIOp::create(b, loc, cto, v);
  }
  return arith::TruncIOp::create(b, loc, cto, v);
}

Value emitScalar(OpBuilder& b, Location loc, Operation* op, ValueRange args, bool reassociate) {
  auto scalarOp = dyn_cast<ScalarOpInterface>(op);
  if (!scalarOp) return {};
  Value r = scalarOp.buildScalar(b, loc, args, getElementTypeOrSelf(op->getResult(0).getType()));
  // Reduction bodies: float sums and products may be reassociated, so that LLVM vectorises them.
  if (auto fm = r ? r.getDefiningOp<arith::ArithFastMathInterface>() : nullptr;
      fm && reassociate && isa<arith::AddFOp, arith::MulFOp>(fm.getOperation()))
    fm->setAttr(fm.getFastMathAttrName(),
                arith::FastMathFlagsAttr::get(b.getContext(), arith::FastMathFlags::reassoc));
  return r;
}

Value emitElement(OpBuilder& b, Location loc, ScalarOpInterface op, ValueRange stored) {
  Type element = getElementTypeOrSelf(op->getResult(0).getType());
  if (op.movesStoredBits()) return op.buildScalar(b, loc, stored, element);
  SmallVector<Value> in;
  for (Value v : stored) in.push_back(toCompute(b, loc, v));
  return toStorage(b, loc, op.buildScalar(b, loc, in, element), element);
}

}  // namespace mlir::strata
