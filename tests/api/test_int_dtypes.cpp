// The 8- and 16-bit and unsigned integer dtypes (i8, i16, u8, u16, u32, u64): JAX's promotion
// table, the eager semantics on edge values (written out by hand), jit == eager bit for bit on
// every integer op, .npy and jaxpr spellings.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <random>
#include <string>

#include "jaxpr_parser.h"
#include "lax.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
namespace lax = strata::lax;

namespace {

constexpr st::DType kIntTypes[] = {st::i8, st::i16, st::i32, st::i64, st::u8, st::u16, st::u32, st::u64};

// ---- Promotion: JAX's table (https://jax.readthedocs.io/en/latest/type_promotion.html) ----

struct Node {
  const char* name;
  st::TypeSpec spec;
};
const Node kNodes[] = {
    {"b", {st::bool_, false}}, {"u8", {st::u8, false}},   {"u16", {st::u16, false}}, {"u32", {st::u32, false}},
    {"u64", {st::u64, false}}, {"i8", {st::i8, false}},   {"i16", {st::i16, false}}, {"i32", {st::i32, false}},
    {"i64", {st::i64, false}}, {"bf16", {st::bf16, false}}, {"f32", {st::f32, false}}, {"i*", {st::i32, true}},
    {"f*", {st::f32, true}},
};
// Row and column order as kNodes. Where JAX's table says f* for two strong types (u64 with a
// signed integer) JAX with 64-bit types gives float64, and so does strata ("f64").
const char* const kTable[13][13] = {
    //        b       u8      u16     u32     u64     i8      i16     i32     i64     bf16    f32    i*      f*
    /* b   */ {"b",    "u8",   "u16",  "u32",  "u64",  "i8",   "i16",  "i32",  "i64",  "bf16", "f32", "i*",   "f*"},
    /* u8  */ {"u8",   "u8",   "u16",  "u32",  "u64",  "i16",  "i16",  "i32",  "i64",  "bf16", "f32", "u8",   "f*"},
    /* u16 */ {"u16",  "u16",  "u16",  "u32",  "u64",  "i32",  "i32",  "i32",  "i64",  "bf16", "f32", "u16",  "f*"},
    /* u32 */ {"u32",  "u32",  "u32",  "u32",  "u64",  "i64",  "i64",  "i64",  "i64",  "bf16", "f32", "u32",  "f*"},
    /* u64 */ {"u64",  "u64",  "u64",  "u64",  "u64",  "f64",  "f64",  "f64",  "f64",  "bf16", "f32", "u64",  "f*"},
    /* i8  */ {"i8",   "i16",  "i32",  "i64",  "f64",  "i8",   "i16",  "i32",  "i64",  "bf16", "f32", "i8",   "f*"},
    /* i16 */ {"i16",  "i16",  "i32",  "i64",  "f64",  "i16",  "i16",  "i32",  "i64",  "bf16", "f32", "i16",  "f*"},
    /* i32 */ {"i32",  "i32",  "i32",  "i64",  "f64",  "i32",  "i32",  "i32",  "i64",  "bf16", "f32", "i32",  "f*"},
    /* i64 */ {"i64",  "i64",  "i64",  "i64",  "f64",  "i64",  "i64",  "i64",  "i64",  "bf16", "f32", "i64",  "f*"},
    /* bf16*/ {"bf16", "bf16", "bf16", "bf16", "bf16", "bf16", "bf16", "bf16", "bf16", "bf16", "f32", "bf16", "bf16"},
    /* f32 */ {"f32",  "f32",  "f32",  "f32",  "f32",  "f32",  "f32",  "f32",  "f32",  "f32",  "f32", "f32",  "f32"},
    /* i*  */ {"i*",   "u8",   "u16",  "u32",  "u64",  "i8",   "i16",  "i32",  "i64",  "bf16", "f32", "i*",   "f*"},
    /* f*  */ {"f*",   "f*",   "f*",   "f*",   "f*",   "f*",   "f*",   "f*",   "f*",   "bf16", "f32", "f*",   "f*"},
};

st::TypeSpec spec_named(const std::string& n) {
  if (n == "f64") return {st::f64, false};
  for (const Node& node : kNodes)
    if (n == node.name) return node.spec;
  ADD_FAILURE() << "no node " << n;
  return {};
}

TEST(IntDTypes, JaxPromotionTable) {
  for (int i = 0; i < 13; ++i)
    for (int j = 0; j < 13; ++j) {
      st::TypeSpec want = spec_named(kTable[i][j]), got = st::promote_types(kNodes[i].spec, kNodes[j].spec);
      EXPECT_EQ(got, want) << kNodes[i].name << " with " << kNodes[j].name << ": got " << st::short_name(got.dtype)
                           << (got.weak ? " (weak)" : "") << ", want " << kTable[i][j];
    }
}

TEST(IntDTypes, NamesSizesAndCppTypes) {
  const char* names[][2] = {{"i8", "int8"},   {"i16", "int16"},   {"i32", "int32"},   {"i64", "int64"},
                            {"u8", "uint8"},  {"u16", "uint16"},  {"u32", "uint32"},  {"u64", "uint64"}};
  const size_t sizes[] = {1, 2, 4, 8, 1, 2, 4, 8};
  for (size_t k = 0; k < 8; ++k) {
    st::DType t = kIntTypes[k];
    EXPECT_EQ(st::short_name(t), names[k][0]);
    EXPECT_EQ(st::long_name(t), names[k][1]);
    EXPECT_EQ(st::itemsize(t), sizes[k]);
    EXPECT_TRUE(st::is_integer(t));
    EXPECT_EQ(st::is_unsigned_integer(t), k >= 4);
    st::DType parsed;
    ASSERT_TRUE(st::parse_dtype(names[k][1], &parsed));
    EXPECT_EQ(parsed, t);
  }
  static_assert(st::dtype_of<uint8_t>() == st::u8 && st::dtype_of<int16_t>() == st::i16);
  static_assert(st::dtype_of<uint32_t>() == st::u32 && st::dtype_of<uint64_t>() == st::u64);
  // A C++ integer scalar stays weakly typed: u8 + 1 is u8.
  st::Array x = st::array<uint8_t>({250, 3});
  EXPECT_EQ(x.dtype(), st::u8);
  st::Array y = x + 10;
  EXPECT_EQ(y.dtype(), st::u8);
  EXPECT_EQ(y.to_vector<int>(), (std::vector<int>{4, 13}));  // wraps
  EXPECT_EQ(x.to_string(), "array([250,   3], dtype=uint8)");
}

// ---- Eager semantics, written out ----

template <class T>
std::vector<T> vec(const st::Array& a) {
  return a.to_vector<T>();
}

TEST(IntDTypes, UnsignedArithmetic) {
  st::Array a = st::array<uint8_t>({7, 200, 0, 255}), b = st::array<uint8_t>({2, 100, 0, 0});
  EXPECT_EQ(vec<uint8_t>(lax::div(a, b)), (std::vector<uint8_t>{3, 2, 255, 255}));  // x / 0 = all ones
  EXPECT_EQ(vec<uint8_t>(lax::rem(a, b)), (std::vector<uint8_t>{1, 0, 0, 255}));    // x % 0 = x
  EXPECT_EQ(vec<uint8_t>(a - b), (std::vector<uint8_t>{5, 100, 0, 255}));
  EXPECT_EQ(vec<uint8_t>(b - a), (std::vector<uint8_t>{251, 156, 0, 1}));
  EXPECT_EQ(vec<uint8_t>(a * b), (std::vector<uint8_t>{14, 32, 0, 0}));
  EXPECT_EQ(vec<uint8_t>(st::maximum(a, b)), (std::vector<uint8_t>{7, 200, 0, 255}));
  EXPECT_EQ(vec<bool>(st::greater(a, b)), (std::vector<bool>{true, true, false, true}));
  EXPECT_EQ(vec<uint8_t>(-a), (std::vector<uint8_t>{249, 56, 0, 1}));
  EXPECT_EQ(vec<uint8_t>(st::abs(a)), (std::vector<uint8_t>{7, 200, 0, 255}));
  EXPECT_EQ(vec<uint8_t>(st::sign(a)), (std::vector<uint8_t>{1, 1, 0, 1}));
  st::Array big = st::array<uint32_t>({0x80000000u, 4000000000u});
  EXPECT_EQ(vec<uint32_t>(st::shift_right_arithmetic(big, st::array<uint32_t>({4, 0}))),
            (std::vector<uint32_t>{0xF8000000u, 4000000000u}));
  EXPECT_EQ(vec<uint32_t>(lax::div(big, st::array<uint32_t>({3, 7}))), (std::vector<uint32_t>{715827882u, 571428571u}));
  st::Array h = st::array<uint16_t>({65535, 300});
  EXPECT_EQ(vec<uint16_t>(h * h), (std::vector<uint16_t>{1, 24464}));  // (2^16-1)^2 mod 2^16, 90000 mod 2^16
  EXPECT_EQ(vec<uint16_t>(st::integer_pow(h, 3)),  // 300^3 = 27000000 = 411 * 2^16 + 64704
            (std::vector<uint16_t>{65535, 64704}));
}

TEST(IntDTypes, SignedNarrowArithmetic) {
  st::Array a = st::array<int8_t>({127, -128, -7, -7}), b = st::array<int8_t>({1, -1, 2, 0});
  EXPECT_EQ(vec<int8_t>(a + b), (std::vector<int8_t>{-128, 127, -5, -7}));
  EXPECT_EQ(vec<int8_t>(lax::div(a, b)), (std::vector<int8_t>{127, -128, -3, -1}));
  EXPECT_EQ(vec<int8_t>(lax::rem(a, b)), (std::vector<int8_t>{0, 0, -1, -7}));
  EXPECT_EQ(vec<int8_t>(st::abs(a)), (std::vector<int8_t>{127, -128, 7, 7}));
  EXPECT_EQ(vec<int16_t>(st::shift_left(st::array<int16_t>({1, 3}), st::array<int16_t>({15, 16}))),
            (std::vector<int16_t>{-32768, 0}));
  EXPECT_EQ(vec<int8_t>(st::clz(st::array<int8_t>({1, -1, 0}))), (std::vector<int8_t>{7, 0, 8}));
}

// max/min reductions start from the dtype's own extremes: 0 and 2^w - 1 for unsigned types
// (found by fuzz_differential: a u16 max over a size-1 axis gave 32768, the i16 minimum).
TEST(IntDTypes, ReductionIdentitiesAreUnsigned) {
  for (st::DType t : {st::u8, st::u16, st::u32, st::u64}) {
    st::Array small = st::array(std::vector<double>{0, 3, 1}, {1, 3}, t);
    st::Array big = st::astype(st::array(std::vector<double>{-1, -2}, {2}, st::i64), t);  // the two largest
    auto f = st::jit([](const st::Array& x, const st::Array& y) {
      return std::vector<st::Array>{st::max(x, {0}), st::min(y), st::max(y)};
    });
    std::vector<st::Array> r = f(small, big);
    EXPECT_EQ(r[0].to_vector<double>(), (std::vector<double>{0, 3, 1})) << st::short_name(t);
    std::vector<uint64_t> b = big.to_vector<uint64_t>();  // 2^w - 1, 2^w - 2
    EXPECT_EQ(r[1].item<uint64_t>(), b[1]) << st::short_name(t);
    EXPECT_EQ(r[2].item<uint64_t>(), b[0]) << st::short_name(t);
    EXPECT_EQ(st::min(big).item<uint64_t>(), b[1]) << st::short_name(t);
  }
}

TEST(IntDTypes, Conversions) {
  st::Array f = st::array<float>({-1.5f, 300.7f, NAN, 1e10f, 2.9f});
  EXPECT_EQ(vec<int>(st::astype(f, st::u8)), (std::vector<int>{0, 255, 0, 255, 2}));  // saturating
  EXPECT_EQ(vec<int>(st::astype(f, st::i8)), (std::vector<int>{-1, 127, 0, 127, 2}));
  EXPECT_EQ(vec<uint32_t>(st::astype(st::array<int8_t>({-1, 5}), st::u32)), (std::vector<uint32_t>{4294967295u, 5}));
  EXPECT_EQ(vec<int32_t>(st::astype(st::array<uint8_t>({255, 5}), st::i32)), (std::vector<int32_t>{255, 5}));
  EXPECT_EQ(vec<int8_t>(st::astype(st::array<uint16_t>({0x1ff, 0x80}), st::i8)), (std::vector<int8_t>{-1, -128}));
  EXPECT_EQ(vec<float>(st::astype(st::array<uint64_t>({~uint64_t{0}}), st::f32)), (std::vector<float>{1.8446744e19f}));
  EXPECT_EQ(vec<double>(st::astype(st::array<uint64_t>({~uint64_t{0}}), st::bf16)), (std::vector<double>{1.8446744073709552e19}));
  // Sums of 8/16-bit integers accumulate in (u)int32, as jnp.sum.
  st::Array s = st::sum(st::array<uint8_t>({200, 100}));
  EXPECT_EQ(s.dtype(), st::u32);
  EXPECT_EQ(s.item<uint32_t>(), 300u);
  EXPECT_EQ(st::sum(st::array<int8_t>({-100, -100})).dtype(), st::i32);
  EXPECT_EQ(st::cumsum(st::array<uint16_t>({65535, 1})).to_vector<uint32_t>(), (std::vector<uint32_t>{65535, 65536}));
}

// ---- jit == eager, bit for bit ----

// Edge values of `t` and a few random ones, as an array of `t`.
st::Array edge_values(st::DType t, int n, uint64_t seed) {
  std::vector<double> v;
  bool uns = st::is_unsigned_integer(t);
  int bits = static_cast<int>(st::itemsize(t)) * 8;
  double lo = uns ? 0 : -std::ldexp(1.0, bits - 1), hi = uns ? std::ldexp(1.0, bits) - 1 : std::ldexp(1.0, bits - 1) - 1;
  if (bits == 64) hi = uns ? 1.8446744073709550e19 : 9.2233720368547748e18;  // below 2^64 / 2^63
  for (double e : {lo, lo + 1, -1.0, 0.0, 1.0, 2.0, 7.0, hi - 1, hi, std::floor(hi / 2)})
    if (e >= lo && e <= hi) v.push_back(e);
  std::mt19937_64 rng(seed);
  while (static_cast<int>(v.size()) < n) v.push_back(std::floor(std::uniform_real_distribution<double>(lo, hi)(rng)));
  std::shuffle(v.begin(), v.end(), rng);
  return st::array(v, {static_cast<int64_t>(v.size())}, t);
}

// Shift amounts: 0 .. width + 1 (and negative ones for signed types).
st::Array shift_values(st::DType t, int n) {
  int bits = static_cast<int>(st::itemsize(t)) * 8;
  std::vector<double> v;
  for (int k = 0; k < n; ++k) v.push_back(k % (bits + 2) - (st::is_unsigned_integer(t) ? 0 : (k % 5 == 0 ? bits : 0)));
  return st::array(v, {n}, t);
}

void expect_same_bits(const st::Array& got, const st::Array& want, const std::string& what) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.shape(), want.shape()) << what;
  const auto* g = static_cast<const unsigned char*>(got.data());
  const auto* w = static_cast<const unsigned char*>(want.data());
  for (size_t i = 0; i < got.nbytes(); ++i)
    if (g[i] != w[i]) {
      ADD_FAILURE() << what << ": jit " << got.to_string() << "\n  eager " << want.to_string();
      return;
    }
}

