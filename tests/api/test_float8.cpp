// The byte floats: the 8-bit f8_e4m3fn, f8_e5m2 (jnp.float8_e4m3fn, jnp.float8_e5m2) and the
// rarer f8_e4m3fnuz, f8_e5m2fnuz, f8_e4m3b11fnuz, f8_e4m3, f8_e3m4, f8_e8m0fnu, and the 6- and
// 4-bit f6_e2m3fn, f6_e3m2fn, f4_e2m1fn: every bit pattern's value and the rounding of f32
// values against ml_dtypes (tests/api/float8_values.py), eager and compiled bit for bit; JAX's
// promotion rules and finfo; arithmetic, reductions and a matmul against JAX's results (ml_dtypes'
// for the 6- and 4-bit ones, which XLA's CPU backend does not compute in); compiled against
// eager for the usual ops; gradients.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>
#include <sstream>
#include <tuple>
#include <vector>

#include "float8_values.h"
#include "jaxpr_parser.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
namespace fv = float8_values;

namespace {

struct Format {
  st::DType t;
  std::span<const uint32_t> decoded, round_in;
  std::span<const uint8_t> round_out;
  uint64_t sweep_hash;
  const std::vector<float>& prod;
  float sum;
  const std::vector<float>& matmul;
};
#define STRATA_FORMAT(dtype, K)                                                                     \
  Format {                                                                                          \
    dtype, fv::K##Decoded, fv::K##RoundIn, fv::K##RoundOut, fv::K##SweepHash, fv::K##Prod, fv::K##Sum, \
        fv::K##Matmul                                                                               \
  }
const Format kFormats[] = {
    STRATA_FORMAT(st::f8_e4m3fn, kE4M3FN),        STRATA_FORMAT(st::f8_e5m2, kE5M2),
    STRATA_FORMAT(st::f8_e4m3fnuz, kE4M3FNUZ),    STRATA_FORMAT(st::f8_e5m2fnuz, kE5M2FNUZ),
    STRATA_FORMAT(st::f8_e4m3b11fnuz, kE4M3B11FNUZ), STRATA_FORMAT(st::f8_e4m3, kE4M3),
    STRATA_FORMAT(st::f8_e3m4, kE3M4),            STRATA_FORMAT(st::f8_e8m0fnu, kE8M0FNU),
    STRATA_FORMAT(st::f6_e2m3fn, kE2M3FN),        STRATA_FORMAT(st::f6_e3m2fn, kE3M2FN),
    STRATA_FORMAT(st::f4_e2m1fn, kE2M1FN),
};
#undef STRATA_FORMAT

// Values equal, nan where the other is nan (of either sign).
void expect_same_values(const std::vector<float>& got, const std::vector<float>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) EXPECT_TRUE(std::isnan(got[i])) << what << " [" << i << "]: got " << got[i];
    else EXPECT_EQ(got[i], want[i]) << what << " [" << i << "]";
  }
}

// The sweep of float8_values.py: f32 bits whose top 19 bits take every value, the low 13 one of
// six patterns; and its hash (the same wrapping sum of splitmix64).
std::vector<uint32_t> sweep_inputs() {
  const uint32_t lo[] = {0, 1, 0x1FFF, 0x1000, 0x1001, 0xFFF};
  std::vector<uint32_t> v;
  v.reserve((size_t{1} << 19) * 6);
  for (uint32_t hi = 0; hi < (1u << 19); ++hi)
    for (uint32_t l : lo) v.push_back(hi << 13 | l);
  return v;
}
uint64_t sweep_hash(const std::vector<uint32_t>& v) {
  uint64_t h = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    uint64_t z = uint64_t{v[i]} ^ (uint64_t{i} * 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    h += z ^ (z >> 31);
  }
  return h;
}

Array from_bits(const std::vector<uint32_t>& bits) {
  return st::bitcast_convert_type(st::array(bits, {static_cast<int64_t>(bits.size())}), st::f32);
}
std::vector<uint32_t> f32_bits(const Array& x) { return st::bitcast_convert_type(st::astype(x, st::f32), st::u32).to_vector<uint32_t>(); }

// Every bit pattern of the format, in order: the bytes (or, for f4_e2m1fn, the u4 values)
// reinterpreted; f6, with no integer of its width, from its exact values.
Array every_pattern(const Format& f) {
  int64_t n = static_cast<int64_t>(f.decoded.size());
  std::vector<uint32_t> p(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) p[static_cast<size_t>(i)] = static_cast<uint32_t>(i);
  Array ints = st::array(p, {n});
  if (st::bit_width(f.t) == 8) return st::bitcast_convert_type(st::astype(ints, st::u8), f.t);
  if (st::bit_width(f.t) == 4) return st::bitcast_convert_type(st::astype(ints, st::u4), f.t);
  return st::astype(from_bits(std::vector<uint32_t>(f.decoded.begin(), f.decoded.end())), f.t);
}

