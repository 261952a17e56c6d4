// The sub-byte integers i4, u4, i2, u2 (jnp.int4, uint4, int2, uint2): one byte per element
// with the value in the low bits, as ml_dtypes stores them; JAX's promotion (only with bool and
// integer scalars) and iinfo; wrapping arithmetic and the bit-width-aware operations (shifts,
// population_count, clz) against JAX's values, eager and compiled; conversions, reductions,
// sorts, dots and convolutions; jaxprs and StableHLO in the types.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "jaxpr_parser.h"
#include "lax.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

Array ints(const std::vector<int64_t>& v, st::DType t) {
  return st::astype(st::array(v, {static_cast<int64_t>(v.size())}), t);
}
std::vector<int64_t> values(const Array& x) { return x.to_vector<int64_t>(); }
std::vector<uint8_t> bytes(const Array& x) {
  const auto* p = static_cast<const uint8_t*>(x.data());
  return std::vector<uint8_t>(p, p + x.size());
}

// f(args) eagerly and compiled: both must give `want`.
void expect_both(const std::function<Array(const std::vector<Array>&)>& f, const std::vector<Array>& args,
                 const std::vector<int64_t>& want, const std::string& what) {
  Array e = f(args);
  EXPECT_EQ(values(e), want) << what << " (eager)";
  auto jf = st::jit([&](const std::vector<Array>& a) { return f(a); });
  Array c = jf(args);
  EXPECT_EQ(c.dtype(), e.dtype()) << what;
  EXPECT_EQ(values(c), want) << what << " (compiled)";
  EXPECT_EQ(bytes(c), bytes(e)) << what << " (the same bytes)";
}

}  // namespace

TEST(SubbyteInt, NamesWidthsAndLimits) {
  struct Row { st::DType t; const char *s, *l; int bits; int64_t min; uint64_t max; bool uns; };
  for (const Row& r : {Row{st::i4, "i4", "int4", 4, -8, 7, false}, Row{st::u4, "u4", "uint4", 4, 0, 15, true},
                       Row{st::i2, "i2", "int2", 2, -2, 1, false}, Row{st::u2, "u2", "uint2", 2, 0, 3, true}}) {
    EXPECT_EQ(st::short_name(r.t), r.s);
    EXPECT_EQ(st::long_name(r.t), r.l);
    EXPECT_EQ(st::itemsize(r.t), 1u) << r.s;
    EXPECT_EQ(st::bit_width(r.t), r.bits) << r.s;
    EXPECT_TRUE(st::is_integer(r.t) && st::is_subbyte_integer(r.t)) << r.s;
    EXPECT_EQ(st::is_unsigned_integer(r.t), r.uns) << r.s;
    st::IInfo i = st::iinfo(r.t);
    EXPECT_EQ(i.bits, r.bits) << r.s;
    EXPECT_EQ(i.min, r.min) << r.s;
    EXPECT_EQ(i.max, r.max) << r.s;
    st::DType parsed;
    ASSERT_TRUE(st::parse_dtype(r.l, &parsed) && parsed == r.t) << r.l;
    ASSERT_TRUE(st::parse_dtype(r.s, &parsed) && parsed == r.t) << r.s;
  }
  EXPECT_FALSE(st::is_subbyte_integer(st::i8));
  // NumPy's safe casts by value range.
  EXPECT_TRUE(st::can_cast(st::i4, st::i8));
  EXPECT_TRUE(st::can_cast(st::u4, st::i8));
  EXPECT_TRUE(st::can_cast(st::i2, st::i4));
  EXPECT_FALSE(st::can_cast(st::i8, st::i4));
  EXPECT_FALSE(st::can_cast(st::i4, st::u4));
  EXPECT_TRUE(st::can_cast(st::i4, st::f8_e4m3fn));
}

