// Long compiled float sums (lowering/BlockFloatSums.cpp): each vector lane (or column) of a
// blocked sum adds a block's share of the terms from a fresh accumulator and the blocks join by
// TwoSum, so the error stays near JAX's. Errors are measured against the sum in double, in units of
// 2^-24 · ||x||₂ (a sum of normals is about ||x||₂, so a correctly rounded f32 sum is off by
// about 0.3 such units): JAX 0.10.2 measures 1.6-2.0 (rms) on these shapes; strata measured
// 1.6-2.2 blocked and 18 unblocked (16M values: lanes of 4096 terms).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "strata/strata.h"

namespace st = strata;
using st::Array;

namespace {

// The largest error of the sums of `x` (rows × cols) along `axis` (-1: all of it), in units of
// 2^-24 · ||terms||₂.
double worst_error(const Array& x, int64_t rows, int64_t cols, int axis, const st::JitOptions& options) {
  auto f = st::jit(
      [=](const Array& a) {
        Array y = st::reshape(a, {rows, cols});
        return axis < 0 ? st::sum(y) : st::sum(y, {axis});
      },
      options);
  std::vector<float> v = x.to_vector<float>(), got = f(x).to_vector<float>();
  // Sum k adds `len` terms, at k·first + j·stride.
  int64_t n = axis < 0 ? 1 : axis == 0 ? cols : rows, len = axis < 0 ? rows * cols : axis == 0 ? rows : cols;
  int64_t first = axis == 0 ? 1 : len, stride = axis == 0 ? cols : 1;
  double worst = 0;
  for (int64_t k = 0; k < n; ++k) {
    double sum = 0, squares = 0;
    for (int64_t j = 0; j < len; ++j) {
      double t = v[k * first + j * stride];
      sum += t;
      squares += t * t;
    }
    worst = std::max(worst, std::abs(got[k] - sum) / (std::ldexp(1.0, -24) * std::sqrt(squares)));
  }
  return worst;
}

}  // namespace

TEST(FloatSumAccuracy, LongSumsStayNearTheSumInDouble) {
  // The largest errors of these 16 checks: blocked 2.0-6.1 units; unblocked 12-41 on the pool
  // (16M: 64 chunks of 64 lanes of 4096 terms each) and 16-285 on one thread.
  for (bool parallel : {true, false}) {
    SCOPED_TRACE(parallel ? "parallel" : "one thread");
    st::JitOptions options;
    options.parallel = parallel;
    for (int seed : {1, 2}) {
      Array x = st::random::normal(st::random::key(seed), {1 << 24}, st::f32);
      EXPECT_LT(worst_error(x, 1, 1 << 24, -1, options), 8) << "flat, seed " << seed;
      EXPECT_LT(worst_error(x, 4096, 4096, -1, options), 8) << "4096², seed " << seed;
      EXPECT_LT(worst_error(x, 16, 1 << 20, 1, options), 8) << "16 rows, seed " << seed;
      EXPECT_LT(worst_error(x, 1024, 1 << 14, 1, options), 8) << "1024 rows, seed " << seed;
    }
  }
}

TEST(FloatSumAccuracy, LongColumnSumsStayNearTheSumInDouble) {
  // Column sums: each column's rows in blocks of at least 32. Unblocked (each column adding its
  // rows in order) the rms errors were 274, 19 and 76 units; blocked 2.3, 1.8 and 1.8 (JAX
  // 0.10.2: 2.5, 1.9, 2.2).
  for (bool parallel : {true, false}) {
    SCOPED_TRACE(parallel ? "parallel" : "one thread");
    st::JitOptions options;
    options.parallel = parallel;
    Array x = st::random::normal(st::random::key(3), {1 << 24}, st::f32);
    EXPECT_LT(worst_error(x, 1 << 20, 16, 0, options), 8) << "1M rows of 16";
    EXPECT_LT(worst_error(x, 4096, 4096, 0, options), 8) << "4096²";
    EXPECT_LT(worst_error(x, 1 << 16, 256, 0, options), 8) << "64K rows of 256";
  }
}

TEST(FloatSumAccuracy, BlockedSumsMatchEagerOnSpecialValues) {
  // The compensation turns nan when an infinity passes through; the sum is then the running
  // total alone: inf stays inf, inf - inf and nan give nan, as eager and JAX do.
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const int64_t n = 1 << 20;
  auto f = st::jit([](const Array& a) { return st::sum(a); });
  auto rows = st::jit([](const Array& a) { return st::sum(st::reshape(a, {4, n / 4}), {1}); });
  std::vector<std::vector<std::pair<int64_t, float>>> cases = {
      {{5, inf}}, {{n - 1, -inf}}, {{7, inf}, {n / 2, -inf}}, {{123456, nan}}, {{3, 3e38f}, {4, 3e38f}}};
  for (const auto& specials : cases) {
    std::vector<float> v(n, 0.25f);
    for (auto [at, value] : specials) v[at] = value;
    Array x = st::array(v, {n});
    float got = f(x).item<float>(), want = st::sum(x).item<float>();
    if (std::isnan(want)) EXPECT_TRUE(std::isnan(got)) << got;
    else EXPECT_EQ(got, want);
    std::vector<float> r = rows(x).to_vector<float>(), e = st::sum(st::reshape(x, {4, n / 4}), {1}).to_vector<float>();
    for (int i = 0; i < 4; ++i) {
      if (std::isnan(e[i])) EXPECT_TRUE(std::isnan(r[i])) << "row " << i;
      else EXPECT_EQ(r[i], e[i]) << "row " << i;
    }
  }
  // Column sums: an infinity, both, or a nan in one column of 4096 rows; the others stay finite.
  auto columns = st::jit([](const Array& a) { return st::sum(a, {0}); });
  for (const auto& specials : cases) {
    std::vector<float> v(4096 * 256, 0.25f);
    for (auto [at, value] : specials) v[(at % 4096) * 256 + 7] = value;
    Array x = st::array(v, {4096, 256});
    std::vector<float> got = columns(x).to_vector<float>(), want = st::sum(x, {0}).to_vector<float>();
    for (int j = 0; j < 256; ++j) {
      if (std::isnan(want[j])) EXPECT_TRUE(std::isnan(got[j])) << "column " << j;
      else EXPECT_EQ(got[j], want[j]) << "column " << j;
    }
  }
  // Signed zeros: a sum of -0.0 starts from the reduction's +0.0, as eager's.
  Array z = st::full({n}, -0.0, st::f32);
  EXPECT_FALSE(std::signbit(f(z).item<float>()));
  EXPECT_FALSE(std::signbit(st::sum(z).item<float>()));
  // Exactly representable terms sum exactly however they are blocked.
  EXPECT_EQ(f(st::full({n + 3}, 0.5, st::f32)).item<float>(), (n + 3) * 0.5f);
}