using BinaryFn = st::Array (*)(const st::Array&, const st::Array&);
struct NamedBinary {
  const char* name;
  BinaryFn fn;
};
const NamedBinary kBinary[] = {
    {"add", [](const st::Array& a, const st::Array& b) { return a + b; }},
    {"sub", [](const st::Array& a, const st::Array& b) { return a - b; }},
    {"mul", [](const st::Array& a, const st::Array& b) { return a * b; }},
    {"div", [](const st::Array& a, const st::Array& b) { return lax::div(a, b); }},
    {"rem", [](const st::Array& a, const st::Array& b) { return lax::rem(a, b); }},
    {"max", [](const st::Array& a, const st::Array& b) { return lax::max(a, b); }},
    {"min", [](const st::Array& a, const st::Array& b) { return lax::min(a, b); }},
    {"and", [](const st::Array& a, const st::Array& b) { return lax::and_(a, b); }},
    {"or", [](const st::Array& a, const st::Array& b) { return lax::or_(a, b); }},
    {"lt", [](const st::Array& a, const st::Array& b) { return lax::lt(a, b); }},
    {"ge", [](const st::Array& a, const st::Array& b) { return lax::ge(a, b); }},
    {"eq", [](const st::Array& a, const st::Array& b) { return lax::eq(a, b); }},
    {"select", [](const st::Array& a, const st::Array& b) { return lax::select(lax::lt(a, b), b, a); }},
    {"to_f32", [](const st::Array& a, const st::Array&) { return lax::convert_element_type(a, st::f32); }},
    {"to_f64", [](const st::Array& a, const st::Array&) { return lax::convert_element_type(a, st::f64); }},
    {"to_bf16", [](const st::Array& a, const st::Array&) { return lax::convert_element_type(a, st::bf16); }},
    {"to_f16", [](const st::Array& a, const st::Array&) { return lax::convert_element_type(a, st::f16); }},
    {"to_bool", [](const st::Array& a, const st::Array&) { return lax::convert_element_type(a, st::bool_); }},
    {"to_i8", [](const st::Array& a, const st::Array&) { return lax::convert_element_type(a, st::i8); }},
    {"to_u16", [](const st::Array& a, const st::Array&) { return lax::convert_element_type(a, st::u16); }},
    {"to_i64", [](const st::Array& a, const st::Array&) { return lax::convert_element_type(a, st::i64); }},
    {"to_u64", [](const st::Array& a, const st::Array&) { return lax::convert_element_type(a, st::u64); }},
    {"from_f32", [](const st::Array& a, const st::Array&) {
       return lax::convert_element_type(lax::mul(lax::convert_element_type(a, st::f32), lax::scalar(1.5, st::f32)), a.dtype());
     }},
    {"neg", [](const st::Array& a, const st::Array&) { return lax::neg(a); }},
    {"abs", [](const st::Array& a, const st::Array&) { return lax::abs(a); }},
    {"sign", [](const st::Array& a, const st::Array&) { return lax::sign(a); }},
    {"not", [](const st::Array& a, const st::Array&) { return lax::not_(a); }},
    {"popcount", [](const st::Array& a, const st::Array&) { return st::population_count(a); }},
    {"clz", [](const st::Array& a, const st::Array&) { return st::clz(a); }},
    {"integer_pow3", [](const st::Array& a, const st::Array&) { return lax::integer_pow(a, 3); }},
    {"sum", [](const st::Array& a, const st::Array&) { return lax::reduce_sum(a, {0}); }},
    {"max_reduce", [](const st::Array& a, const st::Array&) { return st::max(a); }},
    {"min_reduce", [](const st::Array& a, const st::Array&) { return st::min(a); }},
    {"cummax", [](const st::Array& a, const st::Array&) { return st::cummax(a); }},
    {"argmax", [](const st::Array& a, const st::Array&) { return st::argmax(a); }},
    {"clamp", [](const st::Array& a, const st::Array& b) { return st::clamp(lax::min(a, b), a, lax::max(a, b)); }},
};