TEST(SubbyteInt, PromotesAsJax) {
  using st::TypeSpec;
  // With themselves, bool and integer scalars (weak ints) only.
  EXPECT_EQ(st::promote_types(st::i4, st::i4), st::i4);
  EXPECT_EQ(st::promote_types(st::u2, st::bool_), st::u2);
  EXPECT_EQ(st::promote_types(TypeSpec{st::i4, false}, TypeSpec{st::i32, true}), (TypeSpec{st::i4, false}));
  Array x = ints({-8, -1, 0, 1, 7}, st::i4);
  EXPECT_EQ((x * 2).dtype(), st::i4);
  EXPECT_EQ((x + st::array(std::vector<uint8_t>{1, 0, 1, 1, 0}, {5}, st::bool_)).dtype(), st::i4);
  // Anything else is JAX's TypePromotionError.
  for (auto [a, b] : {std::pair{st::i4, st::i8}, {st::u4, st::u8}, {st::i4, st::u4}, {st::i2, st::i4}, {st::i4, st::f32}}) {
    std::string msg = st::testing::error_message<st::DTypeError>([&] { (void)st::promote_types(a, b); });
    st::testing::expect_contains(msg, "have no implicit promotion: 2-bit and 4-bit integers promote only with bool and integer scalars");
  }
  st::testing::expect_contains(st::testing::error_message<st::DTypeError>([&] { (void)(x * 2.5); }),
                               "int4 and float64 (weak) have no implicit promotion");
}

TEST(SubbyteInt, StoresTheValueInTheLowBitsAsMlDtypes) {
  // ml_dtypes: int4 [-1, -8, 7] is b'\x0f\x08\x07', uint4 [3, 15] b'\x03\x0f', int2 [-1] b'\x03'.
  EXPECT_EQ(bytes(ints({-1, -8, 7}, st::i4)), (std::vector<uint8_t>{0x0F, 0x08, 0x07}));
  EXPECT_EQ(bytes(ints({3, 15}, st::u4)), (std::vector<uint8_t>{0x03, 0x0F}));
  EXPECT_EQ(bytes(ints({-1, 1, -2}, st::i2)), (std::vector<uint8_t>{0x03, 0x01, 0x02}));
  // Compiled code writes the same bytes (LLVM stores an i4 zero-extended to its byte).
  Array x = ints({-8, -1, 0, 1, 7}, st::i4);
  Array y = st::jit([](const Array& v) { return -v; })(x);
  EXPECT_EQ(bytes(y), (std::vector<uint8_t>{0x08, 0x01, 0x00, 0x0F, 0x09}));
  EXPECT_EQ(st::bitcast_convert_type(y, st::u4).to_vector<int>(), (std::vector<int>{8, 1, 0, 15, 9}));
}

TEST(SubbyteInt, ConvertsAsJax) {
  // Floats truncate toward zero and saturate, nan is 0; wider integers wrap.
  auto f32 = st::array(std::vector<float>{1.7f, -9.5f, 100.0f, NAN}, {4});
  EXPECT_EQ(values(st::astype(f32, st::i4)), (std::vector<int64_t>{1, -8, 7, 0}));
  EXPECT_EQ(values(st::jit([](const Array& v) { return st::astype(v, st::i4); })(f32)), (std::vector<int64_t>{1, -8, 7, 0}));
  EXPECT_EQ(values(st::astype(f32, st::u2)), (std::vector<int64_t>{1, 0, 3, 0}));
  Array i32 = st::array(std::vector<int32_t>{100, -100, 17}, {3});
  EXPECT_EQ(values(st::astype(i32, st::i4)), (std::vector<int64_t>{4, -4, 1}));
  Array x = ints({-8, -1, 0, 1, 7, 3, -3}, st::i4);
  expect_both([](auto& a) { return st::astype(a[0], st::u4); }, {x}, {8, 15, 0, 1, 7, 3, 13}, "i4 -> u4");
  expect_both([](auto& a) { return st::astype(a[0], st::i2); }, {x}, {0, -1, 0, 1, -1, -1, 1}, "i4 -> i2");
  expect_both([](auto& a) { return st::astype(st::astype(a[0], st::u4), st::i64); }, {x}, {8, 15, 0, 1, 7, 3, 13}, "u4 -> i64");
  EXPECT_EQ(st::astype(x, st::f32).to_vector<float>(), (std::vector<float>{-8, -1, 0, 1, 7, 3, -3}));
  EXPECT_EQ(st::astype(x, st::c64).to_vector<std::complex<float>>()[0], std::complex<float>(-8, 0));
}

