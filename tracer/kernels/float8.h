// tracer/kernels/float8.h — the narrow floats as C++ storage types: the 8-bit f8_e4m3fn,
// f8_e5m2, f8_e4m3fnuz, f8_e5m2fnuz, f8_e4m3b11fnuz, f8_e4m3, f8_e3m4 and f8_e8m0fnu, the 6-bit
// f6_e2m3fn and f6_e3m2fn and the 4-bit f4_e2m1fn (ml_dtypes' and StableHLO's).
//
// One byte each; arithmetic converts to float (exactly) and back (rounded to nearest even),
// as Eigen::half does for f16. The conversions follow ml_dtypes (JAX's float8 types) without
// saturation: a value that rounds past the largest finite number becomes inf (e5m2) or nan
// (e4m3fn, which has no inf); only the formats with neither saturate. The compiled code's conversions
// (dialect/ScalarOps.cpp, toCompute/toStorage) are the same integer recipe, so eager and
// compiled results agree bit for bit.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace strata::kernels {

// v rounded to f32 *to odd*: exact values stay, inexact ones become the neighbour whose last
// mantissa bit is 1. Rounding that result to nearest-even in a type with at most 22 mantissa
// bits (bf16, f16, the 8-bit floats) equals rounding v directly; a plain f32 detour rounds twice
// (f64 1 + 2^-8 + 2^-30 would become bf16 1, not 1 + 2^-7).
inline float round_to_odd_f32(double v) {
  float f = static_cast<float>(v);
  if (std::isfinite(f) && static_cast<double>(f) != v) {
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    if ((bits & 1u) == 0) f = std::nextafter(f, v > static_cast<double>(f) ? INFINITY : -INFINITY);
  }
  return f;
}
template <class I>
inline float round_to_odd_f32_int(I v) {
  using U = std::make_unsigned_t<I>;
  U u = v < 0 ? static_cast<U>(U(0) - static_cast<U>(v)) : static_cast<U>(v);
  int shift = static_cast<int>(std::bit_width(u)) - 24;
  if (shift > 0) {  // keep 24 significant bits; any dropped bit sets the last kept one
    U dropped = u & ((U(1) << shift) - 1);
    u = (u >> shift) << shift;
    if (dropped) u |= U(1) << shift;
  }
  float f = static_cast<float>(u);  // exact
  return v < 0 ? -f : f;
}

// How a format spends its bit patterns on the special values (ml_dtypes' five kinds).
enum class Float8Specials : uint8_t {
  kIEEE,  // the all-ones exponent holds ±inf (mantissa 0) and nans: e5m2, e4m3, e3m4
  kFN,    // only S.1111.111 is nan, no inf: e4m3fn
  kFNUZ,  // 0x80 (negative zero's bits) is the one nan; no inf, no -0: the ...fnuz formats
  kNone,  // no inf, no nan: an overflow saturates (the 6- and 4-bit MX formats)
  kE8M0,  // an unsigned power of two 2^(b - 127): no sign, no zero, 0xFF nan (e8m0fnu)
};

