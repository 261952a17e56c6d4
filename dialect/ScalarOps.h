// dialect/ScalarOps.h — the scalar semantics of the `strata` elementwise ops, as arith/math
// code: what each element of a loop nest computes. Each op's own body is in its ODS record
// (ScalarOpInterface::buildScalar, StrataOps.td); the helpers here hold the longer ones and the
// rules every op shares, restating the eager kernels (tracer/primitives/*.cpp):
//  - integer div x/0 = -1, INT_MIN/-1 = INT_MIN; rem x%0 = x, INT_MIN%-1 = 0 (no trap);
//  - float → int conversion truncates and saturates, nan → 0; to bool is `!= 0`;
//  - max/min propagate nan; sign keeps ±0 and nan; shift_right_logical by ≥ width gives 0;
//  - bf16 and f16 compute in f32 and round to nearest even on store (toStorage), with one
//    rounding for f64/int → bf16/f16 (through f32 rounded to odd, as kernels::convert_value).
//  - unsigned integers (ui8 .. ui64): div/rem/max/min/compare/pow/sign unsigned, conversions
//    zero-extend, float → unsigned saturates to [0, 2^w - 1].
// Include from compiler-side files only.
#pragma once

#include "dialect/StrataOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"

namespace mlir::strata {

// Unsigned integers. The dialect's types say it (ui8 .. ui64, as StableHLO) until the lowering
// erases signedness (lowering/EraseSignedness.cpp: arith and LLVM know only signless
// integers), which first records it on each op that computes on unsigned values: the unit
// attribute `strata.unsigned` (its integer operands are unsigned) and, on convert,
// `strata.unsigned_result`.
inline constexpr llvm::StringLiteral kUnsignedAttr = "strata.unsigned";
inline constexpr llvm::StringLiteral kUnsignedResultAttr = "strata.unsigned_result";
// On a strata.host_callback: which of its operands, then results, were unsigned (EraseSignedness).
inline constexpr llvm::StringLiteral kUnsignedBuffersAttr = "strata.unsigned_buffers";
bool unsignedOperands(Operation* op);
bool unsignedResult(Operation* op);
// `t` (a scalar or shaped type) with an unsigned integer element type made signless.
Type signless(Type t);

// The type an element of `storage` type is computed in: f32 for bf16 and f16, else itself.
Type computeType(Type storage);
// A stored element as its compute type (exact).
Value toCompute(OpBuilder& b, Location loc, Value stored);
// A computed value rounded to `storage` (bf16/f16: nearest even; others: unchanged).
Value toStorage(OpBuilder& b, Location loc, Value computed, Type storage);

// The element of the elementwise `op` from its operands' stored elements: computed in the
// compute types and rounded to the result's storage type (or moved, when op.movesStoredBits()).
Value emitElement(OpBuilder& b, Location loc, ScalarOpInterface op, ValueRange stored);
// `op`'s buildScalar on compute-type `args`, or null for an op without scalar semantics.
// `reassociate` lets float add/multiply be reassociated (reduction bodies, so that LLVM can
// vectorise them).
Value emitScalar(OpBuilder& b, Location loc, Operation* op, ValueRange args,
                 bool reassociate = false);

// Element conversion with convert_element_type's rules, from a value of compute type of
// `from` to the compute type of `to`; an integer type is unsigned when it says so or its flag
// does (after EraseSignedness the types are signless).
// The element of a splat constant as a scalar op: arith.constant, or complex.constant for
// complex numbers (whose splat element is no TypedAttr).
Value splatConstant(OpBuilder& b, Location loc, DenseElementsAttr splat);
// 0 of a scalar type (0 + 0i for a complex type).
Value zeroConstant(OpBuilder& b, Location loc, Type type);

Value emitConvert(OpBuilder& b, Location loc, Value v, Type from, Type to,
                  bool fromUnsigned = false, bool toUnsigned = false);

namespace scalar {

// Small helpers over one builder and location, for the ODS scalar bodies.
struct Emitter {
  OpBuilder& b;
  Location loc;