// Both nan (of either sign: ml_dtypes and strata agree on the sign, checked separately) or the
// same bits.
void expect_same_f32(const std::vector<uint32_t>& got, std::span<const uint32_t> want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    float g = std::bit_cast<float>(got[i]), w = std::bit_cast<float>(want[i]);
    if (std::isnan(w)) EXPECT_TRUE(std::isnan(g) && std::signbit(g) == std::signbit(w)) << what << " pattern " << i;
    else EXPECT_EQ(got[i], want[i]) << what << " pattern " << i << ": got " << g << ", want " << w;
  }
}

}  // namespace

TEST(Float8, DecodesEveryPatternAsMlDtypes) {
  for (const Format& f : kFormats) {
    Array x = every_pattern(f);
    ASSERT_EQ(x.dtype(), f.t);
    std::string name(st::short_name(f.t));
    expect_same_f32(f32_bits(x), f.decoded, name + " eager");
    auto to_bits = [](const Array& v) { return st::bitcast_convert_type(st::astype(v, st::f32), st::u32); };
    expect_same_f32(st::jit(to_bits)(x).to_vector<uint32_t>(), f.decoded, name + " jit");
    // To f64 exactly as well.
    std::vector<double> wide = st::astype(x, st::f64).to_vector<double>();
    for (size_t i = 0; i < f.decoded.size(); ++i) {
      float w = std::bit_cast<float>(f.decoded[i]);
      if (!std::isnan(w)) EXPECT_EQ(wide[i], static_cast<double>(w)) << name << " " << i;
    }
  }
}

TEST(Float8, RoundsF32AsMlDtypes) {
  for (const Format& f : kFormats) {
    Array x = from_bits(std::vector<uint32_t>(f.round_in.begin(), f.round_in.end()));
    std::vector<uint32_t> want;  // the f32 values of the patterns ml_dtypes rounds to
    for (uint8_t b : f.round_out) want.push_back(f.decoded[b]);
    auto round = [&](const Array& v) { return st::astype(st::astype(v, f.t), st::f32); };
    auto bytes = [&](const Array& v) { return st::bitcast_convert_type(st::astype(v, f.t), st::u8); };
    for (bool compiled : {false, true}) {
      std::string what = std::string(st::short_name(f.t)) + (compiled ? " jit" : " eager");
      expect_same_f32(st::bitcast_convert_type(compiled ? st::jit(round)(x) : round(x), st::u32).to_vector<uint32_t>(), want, what);
      if (st::bit_width(f.t) != 8) continue;
      std::vector<uint8_t> got = (compiled ? st::jit(bytes)(x) : bytes(x)).to_vector<uint8_t>();
      ASSERT_EQ(got.size(), f.round_out.size());
      std::vector<float> in = x.to_vector<float>();
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_EQ(int(got[i]), int(f.round_out[i])) << what << ": " << in[i] << " (0x" << std::hex << f.round_in[i] << ")";
    }
  }
}

TEST(Float8, RoundsThreeMillionF32ValuesAsMlDtypes) {
  // Every exponent, sign and rounding boundary (float8_values.py's sweep), hashed.
  Array x = from_bits(sweep_inputs());
  for (const Format& f : kFormats) {
    auto round = [&](const Array& v) { return st::bitcast_convert_type(st::astype(st::astype(v, f.t), st::f32), st::u32); };
    EXPECT_EQ(sweep_hash(round(x).to_vector<uint32_t>()), f.sweep_hash) << st::short_name(f.t) << " eager";
    EXPECT_EQ(sweep_hash(st::jit(round)(x).to_vector<uint32_t>()), f.sweep_hash) << st::short_name(f.t) << " jit";
  }
}

