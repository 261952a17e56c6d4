// st::bitcast_convert_type (jax.lax.bitcast_convert_type): bits read as another dtype, the
// expected values from NumPy's views; between widths a last dimension of the ratio; under jit
// and vmap as eagerly; JAX's refusals of bool and complex.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::testing::error_message;
using st::testing::expect_contains;

TEST(BitcastConvertType, SameWidth) {
  st::Array x = st::array(std::vector<float>{1.0f, -2.0f}, {2});
  st::Array i = st::bitcast_convert_type(x, st::i32);
  EXPECT_EQ(i.shape(), (st::Shape{2}));
  EXPECT_EQ(i.to_vector<int32_t>(), (std::vector<int32_t>{1065353216, -1073741824}));
  EXPECT_EQ(st::bitcast_convert_type(i, st::f32).to_vector<float>(), (std::vector<float>{1.0f, -2.0f}));
}

TEST(BitcastConvertType, BetweenWidthsAsNumpyViews) {
  st::Array x = st::array(std::vector<float>{1.5f, -2.0f, 3.25e-3f}, {3});
  for (bool jitted : {false, true}) {
    auto to_bytes = [](const st::Array& v) { return st::bitcast_convert_type(v, st::u8); };
    st::Array b = jitted ? st::jit(to_bytes)(x) : to_bytes(x);
    EXPECT_EQ(b.shape(), (st::Shape{3, 4}));
    EXPECT_EQ(b.to_vector<uint8_t>(), (std::vector<uint8_t>{0, 0, 192, 63, 0, 0, 0, 192, 244, 253, 84, 59}));
    auto to_floats = [](const st::Array& v) { return st::bitcast_convert_type(v, st::f32); };
    st::Array back = jitted ? st::jit(to_floats)(b) : to_floats(b);
    EXPECT_EQ(back.shape(), (st::Shape{3}));
    EXPECT_EQ(back.to_vector<float>(), (std::vector<float>{1.5f, -2.0f, 3.25e-3f}));
  }
  st::Array d = st::array(std::vector<double>{1.5}, {1});
  EXPECT_EQ(st::bitcast_convert_type(d, st::u16).to_vector<uint16_t>(), (std::vector<uint16_t>{0, 0, 0, 16376}));
}

// vmap moves the batch dimension first, so a batch along the last axis of the narrow side is
// not taken for the ratio dimension.
TEST(BitcastConvertType, UnderVmap) {
  st::Array bytes = st::array(std::vector<uint8_t>{0, 0, 0, 0, 192, 0, 63, 192}, {4, 2});  // columns 1.5, -2
  auto f = st::vmap([](const st::Array& v) { return st::bitcast_convert_type(v, st::f32); }, {1});
  st::Array y = f(bytes);
  EXPECT_EQ(y.shape(), (st::Shape{2}));
  EXPECT_EQ(y.to_vector<float>(), (std::vector<float>{1.5f, -2.0f}));
  auto g = st::vmap([](const st::Array& v) { return st::bitcast_convert_type(v, st::u8); }, {0});
  EXPECT_EQ(g(st::array(std::vector<float>{1.5f, -2.0f}, {2, 1})).shape(), (st::Shape{2, 1, 4}));
}

TEST(BitcastConvertType, RefusesWhatJaxRefuses) {
  st::Array z = st::complex(st::array(std::vector<float>{1}, {1}), st::array(std::vector<float>{2}, {1}));
  EXPECT_EQ(st::bitcast_convert_type(z, st::c64).dtype(), st::c64);  // to itself
  expect_contains(error_message<st::DTypeError>([&] { (void)st::bitcast_convert_type(z, st::i64); }),
                  "bitcast_convert_type: does not reinterpret bool or complex values unless");
  st::Array b = st::array(std::vector<uint8_t>{1, 0}, {2}, st::bool_);
  expect_contains(error_message<st::DTypeError>([&] { (void)st::bitcast_convert_type(b, st::u8); }), "bool[2] to u8");
  st::Array u = st::zeros({3, 3}, st::u8);
  expect_contains(error_message<st::ShapeError>([&] { (void)st::bitcast_convert_type(u, st::f32); }),
                  "u8 to f32 expects a last dimension of 4 (the ratio of their widths), but got u8[3,3]");
}
