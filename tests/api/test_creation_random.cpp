// Creation (array, from_buffer, zeros, ones, full, *_like, arange, linspace, eye) and random
// numbers (keys, split, bits, uniform, normal; the threefry2x32 primitive against the
// Random123 known-answer vectors).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

#include "primitive.h"
#include "strata/strata.h"
#include "test_util.h"
#include "trace.h"

namespace st = strata;
using st::testing::error_message;
using st::testing::expect_contains;
using st::testing::expect_exact;
using st::testing::round_all;
using st::testing::values;

namespace {

std::string name(st::DType t) { return std::string(st::short_name(t)); }

// ---- Creation ----

TEST(Creation, ArrayAndFromBufferCopy) {
  std::vector<float> buf = {1, 2, 3, 4, 5, 6};
  st::Array a = st::array(buf, {2, 3});
  st::Array b = st::from_buffer(buf.data(), {3, 2}, st::f32);
  buf[0] = 100;
  buf[5] = -1;
  EXPECT_EQ(a.to_vector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(b.to_vector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_NE(a.data(), static_cast<const void*>(buf.data()));
  EXPECT_NE(b.data(), static_cast<const void*>(buf.data()));
  EXPECT_EQ(b.shape(), (st::Shape{3, 2}));
  // from_buffer copies bits as they are: bf16 0x3F80 is 1, 0xC040 is -3.
  uint16_t raw[] = {0x3F80, 0xC040, 0x7FC0};
  st::Array h = st::from_buffer(raw, {3}, st::bf16);
  raw[0] = 0;
  expect_exact(h, {3}, st::bf16, {1, -3, NAN});
  int64_t longs[] = {int64_t{1} << 62, -5};
  EXPECT_EQ(st::from_buffer(longs, {2}, st::i64).to_vector<int64_t>(), (std::vector<int64_t>{int64_t{1} << 62, -5}));
  // A null pointer is fine for no elements only.
  EXPECT_EQ(st::from_buffer(nullptr, {0, 3}, st::f32).shape(), (st::Shape{0, 3}));
  expect_contains(error_message<st::ValueError>([] { st::from_buffer(nullptr, {2}, st::f32); }),
                  "from_buffer: got a null pointer for f32[2]");
  expect_contains(error_message<st::ValueError>([&] { st::from_buffer(buf.data(), {-1}, st::f32); }),
                  "from_buffer: expects non-negative dimensions, but got [-1]");
}

TEST(Creation, ArrayConvertsAndChecksTheCount) {
  expect_exact(st::array({1.5, -2.5}, {2}, st::i32), {2}, st::i32, {1, -2});
  expect_exact(st::array({1, 0, 2}, {3}, st::bool_), {3}, st::bool_, {1, 0, 1});
  expect_exact(st::array({1.f, 2.f, 3.f, 4.f}, {2, 2}, st::f16), {2, 2}, st::f16, {1, 2, 3, 4});
  EXPECT_EQ(st::array({1, 2, 3}).shape(), st::Shape{3});
  EXPECT_EQ(st::array({1, 2, 3}).dtype(), st::i32);
  EXPECT_EQ(st::array(std::vector<short>{1, 2}, {2}).dtype(), st::i16);  // the C++ type's width
  EXPECT_EQ(st::array(std::vector<uint8_t>{1, 2}, {2}).dtype(), st::u8);
  EXPECT_EQ(st::array(std::vector<double>{}, {0, 4}).shape(), (st::Shape{0, 4}));
  expect_contains(error_message<st::ShapeError>([] { st::array({1.f, 2.f, 3.f}, {2, 2}); }),
                  "array: got 3 values for shape [2,2] (4 elements)");
  expect_contains(error_message<st::ShapeError>([] { st::array({1.f}, {}); st::array({1.f, 2.f}, {}); }),
                  "array: got 2 values for shape [] (1 elements)");
  expect_contains(error_message<st::ValueError>([] { st::array(std::vector<float>{}, {-2, 0}); }),
                  "array: expects non-negative dimensions, but got [-2,0]");
}

TEST(Creation, ZerosOnesFullAndLike) {
  for (st::DType t : st::kAllDTypes) {
    SCOPED_TRACE(name(t));
    const double zero = t == st::f8_e8m0fnu ? NAN : 0.0;  // e8m0fnu has no zero: nan, as JAX's zeros
    expect_exact(st::zeros({2, 3}, t), {2, 3}, t, std::vector<double>(6, zero));
    expect_exact(st::ones({3}, t), {3}, t, std::vector<double>(3, 1));
    expect_exact(st::zeros({}, t), {}, t, {zero});
    EXPECT_EQ(st::ones({0, 2}, t).shape(), (st::Shape{0, 2}));
    EXPECT_FALSE(st::ones({2}, t).weak_type());
    st::Array x = st::full({2, 2}, 3.0, t);
    expect_exact(st::zeros_like(x), {2, 2}, t, std::vector<double>(4, zero));
    expect_exact(st::ones_like(x), {2, 2}, t, std::vector<double>(4, 1));
  }
  EXPECT_EQ(st::zeros({2}).dtype(), st::f32);
  expect_exact(st::full({2}, 2.7, st::i32), {2}, st::i32, {2, 2});
  expect_exact(st::full({2}, -2.7, st::i64), {2}, st::i64, {-2, -2});
  expect_exact(st::full({1}, NAN, st::i32), {1}, st::i32, {0});
  expect_exact(st::full({1}, 1e10, st::f16), {1}, st::f16, {INFINITY});
  expect_exact(st::full({1}, 0.1, st::bf16), {1}, st::bf16, round_all({0.1}, st::bf16));
  expect_exact(st::full({2}, -0.0), {2}, st::f32, {-0.0, -0.0});
  expect_exact(st::full({1}, 0.5, st::bool_), {1}, st::bool_, {1});
  expect_contains(error_message<st::ValueError>([] { st::zeros({2, -1}); }), "full: expects non-negative dimensions, but got [2,-1]");
  expect_contains(error_message<st::ValueError>([] { st::full({-3}, 1.0); }), "full: expects non-negative dimensions");
}

TEST(Creation, Arange) {
  expect_exact(st::arange(5), {5}, st::i32, {0, 1, 2, 3, 4});
  expect_exact(st::arange(5, st::f64), {5}, st::f64, {0, 1, 2, 3, 4});
  expect_exact(st::arange(0, 1, 0.25), {4}, st::f32, {0, 0.25, 0.5, 0.75});
  expect_exact(st::arange(5, 0, -1), {5}, st::f32, {5, 4, 3, 2, 1});
  expect_exact(st::arange(-1, 1, 0.5, st::f64), {4}, st::f64, {-1, -0.5, 0, 0.5});
  expect_exact(st::arange(2, 8, 3, st::i64), {2}, st::i64, {2, 5});
  expect_exact(st::arange(0.5, 3, 1, st::i32), {3}, st::i32, {0, 1, 2});  // values truncated, as astype does
  // NumPy's length: ceil((stop - start) / step), rounding included: (2.2 - 1) / 0.4 is
  // 3.0000000000000004 in double, so np.arange(1, 2.2, 0.4) has 4 elements (the last 2.2).
  EXPECT_EQ(st::arange(0, 1, 0.1, st::f64).size(), 10);
  EXPECT_EQ(st::arange(1, 2.2, 0.4, st::f64).size(), 4);
  std::vector<double> v = values(st::arange(0, 1, 0.1, st::f64));
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i], 0.1 * static_cast<double>(i));
  // Empty ranges.
  EXPECT_EQ(st::arange(0).shape(), st::Shape{0});
  EXPECT_EQ(st::arange(3, 1, 1).shape(), st::Shape{0});
  EXPECT_EQ(st::arange(1, 3, -1).shape(), st::Shape{0});
  EXPECT_EQ(st::arange(-4).shape(), st::Shape{0});
  expect_contains(error_message<st::ValueError>([] { st::arange(0, 1, 0); }), "arange: expects finite start, stop and a non-zero step");
  expect_contains(error_message<st::ValueError>([] { st::arange(0, INFINITY, 1); }), "arange: expects finite");
  expect_contains(error_message<st::ValueError>([] { st::arange(NAN, 1, 1); }), "arange: expects finite");
  expect_contains(error_message<st::ValueError>([] { st::arange(0, 1, NAN); }), "arange: expects finite");
  // A range too long to index is an error, not an empty or truncated array.
  expect_contains(error_message<st::ValueError>([] { st::arange(0, 1e20, 1); }), "has too many elements");
  expect_contains(error_message<st::ValueError>([] { st::arange(0, 1e300, 1e-300); }), "arange: the range");
}

TEST(Creation, Linspace) {
  expect_exact(st::linspace(0, 1, 5), {5}, st::f32, {0, 0.25, 0.5, 0.75, 1});
  expect_exact(st::linspace(1, -1, 3, st::f64), {3}, st::f64, {1, 0, -1});
  expect_exact(st::linspace(2, 3, 1), {1}, st::f32, {2});
  EXPECT_EQ(st::linspace(2, 3, 0).shape(), st::Shape{0});
  // The endpoint is exact, and the values are start + i * step.
  std::vector<double> v = values(st::linspace(0, 0.3, 4, st::f64));
  EXPECT_EQ(v.back(), 0.3);
  EXPECT_EQ(v[1], 0.3 / 3);
  std::vector<double> w = values(st::linspace(-3, 7, 11, st::f64));
  for (size_t i = 0; i < w.size(); ++i) EXPECT_EQ(w[i], -3.0 + static_cast<double>(i));
  // Integer dtypes truncate, as NumPy's linspace(..., dtype=int) does.
  expect_exact(st::linspace(0, 10, 4, st::i32), {4}, st::i32, {0, 3, 6, 10});
  expect_exact(st::linspace(0, 1, 3, st::bf16), {3}, st::bf16, {0, 0.5, 1});
  expect_contains(error_message<st::ValueError>([] { st::linspace(0, 1, -1); }), "linspace: expects num >= 0, but got -1");
}

TEST(Creation, Eye) {
  auto ref = [](int64_t n, int64_t m, int64_t k) {
    std::vector<double> v;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < m; ++j) v.push_back(j - i == k ? 1 : 0);
    return v;
  };
  expect_exact(st::eye(3), {3, 3}, st::f32, ref(3, 3, 0));
  expect_exact(st::eye(2, 4), {2, 4}, st::f32, ref(2, 4, 0));
  expect_exact(st::eye(4, 2), {4, 2}, st::f32, ref(4, 2, 0));
  expect_exact(st::eye(3, 3, 1), {3, 3}, st::f32, ref(3, 3, 1));
  expect_exact(st::eye(3, 4, -1), {3, 4}, st::f32, ref(3, 4, -1));
  expect_exact(st::eye(4, 3, 2), {4, 3}, st::f32, ref(4, 3, 2));
  expect_exact(st::eye(3, 3, 5), {3, 3}, st::f32, ref(3, 3, 5));
  expect_exact(st::eye(3, 3, -3), {3, 3}, st::f32, ref(3, 3, -3));
  expect_exact(st::eye(2, -1, 0, st::i64), {2, 2}, st::i64, ref(2, 2, 0));
  expect_exact(st::eye(2, 2, 0, st::bool_), {2, 2}, st::bool_, ref(2, 2, 0));
  EXPECT_EQ(st::eye(0).shape(), (st::Shape{0, 0}));
  EXPECT_EQ(st::eye(3, 0).shape(), (st::Shape{3, 0}));
  EXPECT_EQ(st::eye(0, 3).shape(), (st::Shape{0, 3}));
  expect_exact(st::eye(1), {1, 1}, st::f32, {1});
  expect_contains(error_message<st::ValueError>([] { st::eye(-1); }), "eye: expects n >= 0, but got -1");
}