TEST(Float8, RoundsWiderValuesOnce) {
  // 1 + 2^-4 + 2^-30 is above the e4m3fn midpoint 1.0625 between 1 and 1.125; an f32 detour
  // would drop the 2^-30 and round the tie to 1.
  Array x = st::array(std::vector<double>{1.0 + 0x1p-4 + 0x1p-30, -(1.0 + 0x1p-4 + 0x1p-30), 1.0 + 0x1p-4}, {3}, st::f64);
  auto f = [](const Array& v) { return st::astype(v, st::f8_e4m3fn); };
  for (const Array& r : {f(x), st::jit(f)(x)}) EXPECT_EQ(r.to_vector<double>(), (std::vector<double>{1.125, -1.125, 1.0}));
  // Integers: 17 and 19 are ties in e4m3fn (steps of 2 from 16), to even mantissas 16 and 20.
  Array n = st::array(std::vector<int64_t>{17, 19, -17, 1000, 100000}, {5});
  EXPECT_EQ(st::astype(n, st::f8_e4m3fn).to_vector<double>()[0], 16.0);
  EXPECT_EQ(st::astype(n, st::f8_e4m3fn).to_vector<double>()[1], 20.0);
  std::vector<double> e5 = st::astype(n, st::f8_e5m2).to_vector<double>();
  EXPECT_EQ(e5, (std::vector<double>{16.0, 20.0, -16.0, 1024.0, INFINITY}));
  EXPECT_TRUE(std::isnan(st::astype(n, st::f8_e4m3fn).to_vector<double>()[4]));  // no inf: nan
  // f8 -> integers truncate toward zero and saturate, as from any float.
  Array y = st::astype(st::array(std::vector<double>{-2.75, 448, 3.5}, {3}), st::f8_e4m3fn);
  EXPECT_EQ(st::astype(y, st::i8).to_vector<int64_t>(), (std::vector<int64_t>{-2, 127, 3}));
  EXPECT_EQ(st::astype(y, st::u8).to_vector<int64_t>(), (std::vector<int64_t>{0, 255, 3}));
}

TEST(Float8, PromotesAsJax) {
  for (const Format& f : kFormats) {
    const st::DType t = f.t;
    for (const Format& g : kFormats)  // no two byte floats promote to one another
      if (g.t != t) EXPECT_THROW(st::promote_types(t, g.t), st::DTypeError) << st::short_name(t) << " " << st::short_name(g.t);
    for (st::DType other : {st::bf16, st::f16, st::f32, st::f64, st::c64, st::c128})
      EXPECT_THROW(st::promote_types(t, other), st::DTypeError) << st::short_name(t) << " " << st::short_name(other);
    for (st::DType other : {st::bool_, st::i8, st::i32, st::u64})
      EXPECT_EQ(st::promote_types(t, other), t) << st::short_name(other);
    Array x = st::astype(st::array(std::vector<double>{1.5, -2}, {2}), t);
    EXPECT_EQ((x * 2.0).dtype(), t);  // weak scalars take the array's type
    EXPECT_EQ((x + 1).dtype(), t);
    EXPECT_EQ((x + st::array(std::vector<int32_t>{1, 2}, {2})).dtype(), t);
  }
  EXPECT_THROW(st::promote_types(st::f8_e4m3fn, st::f8_e5m2), st::DTypeError);
  Array a = st::astype(st::array(std::vector<double>{1, 2}, {2}), st::f8_e4m3fn);
  st::testing::expect_contains(st::testing::error_message<st::DTypeError>([&] { (void)(a + st::ones({2}, st::f32)); }),
                               "float8_e4m3fn and float32 have no implicit promotion");
  EXPECT_EQ((st::astype(a, st::f32) + st::ones({2}, st::f32)).to_vector<double>(), (std::vector<double>{2, 3}));
}

