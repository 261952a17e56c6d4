// tracer/kernels/float8.h — the 8-bit floats f8_e4m3fn and f8_e5m2 as C++ storage types.
//
// One byte each; arithmetic converts to float (exactly) and back (rounded to nearest even),
// as Eigen::half does for f16. The conversions follow ml_dtypes (JAX's float8 types) without
// saturation: a value that rounds past the largest finite number becomes inf (e5m2) or nan
// (e4m3fn, which has no inf); nan keeps its sign. The compiled code's conversions
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

// The layout of one format: exponent and mantissa widths, exponent bias, whether the all-ones
// exponent holds inf and nans (IEEE-like, e5m2) or only S.1111.111 is nan (e4m3fn).
struct Float8Format {
  int exp_bits, mant_bits, bias;
  bool ieee_specials;
  constexpr uint8_t nan_bits() const { return ieee_specials ? 0x7E : 0x7F; }  // ml_dtypes' quiet nan
  constexpr uint8_t inf_bits() const { return static_cast<uint8_t>(((1 << exp_bits) - 1) << mant_bits); }
  // The largest finite magnitude's bits (e4m3fn: 0x7E = 448; e5m2: 0x7B = 57344).
  constexpr uint8_t max_bits() const { return ieee_specials ? inf_bits() - 1 : 0x7E; }
};
inline constexpr Float8Format kE4M3FN{4, 3, 7, false};
inline constexpr Float8Format kE5M2{5, 2, 15, true};

constexpr bool float8_is_nan(Float8Format f, uint8_t b) {
  if (!f.ieee_specials) return (b & 0x7F) == 0x7F;
  return (b & 0x7F) > f.inf_bits();
}

constexpr float exp2_int(int e) {
  float r = 1;
  for (; e > 0; --e) r *= 2;
  for (; e < 0; ++e) r *= 0.5f;
  return r;
}

// The exact f32 value of the bits.
constexpr float float8_to_float(Float8Format f, uint8_t b) {
  uint32_t sign = static_cast<uint32_t>(b & 0x80) << 24;
  uint32_t e = (b >> f.mant_bits) & ((1u << f.exp_bits) - 1), m = b & ((1u << f.mant_bits) - 1);
  if (float8_is_nan(f, b)) return std::bit_cast<float>(sign | 0x7FC00000u);
  if (f.ieee_specials && (b & 0x7F) == f.inf_bits()) return std::bit_cast<float>(sign | 0x7F800000u);
  if (e == 0) {  // subnormal: m units of 2^(1 - bias - mant_bits)
    float v = static_cast<float>(m) * exp2_int(1 - f.bias - f.mant_bits);
    return std::bit_cast<float>(sign | std::bit_cast<uint32_t>(v));
  }
  return std::bit_cast<float>(sign | ((e + 127 - f.bias) << 23) | (m << (23 - f.mant_bits)));
}

// x rounded to nearest even. Integer code on the f32 bits: the compiled path builds the same.
inline uint8_t float_to_float8(Float8Format f, float x) {
  uint32_t bits = std::bit_cast<uint32_t>(x);
  uint8_t sign = static_cast<uint8_t>((bits >> 24) & 0x80);
  uint32_t a = bits & 0x7FFFFFFFu;
  uint8_t overflow = f.ieee_specials ? f.inf_bits() : f.nan_bits();
  if (a > 0x7F800000u) return sign | f.nan_bits();
  if (a == 0x7F800000u) return sign | overflow;
  const int shift = 23 - f.mant_bits;
  const uint32_t min_normal = static_cast<uint32_t>(128 - f.bias);  // its biased f32 exponent
  uint32_t e = a >> 23, r;
  if (e >= min_normal) {  // rebias the exponent, round the mantissa
    uint32_t rebased = a - (static_cast<uint32_t>(127 - f.bias) << 23);
    r = (rebased + (1u << (shift - 1)) - 1 + ((rebased >> shift) & 1)) >> shift;
  } else {  // a subnormal (or zero) of the format: the significand shifted further right
    uint32_t m = (a & 0x7FFFFFu) | (e ? 0x800000u : 0u);
    uint32_t s = shift + min_normal - (e ? e : 1);
    s = s > 31 ? 31 : s;
    r = (m + (1u << (s - 1)) - 1 + ((m >> s) & 1)) >> s;
  }
  return r > f.max_bits() ? sign | overflow : sign | static_cast<uint8_t>(r);
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
  explicit operator bool() const { return (bits & 0x7F) != 0; }

  friend float8 operator+(float8 a, float8 b) { return float8(float(a) + float(b)); }
  friend float8 operator-(float8 a, float8 b) { return float8(float(a) - float(b)); }
  friend float8 operator*(float8 a, float8 b) { return float8(float(a) * float(b)); }
  friend float8 operator/(float8 a, float8 b) { return float8(float(a) / float(b)); }
  friend float8 operator-(float8 a) { return from_bits(a.bits ^ 0x80); }
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

template <class T> inline constexpr bool is_float8_storage = false;
template <const Float8Format& F> inline constexpr bool is_float8_storage<float8<F>> = true;

}  // namespace strata::kernels

// numeric_limits as ml_dtypes gives them (e4m3fn: no infinity, quiet nan 0x7F).
template <const strata::kernels::Float8Format& F>
class std::numeric_limits<strata::kernels::float8<F>> {
  using T = strata::kernels::float8<F>;

 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = F.ieee_specials;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = false;
  static constexpr int digits = F.mant_bits + 1;
  static constexpr int radix = 2;
  static constexpr T min() { return T::from_bits(static_cast<uint8_t>(1 << F.mant_bits)); }
  static constexpr T lowest() { return T::from_bits(static_cast<uint8_t>(0x80 | F.max_bits())); }
  static constexpr T max() { return T::from_bits(F.max_bits()); }
  static constexpr T epsilon() { return T::from_bits(static_cast<uint8_t>((F.bias - F.mant_bits) << F.mant_bits)); }
  static constexpr T denorm_min() { return T::from_bits(1); }
  // No infinity in e4m3fn: its nan, as ml_dtypes' numeric_limits give.
  static constexpr T infinity() { return T::from_bits(F.ieee_specials ? F.inf_bits() : F.nan_bits()); }
  static constexpr T quiet_NaN() { return T::from_bits(F.nan_bits()); }
};
