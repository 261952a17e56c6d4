// Repeated blocks compile each distinct loop nest once (lowering/MergeIdenticalFunctions.cpp):
// a program that repeats a layer outlines one function per repetition, and the merge leaves
// one of each kind, so that LLVM optimises and compiles it once. Results against eager mode.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

// One layer: a row max, tanh of the shifted rows (both loop nests outlined for the pool), then a
// GEMM whose epilogue adds `bias` (a GEMM wrapper and its epilogue function).
Array layer(const Array& x, const Array& w, float bias) {
  Array h = st::tanh(x - st::max(x, {1}, true));
  return st::matmul(h, w) + bias;
}

Array repeat(const Array& x, const Array& w, int layers, bool distinct) {
  Array h = x;
  for (int i = 0; i < layers; ++i) h = layer(h, w, distinct ? 0.5f + static_cast<float>(i) : 0.5f);
  return h;
}

int private_functions(const std::string& loops) { return st::testing::count(loops, "func.func private @main_"); }

void expect_close(const Array& got, const Array& want, double tol, const std::string& what) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  std::vector<double> g = st::testing::values(got), w = st::testing::values(want);
  for (size_t i = 0; i < g.size(); ++i) ASSERT_NEAR(g[i], w[i], tol * (1 + std::abs(w[i]))) << what << " [" << i << "]";
}

Array input(st::Shape s, double scale) {
  return st::reshape(st::sin(st::arange(0.0, static_cast<double>(s[0] * s[1]), 1.0) * scale), s);
}

}  // namespace

TEST(MergedFunctions, RepeatedLayersCompileEachLoopNestOnce) {
  const Array x = input({128, 128}, 0.37), w = input({128, 128}, 0.11) * 0.05;
  for (bool distinct : {false, true}) {
    int functions[2] = {};
    int k = 0;
    for (int layers : {2, 5}) {
      auto f = [&](const Array& a, const Array& b) { return repeat(a, b, layers, distinct); };
      const std::string loops = st::jit(f).lower(x, w).as_text("loops");
      functions[k++] = private_functions(loops);
      expect_close(st::jit(f)(x, w), f(x, w), 1e-5, (distinct ? "distinct, " : "equal, ") + std::to_string(layers));
    }
    if (distinct)  // each layer's epilogue adds its own constant: a wrapper and epilogue per layer
      EXPECT_GT(functions[1], functions[0]);
    else  // equal layers: as many functions for five layers as for two
      EXPECT_EQ(functions[1], functions[0]);
    EXPECT_GT(functions[0], 0);
  }
}

TEST(MergedFunctions, MergedCallsKeepTheirOwnArguments) {
  // Two equal nests over different buffers, one feeding the other: the merged function is called
  // with each call's own arguments.
  const Array x = input({256, 64}, 0.21);
  auto f = [](const Array& a) {
    Array b = st::tanh(a - st::max(a, {1}, true));
    Array c = st::tanh(b * 3.0f - st::max(b * 3.0f, {1}, true));
    Array d = st::tanh(c - st::max(c, {1}, true));
    return std::vector<Array>{b, c, d};
  };
  std::vector<Array> got = st::jit(f)(x), want = f(x);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) expect_close(got[i], want[i], 1e-5, "output " + std::to_string(i));
}