// The layout of one format: total, exponent and mantissa widths, exponent bias, specials.
// The 6- and 4-bit formats take a byte each too (as ml_dtypes stores them), their bits above
// the sign zero.
struct Float8Format {
  int bits, exp_bits, mant_bits, bias;
  Float8Specials specials;
  constexpr bool ieee() const { return specials == Float8Specials::kIEEE; }
  constexpr bool has_sign() const { return specials != Float8Specials::kE8M0; }
  constexpr bool has_inf() const { return ieee(); }
  constexpr bool has_nan() const { return specials != Float8Specials::kNone; }
  constexpr bool has_negative_zero() const { return specials != Float8Specials::kFNUZ && has_sign(); }
  constexpr uint8_t sign_bit() const { return has_sign() ? static_cast<uint8_t>(1u << (bits - 1)) : 0; }
  constexpr uint8_t magnitude_mask() const { return static_cast<uint8_t>((1u << (has_sign() ? bits - 1 : bits)) - 1); }
  constexpr uint8_t inf_bits() const { return static_cast<uint8_t>(((1 << exp_bits) - 1) << mant_bits); }
  // The quiet nan ml_dtypes makes (its sign from the value's where the format has one); for a
  // format without nan, 0.
  constexpr uint8_t nan_bits() const {
    switch (specials) {
      case Float8Specials::kIEEE: return static_cast<uint8_t>(inf_bits() | (1u << (mant_bits - 1)));
      case Float8Specials::kFN: return 0x7F;
      case Float8Specials::kFNUZ: return 0x80;
      case Float8Specials::kE8M0: return 0xFF;
      case Float8Specials::kNone: break;
    }
    return 0;
  }
  // The largest finite magnitude's bits (e4m3fn: 0x7E = 448; e5m2: 0x7B = 57344).
  constexpr uint8_t max_bits() const {
    switch (specials) {
      case Float8Specials::kIEEE: return static_cast<uint8_t>(inf_bits() - 1);
      case Float8Specials::kFN: return 0x7E;
      case Float8Specials::kE8M0: return 0xFE;
      default: return magnitude_mask();
    }
  }
};
inline constexpr Float8Format kE4M3FN{8, 4, 3, 7, Float8Specials::kFN};
inline constexpr Float8Format kE5M2{8, 5, 2, 15, Float8Specials::kIEEE};
inline constexpr Float8Format kE4M3FNUZ{8, 4, 3, 8, Float8Specials::kFNUZ};
inline constexpr Float8Format kE5M2FNUZ{8, 5, 2, 16, Float8Specials::kFNUZ};
inline constexpr Float8Format kE4M3B11FNUZ{8, 4, 3, 11, Float8Specials::kFNUZ};
inline constexpr Float8Format kE4M3{8, 4, 3, 7, Float8Specials::kIEEE};
inline constexpr Float8Format kE3M4{8, 3, 4, 3, Float8Specials::kIEEE};
inline constexpr Float8Format kE8M0FNU{8, 8, 0, 127, Float8Specials::kE8M0};
inline constexpr Float8Format kE2M3FN{6, 2, 3, 1, Float8Specials::kNone};
inline constexpr Float8Format kE3M2FN{6, 3, 2, 3, Float8Specials::kNone};
inline constexpr Float8Format kE2M1FN{4, 2, 1, 1, Float8Specials::kNone};

constexpr bool float8_is_nan(Float8Format f, uint8_t b) {
  switch (f.specials) {
    case Float8Specials::kIEEE: return (b & 0x7F) > f.inf_bits();
    case Float8Specials::kFN: return (b & 0x7F) == 0x7F;
    case Float8Specials::kFNUZ: return b == 0x80;
    case Float8Specials::kE8M0: return b == 0xFF;
    case Float8Specials::kNone: break;
  }
  return false;
}

constexpr float exp2_int(int e) {
  float r = 1;
  for (; e > 0; --e) r *= 2;
  for (; e < 0; ++e) r *= 0.5f;
  return r;
}

// The exact f32 value of the bits (nan: a quiet nan, negative for the fnuz formats' 0x80, as
// ml_dtypes gives it).
constexpr float float8_to_float(Float8Format f, uint8_t b) {
  if (f.specials == Float8Specials::kE8M0)  // 2^(b - 127); 0 is 2^-127, an f32 subnormal
    return std::bit_cast<float>(b == 0xFF ? 0x7FC00000u : b == 0 ? 0x00400000u : static_cast<uint32_t>(b) << 23);
  uint32_t sign = (b & f.sign_bit()) ? 0x80000000u : 0u;
  uint32_t e = (b >> f.mant_bits) & ((1u << f.exp_bits) - 1), m = b & ((1u << f.mant_bits) - 1);
  if (float8_is_nan(f, b)) return std::bit_cast<float>(sign | 0x7FC00000u);
  if (f.ieee() && (b & 0x7F) == f.inf_bits()) return std::bit_cast<float>(sign | 0x7F800000u);
  if (e == 0) {  // subnormal: m units of 2^(1 - bias - mant_bits)
    float v = static_cast<float>(m) * exp2_int(1 - f.bias - f.mant_bits);
    return std::bit_cast<float>(sign | std::bit_cast<uint32_t>(v));
  }
  return std::bit_cast<float>(sign | ((e + 127 - f.bias) << 23) | (m << (23 - f.mant_bits)));
}