TEST(Float8, NamesAndFinfo) {
  st::DType t;
  ASSERT_TRUE(st::parse_dtype("float8_e4m3fn", &t));
  EXPECT_EQ(t, st::f8_e4m3fn);
  ASSERT_TRUE(st::parse_dtype("f8_e5m2", &t));
  EXPECT_EQ(t, st::f8_e5m2);
  // The rarer formats by both names, as JAX and NumPy spell them.
  const std::tuple<st::DType, const char*, const char*, int> names[] = {
      {st::f8_e4m3fnuz, "f8_e4m3fnuz", "float8_e4m3fnuz", 8}, {st::f8_e5m2fnuz, "f8_e5m2fnuz", "float8_e5m2fnuz", 8},
      {st::f8_e4m3b11fnuz, "f8_e4m3b11fnuz", "float8_e4m3b11fnuz", 8}, {st::f8_e4m3, "f8_e4m3", "float8_e4m3", 8},
      {st::f8_e3m4, "f8_e3m4", "float8_e3m4", 8}, {st::f8_e8m0fnu, "f8_e8m0fnu", "float8_e8m0fnu", 8},
      {st::f6_e2m3fn, "f6_e2m3fn", "float6_e2m3fn", 6}, {st::f6_e3m2fn, "f6_e3m2fn", "float6_e3m2fn", 6},
      {st::f4_e2m1fn, "f4_e2m1fn", "float4_e2m1fn", 4}};
  for (const auto& [dtype, short_name, long_name, bits] : names) {
    EXPECT_EQ(st::short_name(dtype), short_name);
    EXPECT_EQ(st::long_name(dtype), long_name);
    ASSERT_TRUE(st::parse_dtype(short_name, &t));
    EXPECT_EQ(t, dtype);
    EXPECT_EQ(st::itemsize(dtype), 1u) << short_name;
    EXPECT_EQ(st::bit_width(dtype), bits) << short_name;
    EXPECT_TRUE(st::is_floating(dtype) && st::is_float8(dtype) && st::is_narrow_float(dtype)) << short_name;
  }
  EXPECT_EQ(st::itemsize(st::f8_e4m3fn), 1u);
  EXPECT_TRUE(st::is_floating(st::f8_e5m2));
  for (st::DType d : {st::f8_e5m2, st::f8_e4m3, st::f8_e3m4}) EXPECT_TRUE(st::supports_inf(d)) << st::short_name(d);
  for (st::DType d : {st::f8_e4m3fn, st::f8_e4m3fnuz, st::f8_e5m2fnuz, st::f8_e4m3b11fnuz, st::f8_e8m0fnu, st::f6_e2m3fn,
                      st::f6_e3m2fn, st::f4_e2m1fn})
    EXPECT_FALSE(st::supports_inf(d)) << st::short_name(d);
  for (st::DType d : {st::f6_e2m3fn, st::f6_e3m2fn, st::f4_e2m1fn}) EXPECT_FALSE(st::supports_nan(d)) << st::short_name(d);
  EXPECT_TRUE(st::supports_nan(st::f8_e4m3fnuz));
  EXPECT_TRUE(st::supports_nan(st::f8_e8m0fnu));
  // ml_dtypes.finfo, field for field.
  st::FInfo a = st::finfo(st::f8_e4m3fn);
  EXPECT_EQ(a.bits, 8);
  EXPECT_EQ(a.eps, 0.125);
  EXPECT_EQ(a.epsneg, 0.0625);
  EXPECT_EQ(a.max, 448.0);
  EXPECT_EQ(a.min, -448.0);
  EXPECT_EQ(a.maxexp, 9);
  EXPECT_EQ(a.minexp, -6);
  EXPECT_EQ(a.nexp, 4);
  EXPECT_EQ(a.nmant, 3);
  EXPECT_EQ(a.precision, 1);
  EXPECT_EQ(a.smallest_normal, 0.015625);
  EXPECT_EQ(a.smallest_subnormal, 0x1p-9);
  st::FInfo b = st::finfo(st::f8_e5m2);
  EXPECT_EQ(b.eps, 0.25);
  EXPECT_EQ(b.max, 57344.0);
  EXPECT_EQ(b.maxexp, 16);
  EXPECT_EQ(b.minexp, -14);
  EXPECT_EQ(b.smallest_normal, 0x1p-14);
  EXPECT_EQ(b.smallest_subnormal, 0x1p-16);
  struct Want {
    st::DType t;
    int bits, nmant, nexp, minexp, maxexp, precision;
    double eps, epsneg, max, min, tiny, subnormal, resolution;
  };
  // ml_dtypes 0.7.0's finfo of each.
  const Want wants[] = {
      {st::f8_e4m3fnuz, 8, 3, 4, -7, 8, 1, 0.125, 0.0625, 240, -240, 0.0078125, 0.0009765625, 0.1015625},
      {st::f8_e5m2fnuz, 8, 2, 5, -15, 16, 1, 0.25, 0.125, 57344, -57344, 3.0517578125e-05, 7.62939453125e-06, 0.09375},
      {st::f8_e4m3b11fnuz, 8, 3, 4, -10, 5, 1, 0.125, 0.0625, 30, -30, 0.0009765625, 0.0001220703125, 0.1015625},
      {st::f8_e4m3, 8, 3, 4, -6, 8, 1, 0.125, 0.0625, 240, -240, 0.015625, 0.001953125, 0.1015625},
      {st::f8_e3m4, 8, 4, 3, -2, 4, 1, 0.0625, 0.03125, 15.5, -15.5, 0.25, 0.015625, 0.09375},
      {st::f8_e8m0fnu, 8, 0, 8, -127, 128, 1, 1, 0.5, 1.7014118346046923e+38, 5.877471754111438e-39, 5.877471754111438e-39,
       5.877471754111438e-39, 0.125},
      {st::f6_e2m3fn, 6, 3, 2, 0, 3, 0, 0.125, 0.125, 7.5, -7.5, 1, 0.125, 1},
      {st::f6_e3m2fn, 6, 2, 3, -2, 5, 0, 0.25, 0.125, 28, -28, 0.25, 0.0625, 1},
      {st::f4_e2m1fn, 4, 1, 2, 0, 3, 0, 0.5, 0.5, 6, -6, 1, 0.5, 1},
  };
  for (const Want& w : wants) {
    st::FInfo f = st::finfo(w.t);
    std::string n(st::short_name(w.t));
    EXPECT_EQ(f.bits, w.bits) << n;
    EXPECT_EQ(f.nmant, w.nmant) << n;
    EXPECT_EQ(f.nexp, w.nexp) << n;
    EXPECT_EQ(f.minexp, w.minexp) << n;
    EXPECT_EQ(f.maxexp, w.maxexp) << n;
    EXPECT_EQ(f.precision, w.precision) << n;
    EXPECT_EQ(f.eps, w.eps) << n;
    EXPECT_EQ(f.epsneg, w.epsneg) << n;
    EXPECT_EQ(f.max, w.max) << n;
    EXPECT_EQ(f.min, w.min) << n;
    EXPECT_EQ(f.tiny, w.tiny) << n;
    EXPECT_EQ(f.smallest_normal, w.tiny) << n;
    EXPECT_EQ(f.smallest_subnormal, w.subnormal) << n;
    EXPECT_EQ(f.resolution, w.resolution) << n;
  }
  Array x = st::astype(st::array(std::vector<double>{0.3, 3.0}, {2}), st::f8_e4m3fn);
  std::ostringstream os;
  os << x;
  st::testing::expect_contains(os.str(), "dtype=float8_e4m3fn");
  std::ostringstream os4;
  os4 << st::astype(st::array(std::vector<double>{0.3, 3.0}, {2}), st::f4_e2m1fn);
  st::testing::expect_contains(os4.str(), "dtype=float4_e2m1fn");
}

