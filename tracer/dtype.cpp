// The dtype table and JAX's promotion lattice.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "strata/dtype.h"
#include "strata/errors.h"
#include "strata/shape.h"

namespace strata {
namespace {

struct DTypeInfo {
  std::string_view short_name, long_name;
  std::size_t size;
};
// In DType order.
constexpr DTypeInfo kInfo[] = {
    {"bool", "bool", 1},   {"i32", "int32", 4},   {"i64", "int64", 8},   {"bf16", "bfloat16", 2},
    {"f16", "float16", 2}, {"f32", "float32", 4}, {"f64", "float64", 8}, {"i8", "int8", 1},
    {"i16", "int16", 2},   {"u8", "uint8", 1},    {"u16", "uint16", 2},  {"u32", "uint32", 4},
    {"u64", "uint64", 8},  {"c64", "complex64", 8}, {"c128", "complex128", 16},
    {"f8_e4m3fn", "float8_e4m3fn", 1}, {"f8_e5m2", "float8_e5m2", 1},
    {"i4", "int4", 1}, {"u4", "uint4", 1}, {"i2", "int2", 1}, {"u2", "uint2", 1},
    {"f8_e4m3fnuz", "float8_e4m3fnuz", 1}, {"f8_e5m2fnuz", "float8_e5m2fnuz", 1},
    {"f8_e4m3b11fnuz", "float8_e4m3b11fnuz", 1}, {"f8_e4m3", "float8_e4m3", 1}, {"f8_e3m4", "float8_e3m4", 1},
    {"f8_e8m0fnu", "float8_e8m0fnu", 1}, {"f6_e2m3fn", "float6_e2m3fn", 1}, {"f6_e3m2fn", "float6_e3m2fn", 1},
    {"f4_e2m1fn", "float4_e2m1fn", 1},
};
static_assert(std::size(kInfo) == std::size(kAllDTypes), "one entry per dtype");

// Lattice nodes: the dtypes plus the three weak nodes i*, f* and c*.
// The byte floats (the 8-, 6- and 4-bit ones) are one node each, kF8First + their index in kByteFloats.
enum Node { kB, kIW, kU8, kU16, kU32, kU64, kI8, kI16, kI32, kI64, kFW, kBF16, kF16, kF32, kF64, kCW, kC64, kC128, kI4, kU4, kI2, kU2, kF8First };
constexpr DType kByteFloats[] = {DType::f8_e4m3fn, DType::f8_e5m2, DType::f8_e4m3fnuz, DType::f8_e5m2fnuz,
                                 DType::f8_e4m3b11fnuz, DType::f8_e4m3, DType::f8_e3m4, DType::f8_e8m0fnu,
                                 DType::f6_e2m3fn, DType::f6_e3m2fn, DType::f4_e2m1fn};
constexpr int kNumNodes = kF8First + static_cast<int>(std::size(kByteFloats));
static_assert(kNumNodes <= 64, "the lattice's ancestor sets are 64-bit masks");
// Direct successors in JAX's lattice (jax._src.dtypes, restricted to strata's types).
// The byte floats and sub-byte integers have none: no implicit promotion upwards.
constexpr std::array<std::initializer_list<int>, kF8First> kEdges = {{
    {kIW},                          // bool
    {kU8, kI8, kI4, kU4, kI2, kU2},  // i*
    {kU16, kI16}, {kU32, kI32}, {kU64, kI64}, {kFW},  // u8 u16 u32 u64
    {kI16}, {kI32}, {kI64}, {kFW},  // i8 i16 i32 i64
    {kBF16, kF16, kCW},             // f* (and every byte float, below)
    {kF32}, {kF32}, {kF64, kC64}, {kC128},  // bf16 f16 f32 f64
    {kC64}, {kC128}, {},            // c* c64 c128
    {}, {}, {}, {},                 // i4 u4 i2 u2
}};

// ancestors[n] = bitmask of nodes >= n.
constexpr std::array<uint64_t, kNumNodes> compute_ancestors() {
  std::array<uint64_t, kNumNodes> up{};
  for (int n = kNumNodes - 1; n >= 0; --n) {  // every edge points to a later node
    up[n] = uint64_t{1} << n;
    if (n < kF8First)
      for (int s : kEdges[n]) up[n] |= up[s];
    if (n == kFW)
      for (int f = kF8First; f < kNumNodes; ++f) up[n] |= up[f];
  }
  return up;
}
constexpr auto kUp = compute_ancestors();

int node_of(TypeSpec t) {
  if (t.weak && t.dtype != DType::bool_) return is_complex(t.dtype) ? kCW : is_floating(t.dtype) ? kFW : kIW;
  switch (t.dtype) {
    case DType::bool_: return kB;
    case DType::i8: return kI8;
    case DType::i16: return kI16;
    case DType::i32: return kI32;
    case DType::i64: return kI64;
    case DType::u8: return kU8;
    case DType::u16: return kU16;
    case DType::u32: return kU32;
    case DType::u64: return kU64;
    case DType::bf16: return kBF16;
    case DType::f16: return kF16;
    case DType::f32: return kF32;
    case DType::f64: return kF64;
    case DType::c64: return kC64;
    case DType::c128: return kC128;
    case DType::i4: return kI4;
    case DType::u4: return kU4;
    case DType::i2: return kI2;
    case DType::u2: return kU2;
    default: break;
  }
  for (size_t i = 0; i < std::size(kByteFloats); ++i)
    if (kByteFloats[i] == t.dtype) return kF8First + static_cast<int>(i);
  return kF32;
}

}  // namespace

std::size_t itemsize(DType t) { return kInfo[static_cast<int>(t)].size; }
int bit_width(DType t) {
  switch (t) {
    case DType::bool_: return 1;
    case DType::i2: case DType::u2: return 2;
    case DType::i4: case DType::u4: case DType::f4_e2m1fn: return 4;
    case DType::f6_e2m3fn: case DType::f6_e3m2fn: return 6;
    default: return static_cast<int>(8 * itemsize(t));
  }
}
std::string_view short_name(DType t) { return kInfo[static_cast<int>(t)].short_name; }
std::string_view long_name(DType t) { return kInfo[static_cast<int>(t)].long_name; }
bool is_floating(DType t) { return t == DType::bf16 || t == DType::f16 || t == DType::f32 || t == DType::f64 || is_float8(t); }
bool is_float8(DType t) { return std::find(std::begin(kByteFloats), std::end(kByteFloats), t) != std::end(kByteFloats); }
bool is_narrow_float(DType t) { return is_floating(t) && itemsize(t) < 4; }
bool supports_inf(DType t) { return is_inexact(t) && (!is_float8(t) || t == DType::f8_e5m2 || t == DType::f8_e4m3 || t == DType::f8_e3m4); }
bool supports_nan(DType t) { return is_inexact(t) && t != DType::f6_e2m3fn && t != DType::f6_e3m2fn && t != DType::f4_e2m1fn; }
bool is_complex(DType t) { return t == DType::c64 || t == DType::c128; }
bool is_integer(DType t) { return t != DType::bool_ && !is_floating(t) && !is_complex(t); }
DType real_dtype(DType t) { return t == DType::c64 ? DType::f32 : t == DType::c128 ? DType::f64 : t; }
DType complex_dtype(DType t) {
  return t == DType::f64 || t == DType::c128 ? DType::c128 : DType::c64;
}
bool is_unsigned_integer(DType t) {
  return t == DType::u8 || t == DType::u16 || t == DType::u32 || t == DType::u64 || t == DType::u4 || t == DType::u2;
}
bool is_subbyte_integer(DType t) { return t == DType::i4 || t == DType::u4 || t == DType::i2 || t == DType::u2; }

bool parse_dtype(std::string_view name, DType* out) {
  for (DType t : kAllDTypes)
    if (name == short_name(t) || name == long_name(t)) {
      *out = t;
      return true;
    }
  return false;
}

TypeSpec promote_types(TypeSpec a, TypeSpec b) {
  int na = node_of(a), nb = node_of(b);
  uint64_t common = kUp[na] & kUp[nb];
  // The least upper bound is the common ancestor whose own ancestors include all the others.
  int lub = -1;
  for (int n = 0; n < kNumNodes; ++n)
    if ((common >> n & 1) && (kUp[n] & common) == common) lub = n;
  if (lub >= kF8First) return {kByteFloats[lub - kF8First], false};
  if (lub < 0) {  // only the byte floats and sub-byte integers lack one with another type
    bool ints = is_subbyte_integer(a.dtype) || is_subbyte_integer(b.dtype);
    throw DTypeError("input dtypes " + std::string(long_name(a.dtype)) + (a.weak ? " (weak)" : "") + " and " +
                     std::string(long_name(b.dtype)) + (b.weak ? " (weak)" : "") + " have no implicit promotion: " +
                     (ints ? "2-bit and 4-bit integers promote only with bool and integer scalars (as in JAX); "
                             "convert one explicitly, e.g. x.astype(st::i32)"
                           : "8-, 6- and 4-bit floats promote with no other float (as in JAX); "
                             "convert one explicitly, e.g. x.astype(st::f32)"));
  }
  switch (lub) {
    case kB: return {DType::bool_, false};
    case kI8: return {DType::i8, false};
    case kI16: return {DType::i16, false};
    case kI32: return {DType::i32, false};
    case kI64: return {DType::i64, false};
    case kU8: return {DType::u8, false};
    case kU16: return {DType::u16, false};
    case kU32: return {DType::u32, false};
    case kU64: return {DType::u64, false};
    case kBF16: return {DType::bf16, false};
    case kF16: return {DType::f16, false};
    case kF32: return {DType::f32, false};
    case kF64: return {DType::f64, false};
    case kC64: return {DType::c64, false};
    case kC128: return {DType::c128, false};
    case kI4: return {DType::i4, false};
    case kU4: return {DType::u4, false};
    case kI2: return {DType::i2, false};
    case kU2: return {DType::u2, false};
    case kCW: {  // weak complex: c128 when a weak operand is 64 bits a part, else c64
      bool wide = false;
      for (TypeSpec t : {a, b}) wide |= t.weak && (t.dtype == DType::f64 || t.dtype == DType::c128);
      return {wide ? DType::c128 : DType::c64, true};
    }
    case kIW:  // both weak ints (or a weak int with bool): the wider stored width
      return {(a.weak && a.dtype == DType::i64) || (b.weak && b.dtype == DType::i64) ? DType::i64 : DType::i32, true};
    default: {  // kFW: the widest weak float among the operands, else f32
      if (!(a.weak && is_floating(a.dtype)) && !(b.weak && is_floating(b.dtype)))
        return {DType::f64, false};  // u64 with a signed integer: they meet only at f*
      DType d = DType::f32;
      for (TypeSpec t : {a, b})
        if (t.weak && is_floating(t.dtype) && itemsize(t.dtype) > itemsize(d)) d = t.dtype;
      return {d, true};
    }
  }
}

int64_t num_elements(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string shape_string(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string type_string(DType dtype, const Shape& shape) {
  return std::string(short_name(dtype)) + shape_string(shape);
}

FInfo finfo(DType t) {
  DType r = real_dtype(t);
  auto make = [&](int bits, int nmant, int nexp, int precision) {
    FInfo f{};
    f.dtype = r;
    f.bits = bits;
    f.nmant = nmant;
    f.nexp = nexp;
    f.maxexp = 1 << (nexp - 1);
    f.minexp = 2 - f.maxexp;
    f.precision = precision;
    f.eps = std::ldexp(1.0, -nmant);
    f.epsneg = std::ldexp(1.0, -nmant - 1);
    f.max = std::ldexp(2.0 - f.eps, f.maxexp - 1);
    f.min = -f.max;
    f.tiny = f.smallest_normal = std::ldexp(1.0, f.minexp);
    f.smallest_subnormal = std::ldexp(1.0, f.minexp - nmant);
    f.resolution = std::pow(10.0, -precision);
    return f;
  };
  switch (r) {
    case DType::bf16: return make(16, 7, 8, 2);
    case DType::f16: return make(16, 10, 5, 3);
    case DType::f32: return make(32, 23, 8, 6);
    case DType::f64: return make(64, 52, 11, 15);
    case DType::f8_e4m3fn: {  // no infinity: the all-ones exponent holds numbers up to 448
      FInfo f = make(8, 3, 4, 1);
      f.maxexp = 9;
      f.max = 448.0, f.min = -448.0;
      f.resolution = 0.1015625;  // 10^-precision in the type, as ml_dtypes gives it
      return f;
    }
    case DType::f8_e5m2: {
      FInfo f = make(8, 2, 5, 1);
      f.resolution = 0.09375;
      return f;
    }
    default: break;
  }
  // The rarer formats: ml_dtypes' finfo, field for field (their exponent ranges follow from
  // each format's bias and specials rather than from nexp alone).
  struct Row {
    DType t;
    int bits, nmant, nexp, minexp, maxexp, precision;
    double max, min, tiny, resolution;
  };
  static constexpr Row kRows[] = {
      {DType::f8_e4m3fnuz, 8, 3, 4, -7, 8, 1, 240.0, -240.0, 0x1p-7, 0.1015625},
      {DType::f8_e5m2fnuz, 8, 2, 5, -15, 16, 1, 57344.0, -57344.0, 0x1p-15, 0.09375},
      {DType::f8_e4m3b11fnuz, 8, 3, 4, -10, 5, 1, 30.0, -30.0, 0x1p-10, 0.1015625},
      {DType::f8_e4m3, 8, 3, 4, -6, 8, 1, 240.0, -240.0, 0x1p-6, 0.1015625},
      {DType::f8_e3m4, 8, 4, 3, -2, 4, 1, 15.5, -15.5, 0x1p-2, 0.09375},
      {DType::f8_e8m0fnu, 8, 0, 8, -127, 128, 1, 0x1p127, 0x1p-127, 0x1p-127, 0.125},  // min: its smallest, no sign
      {DType::f6_e2m3fn, 6, 3, 2, 0, 3, 0, 7.5, -7.5, 1.0, 1.0},
      {DType::f6_e3m2fn, 6, 2, 3, -2, 5, 0, 28.0, -28.0, 0x1p-2, 1.0},
      {DType::f4_e2m1fn, 4, 1, 2, 0, 3, 0, 6.0, -6.0, 1.0, 1.0},
  };
  for (const Row& row : kRows) {
    if (row.t != r) continue;
    FInfo f{};
    f.dtype = r;
    f.bits = row.bits, f.nmant = row.nmant, f.nexp = row.nexp, f.minexp = row.minexp, f.maxexp = row.maxexp;
    f.precision = row.precision;
    f.eps = std::ldexp(1.0, -row.nmant);
    // The gap below 1: half eps, but eps itself where 1 is the smallest normal (f6_e2m3fn, f4_e2m1fn).
    f.epsneg = row.minexp == 0 ? f.eps : f.eps / 2;
    f.max = row.max, f.min = row.min;
    f.tiny = f.smallest_normal = row.tiny;
    f.smallest_subnormal = r == DType::f8_e8m0fnu ? row.tiny : std::ldexp(row.tiny, -row.nmant);
    f.resolution = row.resolution;
    return f;
  }
  throw DTypeError("finfo: expects a floating-point or complex dtype, but got " + std::string(long_name(t)));
}

IInfo iinfo(DType t) {
  if (!is_integer(t)) throw DTypeError("iinfo: expects an integer dtype, but got " + std::string(long_name(t)));
  int bits = bit_width(t);
  if (is_unsigned_integer(t)) return {t, bits, 0, bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1};
  return {t, bits, bits == 64 ? INT64_MIN : -(int64_t{1} << (bits - 1)),
          bits == 64 ? static_cast<uint64_t>(INT64_MAX) : (uint64_t{1} << (bits - 1)) - 1};
}

}  // namespace strata
