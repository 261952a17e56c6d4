// Every composite (and the ops built on several primitives) under jit equals eager, over the
// float dtypes, edge values and broadcasting cases.
#include <gtest/gtest.h>

#include <functional>
#include <limits>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

// Values with the edges: ±0, ±inf, nan, tiny and large magnitudes, in a [2, 8] layout.
Array edge_values(st::DType t) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> v = {0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 10.0, inf, -inf, nan, 1e-6, -1e-6, 40.0, -40.0, 0.25};
  return st::array(v, {2, 8}, t);
}

void expect_same(const Array& got, const Array& want, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(got.shape(), want.shape());
  ASSERT_EQ(got.dtype(), want.dtype());
  std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
  for (size_t i = 0; i < g.size(); ++i)
    EXPECT_TRUE(st::testing::close(g[i], w[i], got.dtype(), 16, got.dtype() == st::f64 ? 1e-12 : 1e-6))
        << "element " << i << ": jit " << g[i] << ", eager " << w[i];
}

using Unary = std::function<Array(const Array&)>;

TEST(JitComposites, MatchEagerOverDtypesAndEdgeValues) {
  const std::vector<std::pair<std::string, Unary>> fns = {
      {"relu", [](const Array& x) { return st::relu(x); }},
      {"sigmoid", [](const Array& x) { return st::sigmoid(x); }},
      {"gelu", [](const Array& x) { return st::gelu(x); }},
      {"softmax", [](const Array& x) { return st::softmax(x); }},
      {"softmax axis 0", [](const Array& x) { return st::softmax(x, 0); }},
      {"logsumexp", [](const Array& x) { return st::logsumexp(x, 1); }},
      {"logsumexp keepdims", [](const Array& x) { return st::logsumexp(x, 0, true); }},
      {"mean", [](const Array& x) { return st::mean(x, 1); }},
      {"squeeze/expand", [](const Array& x) { return st::squeeze(st::expand_dims(x, 1) * 2.0f, 1); }},
      {"where", [](const Array& x) { return st::where(x > 0.0f, x, -x); }},
      {"argmax", [](const Array& x) { return st::argmax(x, 1); }},
      {"logical", [](const Array& x) { return st::logical_and(x > 0.0f, st::logical_not(x > 5.0f)); }},
      {"divide ints", [](const Array& x) { return st::astype(x, st::i32) / 3; }},
  };
  for (st::DType t : st::testing::kFloatTypes)
    for (const auto& [name, fn] : fns) {
      Array x = edge_values(t);
      expect_same(st::jit(fn)(x), fn(x), name + " " + std::string(st::short_name(t)));
    }
}

TEST(JitComposites, BroadcastingInEveryDirection) {
  const std::vector<std::pair<Array, Array>> pairs = {
      {st::random::normal(st::random::key(1), {3, 1}), st::random::normal(st::random::key(2), {1, 4})},
      {st::random::normal(st::random::key(3), {4}), st::random::normal(st::random::key(4), {3, 4})},
      {st::random::normal(st::random::key(5), {2, 3, 4}), st::random::normal(st::random::key(6), {3, 1})},
      {Array(2.5f), st::random::normal(st::random::key(7), {5})},
  };
  auto f = [](const Array& a, const Array& b) {
    return std::make_tuple(a + b, a * b - b, st::maximum(a, b), st::where(a > b, a, b), st::power(st::abs(a) + 1.0f, b));
  };
  for (const auto& [a, b] : pairs) {
    auto got = st::jit(f)(a, b);
    auto want = f(a, b);
    expect_same(std::get<0>(got), std::get<0>(want), "add");
    expect_same(std::get<1>(got), std::get<1>(want), "mul-sub");
    expect_same(std::get<2>(got), std::get<2>(want), "maximum");
    expect_same(std::get<3>(got), std::get<3>(want), "where");
    expect_same(std::get<4>(got), std::get<4>(want), "power");
  }
}

TEST(JitComposites, MatmulShapes) {
  auto f = [](const Array& a, const Array& b) { return st::matmul(a, b); };
  const std::vector<std::pair<st::Shape, st::Shape>> shapes = {
      {{5}, {5}}, {{5}, {5, 3}}, {{4, 5}, {5}}, {{2, 4, 5}, {5, 3}}, {{2, 1, 4, 5}, {3, 5, 6}}};
  for (st::DType t : {st::f32, st::f64, st::bf16, st::f16, st::i32})
    for (const auto& [sa, sb] : shapes) {
      Array a = st::astype(st::random::normal(st::random::key(1), sa) * 3.0f, t);
      Array b = st::astype(st::random::normal(st::random::key(2), sb) * 3.0f, t);
      expect_same(st::jit(f)(a, b), f(a, b), "matmul " + st::shape_string(sa) + " x " + st::shape_string(sb) + " " +
                                                 std::string(st::short_name(t)));
    }
}

TEST(JitComposites, RandomNumbersMatchEagerBitForBit) {
  auto f = [](const Array& key) {
    Array k = st::random::split(key, 3);
    return std::make_tuple(st::random::bits(st::random::key_at(k, 0), {5}),
                           st::random::uniform(st::random::key_at(k, 1), {4, 3}),
                           st::random::normal(st::random::key_at(k, 2), {7}, st::f64));
  };
  Array key = st::random::key(1234);
  auto got = st::jit(f)(key);
  auto want = f(key);
  EXPECT_EQ(std::get<0>(got).to_vector<int32_t>(), std::get<0>(want).to_vector<int32_t>());
  EXPECT_EQ(std::get<1>(got).to_vector<float>(), std::get<1>(want).to_vector<float>());
  expect_same(std::get<2>(got), std::get<2>(want), "normal");
}

}  // namespace