TEST(SubbyteInt, ArithmeticWrapsAsJax) {
  // JAX's results (jax 0.10, XLA CPU).
  Array x = ints({-8, -1, 0, 1, 7}, st::i4);
  expect_both([](auto& a) { return a[0] + 7; }, {x}, {-1, 6, 7, -8, -2}, "x + 7");
  expect_both([](auto& a) { return a[0] * 3; }, {x}, {-8, -3, 0, 3, 5}, "x * 3");
  expect_both([](auto& a) { return -a[0]; }, {x}, {-8, 1, 0, -1, -7}, "-x");
  expect_both([](auto& a) { return st::lax::div(a[0], st::full({}, -1, st::i4)); }, {x}, {-8, 1, 0, -1, -7}, "x / -1");
  expect_both([](auto& a) { return st::lax::div(a[0], st::zeros({}, st::i4)); }, {x}, {-1, -1, -1, -1, -1}, "x / 0");
  expect_both([](auto& a) { return st::lax::rem(a[0], st::zeros({}, st::i4)); }, {x}, {-8, -1, 0, 1, 7}, "x % 0");
  expect_both([](auto& a) { return st::abs(a[0]); }, {x}, {-8, 1, 0, 1, 7}, "|x| (|-8| wraps)");
  Array y = ints({-8, -1, 0, 1, 7, 3, -3}, st::i4);
  expect_both([](auto& a) { return st::floor_divide(a[0], st::full({}, 3, st::i4)); }, {y}, {-3, -1, 0, 0, 2, 1, -1}, "x // 3");
  expect_both([](auto& a) { return st::remainder(a[0], st::full({}, 3, st::i4)); }, {y}, {1, 2, 0, 1, 1, 0, 0}, "x % 3");
  expect_both([](auto& a) { return ~a[0]; }, {y}, {7, 0, -1, -2, -8, -4, 2}, "~x");
  expect_both([](auto& a) { return a[0] ^ st::full({}, 5, st::i4); }, {y}, {-3, -6, 5, 4, 2, 6, -8}, "x ^ 5");
  Array u = ints({3, 9, 15}, st::u4);
  expect_both([](auto& a) { return a[0] * a[0]; }, {u}, {9, 1, 1}, "u * u");
  expect_both([](auto& a) { return st::lax::div(a[0], st::full({}, 4, st::u4)); }, {u}, {0, 2, 3}, "u / 4");
  expect_both([](auto& a) { return a[0] + 1; }, {ints({0, 8, 15}, st::u4)}, {1, 9, 0}, "u + 1");
  expect_both([](auto& a) { return st::integer_pow(a[0], 3); }, {ints({-2, -1, 0, 1}, st::i2)}, {0, -1, 0, 1}, "i2 cubed");
  expect_both([](auto& a) { return st::maximum(a[0], a[1]); }, {ints({-8, 7, -1}, st::i4), ints({7, -8, 0}, st::i4)}, {7, 7, 0}, "max");
  expect_both([](auto& a) { return st::astype(st::less(a[0], a[1]), st::i32); }, {ints({-8, 7, -1}, st::i4), ints({7, -8, 0}, st::i4)}, {1, 0, 1}, "lt");
  expect_both([](auto& a) { return st::astype(st::less(a[0], a[1]), st::i32); }, {ints({8, 7, 15}, st::u4), ints({7, 8, 0}, st::u4)}, {0, 1, 0}, "lt unsigned");
}

