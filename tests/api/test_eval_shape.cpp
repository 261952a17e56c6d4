// st::eval_shape (jax.eval_shape): output types from Arrays or ShapeDtypeStructs, through pytrees,
// static arguments, control flow and huge shapes that are never allocated.
#include <gtest/gtest.h>

#include "strata/strata.h"

namespace st = strata;
using st::Array;
using st::ShapeDtypeStruct;

namespace {

TEST(EvalShape, TypesWithoutComputing) {
  auto layer = [](const std::pair<Array, Array>& p, const Array& x) {
    return st::maximum(st::matmul(x, p.first) + p.second, 0.0f);
  };
  // 2^40 elements: nothing is allocated.
  std::pair<Array, Array> params{st::zeros({784, 512}), st::zeros({512})};
  std::vector<ShapeDtypeStruct> out = st::eval_shape(layer)(params, ShapeDtypeStruct({int64_t{1} << 31, 784}, st::f32));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], ShapeDtypeStruct({int64_t{1} << 31, 512}, st::f32));
  EXPECT_EQ(out[0].str(), "f32[2147483648,512]");

  auto several = [](const Array& a, int k) {
    return std::make_tuple(st::sum(a, {1}), st::astype(a, st::i32) * k, st::argmax(a, 0), st::fft::rfft(a));
  };
  out = st::eval_shape(several)(ShapeDtypeStruct({6, 10}, st::f64), 3);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0], ShapeDtypeStruct({6}, st::f64));
  EXPECT_EQ(out[1], ShapeDtypeStruct({6, 10}, st::i32));
  EXPECT_EQ(out[2].shape, (st::Shape{10}));
  EXPECT_EQ(out[3], ShapeDtypeStruct({6, 6}, st::c128));

  // A loop and a callback: neither runs.
  int calls = 0;
  auto looped = [&](const Array& x) {
    Array y = st::fori_loop(0, 5, [](const Array&, const Array& c) { return c * 2.0f; }, x);
    return st::pure_callback([&](const Array& v) { ++calls; return v; }, ShapeDtypeStruct({3}, st::f32), y);
  };
  out = st::eval_shape(looped)(ShapeDtypeStruct({3}, st::f32));
  EXPECT_EQ(out[0], ShapeDtypeStruct({3}, st::f32));
  EXPECT_EQ(calls, 0);
}

TEST(EvalShape, ErrorsAreTheOpsOwn) {
  auto bad = [](const Array& a, const Array& b) { return a + b; };
  try {
    st::eval_shape(bad)(ShapeDtypeStruct({3}, st::f32), ShapeDtypeStruct({4}, st::f32));
    ADD_FAILURE() << "no error";
  } catch (const st::ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("f32[3]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("f32[4]"), std::string::npos) << e.what();
  }
  EXPECT_THROW(st::eval_shape(bad)(ShapeDtypeStruct({-1}, st::f32), ShapeDtypeStruct({1}, st::f32)), st::ShapeError);
}

}  // namespace
