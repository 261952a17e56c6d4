// atan2, erf_inv and integer_pow (issue 14) end to end: jit against eager over the dtypes and
// edge values, each fused with its neighbours into one loop nest, and their gradients through
// jit. Values against references are in tests/api/test_elementwise.cpp, derivatives in
// tests/autodiff/test_derivatives.cpp, the compiled kernels against eager in
// tests/backends/primitive_cases.h.
#include <gtest/gtest.h>

#include <cmath>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

using st::testing::count;

const std::vector<double> kEdges = {-0.0, 0.0, 1e-30, -1e-8, 0.3, -0.5, 1.0, -1.0, 0.5, 0.9999, 1.5, -2.0,
                                    6.0, 100.0, INFINITY, -INFINITY, NAN};

void expect_same(const Array& got, const Array& want, double ulps, const std::string& what) {
  std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
  ASSERT_EQ(g.size(), w.size()) << what;
  for (size_t i = 0; i < g.size(); ++i) {
    bool ok = w[i] == 0 || std::isinf(w[i]) || std::isnan(w[i]) ? st::testing::identical(g[i], w[i])
                                                                 : st::testing::close(g[i], w[i], got.dtype(), ulps);
    EXPECT_TRUE(ok) << what << " element " << i << ": " << g[i] << " vs " << w[i];
  }
}

}  // namespace

TEST(SpecialFunctions14, CompiledMatchesEager) {
  int64_t n = static_cast<int64_t>(kEdges.size());
  for (st::DType t : st::testing::kFloatTypes) {
    SCOPED_TRACE(st::short_name(t));
    Array x = st::array(kEdges, {n}, t);
    Array y = st::array(kEdges, {n, 1}, t);  // every pair, by broadcasting
    auto atan2 = [](const Array& a, const Array& b) { return st::atan2(a, b); };
    expect_same(st::jit(atan2)(y, x), atan2(y, x), 4, "atan2");  // libmvec's atan2 in loops
    auto erf_inv = [](const Array& a) { return st::erf_inv(a); };
    expect_same(st::jit(erf_inv)(x), erf_inv(x), 4, "erf_inv");
    for (int64_t k : {0, 3, 6, -1, -4}) {
      auto ip = [k](const Array& a) { return st::integer_pow(a, k); };
      expect_same(st::jit(ip)(x), ip(x), 0, "integer_pow " + std::to_string(k));
    }
  }
  for (st::DType t : {st::i32, st::i64}) {
    Array x = st::array(std::vector<int64_t>{-7, -1, 0, 1, 2, 3, 1000, 123456}, {8}, t);
    auto ip = [](const Array& a) { return st::integer_pow(a, 5); };
    EXPECT_EQ(st::jit(ip)(x).to_vector<int64_t>(), ip(x).to_vector<int64_t>()) << st::short_name(t);
  }
}

TEST(SpecialFunctions14, FuseWithTheirNeighbours) {
  Array x = st::random::uniform(st::random::key(3), {64, 32}, st::f32, -1, 1);
  auto f = [](const Array& a) {
    return st::atan2(st::erf_inv(a * 0.9f), st::integer_pow(a, 2) + 1.0f) * st::integer_pow(a, -3);
  };
  st::Lowered l = st::jit(f).lower(x);
  const std::string& fused = l.as_text("fused");
  EXPECT_EQ(count(fused, "strata.fusion"), 1) << fused;
  EXPECT_EQ(count(fused, "strata.atan2 "), 1) << fused;
  EXPECT_EQ(count(fused, "strata.erf_inv "), 1) << fused;
  EXPECT_EQ(count(fused, "strata.integer_pow "), 2) << fused;
  std::vector<double> got = st::jit(f)(x).to_vector<double>(), want = f(x).to_vector<double>();
  for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-5 * (1 + std::fabs(want[i]))) << i;
}

TEST(SpecialFunctions14, GradientsCompile) {
  Array x = st::random::uniform(st::random::key(4), {16}, st::f32, -0.9, 0.9);
  auto loss = [](const Array& a) {
    return st::sum(st::erf_inv(a) + st::atan2(a, a * a + 1.0f) + st::integer_pow(a, 3));
  };
  Array got = st::jit(st::grad(loss))(x), want = st::grad(loss)(x);
  std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>(), in = x.to_vector<double>();
  for (size_t i = 0; i < g.size(); ++i) {
    EXPECT_NEAR(g[i], w[i], 1e-5 * (1 + std::fabs(w[i]))) << i;
    // d/da: sqrt(pi)/2 exp(erf_inv(a)^2) + (a^2 + 1 - 2a^2) / (a^2 + (a^2 + 1)^2) + 3a^2.
    double a = in[i], e = st::erf_inv(st::Array(a)).item<double>(), q = a * a + 1;
    double d = 0.88622692545275801 * std::exp(e * e) + (q - 2 * a * a) / (a * a + q * q) + 3 * a * a;
    EXPECT_NEAR(w[i], d, 1e-4 * (1 + std::fabs(d))) << a;
  }
}