TEST(Float8, ArithmeticMatchesJax) {
  std::vector<double> xs = {0.3, -1.7, 2.5, 20.0, -0.02, 7.0}, ys = {1.1, 0.4, -3.0, 5.0, 12.0, -0.3};
  for (const Format& f : kFormats) {
    Array a = st::astype(st::array(xs, {6}, st::f32), f.t), b = st::astype(st::array(ys, {6}, st::f32), f.t);
    auto prod = [](const Array& p, const Array& q) { return p * q + 1; };
    auto total = [](const Array& p, const Array& q) { return st::sum(p * q); };
    auto mm = [](const Array& p, const Array& q) { return st::matmul(st::reshape(p, {2, 3}), st::reshape(q, {3, 2})); };
    std::vector<float> eager_mm;
    for (bool compiled : {false, true}) {
      std::string what = std::string(st::short_name(f.t)) + (compiled ? " jit" : " eager");
      Array p = compiled ? st::jit(prod)(a, b) : prod(a, b);
      Array s = compiled ? st::jit(total)(a, b) : total(a, b);
      Array m = compiled ? st::jit(mm)(a, b) : mm(a, b);
      EXPECT_EQ(p.dtype(), f.t);
      EXPECT_EQ(s.dtype(), f.t);
      EXPECT_EQ(m.dtype(), f.t);
      expect_same_values(p.to_vector<float>(), f.prod, what + " a * b + 1");
      expect_same_values({s.item<float>()}, {f.sum}, what + " sum");
      // e8m0fnu has no zero, so XLA's dot (an accumulator from 0) is nan; strata's dots of the
      // narrow floats accumulate in f32 and round once, so its e8m0fnu products sum to a number.
      if (f.t == st::f8_e8m0fnu) {
        if (compiled) expect_same_values(m.to_vector<float>(), eager_mm, what + " matmul against eager");
        eager_mm = m.to_vector<float>();
        continue;
      }
      expect_same_values(m.to_vector<float>(), f.matmul, what + " matmul");
    }
  }
}

TEST(Float8, CompiledMatchesEager) {
  // The f32 results of the eager kernels and of the compiled bodies may differ by an f32 ulp
  // or so (libm against strata's own polynomials), which can move an f8 rounding by one step.
  std::vector<double> xs = st::testing::test_values(512, -6, 6, 3);
  using Fn = Array (*)(const Array&);
  const std::pair<const char*, Fn> ops[] = {
      {"exp", [](const Array& x) { return st::exp(x); }},
      {"tanh", [](const Array& x) { return st::tanh(x); }},
      {"log1p_abs", [](const Array& x) { return st::log1p(st::abs(x)); }},
      {"sqrt_abs", [](const Array& x) { return st::sqrt(st::abs(x)); }},
      {"chain", [](const Array& x) { return st::maximum(x * x - 3 * x, st::negative(x)) / 4; }},
      {"floor", [](const Array& x) { return st::floor(x) + st::sign(x); }},
      {"where", [](const Array& x) { return st::where(x > 0.5, x, x * 0.25); }},
      {"max_rows", [](const Array& x) { return st::max(st::reshape(x, {16, 32}), {1}); }},
      {"min_cols", [](const Array& x) { return st::min(st::reshape(x, {16, 32}), {0}); }},
      {"sum_rows", [](const Array& x) { return st::sum(st::reshape(x, {16, 32}), {1}); }},
      {"cumsum", [](const Array& x) { return st::cumsum(st::reshape(x, {16, 32}), 1); }},
      {"sort", [](const Array& x) { return st::sort(x); }},
      {"softmax", [](const Array& x) { return st::softmax(st::reshape(x, {16, 32}), -1); }},
      {"transpose_dot", [](const Array& x) {
         Array m = st::reshape(x, {16, 32});
         return st::matmul(m, st::transpose(m));
       }},
      {"to_f32", [](const Array& x) { return st::astype(x * x, st::f32); }},
      {"compare", [](const Array& x) { return st::astype(x < 0.3, st::f8_e5m2); }},
  };
  for (const Format& f : kFormats) {
    const st::DType t = f.t;
    Array x = st::astype(st::array(xs, {512}, st::f32), t);
    for (const auto& [name, fn] : ops) {
      Array eager = fn(x), compiled = st::jit(fn)(x);
      ASSERT_EQ(eager.dtype(), compiled.dtype()) << name;
      ASSERT_EQ(eager.shape(), compiled.shape()) << name;
      std::vector<double> e = eager.to_vector<double>(), c = compiled.to_vector<double>();
      int off = 0;
      for (size_t i = 0; i < e.size(); ++i)
        if (!st::testing::close(c[i], e[i], eager.dtype(), 1)) ++off;
      EXPECT_EQ(off, 0) << name << " " << st::short_name(t) << ": " << off << " of " << e.size()
                        << " elements differ by more than one step of " << st::short_name(eager.dtype());
    }
  }
}