TEST(SubbyteInt, BitOperationsSeeTheWidth) {
  Array x = ints({-8, -1, 0, 1, 7}, st::i4);
  auto c = [](int64_t v, st::DType t) { return st::full({}, v, t); };
  // JAX's values.
  expect_both([&](auto& a) { return st::shift_right_logical(a[0], c(1, st::i4)); }, {x}, {4, 7, 0, 0, 3}, "srl i4");
  expect_both([&](auto& a) { return st::shift_right_arithmetic(a[0], c(1, st::i4)); }, {x}, {-4, -1, 0, 0, 3}, "sra i4");
  expect_both([&](auto& a) { return st::shift_left(a[0], c(2, st::i4)); }, {x}, {0, -4, 0, 4, -4}, "shl i4");
  expect_both([&](auto& a) { return st::clz(a[0]); }, {x}, {0, 0, 4, 3, 1}, "clz i4");
  // The count of the value's 4 bits. (XLA's CPU counts the sign-extended byte: [5, -8, 0, 1, 3].)
  expect_both([&](auto& a) { return st::population_count(a[0]); }, {x}, {1, 4, 0, 1, 3}, "popcount i4");
  Array u = ints({0, 8, 15}, st::u4);
  expect_both([&](auto& a) { return st::shift_right_arithmetic(a[0], c(1, st::u4)); }, {u}, {0, 12, 15}, "sra u4");
  expect_both([&](auto& a) { return st::shift_right_logical(a[0], c(1, st::u4)); }, {u}, {0, 4, 7}, "srl u4");
  expect_both([&](auto& a) { return st::shift_left(a[0], c(3, st::u4)); }, {u}, {0, 0, 8}, "shl u4");
  expect_both([&](auto& a) { return st::population_count(a[0]); }, {u}, {0, 1, 4}, "popcount u4");
  expect_both([&](auto& a) { return st::clz(a[0]); }, {u}, {4, 0, 0}, "clz u4");
  // Shifts by the width or more: 0, or the sign for arithmetic ones.
  Array by = ints({4, 5, 7, 4, 4}, st::u4);
  expect_both([&](auto& a) { return st::shift_left(ints({1, 1, 1, 1, 1}, st::u4), a[0]); }, {by}, {0, 0, 0, 0, 0}, "shl by >= 4");
  expect_both([&](auto& a) { return st::shift_right_arithmetic(ints({8, 9, 7, 15, 0}, st::u4), a[0]); }, {by}, {15, 15, 0, 15, 0}, "sra by >= 4");
  Array i2 = ints({-2, -1, 0, 1}, st::i2);
  expect_both([&](auto& a) { return st::shift_right_logical(a[0], c(1, st::i2)); }, {i2}, {1, 1, 0, 0}, "srl i2");
  expect_both([&](auto& a) { return st::population_count(a[0]); }, {i2}, {1, -2, 0, 1}, "popcount i2 (2 wraps to -2)");
  expect_both([&](auto& a) { return st::clz(a[0]); }, {ints({0, 1, 2, 3}, st::u2)}, {2, 1, 0, 0}, "clz u2");
}

