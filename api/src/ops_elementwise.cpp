// Elementwise ops: arithmetic, math, comparisons, logic, where and astype.
#include <cmath>

#include "op_helpers.h"
#include "strata/composites.h"
#include "shape_rules.h"

namespace strata {

using lax::bind1;
using api::promote_binary;

namespace {

Array binary(const Primitive& p, std::string_view op, const Array& a, const Array& b,
             const SourceLocation& loc) {
  auto [x, y] = promote_binary(op, a, b, loc);
  return bind1(p, {x, y}, {}, loc);
}

// Float math: integer and bool operands are promoted to f32 first, as jnp does.
Array float_unary(const Primitive& p, std::string_view op, const Array& x, const SourceLocation& loc) {
  return bind1(p, {api::to_inexact(x, op, loc)}, {}, loc);
}

void require_int_or_bool(std::string_view op, const Array& x) {
  const AbstractValue& av = api::aval(x, op);
  if (is_inexact(av.dtype))
    throw DTypeError(std::string(op) + ": expects bool or integer operands, but got " + av.str());
}

Array as_bool(const Array& x, std::string_view op, const SourceLocation& loc) {
  const AbstractValue& av = api::aval(x, op);
  if (av.dtype == DType::bool_) return x;
  return bind1(prim::kNe, {x, api::convert(Array(0), {av.dtype, true}, loc)}, {}, loc);
}

}  // namespace

namespace {
// On bools (after promotion), as in NumPy and jnp: add and maximum are logical or, multiply and
// minimum logical and.
Array bool_aware(const Primitive& p, const Primitive& on_bool, std::string_view op, const Array& a,
                 const Array& b, const SourceLocation& loc) {
  auto [x, y] = promote_binary(op, a, b, loc);
  return bind1(api::aval(x, op).dtype == DType::bool_ ? on_bool : p, {x, y}, {}, loc);
}
}  // namespace

Array add(const Array& a, const Array& b, SourceLocation loc) { return bool_aware(prim::kAdd, prim::kOr, "add", a, b, loc); }
Array subtract(const Array& a, const Array& b, SourceLocation loc) { return binary(prim::kSub, "subtract", a, b, loc); }
Array multiply(const Array& a, const Array& b, SourceLocation loc) { return bool_aware(prim::kMul, prim::kAnd, "multiply", a, b, loc); }
Array maximum(const Array& a, const Array& b, SourceLocation loc) { return bool_aware(prim::kMax, prim::kOr, "maximum", a, b, loc); }
Array minimum(const Array& a, const Array& b, SourceLocation loc) { return bool_aware(prim::kMin, prim::kAnd, "minimum", a, b, loc); }
Array power(const Array& a, const Array& b, SourceLocation loc) { return binary(prim::kPow, "power", a, b, loc); }
Array fmod(const Array& a, const Array& b, SourceLocation loc) { return binary(prim::kRem, "fmod", a, b, loc); }

// jnp.remainder: the truncating remainder r, plus y where r is nonzero and its sign differs
// from y's (floor modulo); unsigned integers need no correction.
Array remainder(const Array& a, const Array& b, SourceLocation loc) {
  auto [x, y] = promote_binary("remainder", a, b, loc);
  Array r = bind1(prim::kRem, {x, y}, {}, loc);
  DType t = api::aval(r, "remainder").dtype;
  if (is_unsigned_integer(t)) return r;
  Array zero = api::convert(Array(0), {t, false}, loc);
  Array sign_differs = bind1(prim::kNe, {bind1(prim::kLt, {r, zero}, {}, loc), bind1(prim::kLt, {y, zero}, {}, loc)}, {}, loc);
  Array fix = bind1(prim::kAnd, {bind1(prim::kNe, {r, zero}, {}, loc), sign_differs}, {}, loc);
  return bind1(prim::kSelect, {fix, bind1(prim::kAdd, {r, y}, {}, loc), r}, {}, loc);
}

// Integers: the truncating quotient, one less where the remainder's sign differs from the
// divisor's (x // 0 is XLA's div by zero: -1 for signed, all ones unsigned, as jnp). Floats:
// JAX's _float_divmod, round((x - fmod) / y) corrected the same way.
Array floor_divide(const Array& a, const Array& b, SourceLocation loc) {
  auto [x, y] = promote_binary("floor_divide", a, b, loc);
  DType t = api::aval(x, "floor_divide").dtype;
  if (is_complex(t) || is_bool(t))
    throw DTypeError("floor_divide: expects real numbers, but got " + api::aval(a, "floor_divide").str() + " and " +
                     api::aval(b, "floor_divide").str());
  Array zero = api::convert(Array(0), {t, false}, loc), one = api::convert(Array(1), {t, false}, loc);
  Array mod = bind1(prim::kRem, {x, y}, {}, loc);
  Array q = is_integer(t) ? bind1(prim::kDiv, {x, y}, {}, loc)
                          : bind1(prim::kDiv, {bind1(prim::kSub, {x, mod}, {}, loc), y}, {}, loc);
  if (!is_unsigned_integer(t)) {
    Array sign_differs = bind1(prim::kNe, {bind1(prim::kLt, {mod, zero}, {}, loc), bind1(prim::kLt, {y, zero}, {}, loc)}, {}, loc);
    Array fix = bind1(prim::kAnd, {bind1(prim::kNe, {mod, zero}, {}, loc), sign_differs}, {}, loc);
    q = bind1(prim::kSelect, {fix, bind1(prim::kSub, {q, one}, {}, loc), q}, {}, loc);
  }
  return is_integer(t) ? q : round(q, RoundingMethod::to_nearest_even, loc);
}


namespace {
// A float primitive of two operands, integers promoted to a float type first (jax.lax's
// special functions take floats of one type; jnp-style promotion is the friendlier contract).
Array float_binary(const Primitive& p, const char* op, const Array& x, const Array& y, SourceLocation loc) {
  auto [a, b] = promote_binary(op, x, y, loc);
  return bind1(p, {api::to_inexact(a, op, loc), api::to_inexact(b, op, loc)}, {}, loc);
}
}  // namespace

Array atan2(const Array& y, const Array& x, SourceLocation loc) { return float_binary(prim::kAtan2, "atan2", y, x, loc); }
Array nextafter(const Array& x, const Array& y, SourceLocation loc) {
  return float_binary(prim::kNextafter, "nextafter", x, y, loc);
}
Array igamma(const Array& a, const Array& x, SourceLocation loc) { return float_binary(prim::kIgamma, "igamma", a, x, loc); }
Array igammac(const Array& a, const Array& x, SourceLocation loc) {
  return float_binary(prim::kIgammac, "igammac", a, x, loc);
}
Array igamma_grad_a(const Array& a, const Array& x, SourceLocation loc) {
  return float_binary(prim::kIgammaGradA, "igamma_grad_a", a, x, loc);
}
Array random_gamma_grad(const Array& a, const Array& x, SourceLocation loc) {
  return float_binary(prim::kRandomGammaGrad, "random_gamma_grad", a, x, loc);
}

Array zeta(const Array& x, const Array& q, SourceLocation loc) { return float_binary(prim::kZeta, "zeta", x, q, loc); }
Array polygamma(const Array& n, const Array& x, SourceLocation loc) {
  return float_binary(prim::kPolygamma, "polygamma", n, x, loc);
}

Array betainc(const Array& a, const Array& b, const Array& x, SourceLocation loc) {
  auto [pa, pb] = api::promote_inexact_dtypes("betainc", a, b, loc);
  auto [pa2, px] = api::promote_inexact_dtypes("betainc", pa, x, loc);
  std::vector<Array> abx = broadcast_arrays({pa2, astype(pb, pa2.dtype(), loc), px}, loc);
  return bind1(prim::kRegularizedIncompleteBeta, {abx[0], abx[1], abx[2]}, {}, loc);
}

// Floats and integers, not promoted; the primitive's shape rule rejects bool and a negative n on
// integers.
Array integer_pow(const Array& x, int64_t n, SourceLocation loc) {
  return bind1(prim::kIntegerPow, {x}, Params{{"y", n}}, loc);
}

Array reduce_precision(const Array& x, int64_t exponent_bits, int64_t mantissa_bits, SourceLocation loc) {
  return bind1(prim::kReducePrecision, {x}, Params{{"exponent_bits", exponent_bits}, {"mantissa_bits", mantissa_bits}},
               loc);
}

std::vector<Array> optimization_barrier(const std::vector<Array>& xs, SourceLocation loc) {
  if (xs.empty()) return {};
  return lax::bind(prim::kOptimizationBarrier, std::span<const Array>(xs), {}, loc);
}
Array optimization_barrier(const Array& x, SourceLocation loc) { return optimization_barrier(std::vector<Array>{x}, loc)[0]; }

Array divide(const Array& a, const Array& b, SourceLocation loc) {
  auto [x, y] = promote_binary("divide", a, b, loc);
  return bind1(prim::kDiv, {api::to_inexact(x, "divide", loc), api::to_inexact(y, "divide", loc)}, {}, loc);
}

Array negative(const Array& a, SourceLocation loc) {
  if (api::aval(a, "negative").dtype == DType::bool_)
    throw DTypeError("negative: expects a numeric operand, but got " + api::aval(a, "negative").str());
  return bind1(prim::kNeg, {a}, {}, loc);
}

Array operator+(const Operand& a, const Operand& b) { return add(a.value, b.value, a.loc); }
Array operator-(const Operand& a, const Operand& b) { return subtract(a.value, b.value, a.loc); }
Array operator*(const Operand& a, const Operand& b) { return multiply(a.value, b.value, a.loc); }
Array operator/(const Operand& a, const Operand& b) { return divide(a.value, b.value, a.loc); }
Array operator%(const Operand& a, const Operand& b) { return remainder(a.value, b.value, a.loc); }
Array operator-(const Operand& a) { return negative(a.value, a.loc); }

// The float math functions of strata/float_unary.def.
#define STRATA_FLOAT_UNARY(ident, name, fn) \
  Array fn(const Array& x, SourceLocation loc) { return float_unary(prim::ident, #fn, x, loc); }
#include "strata/float_unary.def"
#undef STRATA_FLOAT_UNARY
Array floor(const Array& x, SourceLocation loc) {
  if (!is_inexact(api::aval(x, "floor").dtype)) return x;  // integers are already whole
  return bind1(prim::kFloor, {x}, {}, loc);
}
Array ceil(const Array& x, SourceLocation loc) {
  if (!is_inexact(api::aval(x, "ceil").dtype)) return x;
  return bind1(prim::kCeil, {x}, {}, loc);
}
Array round(const Array& x, SourceLocation loc) { return round(x, RoundingMethod::to_nearest_even, loc); }
Array round(const Array& x, RoundingMethod method, SourceLocation loc) {
  if (!is_inexact(api::aval(x, "round").dtype)) return x;  // integers are already whole
  return bind1(prim::kRound, {x}, {{"rounding_method", static_cast<int64_t>(method)}}, loc);
}
Array is_finite(const Array& x, SourceLocation loc) {
  // Integers and bools are always finite (x == x is true for them), as jnp.isfinite.
  if (!is_inexact(api::aval(x, "is_finite").dtype)) return equal(x, x, loc);
  return bind1(prim::kIsFinite, {x}, {}, loc);
}
Array abs(const Array& x, SourceLocation loc) {
  if (api::aval(x, "abs").dtype == DType::bool_) return x;
  return bind1(prim::kAbs, {x}, {}, loc);
}
Array sign(const Array& x, SourceLocation loc) {
  if (api::aval(x, "sign").dtype == DType::bool_) return x;
  return bind1(prim::kSign, {x}, {}, loc);
}

// ---- Complex numbers ----
Array complex(const Array& re, const Array& im, SourceLocation loc) {
  for (const Array* part : {&re, &im})
    if (is_complex(api::aval(*part, "complex").dtype))
      throw DTypeError("complex: expects real parts, but got " + api::aval(*part, "complex").str());
  auto [x, y] = api::promote_binary("complex", api::to_inexact(re, "complex", loc), api::to_inexact(im, "complex", loc), loc);
  if (x.dtype() != DType::f64) {  // bf16/f16 parts widen to f32 (complex numbers have f32 or f64 parts)
    x = api::convert(x, {DType::f32, false}, loc);
    y = api::convert(y, {DType::f32, false}, loc);
  }
  return bind1(prim::kComplex, {x, y}, {}, loc);
}
Array real(const Array& x, SourceLocation loc) {
  if (!is_complex(api::aval(x, "real").dtype)) return x;
  return bind1(prim::kReal, {x}, {}, loc);
}
Array imag(const Array& x, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "imag");
  if (!is_complex(av.dtype)) return lax::zeros(av);
  return bind1(prim::kImag, {x}, {}, loc);
}
Array conj(const Array& x, SourceLocation loc) {
  if (!is_complex(api::aval(x, "conj").dtype)) return x;
  return bind1(prim::kConj, {x}, {}, loc);
}
Array angle(const Array& x, SourceLocation loc) {
  Array z = api::to_inexact(x, "angle", loc);
  return atan2(imag(z, loc), real(z, loc), loc);
}

// ---- Composites of the ops above (jnp's definitions) ----
namespace {
std::pair<Array, Array> promote_inexact(std::string_view op, const Array& a, const Array& b,
                                        const SourceLocation& loc) {
  auto [x, y] = promote_binary(op, a, b, loc);
  return {api::to_inexact(x, op, loc), api::to_inexact(y, op, loc)};
}
}  // namespace

Array log2(const Array& x, SourceLocation loc) {
  Array y = api::to_inexact(x, "log2", loc);
  return divide(log(y, loc), api::weak_scalar_like(M_LN2, y, "log2", loc), loc);
}
Array log10(const Array& x, SourceLocation loc) {
  Array y = api::to_inexact(x, "log10", loc);
  return divide(log(y, loc), api::weak_scalar_like(M_LN10, y, "log10", loc), loc);
}
Array hypot(const Array& a, const Array& b, SourceLocation loc) {
  auto [x, y] = promote_inexact("hypot", a, b, loc);
  Array ax = abs(x, loc), ay = abs(y, loc);
  Array inf = api::weak_scalar_like(INFINITY, ax, "hypot", loc), one = api::weak_scalar_like(1, ax, "hypot", loc);
  // Either operand infinite: inf, even when the other is nan (as C's hypot and jnp).
  Array any_inf = logical_or(equal(ax, inf, loc), equal(ay, inf, loc), loc);
  Array hi = maximum(ax, ay, loc), lo = minimum(ax, ay, loc);
  // Scaled by the larger magnitude, so that squaring neither overflows nor underflows.
  Array safe = where(equal(hi, api::weak_scalar_like(0, hi, "hypot", loc), loc), one, hi, loc);
  Array q = divide(lo, safe, loc);
  Array r = multiply(hi, sqrt(add(one, multiply(q, q, loc), loc), loc), loc);
  return where(any_inf, inf, r, loc);
}
Array logaddexp(const Array& a, const Array& b, SourceLocation loc) {
  auto [x, y] = promote_inexact("logaddexp", a, b, loc);
  // The larger and the other one chosen by one comparison, so that at x == y the derivative is
  // exactly 1/2 for each operand (no kink of max or abs).
  Array first = greater_equal(x, y, loc);
  Array hi = where(first, x, y, loc), lo = where(first, y, x, loc);
  Array r = add(hi, log1p(exp(subtract(lo, hi, loc), loc), loc), loc);
  // x - y is nan for a nan operand or for infinities of one sign: x + y is the answer there.
  Array d = subtract(x, y, loc);
  return where(not_equal(d, d, loc), add(x, y, loc), r, loc);
}
Array sinc(const Array& x, SourceLocation loc) {
  Array y = api::to_inexact(x, "sinc", loc);
  Array pix = multiply(api::weak_scalar_like(M_PI, y, "sinc", loc), y, loc);
  Array zero = equal(y, api::weak_scalar_like(0, y, "sinc", loc), loc);
  Array one = api::weak_scalar_like(1, y, "sinc", loc);
  Array safe = where(zero, one, pix, loc);
  // At 0 the Maclaurin polynomial 1 - (pi x)^2/6: 1, with the derivatives of sinc at 0 (0, then
  // -pi^2/3), as jnp's custom rule gives.
  Array taylor = subtract(one, divide(multiply(pix, pix, loc), api::weak_scalar_like(6, y, "sinc", loc), loc), loc);
  return where(zero, taylor, divide(sin(safe, loc), safe, loc), loc);
}

Array equal(const Array& a, const Array& b, SourceLocation loc) { return binary(prim::kEq, "equal", a, b, loc); }
Array not_equal(const Array& a, const Array& b, SourceLocation loc) { return binary(prim::kNe, "not_equal", a, b, loc); }
Array less(const Array& a, const Array& b, SourceLocation loc) { return binary(prim::kLt, "less", a, b, loc); }
Array less_equal(const Array& a, const Array& b, SourceLocation loc) { return binary(prim::kLe, "less_equal", a, b, loc); }
Array greater(const Array& a, const Array& b, SourceLocation loc) { return binary(prim::kGt, "greater", a, b, loc); }
Array greater_equal(const Array& a, const Array& b, SourceLocation loc) { return binary(prim::kGe, "greater_equal", a, b, loc); }
Array operator==(const Operand& a, const Operand& b) { return equal(a.value, b.value, a.loc); }
Array operator!=(const Operand& a, const Operand& b) { return not_equal(a.value, b.value, a.loc); }
Array operator<(const Operand& a, const Operand& b) { return less(a.value, b.value, a.loc); }
Array operator<=(const Operand& a, const Operand& b) { return less_equal(a.value, b.value, a.loc); }
Array operator>(const Operand& a, const Operand& b) { return greater(a.value, b.value, a.loc); }
Array operator>=(const Operand& a, const Operand& b) { return greater_equal(a.value, b.value, a.loc); }

// NumPy's logical ops: operands are taken as truth values (non-zero is true).
Array logical_and(const Array& a, const Array& b, SourceLocation loc) {
  return binary(prim::kAnd, "logical_and", as_bool(a, "logical_and", loc), as_bool(b, "logical_and", loc), loc);
}
Array logical_or(const Array& a, const Array& b, SourceLocation loc) {
  return binary(prim::kOr, "logical_or", as_bool(a, "logical_or", loc), as_bool(b, "logical_or", loc), loc);
}
Array logical_not(const Array& a, SourceLocation loc) {
  return bind1(prim::kNot, {as_bool(a, "logical_not", loc)}, {}, loc);
}
// The operators are bitwise, as in NumPy: bool or integer operands only.
Array operator&(const Operand& a, const Operand& b) {
  require_int_or_bool("operator&", a.value);
  require_int_or_bool("operator&", b.value);
  return binary(prim::kAnd, "operator&", a.value, b.value, a.loc);
}
Array operator|(const Operand& a, const Operand& b) {
  require_int_or_bool("operator|", a.value);
  require_int_or_bool("operator|", b.value);
  return binary(prim::kOr, "operator|", a.value, b.value, a.loc);
}
Array operator^(const Operand& a, const Operand& b) {
  require_int_or_bool("operator^", a.value);
  require_int_or_bool("operator^", b.value);
  return binary(prim::kXor, "operator^", a.value, b.value, a.loc);
}
namespace {
Array shift(const Primitive& p, std::string_view op, const Array& x, const Array& y, const SourceLocation& loc) {
  for (const Array* v : {&x, &y})
    if (!is_integer(api::aval(*v, op).dtype))
      throw DTypeError(std::string(op) + ": expects integer operands, but got " + api::aval(*v, op).str());
  return binary(p, op, x, y, loc);
}
}  // namespace
Array shift_left(const Array& x, const Array& y, SourceLocation loc) { return shift(prim::kShiftLeft, "shift_left", x, y, loc); }
Array shift_right_arithmetic(const Array& x, const Array& y, SourceLocation loc) {
  return shift(prim::kShiftRightArithmetic, "shift_right_arithmetic", x, y, loc);
}
Array shift_right_logical(const Array& x, const Array& y, SourceLocation loc) {
  return shift(prim::kShiftRightLogical, "shift_right_logical", x, y, loc);
}
namespace {
Array int_unary(const Primitive& p, std::string_view op, const Array& x, const SourceLocation& loc) {
  if (!is_integer(api::aval(x, op).dtype))
    throw DTypeError(std::string(op) + ": expects an integer operand, but got " + api::aval(x, op).str());
  return bind1(p, {x}, {}, loc);
}
}  // namespace
Array population_count(const Array& x, SourceLocation loc) { return int_unary(prim::kPopulationCount, "population_count", x, loc); }
Array clz(const Array& x, SourceLocation loc) { return int_unary(prim::kClz, "clz", x, loc); }
Array operator~(const Operand& a) {
  require_int_or_bool("operator~", a.value);
  return bind1(prim::kNot, {a.value}, {}, a.loc);
}

Array where(const Array& cond, const Array& x, const Array& y, SourceLocation loc) {
  Array c = as_bool(cond, "where", loc);
  const AbstractValue &cv = api::aval(c, "where"), &xv = api::aval(x, "where"), &yv = api::aval(y, "where");
  shape_rules::Result r = shape_rules::broadcast_shapes(xv.shape, yv.shape);
  if (r.ok()) r = shape_rules::broadcast_shapes(cv.shape, r.shape);
  if (!r.ok())
    throw ShapeError("where: shapes " + cv.str() + ", " + xv.str() + " and " + yv.str() +
                     " cannot be broadcast");
  TypeSpec t = promote_types(api::spec(x, "where"), api::spec(y, "where"));
  Array a = api::convert(x, t, loc), b = api::convert(y, t, loc);
  return bind1(prim::kSelect, {api::match_shape(c, r.shape, loc), api::match_shape(a, r.shape, loc),
                               api::match_shape(b, r.shape, loc)}, {}, loc);
}

Array astype(const Array& x, DType dtype, SourceLocation loc) {
  return api::convert(x, TypeSpec{dtype, false}, loc);
}

Array bitcast_convert_type(const Array& x, DType dtype, SourceLocation loc) {
  return bind1(prim::kBitcastConvertType, {x}, Params{{"new_dtype", dtype}}, loc);
}

}  // namespace strata