TEST(Float8, Gradients) {
  // grad in the type (JAX differentiates the 8-bit floats like any float): the derivative of
  // sum(x sin x) is sin x + x cos x, each op rounded to f8 on the way.
  // Every format but e8m0fnu, which has no negative numbers (nor zero).
  for (const Format& f : kFormats) {
    const st::DType t = f.t;
    if (t == st::f8_e8m0fnu) continue;
    Array x = st::astype(st::array(std::vector<double>{0.25, -1.5, 2.0, 3.5}, {4}), t);
    auto loss = [](const Array& v) { return st::sum(v * st::sin(v)); };
    Array g = st::grad(loss)(x), gj = st::jit(st::grad(loss))(x);
    EXPECT_EQ(g.dtype(), t);
    std::vector<double> xv = x.to_vector<double>(), gv = g.to_vector<double>();
    for (size_t i = 0; i < xv.size(); ++i) {
      double a = std::sin(xv[i]), b = xv[i] * std::cos(xv[i]), want = a + b;
      // Each term rounded to f8 before the sum: within two steps of the larger term.
      double atol = 2 * st::testing::ulp(std::max(std::fabs(a), std::fabs(b)), t);
      EXPECT_TRUE(st::testing::close(gv[i], want, t, 2, atol)) << st::short_name(t) << " " << gv[i] << " vs " << want;
    }
    std::vector<double> gjv = gj.to_vector<double>();
    for (size_t i = 0; i < gv.size(); ++i) EXPECT_TRUE(st::testing::close(gjv[i], gv[i], t, 1)) << i;
  }
}

TEST(Float8, NpyRefusesWithAClearMessage) {
  Array x = st::astype(st::ones({2}), st::f8_e5m2);
  std::string path = ::testing::TempDir() + "/float8.npy";
  st::testing::expect_contains(st::testing::error_message<st::Error>([&] { st::save_npy(path, x); }), "float8_e5m2");
}

TEST(Float8, RandomMatchesJax) {
  Array k = st::random::key(0);
  for (bool compiled : {false, true}) {
    auto u = [](const Array& key) { return st::random::uniform(key, {6}, st::f8_e4m3fn); };
    auto g = [](const Array& key) { return st::random::normal(key, {6}, st::f8_e5m2); };
    EXPECT_EQ((compiled ? st::jit(u)(k) : u(k)).to_vector<float>(), fv::kE4M3FNUniform) << compiled;
    EXPECT_EQ((compiled ? st::jit(g)(k) : g(k)).to_vector<float>(), fv::kE5M2Normal) << compiled;
  }
  // The rarer 8-bit formats with a sign and a mantissa draw from their bits as JAX's.
  const std::tuple<st::DType, const std::vector<float>&, const std::vector<float>&> rarer[] = {
      {st::f8_e4m3fnuz, fv::kE4M3FNUZUniform, fv::kE4M3FNUZNormal},
      {st::f8_e5m2fnuz, fv::kE5M2FNUZUniform, fv::kE5M2FNUZNormal},
      {st::f8_e4m3b11fnuz, fv::kE4M3B11FNUZUniform, fv::kE4M3B11FNUZNormal},
      {st::f8_e4m3, fv::kE4M3Uniform, fv::kE4M3Normal},
      {st::f8_e3m4, fv::kE3M4Uniform, fv::kE3M4Normal}};
  for (const auto& [t, uniform, normal] : rarer) {
    EXPECT_EQ(st::random::uniform(k, {6}, t).to_vector<float>(), uniform) << st::short_name(t);
    EXPECT_EQ(st::random::normal(k, {6}, t).to_vector<float>(), normal) << st::short_name(t);
    EXPECT_EQ(st::jit([t](const Array& key) { return st::random::normal(key, {6}, t); })(k).to_vector<float>(), normal)
        << st::short_name(t);
  }
  // JAX refuses the 6- and 4-bit floats and draws nan in e8m0fnu; strata refuses all three.
  for (st::DType t : {st::f6_e2m3fn, st::f6_e3m2fn, st::f4_e2m1fn, st::f8_e8m0fnu})
    st::testing::expect_contains(st::testing::error_message<st::DTypeError>([&] { (void)st::random::uniform(k, {6}, t); }),
                                 "draw in f32 and convert");
}