TEST(SubbyteInt, ReductionsSortsAndScans) {
  Array x = ints({-8, -1, 0, 1, 7, 3, -3}, st::i4);
  // JAX's values: sort, argsort, argmax, argmin, max, min; the lax-level sum wraps.
  expect_both([](auto& a) { return st::sort(a[0]); }, {x}, {-8, -3, -1, 0, 1, 3, 7}, "sort");
  expect_both([](auto& a) { return st::argsort(a[0]); }, {x}, {0, 6, 1, 2, 3, 5, 4}, "argsort");
  expect_both([](auto& a) { return st::sort(a[0], 0, true); }, {ints({8, 1, 15, 0}, st::u4)}, {15, 8, 1, 0}, "sort u4 descending");
  expect_both([](auto& a) { return st::sort(a[0]); }, {ints({1, -2, 0, -1}, st::i2)}, {-2, -1, 0, 1}, "sort i2");
  expect_both([](auto& a) { return st::argmax(a[0]); }, {x}, {4}, "argmax");
  expect_both([](auto& a) { return st::argmin(a[0]); }, {x}, {0}, "argmin");
  expect_both([](auto& a) { return st::max(a[0]); }, {x}, {7}, "max");
  expect_both([](auto& a) { return st::min(a[0]); }, {x}, {-8}, "min");
  expect_both([](auto& a) { return st::lax::reduce_sum(a[0], {0}); }, {x}, {-1}, "reduce_sum wraps (-1 mod 16)");
  expect_both([](auto& a) { return st::lax::bind1(st::prim::kCumSum, {a[0]}, st::Params{{"axis", int64_t{0}}, {"reverse", false}}); },
              {ints({-8, -1, 0, 1, 7}, st::i4)}, {-8, 7, 7, -8, -1}, "cumsum wraps");
  // st::sum accumulates integers narrower than 32 bits in (u)int32, as it does i8 and u8.
  Array s = st::sum(x);
  EXPECT_EQ(s.dtype(), st::i32);
  EXPECT_EQ(s.item<int64_t>(), -1);
  EXPECT_EQ(st::sum(ints({15, 15, 15}, st::u4)).item<int64_t>(), 45);
  Array m = st::max(ints({3, 2, 1}, st::u2));
  EXPECT_EQ(m.item<int>(), 3);
}

TEST(SubbyteInt, RelusAndSegmentsUseTheTypesLimits) {
  // relu clamps to [0, the type's maximum]; an empty segment's max/min is the type's lowest/highest.
  expect_both([](auto& a) { return st::relu(a[0]); }, {ints({-8, -1, 0, 1, 7}, st::i4)}, {0, 0, 0, 1, 7}, "relu i4");
  expect_both([](auto& a) { return st::relu(a[0]); }, {ints({-2, -1, 0, 1}, st::i2)}, {0, 0, 0, 1}, "relu i2");
  Array ids = st::array(std::vector<int32_t>{0, 0, 1}, {3});
  expect_both([&](auto& a) { return st::segment_max(a[0], ids, 3); }, {ints({-8, -3, -5}, st::i4)}, {-3, -5, -8}, "segment_max i4");
  expect_both([&](auto& a) { return st::segment_min(a[0], ids, 3); }, {ints({-8, -3, -5}, st::i4)}, {-8, -5, 7}, "segment_min i4");
  expect_both([&](auto& a) { return st::segment_min(a[0], ids, 3); }, {ints({9, 4, 2}, st::u4)}, {4, 2, 15}, "segment_min u4");
  expect_both([&](auto& a) { return st::segment_max(a[0], ids, 3); }, {ints({1, 0, 1}, st::i2)}, {1, 1, -2}, "segment_max i2");
}