TEST(IntDTypes, JitMatchesEagerOnEveryOp) {
  for (st::DType t : kIntTypes) {
    st::Array a = edge_values(t, 67, 1), b = edge_values(t, 67, 2);
    for (const NamedBinary& op : kBinary) {
      std::string what = std::string(op.name) + " on " + std::string(st::short_name(t));
      st::Array want = op.fn(a, b);
      auto f = st::jit([&op](const st::Array& x, const st::Array& y) { return op.fn(x, y); });
      expect_same_bits(f(a, b), want, what);
    }
    st::Array s = shift_values(t, 67);
    for (auto [name, fn] : {std::pair<const char*, BinaryFn>{"shl", [](const st::Array& x, const st::Array& y) { return st::shift_left(x, y); }},
                            {"sra", [](const st::Array& x, const st::Array& y) { return st::shift_right_arithmetic(x, y); }},
                            {"srl", [](const st::Array& x, const st::Array& y) { return lax::bind1(st::prim::kShiftRightLogical, {x, y}); }},
                            {"pow", [](const st::Array& x, const st::Array& y) { return lax::pow(x, y); }}}) {
      std::string what = std::string(name) + " on " + std::string(st::short_name(t));
      auto f = st::jit([fn](const st::Array& x, const st::Array& y) { return fn(x, y); });
      expect_same_bits(f(a, s), fn(a, s), what);
    }
  }
}