// ---- Random: the threefry2x32 block cipher ----

std::pair<uint32_t, uint32_t> threefry(uint32_t k0, uint32_t k1, uint32_t x0, uint32_t x1) {
  auto i32 = [](uint32_t v) { return st::array({static_cast<int32_t>(v)}, {}); };
  auto ctr = [](uint32_t v) { return st::array({static_cast<int32_t>(v)}, {1}); };
  st::Array in[] = {i32(k0), i32(k1), ctr(x0), ctr(x1)};
  std::vector<st::Array> out = st::bind(st::prim::kThreefry2x32, in, {}, st::SourceLoc{});
  return {static_cast<uint32_t>(out[0].to_vector<int32_t>()[0]), static_cast<uint32_t>(out[1].to_vector<int32_t>()[0])};
}

TEST(Random, Threefry2x32KnownAnswers) {
  // Random123's kat_vectors for threefry2x32_20: (counter, key) -> output.
  EXPECT_EQ(threefry(0, 0, 0, 0), std::make_pair(0x6b200159u, 0x99ba4efeu));
  EXPECT_EQ(threefry(0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu), std::make_pair(0x1cb996fcu, 0xbb002be7u));
  EXPECT_EQ(threefry(0x13198a2eu, 0x03707344u, 0x243f6a88u, 0x85a308d3u), std::make_pair(0xc4923a9cu, 0x483df7a0u));
}