// x rounded to nearest even, as ml_dtypes converts. Integer code on the f32 bits: the compiled
// path builds the same. An overflow gives inf (kIEEE), nan (kFN, kFNUZ) or the largest number
// (kNone); nan keeps its sign (kIEEE, kFN), becomes 0x80 (kFNUZ) or, in the formats without
// one, the zero of the other sign (ml_dtypes' choice). e8m0fnu rounds half up on the exponent;
// zero, negative numbers and nan become its nan.
constexpr uint8_t float_to_float8(Float8Format f, float x) {
  uint32_t bits = std::bit_cast<uint32_t>(x);
  uint32_t a = bits & 0x7FFFFFFFu;
  if (f.specials == Float8Specials::kE8M0) {
    if (a == 0 || (bits >> 31) || a >= 0x7F800000u) return 0xFF;
    if (a < 0x800000u) return a >= 0x600000u ? 1 : 0;  // an f32 subnormal: 2^-127 or 2^-126
    uint32_t r = (a + 0x400000u) >> 23;
    return r > 0xFE ? 0xFF : static_cast<uint8_t>(r);
  }
  uint8_t sign = (bits >> 31) ? f.sign_bit() : 0;
  if (a > 0x7F800000u) return f.has_nan() ? static_cast<uint8_t>((f.specials == Float8Specials::kFNUZ ? 0 : sign) | f.nan_bits())
                                          : static_cast<uint8_t>(sign ^ f.sign_bit());
  const uint8_t overflow = f.specials == Float8Specials::kFNUZ ? f.nan_bits()
                           : sign | (f.has_inf() ? f.inf_bits() : f.has_nan() ? f.nan_bits() : f.max_bits());
  if (a == 0x7F800000u) return overflow;
  const int shift = 23 - f.mant_bits;
  const uint32_t min_normal = static_cast<uint32_t>(128 - f.bias);  // its biased f32 exponent
  uint32_t e = a >> 23, r;
  if (e >= min_normal) {  // rebias the exponent, round the mantissa
    uint32_t rebased = a - (static_cast<uint32_t>(127 - f.bias) << 23);
    r = (rebased + (1u << (shift - 1)) - 1 + ((rebased >> shift) & 1)) >> shift;
  } else {  // a subnormal (or zero) of the format: the significand shifted further right
    uint32_t m = (a & 0x7FFFFFu) | (e ? 0x800000u : 0u);
    uint32_t s = static_cast<uint32_t>(shift) + min_normal - (e ? e : 1);
    s = s > 31 ? 31 : s;
    r = (m + (1u << (s - 1)) - 1 + ((m >> s) & 1)) >> s;
  }
  if (r > f.max_bits()) return overflow;
  if (r == 0 && f.specials == Float8Specials::kFNUZ) return 0;  // no -0
  return sign | static_cast<uint8_t>(r);
}

// Every byte's value, for decoding by lookup (the eager kernels and the runtime GEMM's widening).
template <const Float8Format& F>
inline constexpr std::array<float, 256> kFloat8Values = [] {
  std::array<float, 256> t{};
  for (int i = 0; i < 256; ++i) t[static_cast<size_t>(i)] = float8_to_float(F, static_cast<uint8_t>(i));
  return t;
}();

// The storage type of one format: explicit conversions from and to float; arithmetic and
// comparisons in float (so generic code written for Eigen::half compiles for it).
template <const Float8Format& F>
struct float8 {
  uint8_t bits = 0;
  float8() = default;
  static constexpr float8 from_bits(uint8_t b) {
    float8 r;
    r.bits = b;
    return r;
  }
  // One rounding from any C++ number: wider values go through f32 rounded to odd.
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  explicit float8(T x) {
    if constexpr (std::is_same_v<T, double> || std::is_same_v<T, long double>)
      bits = float_to_float8(F, round_to_odd_f32(static_cast<double>(x)));
    else if constexpr (std::is_integral_v<T> && sizeof(T) >= 4)
      bits = float_to_float8(F, round_to_odd_f32_int(x));
    else
      bits = float_to_float8(F, static_cast<float>(x));
  }
  explicit operator float() const { return kFloat8Values<F>[bits]; }
  explicit operator double() const { return kFloat8Values<F>[bits]; }
  explicit operator bool() const { return kFloat8Values<F>[bits] != 0.0f; }