// Every ordered pair of integer dtypes converts alike in jit and eager.
TEST(IntDTypes, JitConvertsEveryPair) {
  for (st::DType from : kIntTypes) {
    st::Array a = edge_values(from, 40, 3);
    for (st::DType to : kIntTypes) {
      auto f = st::jit([to](const st::Array& x) { return lax::convert_element_type(x, to); });
      expect_same_bits(f(a), lax::convert_element_type(a, to),
                       std::string(st::short_name(from)) + " -> " + std::string(st::short_name(to)));
    }
  }
}

// ---- Spellings ----

TEST(IntDTypes, NpyRoundTrip) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "strata_int_npy";
  std::filesystem::create_directories(dir);
  for (st::DType t : kIntTypes) {
    st::Array a = edge_values(t, 12, 4);
    std::string path = (dir / (std::string(st::short_name(t)) + ".npy")).string();
    st::save_npy(path, a);
    st::Array b = st::load_npy(path);
    expect_same_bits(b, a, std::string("npy ") + std::string(st::short_name(t)));
  }
  std::filesystem::remove_all(dir);
}

TEST(IntDTypes, JaxprSpellsThem) {
  auto f = [](const st::Array& x, const st::Array& y) { return lax::convert_element_type(x, st::u32) + y; };
  std::string text = st::make_jaxpr(f)(st::zeros({3}, st::u8), st::zeros({3}, st::u32)).to_string();
  EXPECT_NE(text.find("a:u8[3]"), std::string::npos) << text;
  EXPECT_NE(text.find("u32[3]"), std::string::npos) << text;
  // and the parser reads them back
  st::testing::reparsed_jaxpr(text);
}

}  // namespace