std::vector<uint32_t> as_u32(const st::Array& a) {
  std::vector<uint32_t> r;
  for (int64_t v : st::astype(a, st::i64).to_vector<int64_t>()) r.push_back(static_cast<uint32_t>(v));
  return r;
}

TEST(Random, KeysAndSplitMatchJax) {
  EXPECT_EQ(as_u32(st::random::key(0)), (std::vector<uint32_t>{0, 0}));
  EXPECT_EQ(as_u32(st::random::key(42)), (std::vector<uint32_t>{0, 42}));
  EXPECT_EQ(as_u32(st::random::key((uint64_t{1} << 32) + 5)), (std::vector<uint32_t>{1, 5}));
  EXPECT_EQ(as_u32(st::random::key(0xFFFFFFFFull)), (std::vector<uint32_t>{0, 0xFFFFFFFFu}));
  st::Array k = st::random::key(7);
  EXPECT_EQ(k.dtype(), st::i32);
  EXPECT_EQ(k.shape(), st::Shape{2});
  // jax.random.split(jax.random.PRNGKey(0)) is [[1797259609, 2579123966], [928981903, 3453687069]]
  // (jax_threefry_partitionable=True, JAX's default).
  st::Array s = st::random::split(st::random::key(0));
  EXPECT_EQ(s.shape(), (st::Shape{2, 2}));
  EXPECT_EQ(as_u32(s), (std::vector<uint32_t>{1797259609u, 2579123966u, 928981903u, 3453687069u}));
  EXPECT_EQ(as_u32(st::random::key_at(s, 1)), (std::vector<uint32_t>{928981903u, 3453687069u}));
  // Deterministic; every key distinct.
  st::Array s5 = st::random::split(st::random::key(123), 5);
  EXPECT_EQ(s5.shape(), (st::Shape{5, 2}));
  EXPECT_EQ(as_u32(s5), as_u32(st::random::split(st::random::key(123), 5)));
  std::set<std::pair<uint32_t, uint32_t>> distinct;
  for (int i = 0; i < 5; ++i) {
    std::vector<uint32_t> r = as_u32(st::random::key_at(s5, i));
    distinct.insert({r[0], r[1]});
  }
  EXPECT_EQ(distinct.size(), 5u);
  EXPECT_EQ(st::random::split(k, 1).shape(), (st::Shape{1, 2}));
}

