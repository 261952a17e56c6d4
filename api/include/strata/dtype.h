// strata/dtype.h — element types and JAX's type-promotion lattice.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace strata {

// The element types an Array may hold. bf16 and f16 are stored as 2-byte values and computed
// in f32 by the eager kernels (rounded on store). c64 and c128 are complex numbers of f32 and
// f64 parts, stored as std::complex (real part first). f8_e4m3fn and f8_e5m2 are JAX's 8-bit
// floats (ml_dtypes' float8_e4m3fn: 4 exponent bits, 3 mantissa bits, no infinity, max 448;
// float8_e5m2: IEEE-like, max 57344), one byte each, computed in f32 and rounded to nearest
// even on store; as in JAX, they promote implicitly with no other float. The rarer formats of
// ml_dtypes and StableHLO are there too, alike: f8_e4m3fnuz, f8_e5m2fnuz and f8_e4m3b11fnuz
// (one nan, 0x80; no inf, no -0), f8_e4m3 and f8_e3m4 (IEEE-like), f8_e8m0fnu (an unsigned
// power of two: the MX scale), and the MX element types f6_e2m3fn, f6_e3m2fn and f4_e2m1fn
// (no inf, no nan: an overflow saturates), each stored in one byte. i4, u4, i2 and u2 are
// JAX's sub-byte integers (jnp.int4, uint4, int2, uint2), one byte per element as ml_dtypes
// stores them: the low bits hold the value (two's complement when signed), the others are
// zero; they wrap around at their own width and, as in JAX, promote implicitly only with bool
// and C++ integer scalars. Newer dtypes come last so that the values of the older ones (in
// caches and files) stay as they were.
enum class DType : uint8_t {
  bool_, i32, i64, bf16, f16, f32, f64, i8, i16, u8, u16, u32, u64, c64, c128, f8_e4m3fn, f8_e5m2, i4, u4, i2, u2,
  f8_e4m3fnuz, f8_e5m2fnuz, f8_e4m3b11fnuz, f8_e4m3, f8_e3m4, f8_e8m0fnu, f6_e2m3fn, f6_e3m2fn, f4_e2m1fn,
};

inline constexpr DType bool_ = DType::bool_;
inline constexpr DType i32 = DType::i32;
inline constexpr DType i64 = DType::i64;
inline constexpr DType bf16 = DType::bf16;
inline constexpr DType f16 = DType::f16;
inline constexpr DType f32 = DType::f32;
inline constexpr DType f64 = DType::f64;
inline constexpr DType i8 = DType::i8;
inline constexpr DType i16 = DType::i16;
inline constexpr DType u8 = DType::u8;
inline constexpr DType u16 = DType::u16;
inline constexpr DType u32 = DType::u32;
inline constexpr DType u64 = DType::u64;
inline constexpr DType c64 = DType::c64;
inline constexpr DType c128 = DType::c128;
inline constexpr DType f8_e4m3fn = DType::f8_e4m3fn;
inline constexpr DType f8_e5m2 = DType::f8_e5m2;
inline constexpr DType i4 = DType::i4;
inline constexpr DType u4 = DType::u4;
inline constexpr DType i2 = DType::i2;
inline constexpr DType u2 = DType::u2;
inline constexpr DType f8_e4m3fnuz = DType::f8_e4m3fnuz;
inline constexpr DType f8_e5m2fnuz = DType::f8_e5m2fnuz;
inline constexpr DType f8_e4m3b11fnuz = DType::f8_e4m3b11fnuz;
inline constexpr DType f8_e4m3 = DType::f8_e4m3;
inline constexpr DType f8_e3m4 = DType::f8_e3m4;
inline constexpr DType f8_e8m0fnu = DType::f8_e8m0fnu;
inline constexpr DType f6_e2m3fn = DType::f6_e2m3fn;
inline constexpr DType f6_e3m2fn = DType::f6_e3m2fn;
inline constexpr DType f4_e2m1fn = DType::f4_e2m1fn;

inline constexpr DType kAllDTypes[] = {bool_, i2, i4, i8, i16, i32, i64, u2, u4, u8, u16, u32, u64,
                                       f4_e2m1fn, f6_e2m3fn, f6_e3m2fn, f8_e3m4, f8_e4m3, f8_e4m3b11fnuz, f8_e4m3fn,
                                       f8_e4m3fnuz, f8_e5m2, f8_e5m2fnuz, f8_e8m0fnu, bf16, f16, f32, f64, c64, c128};
// Every dtype but the complex ones (those ordered comparisons, min/max and rounding accept).
inline constexpr DType kRealDTypes[] = {bool_, i2, i4, i8, i16, i32, i64, u2, u4, u8, u16, u32, u64,
                                        f4_e2m1fn, f6_e2m3fn, f6_e3m2fn, f8_e3m4, f8_e4m3, f8_e4m3b11fnuz, f8_e4m3fn,
                                        f8_e4m3fnuz, f8_e5m2, f8_e5m2fnuz, f8_e8m0fnu, bf16, f16, f32, f64};