TEST(Float8, JaxprsPrintAndParseTheTypes) {
  Array x = st::astype(st::array(std::vector<double>{0.3, -1.5, 2.0}, {3}), st::f8_e4m3fn);
  std::string text = st::make_jaxpr([](const Array& v) { return st::exp(v) * 2.0 + v; })(x).to_string();
  st::testing::expect_contains(text, "a:f8_e4m3fn[3]");
  st::testing::expect_contains(text, "mul b 2.0:f8_e4m3fn[]");  // JAX prints the same
  st::Jaxpr j = st::testing::reparsed_jaxpr(text);
  ASSERT_TRUE(j.impl());
  EXPECT_EQ(st::eval_jaxpr(j, {x})[0].to_vector<float>(), (st::exp(x) * 2.0 + x).to_vector<float>());
  for (st::DType t : {st::f4_e2m1fn, st::f8_e4m3b11fnuz, st::f8_e8m0fnu}) {
    Array y = st::astype(st::array(std::vector<double>{0.5, 1.5, 4.0}, {3}), t);
    std::string s = st::make_jaxpr([](const Array& v) { return v * v; })(y).to_string();
    st::testing::expect_contains(s, "a:" + std::string(st::short_name(t)) + "[3]");
    EXPECT_EQ(st::eval_jaxpr(st::testing::reparsed_jaxpr(s), {y})[0].to_vector<float>(), (y * y).to_vector<float>());
  }
}

TEST(Float8, ReducePrecisionRefusesThem) {
  Array x = st::astype(st::ones({2}), st::f8_e5m2);
  st::testing::expect_contains(
      st::testing::error_message<st::DTypeError>([&] { (void)st::reduce_precision(x, 5, 2); }),
      "reduce_precision: expects bf16, f16, f32 or f64, but got float8_e5m2");
}

TEST(Float8, CompiledMatmulIsTheRuntimeGemm) {
  // As bf16: the operands widened to f32 in the runtime GEMM (Eigen's, the eager kernel's),
  // the f32 sum rounded once; compiled and eager give the same bits.
  for (const Format& format : kFormats) {
    const st::DType t = format.t;
    Array a = st::astype(st::random::normal(st::random::key(1), {2, 48, 96}), t);
    Array b = st::astype(st::random::normal(st::random::key(2), {2, 96, 40}), t);
    auto f = [](const Array& p, const Array& q) { return st::matmul(p, q); };
    auto jf = st::jit(f);
    std::string llvm = jf.lower(a, b).as_text("loops");
    std::string suffix(st::short_name(t));
    suffix.erase(std::remove(suffix.begin(), suffix.end(), '_'), suffix.end());  // f8_e4m3fn -> f8e4m3fn
    st::testing::expect_contains(llvm, "strata_rt_dot_" + suffix);
    Array e = f(a, b), c = jf(a, b);
    EXPECT_EQ(f32_bits(c), f32_bits(e)) << st::short_name(t);
  }
}

TEST(Float8, NextafterStepsToTheAdjacentValue) {
  // From every pattern towards the largest and the lowest number: the next value up or down
  // among the format's own (fnuz: no -0, so -min steps up to +0; e8m0fnu: no sign, no zero).
  for (const Format& f : kFormats) {
    std::string name(st::short_name(f.t));
    Array x = every_pattern(f);
    int64_t n = x.shape()[0];
    std::vector<float> finite;
    for (uint32_t b : f.decoded)
      if (std::isfinite(std::bit_cast<float>(b))) finite.push_back(std::bit_cast<float>(b));
    std::sort(finite.begin(), finite.end());
    float top = finite.back(), bottom = finite.front();
    for (float towards : {top, bottom}) {
      Array y = st::full({n}, towards, f.t);
      auto step = [](const Array& a, const Array& b) { return st::nextafter(a, b); };
      std::vector<float> e = step(x, y).to_vector<float>(), c = st::jit(step)(x, y).to_vector<float>();
      std::vector<float> xv = x.to_vector<float>();
      for (size_t i = 0; i < xv.size(); ++i) {
        float v = xv[i], want;  // C's nextafter among the format's values (infinities step to ±max)
        if (std::isnan(v) || v == towards) want = std::isnan(v) ? v : towards;
        else if (towards > v) want = *std::upper_bound(finite.begin(), finite.end(), v);
        else want = *(std::lower_bound(finite.begin(), finite.end(), v) - 1);
        std::string at = name + " from " + std::to_string(v) + " towards " + std::to_string(towards);
        if (std::isnan(v)) EXPECT_TRUE(std::isnan(e[i])) << at;
        else EXPECT_EQ(e[i], want) << at;
        EXPECT_EQ(std::bit_cast<uint32_t>(c[i]), std::bit_cast<uint32_t>(e[i])) << at << " (jit)";
      }
    }
  }
}