TEST(Random, BitsAreDeterministicAndDifferPerKey) {
  st::Array k0 = st::random::key(0), k1 = st::random::key(1);
  for (const st::Shape& shape : {st::Shape{1000}, st::Shape{7, 13}, st::Shape{3}, st::Shape{}}) {
    SCOPED_TRACE(st::shape_string(shape));
    st::Array a = st::random::bits(k0, shape), b = st::random::bits(k0, shape), c = st::random::bits(k1, shape);
    EXPECT_EQ(a.shape(), shape);
    EXPECT_EQ(a.dtype(), st::u32);  // as jax.random.bits
    EXPECT_EQ(as_u32(a), as_u32(b));
    std::vector<uint32_t> av = as_u32(a), cv = as_u32(c);
    size_t same = 0;
    for (size_t i = 0; i < av.size(); ++i) same += av[i] == cv[i];
    EXPECT_EQ(same, 0u);
  }
  EXPECT_EQ(st::random::bits(k0, {0, 4}).shape(), (st::Shape{0, 4}));
  // Every bit is about equally often 0 and 1.
  std::vector<uint32_t> v = as_u32(st::random::bits(st::random::key(5), {20000}));
  for (int bit = 0; bit < 32; ++bit) {
    int ones = 0;
    for (uint32_t x : v) ones += (x >> bit) & 1;
    EXPECT_NEAR(ones, 10000, 500) << "bit " << bit;
  }
  // The input key is unchanged.
  EXPECT_EQ(as_u32(k1), (std::vector<uint32_t>{0, 1}));
}

