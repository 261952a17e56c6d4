// tracer/kernels/int_n.h — storage of the sub-byte integers (i4, u4, i2, u2).
//
// One element per byte, as ml_dtypes stores jnp.int4 & co. and as LLVM stores an iN with N < 8
// (its loads assume the bits above N are zero): the low N bits hold the value, two's
// complement when signed, and the others are zero. Every constructor keeps that form, so the
// bytes eager kernels write are the bytes compiled code reads, and the other way round.
//
// Eager kernels compute these types in int8_t / uint8_t (ComputeOf in types.h) and wrap on
// store: add, sub, mul, neg, div and rem modulo 2^N equal the 8-bit result's low N bits. The
// few operations that see the bit width (logical and arithmetic right shifts, population
// count, count of leading zeros) ask `int_bits<S>`.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

namespace strata::kernels {

template <int N, bool Signed>
struct intN {
  static_assert(N > 0 && N < 8);
  static constexpr uint8_t kMask = static_cast<uint8_t>((1u << N) - 1);
  using compute_type = std::conditional_t<Signed, int8_t, uint8_t>;

  uint8_t bits = 0;

  intN() = default;
  static constexpr intN from_bits(uint8_t b) {
    intN r;
    r.bits = static_cast<uint8_t>(b & kMask);
    return r;
  }
  // The value modulo 2^N (as a C++ conversion to a narrower integer type); a float is first
  // truncated toward zero (callers that saturate, as convert_element_type does, clamp first).
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  constexpr explicit intN(T v) {
    if constexpr (std::is_floating_point_v<T>)
      bits = static_cast<uint8_t>(static_cast<uint64_t>(static_cast<int64_t>(v)) & kMask);
    else
      bits = static_cast<uint8_t>(static_cast<uint64_t>(v) & kMask);
  }

  // The value, sign-extended from bit N-1 when signed.
  constexpr compute_type value() const {
    if constexpr (Signed) return static_cast<int8_t>(static_cast<int8_t>(bits << (8 - N)) >> (8 - N));
    else return bits;
  }
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  constexpr explicit operator T() const {
    return static_cast<T>(value());
  }

  // Arithmetic wraps modulo 2^N; the operators exist so that generic kernel code written for
  // the built-in integers (sums, products, comparisons in reductions and sorts) compiles.
  friend constexpr intN operator+(intN a, intN b) { return intN(a.value() + b.value()); }
  friend constexpr intN operator-(intN a, intN b) { return intN(a.value() - b.value()); }
  friend constexpr intN operator*(intN a, intN b) { return intN(a.value() * b.value()); }
  // x / 0 is all ones and x % 0 is x, as XLA's (and the compiled code's) division.
  friend constexpr intN operator/(intN a, intN b) { return b.bits ? intN(a.value() / b.value()) : from_bits(kMask); }
  friend constexpr intN operator%(intN a, intN b) { return b.bits ? intN(a.value() % b.value()) : a; }
  friend constexpr intN operator-(intN a) { return intN(-a.value()); }
  friend constexpr intN operator~(intN a) { return from_bits(static_cast<uint8_t>(~a.bits)); }
  friend constexpr intN operator&(intN a, intN b) { return from_bits(a.bits & b.bits); }
  friend constexpr intN operator|(intN a, intN b) { return from_bits(a.bits | b.bits); }
  friend constexpr intN operator^(intN a, intN b) { return from_bits(a.bits ^ b.bits); }
  constexpr intN& operator+=(intN o) { return *this = *this + o; }
  constexpr intN& operator-=(intN o) { return *this = *this - o; }
  constexpr intN& operator*=(intN o) { return *this = *this * o; }
  constexpr intN& operator/=(intN o) { return *this = *this / o; }
  friend constexpr bool operator==(intN a, intN b) { return a.bits == b.bits; }
  friend constexpr bool operator!=(intN a, intN b) { return a.bits != b.bits; }
  friend constexpr bool operator<(intN a, intN b) { return a.value() < b.value(); }
  friend constexpr bool operator<=(intN a, intN b) { return a.value() <= b.value(); }
  friend constexpr bool operator>(intN a, intN b) { return a.value() > b.value(); }
  friend constexpr bool operator>=(intN a, intN b) { return a.value() >= b.value(); }
};
using i4_t = intN<4, true>;
using u4_t = intN<4, false>;
using i2_t = intN<2, true>;
using u2_t = intN<2, false>;

template <class T> inline constexpr bool is_intN_storage = false;
template <int N, bool S> inline constexpr bool is_intN_storage<intN<N, S>> = true;

// Bits of an integer storage or compute type's value: N for intN, 8 * sizeof otherwise.
template <class T> inline constexpr int int_bits = static_cast<int>(8 * sizeof(T));
template <int N, bool S> inline constexpr int int_bits<intN<N, S>> = N;

}  // namespace strata::kernels

template <int N, bool Signed>
class std::numeric_limits<strata::kernels::intN<N, Signed>> {
  using T = strata::kernels::intN<N, Signed>;

 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = Signed;
  static constexpr bool is_integer = true;
  static constexpr bool is_exact = true;
  static constexpr bool has_infinity = false;
  static constexpr bool has_quiet_NaN = false;
  static constexpr bool has_signaling_NaN = false;
  static constexpr bool is_modulo = true;
  static constexpr int digits = Signed ? N - 1 : N;
  static constexpr int radix = 2;
  static constexpr T min() { return T::from_bits(Signed ? static_cast<uint8_t>(1u << (N - 1)) : 0); }
  static constexpr T lowest() { return min(); }
  static constexpr T max() { return T::from_bits(static_cast<uint8_t>(Signed ? (1u << (N - 1)) - 1 : (1u << N) - 1)); }
  static constexpr T epsilon() { return T(); }
  static constexpr T round_error() { return T(); }
  static constexpr T infinity() { return T(); }
  static constexpr T quiet_NaN() { return T(); }
  static constexpr T denorm_min() { return T(); }
};
