// reduce_precision (issue 15): eager and jit against JAX 0.10.2's values on CPU (bit for bit,
// f32, f16 and f64 operands), and its derivative (itself, as JAX's deflinear) against JAX's rule.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <vector>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

std::vector<uint32_t> bits_of(const Array& a) {
  std::vector<uint32_t> r;
  for (float v : a.to_vector<float>()) r.push_back(std::bit_cast<uint32_t>(v));
  return r;
}

Array f32_bits(const std::vector<uint32_t>& b) {
  std::vector<float> v;
  for (uint32_t x : b) v.push_back(std::bit_cast<float>(x));
  return st::array(v, {static_cast<int64_t>(v.size())});
}

// 1, 1 + 2^-10 + 2^-11, pi, -65519, 65520, 1e-5, 6.2e-5, -0, inf, -inf, nan, 1e30, 2.5e-38,
// 1 + 2^-11, and nans with other payloads (kept as they are).
const std::vector<uint32_t> kInput = {0x3f800000, 0x3f803000, 0x40490fdb, 0xc77fef00, 0x477ff000, 0x3727c5ac,
                                      0x388205ff, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7149f2ca,
                                      0x01081cea, 0x3f801000, 0x7f800001, 0xffc00000};

struct Format {
  int64_t e, m;
  std::vector<uint32_t> want;
};

const std::vector<Format> kFormats = {
    {5, 10, {0x3f800000, 0x3f804000, 0x40490000, 0xc77fe000, 0x7f800000, 0x0, 0x38820000, 0x80000000, 0x7f800000,
             0xff800000, 0x7fc00000, 0x7f800000, 0x0, 0x3f800000, 0x7f800001, 0xffc00000}},
    {8, 7, {0x3f800000, 0x3f800000, 0x40490000, 0xc7800000, 0x47800000, 0x37280000, 0x38820000, 0x80000000, 0x7f800000,
            0xff800000, 0x7fc00000, 0x714a0000, 0x1080000, 0x3f800000, 0x7f800001, 0xffc00000}},
    {4, 3, {0x3f800000, 0x3f800000, 0x40500000, 0xff800000, 0x7f800000, 0x0, 0x0, 0x80000000, 0x7f800000, 0xff800000,
            0x7fc00000, 0x7f800000, 0x0, 0x3f800000, 0x7f800001, 0xffc00000}},
    {3, 0, {0x3f800000, 0x3f800000, 0x40800000, 0xff800000, 0x7f800000, 0x0, 0x0, 0x80000000, 0x7f800000, 0xff800000,
            0x7fc00000, 0x7f800000, 0x0, 0x3f800000, 0x7f800001, 0xffc00000}},
    {11, 2, {0x3f800000, 0x3f800000, 0x40400000, 0xc7800000, 0x47800000, 0x37200000, 0x38800000, 0x80000000,
             0x7f800000, 0xff800000, 0x7fc00000, 0x71400000, 0x1000000, 0x3f800000, 0x7f800001, 0xffc00000}},
};

}  // namespace

TEST(ReducePrecision, EagerAndJitMatchJaxBitForBit) {
  Array x = f32_bits(kInput);
  for (const Format& f : kFormats) {
    SCOPED_TRACE("e" + std::to_string(f.e) + "m" + std::to_string(f.m));
    EXPECT_EQ(bits_of(st::reduce_precision(x, f.e, f.m)), f.want);
    auto jf = st::jit([&](const Array& x) { return st::reduce_precision(x, f.e, f.m); });
    EXPECT_EQ(bits_of(jf(x)), f.want);
  }
}

TEST(ReducePrecision, OtherWidths) {
  // f16 operand, e4m3: JAX gives [1, 1, 3, inf, 0].
  Array h = st::astype(st::array(std::vector<float>{1.f, 1.0009765625f, 3.f, 65504.f, 1e-4f}, {5}), st::f16);
  std::vector<float> want = {1.f, 1.f, 3.f, std::numeric_limits<float>::infinity(), 0.f};
  EXPECT_EQ(st::astype(st::reduce_precision(h, 4, 3), st::f32).to_vector<float>(), want);
  EXPECT_EQ(st::astype(st::jit([](const Array& x) { return st::reduce_precision(x, 4, 3); })(h), st::f32).to_vector<float>(),
            want);
  // f64 operand to f32's format: JAX gives [1, 0, 3.0000000054977558e38, 3.1415927410125732].
  Array d = st::array(std::vector<double>{1.0 + std::ldexp(1.0, -30), 1e-300, 3.0e38, M_PI}, {4}, st::f64);
  std::vector<double> wd = {1.0, 0.0, 3.0000000054977558e+38, 3.1415927410125732};
  EXPECT_EQ(st::reduce_precision(d, 8, 23).to_vector<double>(), wd);
  EXPECT_EQ(st::jit([](const Array& x) { return st::reduce_precision(x, 8, 23); })(d).to_vector<double>(), wd);
}

TEST(ReducePrecision, DerivativeIsItselfAndErrorsAreClear) {
  // JAX: grad(lambda x: sum(reduce_precision(x, 5, 10) * c))(x) = reduce_precision(c, 5, 10).
  Array x = st::array(std::vector<float>{0.3f, -1.7f, 2.5f}, {3});
  Array c = st::array(std::vector<float>{1.0001f, -3.14159f, 70000.f}, {3});
  Array g = st::grad([&](const Array& x) { return st::sum(st::reduce_precision(x, 5, 10) * c); })(x);
  EXPECT_EQ(g.to_vector<float>(), st::reduce_precision(c, 5, 10).to_vector<float>());
  Array gj = st::jit(st::grad([&](const Array& x) { return st::sum(st::reduce_precision(x, 5, 10) * c); }))(x);
  EXPECT_EQ(gj.to_vector<float>(), g.to_vector<float>());
  std::string msg = st::testing::error_message<st::Error>([&] { st::reduce_precision(x, 0, 3); });
  EXPECT_NE(msg.find("exponent_bits >= 1"), std::string::npos) << msg;
  msg = st::testing::error_message<st::Error>([&] { st::reduce_precision(st::array(std::vector<int32_t>{1}, {1}), 5, 10); });
  EXPECT_NE(msg.find("reduce_precision"), std::string::npos) << msg;
}