  Value intC(Type t, int64_t v) { return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v)); }
  Value intC(Type t, const APInt& v) { return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v)); }
  Value floatC(Type t, double v) { return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v)); }
  Value cmpf(arith::CmpFPredicate p, Value x, Value y) { return arith::CmpFOp::create(b, loc, p, x, y); }
  Value cmpi(arith::CmpIPredicate p, Value x, Value y) { return arith::CmpIOp::create(b, loc, p, x, y); }
  Value select(Value c, Value x, Value y) { return arith::SelectOp::create(b, loc, c, x, y); }
  Value andi(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value ori(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value xori(Value x, Value y) { return arith::XOrIOp::create(b, loc, x, y); }
  Value addi(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value subi(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value muli(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value shli(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
  Value shrui(Value x, Value y) { return arith::ShRUIOp::create(b, loc, x, y); }
  Value bitcast(Type t, Value v) { return arith::BitcastOp::create(b, loc, t, v); }
  Value isNan(Value v) { return cmpf(arith::CmpFPredicate::UNO, v, v); }
  Value divf(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value addf(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value negf(Value x) { return arith::NegFOp::create(b, loc, x); }
  Value exp(Value x) { return math::ExpOp::create(b, loc, x); }
  Value absf(Value x) { return math::AbsFOp::create(b, loc, x); }
};

// Integer x / y and x % y that never trap (div.cpp, rem.cpp): signed, or unsigned (`uns`).
Value intDiv(Emitter& e, Value x, Value y, bool uns = false);
Value intRem(Emitter& e, Value x, Value y, bool uns = false);
// Integer x^y; y < 0 gives 0 unless |x| = 1 (pow.cpp).
Value intPow(Emitter& e, Value x, Value y, bool uns = false);
// x^y for a static y by repeated squaring; 1 / x^|y| for y < 0 on floats (integer_pow.cpp).
Value integerPow(Emitter& e, Value x, int64_t y);
// The inverse error function by Giles' polynomials (tracer/erf_inv_poly.h, erf_inv.cpp).
Value erfInv(Emitter& e, Value x);
// log|Γ(x)| and ψ(x) by the Lanczos approximation, lgamma by a series between 1/2 and 7/2
// (tracer/gamma_lanczos.h, lgamma.cpp, digamma.cpp).
Value lgamma(Emitter& e, Value x);
Value digamma(Emitter& e, Value x);
// The regularized incomplete gamma functions P(a, x) and Q(a, x), ∂P/∂a and the implicit
// derivative of a Gamma(a, 1) sample (tracer/incomplete_gamma.h, igamma.cpp …): a loop per
// element (scf.while) until the series or continued fraction converges.
Value igamma(Emitter& e, Value a, Value x);
Value igammac(Emitter& e, Value a, Value x);
Value igammaGradA(Emitter& e, Value a, Value x);
Value randomGammaGrad(Emitter& e, Value a, Value x);
// e^-|x| I0(x) and e^-|x| I1(x) by Chebyshev expansions (tracer/bessel_i.h).
Value besselI0e(Emitter& e, Value x);
Value besselI1e(Emitter& e, Value x);
// The Hurwitz zeta function ζ(x, q) and polygamma ψ⁽ⁿ⁾(x) (tracer/zeta.h).
Value zeta(Emitter& e, Value x, Value q);
Value polygamma(Emitter& e, Value n, Value x);
// The regularized incomplete beta function I_x(a, b) (tracer/incomplete_beta.h): a loop per
// element (scf.while) until the continued fraction converges.
Value betainc(Emitter& e, Value a, Value b, Value x);
// x rounded to a float format of `exponentBits` and `mantissaBits` (reduce_precision), on stored
// floats of any width, as XLA computes it.
Value reducePrecision(Emitter& e, Value x, int64_t exponentBits, int64_t mantissaBits);
// The next representable value after x towards y, on stored floats of any width (nextafter.cpp).
Value nextAfter(Emitter& e, Value x, Value y);
// x >> y shifting in zeros; 0 for y outside [0, width) (shift_right_logical.cpp).
Value shiftLeft(Emitter& e, Value x, Value y);
Value shiftRightLogical(Emitter& e, Value x, Value y);
// Float max (or min) propagating nan (max.cpp, min.cpp).
Value floatMax(Emitter& e, Value x, Value y, bool max);
// Complex max (or min) in the lexicographic order of (real, imaginary), as JAX lowers lax.max
// and StableHLO defines it, made commutative and associative for reductions: nan + nan·i if
// either has a nan part; partwise IEEE max (min) for values equal but for zeros' signs
// (tracer/kernels/complex_math.h's complex_extremum, the eager twin).
Value complexMax(Emitter& e, Value x, Value y, bool max);
// 1 / (1 + exp(-x)) without overflow (logistic.cpp).
Value logistic(Emitter& e, Value x);
// The principal square root of a complex z as C's csqrt computes it (the eager kernel's
// std::sqrt): t = sqrt(|x|/2 + |z|/2), then (t, y/2t) for x >= 0 and (|y|/2t, ±t) otherwise,
// so sqrt(-1) is exactly i (MLIR's complex.sqrt leaves 6e-17 in the real part); an infinite
// imaginary part gives (inf, y), 0 gives (0, y).
Value complexSqrt(Emitter& e, Value z);
// 1 / complexSqrt(z) (rsqrt(-1) is exactly -i).
Value complexRsqrt(Emitter& e, Value z);
// sinh, cosh, sin and cos of a complex z as glibc computes them (C's csinh etc., the eager
// kernels): from the real sinh, cosh, sin, cos and exp of the parts, accurate at small parts
// and finite wherever the result is, with C99 Annex G's values at infinite and nan parts;
// sin(z) = -i·sinh(i·z), cos(z) = cosh(i·z).
Value complexSinh(Emitter& e, Value z);
Value complexCosh(Emitter& e, Value z);
Value complexSin(Emitter& e, Value z);
Value complexCos(Emitter& e, Value z);
// tanh and tan likewise (glibc's ctanh; tan(z) = -i·tanh(i·z)): no cancellation near tan's poles.
Value complexTanh(Emitter& e, Value z);
Value complexTan(Emitter& e, Value z);
// The inverse functions by Kahan's formulas ("Branch cuts for complex elementary functions"),
// on square roots of 1 ± z: no overflow for any finite z, the cuts and signed zeros of C99's
// casin etc.; atanh as glibc's catanh (¼·log1p(4x/|1 - z|²) + ½·i·atan2(2y, 1 - |z|²), that
// denominator compensated; (log1p(z) - log1p(-z))/2 cancelled in a part small beside the other:
// 1e9 ulps at -8e-7 + 31i); atan(z) = -i·atanh(i·z), asinh(z) = -i·asin(i·z).
Value complexAsin(Emitter& e, Value z);
Value complexAcos(Emitter& e, Value z);
Value complexAtan(Emitter& e, Value z);
Value complexAsinh(Emitter& e, Value z);
Value complexAcosh(Emitter& e, Value z);
Value complexAtanh(Emitter& e, Value z);
// log(z): the complex dialect's, but for the real part where |z| is near 1: ½·log1p(x² + y² - 1)
// with that sum compensated (log|z| cancelled there: 4e3 ulps at -0.299 + 0.954i), as glibc.
Value complexLog(Emitter& e, Value z);
// log1p(z): ½·log1p(2x + x² + y²) where that is below ½, compensated, else the complex
// dialect's; expm1(z): (expm1(x)·cos y - 2 sin²(y/2)) + i·e^x·sin y. Both the eager kernels'
// formulas (tracer/kernels/complex_math.h): the dialect's expm1 took e^x as expm1(x) + 1, 0 for
// x below -17 in f32, so expm1(-45 - 0.0025i)'s imaginary part was 0.
Value complexLog1p(Emitter& e, Value z);
Value complexExpm1(Emitter& e, Value z);
// ±1 by sign, keeping ±0 and nan (sign.cpp); 0 or 1 for unsigned.
Value sign(Emitter& e, Value x, bool uns = false);
// The comparison `d` (ordered for floats except NE; bool as false < true), in the order
// `type` names when given (TOTALORDER: floats by their total-order key; UNSIGNED: integers).
Value compare(Emitter& e, ComparisonDirection d, Value x, Value y,
              std::optional<ComparisonType> type = std::nullopt);

}  // namespace scalar
}  // namespace mlir::strata