  friend float8 operator+(float8 a, float8 b) { return float8(float(a) + float(b)); }
  friend float8 operator-(float8 a, float8 b) { return float8(float(a) - float(b)); }
  friend float8 operator*(float8 a, float8 b) { return float8(float(a) * float(b)); }
  friend float8 operator/(float8 a, float8 b) { return float8(float(a) / float(b)); }
  // The sign bit flipped where every pattern has a negation (not fnuz's 0 and nan, nor e8m0).
  friend float8 operator-(float8 a) {
    if constexpr (F.has_negative_zero()) return from_bits(a.bits ^ F.sign_bit());
    else return float8(-float(a));
  }
  float8& operator+=(float8 o) { return *this = *this + o; }
  float8& operator-=(float8 o) { return *this = *this - o; }
  float8& operator*=(float8 o) { return *this = *this * o; }
  float8& operator/=(float8 o) { return *this = *this / o; }
  friend bool operator==(float8 a, float8 b) { return float(a) == float(b); }
  friend bool operator!=(float8 a, float8 b) { return float(a) != float(b); }
  friend bool operator<(float8 a, float8 b) { return float(a) < float(b); }
  friend bool operator<=(float8 a, float8 b) { return float(a) <= float(b); }
  friend bool operator>(float8 a, float8 b) { return float(a) > float(b); }
  friend bool operator>=(float8 a, float8 b) { return float(a) >= float(b); }
};
using f8e4m3fn_t = float8<kE4M3FN>;
using f8e5m2_t = float8<kE5M2>;
using f8e4m3fnuz_t = float8<kE4M3FNUZ>;
using f8e5m2fnuz_t = float8<kE5M2FNUZ>;
using f8e4m3b11fnuz_t = float8<kE4M3B11FNUZ>;
using f8e4m3_t = float8<kE4M3>;
using f8e3m4_t = float8<kE3M4>;
using f8e8m0fnu_t = float8<kE8M0FNU>;
using f6e2m3fn_t = float8<kE2M3FN>;
using f6e3m2fn_t = float8<kE3M2FN>;
using f4e2m1fn_t = float8<kE2M1FN>;

template <class T> inline constexpr bool is_float8_storage = false;
template <const Float8Format& F> inline constexpr bool is_float8_storage<float8<F>> = true;
template <class T> inline constexpr const Float8Format* float8_format_of = nullptr;
template <const Float8Format& F> inline constexpr const Float8Format* float8_format_of<float8<F>> = &F;

}  // namespace strata::kernels

// numeric_limits as ml_dtypes gives them (e4m3fn: no infinity, quiet nan 0x7F; e8m0fnu:
// lowest() is its smallest number, 2^-127).
template <const strata::kernels::Float8Format& F>
class std::numeric_limits<strata::kernels::float8<F>> {
  using T = strata::kernels::float8<F>;
  static constexpr T encode(float v) { return T::from_bits(strata::kernels::float_to_float8(F, v)); }

 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = F.has_sign();
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = F.has_inf();
  static constexpr bool has_quiet_NaN = F.has_nan();
  static constexpr bool has_signaling_NaN = false;
  static constexpr int digits = F.mant_bits + 1;
  static constexpr int radix = 2;
  static constexpr T min() { return encode(strata::kernels::exp2_int(F.specials == strata::kernels::Float8Specials::kE8M0 ? -127 : 1 - F.bias)); }
  static constexpr T lowest() { return F.has_sign() ? T::from_bits(static_cast<uint8_t>(F.sign_bit() | F.max_bits())) : T::from_bits(0); }
  static constexpr T max() { return T::from_bits(F.max_bits()); }
  static constexpr T epsilon() { return encode(strata::kernels::exp2_int(-F.mant_bits)); }
  static constexpr T denorm_min() { return T::from_bits(F.specials == strata::kernels::Float8Specials::kE8M0 ? 0 : 1); }
  // No infinity: the nan (e4m3fn, fnuz, e8m0fnu, as ml_dtypes' numeric_limits give), or the
  // largest number where there is no nan either.
  static constexpr T infinity() { return T::from_bits(F.has_inf() ? F.inf_bits() : F.has_nan() ? F.nan_bits() : F.max_bits()); }
  static constexpr T quiet_NaN() { return T::from_bits(F.nan_bits()); }
};
