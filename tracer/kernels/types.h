// tracer/kernels/types.h — C++ storage and compute types of each dtype, for eager kernels.
#pragma once

#include <Eigen/Core>
#include <bit>
#include <cmath>
#include <complex>
#include <cstring>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "strata/dtype.h"
#include "strata/errors.h"
#include "kernels/float8.h"
#include "kernels/int_n.h"

namespace strata::kernels {

using bf16_t = Eigen::bfloat16;
using f16_t = Eigen::half;
using c64_t = std::complex<float>;
using c128_t = std::complex<double>;

// Storage type of a dtype. bool is stored as one byte, 0 or 1, and handled as C++ `bool`
// (one byte on every supported ABI), so that uint8_t is free to be u8's.
template <DType T> struct Storage;
template <> struct Storage<DType::bool_> { using type = bool; };
template <> struct Storage<DType::i8> { using type = int8_t; };
template <> struct Storage<DType::i16> { using type = int16_t; };
template <> struct Storage<DType::i32> { using type = int32_t; };
template <> struct Storage<DType::i64> { using type = int64_t; };
template <> struct Storage<DType::u8> { using type = uint8_t; };
template <> struct Storage<DType::u16> { using type = uint16_t; };
template <> struct Storage<DType::u32> { using type = uint32_t; };
template <> struct Storage<DType::u64> { using type = uint64_t; };
static_assert(sizeof(bool) == 1, "strata stores bool as one byte");
template <> struct Storage<DType::bf16> { using type = bf16_t; };
template <> struct Storage<DType::f16> { using type = f16_t; };
template <> struct Storage<DType::f32> { using type = float; };
template <> struct Storage<DType::f64> { using type = double; };
template <> struct Storage<DType::c64> { using type = c64_t; };
template <> struct Storage<DType::c128> { using type = c128_t; };
template <> struct Storage<DType::f8_e4m3fn> { using type = f8e4m3fn_t; };
template <> struct Storage<DType::f8_e5m2> { using type = f8e5m2_t; };
template <> struct Storage<DType::i4> { using type = i4_t; };
template <> struct Storage<DType::u4> { using type = u4_t; };
template <> struct Storage<DType::i2> { using type = i2_t; };
template <> struct Storage<DType::u2> { using type = u2_t; };
template <> struct Storage<DType::f8_e4m3fnuz> { using type = f8e4m3fnuz_t; };
template <> struct Storage<DType::f8_e5m2fnuz> { using type = f8e5m2fnuz_t; };
template <> struct Storage<DType::f8_e4m3b11fnuz> { using type = f8e4m3b11fnuz_t; };
template <> struct Storage<DType::f8_e4m3> { using type = f8e4m3_t; };
template <> struct Storage<DType::f8_e3m4> { using type = f8e3m4_t; };
template <> struct Storage<DType::f8_e8m0fnu> { using type = f8e8m0fnu_t; };
template <> struct Storage<DType::f6_e2m3fn> { using type = f6e2m3fn_t; };
template <> struct Storage<DType::f6_e3m2fn> { using type = f6e3m2fn_t; };
template <> struct Storage<DType::f4_e2m1fn> { using type = f4e2m1fn_t; };

// Compute type: bf16, f16 and the byte floats are computed in f32 and rounded on store; the
// sub-byte integers in int8_t / uint8_t, wrapped on store (int_n.h).
template <class S> struct ComputeOf { using type = S; };
template <int N, bool S> struct ComputeOf<intN<N, S>> { using type = typename intN<N, S>::compute_type; };
template <> struct ComputeOf<bf16_t> { using type = float; };
template <> struct ComputeOf<f16_t> { using type = float; };
template <const Float8Format& F> struct ComputeOf<float8<F>> { using type = float; };

template <class T> inline constexpr bool is_complex_storage = false;
template <class T> inline constexpr bool is_complex_storage<std::complex<T>> = true;

// Calls fn(S{}) with S the storage type of `t` (as a value of a tag type): a real dtype's.
// Kernels that take complex numbers too call dispatch_any; the shape rules keep complex
// operands from the others.
template <class S> struct Tag { using type = S; };
template <class Fn>
decltype(auto) dispatch(DType t, Fn&& fn) {
  switch (t) {
    case DType::bool_: return fn(Tag<bool>{});
    case DType::i8: return fn(Tag<int8_t>{});
    case DType::i16: return fn(Tag<int16_t>{});
    case DType::i32: return fn(Tag<int32_t>{});
    case DType::i64: return fn(Tag<int64_t>{});
    case DType::u8: return fn(Tag<uint8_t>{});
    case DType::u16: return fn(Tag<uint16_t>{});
    case DType::u32: return fn(Tag<uint32_t>{});
    case DType::u64: return fn(Tag<uint64_t>{});
    case DType::bf16: return fn(Tag<bf16_t>{});
    case DType::f16: return fn(Tag<f16_t>{});
    case DType::f32: return fn(Tag<float>{});
    case DType::f64: return fn(Tag<double>{});
    case DType::f8_e4m3fn: return fn(Tag<f8e4m3fn_t>{});
    case DType::f8_e5m2: return fn(Tag<f8e5m2_t>{});
    case DType::i4: return fn(Tag<i4_t>{});
    case DType::u4: return fn(Tag<u4_t>{});
    case DType::i2: return fn(Tag<i2_t>{});
    case DType::u2: return fn(Tag<u2_t>{});
    case DType::f8_e4m3fnuz: return fn(Tag<f8e4m3fnuz_t>{});
    case DType::f8_e5m2fnuz: return fn(Tag<f8e5m2fnuz_t>{});
    case DType::f8_e4m3b11fnuz: return fn(Tag<f8e4m3b11fnuz_t>{});
    case DType::f8_e4m3: return fn(Tag<f8e4m3_t>{});
    case DType::f8_e3m4: return fn(Tag<f8e3m4_t>{});
    case DType::f8_e8m0fnu: return fn(Tag<f8e8m0fnu_t>{});
    case DType::f6_e2m3fn: return fn(Tag<f6e2m3fn_t>{});
    case DType::f6_e3m2fn: return fn(Tag<f6e3m2fn_t>{});
    case DType::f4_e2m1fn: return fn(Tag<f4e2m1fn_t>{});
    case DType::c64: case DType::c128: break;
  }
  throw Error("internal: a kernel of real dtypes was given " + std::string(short_name(t)));
}

// dispatch, with c64 and c128 (std::complex<float>, std::complex<double>) too.
template <class Fn>
decltype(auto) dispatch_any(DType t, Fn&& fn) {
  if (t == DType::c64) return fn(Tag<c64_t>{});
  if (t == DType::c128) return fn(Tag<c128_t>{});
  return dispatch(t, std::forward<Fn>(fn));
}

template <class T>
constexpr bool is_float_storage = std::is_floating_point_v<T> || std::is_same_v<T, bf16_t> ||
                                  std::is_same_v<T, f16_t> || is_float8_storage<T>;
// The storage types computed in f32 (ComputeOf): bf16, f16 and the byte floats.
template <class T>
constexpr bool is_narrow_float_storage = is_float_storage<T> && !std::is_floating_point_v<T>;
// The integer storage types (signed or unsigned, any width, not bool).
template <class T>
constexpr bool is_int_storage = (std::is_integral_v<T> && !std::is_same_v<T, bool>) || is_intN_storage<T>;

// One element converted as convert_element_type does: float → int truncates toward zero and
// saturates (NaN → 0; negative → 0 for unsigned); int → int keeps the value modulo 2^bits
// (sign-extended from a signed source, zero-extended from an unsigned one); anything → bool is
// `!= 0`; bool → number is 0 or 1.
template <class To, class From>
inline To convert_value(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (is_complex_storage<From>) {
    // complex -> real or bool: the real part (as jax.lax and StableHLO's convert; JAX warns;
    // jnp's astype to bool is `x != 0`, api::convert); complex -> complex: each part.
    if constexpr (std::is_same_v<To, bool>) return v.real() != 0;
    else if constexpr (is_complex_storage<To>) return To(static_cast<typename To::value_type>(v.real()),
                                                         static_cast<typename To::value_type>(v.imag()));
    else return convert_value<To>(v.real());
  } else if constexpr (is_complex_storage<To>) {  // real -> complex: the real part, 0i
    return To(convert_value<typename To::value_type>(v), 0);
  } else if constexpr (is_intN_storage<From>) {  // a sub-byte integer: its value, as int8/uint8
    return convert_value<To>(v.value());
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (std::is_same_v<From, double>) return v != 0.0;  // an f64 subnormal is true
    else if constexpr (is_float_storage<From>) return static_cast<float>(v) != 0.0f;
    else return v != 0;
  } else if constexpr (is_int_storage<To>) {
    if constexpr (is_float_storage<From>) {
      double d;
      if constexpr (std::is_same_v<From, double>) d = v;
      else d = static_cast<float>(v);
      if (d != d) return To(0);
      if (d <= static_cast<double>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
      if (d >= static_cast<double>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
      return static_cast<To>(d);
    } else {
      return static_cast<To>(v);
    }
  } else if constexpr (is_narrow_float_storage<To>) {
    // One rounding: values wider than f32 go through f32 rounded to odd (float8.h).
    if constexpr (std::is_same_v<From, double>) return To(round_to_odd_f32(v));
    else if constexpr (is_int_storage<From> && sizeof(From) >= 4) return To(round_to_odd_f32_int(v));
    else return To(static_cast<float>(v));  // bool, f32, bf16, f16: exact in f32
  } else {  // float or double
    if constexpr (is_narrow_float_storage<From>) return static_cast<To>(static_cast<float>(v));
    else return static_cast<To>(v);
  }
}

// Converts n elements from one dtype to another.
void convert_elements(const void* src, DType from, void* dst, DType to, int64_t n);

}  // namespace strata::kernels