TEST(SubbyteInt, DotsAndConvolutionsWrap) {
  // Against the i64 result taken modulo 16.
  Array a = st::random::randint(st::random::key(3), {3, 40, 24}, -8, 8, st::i4);
  Array b = st::random::randint(st::random::key(4), {3, 24, 5}, -8, 8, st::i4);
  auto f = [](const Array& p, const Array& q) { return st::matmul(p, q); };
  Array want = st::astype(f(st::astype(a, st::i64), st::astype(b, st::i64)), st::i4);
  EXPECT_EQ(values(f(a, b)), values(want));
  EXPECT_EQ(values(st::jit(f)(a, b)), values(want));
  Array ua = st::astype(a, st::u4), ub = st::astype(b, st::u4);
  Array uwant = st::astype(f(st::astype(ua, st::i64), st::astype(ub, st::i64)), st::u4);
  EXPECT_EQ(values(f(ua, ub)), values(uwant));
  EXPECT_EQ(values(st::jit(f)(ua, ub)), values(uwant));
  // A 1-D convolution.
  Array lhs = st::random::randint(st::random::key(5), {2, 3, 9}, -8, 8, st::i4);
  Array rhs = st::random::randint(st::random::key(6), {4, 3, 3}, -8, 8, st::i4);
  auto conv = [](const Array& l, const Array& r) { return st::conv(l, r, {1}, "SAME"); };
  Array cwant = st::astype(conv(st::astype(lhs, st::i64), st::astype(rhs, st::i64)), st::i4);
  EXPECT_EQ(values(conv(lhs, rhs)), values(cwant));
  EXPECT_EQ(values(st::jit(conv)(lhs, rhs)), values(cwant));
}

TEST(SubbyteInt, RandintMatchesJax) {
  Array k = st::random::key(0);
  for (bool compiled : {false, true}) {
    auto r4 = [](const Array& key) { return st::random::randint(key, {6}, -8, 8, st::i4); };
    auto ru = [](const Array& key) { return st::random::randint(key, {6}, 0, 16, st::u4); };
    auto r2 = [](const Array& key) { return st::random::randint(key, {6}, -2, 2, st::i2); };
    EXPECT_EQ(values(compiled ? st::jit(r4)(k) : r4(k)), (std::vector<int64_t>{-3, -8, 0, 5, -5, -5})) << compiled;
    EXPECT_EQ(values(compiled ? st::jit(ru)(k) : ru(k)), (std::vector<int64_t>{5, 0, 8, 13, 3, 3})) << compiled;
    EXPECT_EQ(values(compiled ? st::jit(r2)(k) : r2(k)), (std::vector<int64_t>{-1, -2, -2, -1, 1, 1})) << compiled;
  }
}

TEST(SubbyteInt, PrintsJaxprsAndLoadsStablehlo) {
  Array x = ints({-8, -1, 0, 1, 7}, st::i4);
  EXPECT_EQ(x.to_string(), "array([-8, -1,  0,  1,  7], dtype=int4)");
  std::string text = st::make_jaxpr([](const Array& v) { return v * 2; })(x).to_string();
  st::testing::expect_contains(text, "a:i4[5]");
  st::testing::expect_contains(text, "mul a 2:i4[]");  // JAX prints the same
  st::Jaxpr j = st::testing::reparsed_jaxpr(text);
  ASSERT_TRUE(j.impl());
  EXPECT_EQ(values(st::eval_jaxpr(j, {x})[0]), (std::vector<int64_t>{0, -2, 0, 2, -2}));
  // JAX's own export of the same function (jax.jit(lambda a: a * 2).lower(x).as_text()).
  st::Module m = st::load_stablehlo(R"(
module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5xi4>) -> (tensor<5xi4> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<2> : tensor<i4>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i4>) -> tensor<5xi4>
    %1 = stablehlo.multiply %arg0, %0 : tensor<5xi4>
    return %1 : tensor<5xi4>
  }
}
)");
  Array r = m("main")(x)[0];
  EXPECT_EQ(r.dtype(), st::i4);
  EXPECT_EQ(values(r), (std::vector<int64_t>{0, -2, 0, 2, -2}));
}

TEST(SubbyteInt, RefusalsAreClear) {
  Array x = ints({1, 2}, st::i4);
  st::testing::expect_contains(
      st::testing::error_message<st::DTypeError>([&] { (void)st::bitcast_convert_type(x, st::u8); }),
      "bitcast_convert_type: reinterprets a 2-, 4- or 6-bit number only as another of its width");
  std::string path = ::testing::TempDir() + "/int4.npy";
  st::testing::expect_contains(st::testing::error_message<st::Error>([&] { st::save_npy(path, x); }),
                               "the .npy format has no int4");
}