TEST(Random, UniformInRange) {
  st::Array k = st::random::key(11);
  for (st::DType t : st::testing::kFloatTypes) {
    SCOPED_TRACE(name(t));
    st::Array u = st::random::uniform(k, {100000}, t);
    EXPECT_EQ(u.dtype(), t);
    EXPECT_EQ(u.shape(), st::Shape{100000});
    std::vector<double> v = values(u);
    double sum = 0, sq = 0, lo = 1, hi = 0;
    for (double x : v) {
      sum += x;
      sq += x * x;
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    EXPECT_GE(lo, 0.0);
    EXPECT_LT(hi, 1.0);
    double mean = sum / 1e5, var = sq / 1e5 - mean * mean;
    EXPECT_NEAR(mean, 0.5, 0.01);
    EXPECT_NEAR(var, 1.0 / 12, 0.01);
    EXPECT_EQ(values(st::random::uniform(k, {100000}, t)), v);
    // [min, max)
    std::vector<double> w = values(st::random::uniform(k, {100000}, t, -2.0, 3.0));
    double wl = 10, wh = -10, ws = 0;
    for (double x : w) {
      wl = std::min(wl, x);
      wh = std::max(wh, x);
      ws += x;
    }
    EXPECT_GE(wl, -2.0);
    EXPECT_LT(wh, 3.0);
    EXPECT_NEAR(ws / 1e5, 0.5, 0.05);
  }
  // Different keys, different streams; shapes.
  EXPECT_NE(values(st::random::uniform(st::random::key(1), {10})), values(st::random::uniform(st::random::key(2), {10})));
  EXPECT_EQ(st::random::uniform(k, {2, 3, 4}).shape(), (st::Shape{2, 3, 4}));
  EXPECT_EQ(st::random::uniform(k, {}).shape(), st::Shape{});
  EXPECT_EQ(st::random::uniform(k, {0}).shape(), st::Shape{0});
  EXPECT_EQ(st::random::uniform(k, {5}, st::f64).dtype(), st::f64);
}

TEST(Random, NormalMoments) {
  for (st::DType t : {st::f32, st::f64, st::bf16, st::f16}) {
    SCOPED_TRACE(name(t));
    std::vector<double> v = values(st::random::normal(st::random::key(3), {100000}, t));
    double sum = 0, sq = 0;
    int within1 = 0;
    for (double x : v) {
      ASSERT_TRUE(std::isfinite(x));
      EXPECT_LT(std::fabs(x), 7.0);
      sum += x;
      sq += x * x;
      within1 += std::fabs(x) < 1.0;
    }
    double mean = sum / 1e5, sd = std::sqrt(sq / 1e5 - mean * mean);
    EXPECT_NEAR(mean, 0.0, 0.02);
    EXPECT_NEAR(sd, 1.0, 0.02);
    EXPECT_NEAR(within1 / 1e5, 0.6827, 0.01);
  }
  st::Array a = st::random::normal(st::random::key(3), {4, 5});
  EXPECT_EQ(a.shape(), (st::Shape{4, 5}));
  EXPECT_EQ(a.dtype(), st::f32);
  EXPECT_EQ(values(a), values(st::random::normal(st::random::key(3), {4, 5})));
  EXPECT_NE(values(a), values(st::random::normal(st::random::key(4), {4, 5})));
}

TEST(Random, Errors) {
  st::Array k = st::random::key(0);
  expect_contains(error_message<st::ValueError>([] { st::random::bits(st::zeros({2}), {3}); }),
                  "random::bits: expects a key (i32[2], from random::key or random::split), but got f32[2]");
  expect_contains(error_message<st::ValueError>([] { st::random::uniform(st::zeros({3}, st::i32), {3}); }),
                  "random::uniform: expects a key (i32[2], from random::key or random::split), but got i32[3]");
  expect_contains(error_message<st::ValueError>([] { st::random::split(st::zeros({2, 2}, st::i32)); }), "random::split: expects a key");
  expect_contains(error_message<st::ValueError>([&] { st::random::split(k, 0); }), "random::split: expects num >= 1, but got 0");
  expect_contains(error_message<st::ValueError>([&] { st::random::key_at(st::random::split(k, 2), 2); }),
                  "random::key_at: index 2 is out of range for i32[2,2]");
  expect_contains(error_message<st::ValueError>([&] { st::random::key_at(k, 0); }),
                  "random::key_at: expects split keys (i32[n,2]), but got i32[2]");
  expect_contains(error_message<st::DTypeError>([&] { st::random::uniform(k, {2}, st::i32); }),
                  "random::uniform: expects a floating-point dtype, but got i32");
  expect_contains(error_message<st::DTypeError>([&] { st::random::normal(k, {2}, st::bool_); }),
                  "random::normal: expects a floating-point dtype, but got bool");
  expect_contains(error_message<st::ValueError>([&] { st::random::bits(k, {2, -1}); }),
                  "random::bits: expects non-negative dimensions, but got [2,-1]");
  expect_contains(error_message<st::ValueError>([&] { st::random::normal(k, {-1}); }), "expects non-negative dimensions");
}

}  // namespace