TEST(Float8, SortsEveryPatternByValue) {
  // Shuffled patterns sorted: ascending values, nans last, eager and jit alike (the fnuz
  // formats' nan sits where -0 would; the 6- and 4-bit formats keep their sign in bit 5 or 3).
  for (const Format& f : kFormats) {
    std::string name(st::short_name(f.t));
    Array x = every_pattern(f);
    int64_t n = x.shape()[0];
    Array perm = st::argsort(st::random::uniform(st::random::key(7), {n}));
    Array shuffled = st::take(x, perm);
    for (bool descending : {false, true}) {
      auto s = [descending](const Array& v) { return st::sort(v, -1, descending); };
      std::vector<float> e = s(shuffled).to_vector<float>(), c = st::jit(s)(shuffled).to_vector<float>();
      EXPECT_EQ(f32_bits(st::array(e, {n})), f32_bits(st::array(c, {n}))) << name;
      std::vector<float> numbers;
      for (float v : e)
        if (!std::isnan(v)) numbers.push_back(v);
      EXPECT_TRUE(std::is_sorted(numbers.begin(), numbers.end(), [&](float a, float b) { return descending ? a > b : a < b; }))
          << name;
      size_t nans = e.size() - numbers.size();
      for (size_t i = 0; i < e.size(); ++i)  // nans last ascending, first descending (as JAX)
        EXPECT_EQ(std::isnan(e[i]), descending ? i < nans : i >= numbers.size()) << name << " " << i;
    }
  }
}

TEST(Float8, E8M0IsAnUnsignedPowerOfTwo) {
  // No zero, no sign: 0 and negative numbers become nan, values round half up to a power of
  // two; products are exact; a sum starts from the type's 0, which is nan (as JAX's).
  Array x = st::astype(st::array(std::vector<double>{0.0, -1.0, 3.0, 5.0, 0.3, 1e-40, 1e39}, {7}), st::f8_e8m0fnu);
  expect_same_values(x.to_vector<float>(), {NAN, NAN, 4.0f, 4.0f, 0.25f, 0x1p-127f, NAN}, "astype");
  Array p = st::astype(st::array(std::vector<double>{0.5, 2.0, 8.0}, {3}), st::f8_e8m0fnu);
  for (bool compiled : {false, true}) {
    auto mul = [](const Array& a) { return a * a; };
    auto total = [](const Array& a) { return st::sum(a); };
    auto top = [](const Array& a) { return st::max(a); };
    expect_same_values((compiled ? st::jit(mul)(p) : mul(p)).to_vector<float>(), {0.25f, 4.0f, 64.0f}, "square");
    EXPECT_TRUE(std::isnan((compiled ? st::jit(total)(p) : total(p)).item<float>())) << compiled;
    EXPECT_EQ((compiled ? st::jit(top)(p) : top(p)).item<float>(), 8.0f) << compiled;
  }
  EXPECT_EQ(st::finfo(st::f8_e8m0fnu).min, 0x1p-127);  // its smallest number, not a negative one
}

TEST(Float8, BitcastsOnlyBetweenEqualWidths) {
  Array x = st::astype(st::array(std::vector<double>{-6, 0.5, 1.5, 3}, {4}), st::f4_e2m1fn);
  Array bits = st::bitcast_convert_type(x, st::u4);
  EXPECT_EQ(bits.to_vector<int64_t>(), (std::vector<int64_t>{15, 1, 3, 5}));
  EXPECT_EQ(st::bitcast_convert_type(bits, st::f4_e2m1fn).to_vector<float>(), x.to_vector<float>());
  EXPECT_EQ(st::jit([](const Array& b) { return st::bitcast_convert_type(b, st::f4_e2m1fn); })(bits).to_vector<float>(),
            x.to_vector<float>());
  Array six = st::astype(st::ones({2}), st::f6_e2m3fn);
  st::testing::expect_contains(st::testing::error_message<st::DTypeError>([&] { (void)st::bitcast_convert_type(six, st::u8); }),
                               "reinterprets a 2-, 4- or 6-bit number only as another of its width");
}