// Bytes per element (1 for the sub-byte integers and floats, as ml_dtypes stores them).
std::size_t itemsize(DType t);
// Bits of an element's value: 8 * itemsize, but 2, 4 or 6 for the sub-byte integers and floats
// and 1 for bool.
int bit_width(DType t);
// The integer dtype of `bits` bits (2, 4, 8, 16, 32 or 64; others are taken as 64), signed or
// unsigned: dtype_of<uint16_t>() is u16, random bits of width 32 are u32.
constexpr DType integer_dtype(int bits, bool is_signed) {
  if (bits == 2) return is_signed ? DType::i2 : DType::u2;
  if (bits == 4) return is_signed ? DType::i4 : DType::u4;
  if (bits == 8) return is_signed ? DType::i8 : DType::u8;
  if (bits == 16) return is_signed ? DType::i16 : DType::u16;
  if (bits == 32) return is_signed ? DType::i32 : DType::u32;
  return is_signed ? DType::i64 : DType::u64;
}
// Short name as jaxprs print it: "f32", "bf16", "bool".
std::string_view short_name(DType t);
// NumPy-style name: "float32", "bfloat16", "bool".
std::string_view long_name(DType t);
// Parses either spelling; returns false when `name` names no dtype.
bool parse_dtype(std::string_view name, DType* out);

bool is_floating(DType t);          // the f8, f6 and f4 formats, bf16, f16, f32, f64 (real)
// The floats of one byte: the 8-bit ones and the 6- and 4-bit ones stored in a byte.
bool is_float8(DType t);
// The floats narrower than f32 (bf16, f16, the byte floats): stored as such, computed in f32.
bool is_narrow_float(DType t);
// Whether the dtype has infinities (every float but f8_e4m3fn and the fnuz formats, whose
// overflow is nan, e8m0fnu, and the 6- and 4-bit floats, which saturate).
bool supports_inf(DType t);
// Whether the dtype has nan: every inexact type but the 6- and 4-bit floats.
bool supports_nan(DType t);
bool is_complex(DType t);           // c64, c128
inline bool is_inexact(DType t) { return is_floating(t) || is_complex(t); }
bool is_integer(DType t);           // signed or unsigned, any width (not bool)
bool is_unsigned_integer(DType t);  // u2, u4, u8, u16, u32, u64
bool is_subbyte_integer(DType t);   // i2, i4, u2, u4
inline bool is_signed_integer(DType t) { return is_integer(t) && !is_unsigned_integer(t); }
inline bool is_bool(DType t) { return t == DType::bool_; }
// The dtype of a complex dtype's parts (c64 -> f32, c128 -> f64); any other dtype itself.
DType real_dtype(DType t);
// The complex dtype whose parts are `t` (f64 -> c128; c64/c128 themselves; else c64).
DType complex_dtype(DType t);

// A dtype together with JAX's weak-type flag. C++ scalars become weakly typed arrays, so
// `x * 2.0f` keeps x's dtype (f16 stays f16) while `x * y` of two strong types promotes.
// strata is JAX with 64-bit types enabled (jax_enable_x64): a weak scalar keeps its C++ width
// where it decides the type, so an integer array times a C++ `double` is f64 (JAX without x64
// gives f32) and times a `float` is f32; write `2.0f` for f32 results.
struct TypeSpec {
  DType dtype = DType::f32;
  bool weak = false;
  friend bool operator==(const TypeSpec&, const TypeSpec&) = default;
};

// Least upper bound of a and b in JAX's standard promotion lattice, restricted to strata's
// dtypes: bool < i* < {u8, i8, u2, u4, i2, i4}; u8 < {u16, i16}; u16 < {u32, i32}; u32 < {u64, i64};
// i8 < i16 < i32 < i64; {u64, i64} < f* < {bf16, f16} < f32 < f64; f* < c*; f32 < c64;
// {f64, c64} < c128; c* < c64, where i*, f* and c* are the weak int, float and complex types
// (which materialise as i32, f32 and c64); the byte floats sit above f* and the sub-byte
// integers above i*, each below nothing (a DTypeError with any other type, as JAX's
// TypePromotionError). The result is weak only when
// it is the weak node itself (e.g. weak int with weak float gives weak f32); two strong types
// that meet only at f* (u64 with a signed integer) give f64, as JAX does with 64-bit types.
TypeSpec promote_types(TypeSpec a, TypeSpec b);
inline DType promote_types(DType a, DType b) { return promote_types({a, false}, {b, false}).dtype; }

// Machine limits of a floating-point dtype (numpy.finfo / jnp.finfo; complex dtypes give their
// parts' limits): eps = 2^-nmant (the gap above 1), epsneg = eps / 2 (below 1), max and min =
// -max, tiny = smallest_normal, smallest_subnormal, precision (decimal digits) and resolution
// = 10^-precision, the exponent range [minexp, maxexp) and field widths. DTypeError for others.
struct FInfo {
  DType dtype;
  int bits, nmant, nexp, minexp, maxexp, precision;
  double eps, epsneg, max, min, tiny, smallest_normal, smallest_subnormal, resolution;
};
FInfo finfo(DType t);
// Limits of an integer dtype (numpy.iinfo; bool is refused, as numpy): min, max, bits.
struct IInfo {
  DType dtype;
  int bits;
  int64_t min;
  uint64_t max;
};
IInfo iinfo(DType t);

}  // namespace strata
