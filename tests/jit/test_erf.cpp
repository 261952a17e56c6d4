// erf, the worked example of docs/adding-a-primitive.md, end to end: compiled against eager
// over the float dtypes and edge values, fused with its neighbours into one loop nest, and its
// batching rule (the shared elementwise one). Its values against std::erf are in
// tests/api/test_elementwise.cpp, its derivatives in tests/autodiff/test_derivatives.cpp.
#include <gtest/gtest.h>

#include <cmath>

#include "primitive.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

using st::testing::count;

const std::vector<double> kEdges = {-0.0, 0.0, 1e-30, -1e-8, 0.3, -0.5, 1.0, 2.5, -3.9, 6.0, INFINITY, -INFINITY, NAN};

}  // namespace

TEST(Erf, CompiledMatchesEagerOverFloatDtypes) {
  for (st::DType t : st::testing::kFloatTypes) {
    SCOPED_TRACE(st::short_name(t));
    Array x = st::array(kEdges, {static_cast<int64_t>(kEdges.size())}, t);
    auto f = [](const Array& v) { return st::erf(v); };
    std::vector<double> got = st::jit(f)(x).to_vector<double>(), want = f(x).to_vector<double>();
    // Vectorised loops call libmvec's erf (within 4 ULPs), eager scalar libm's.
    for (size_t i = 0; i < got.size(); ++i) {
      bool exact = want[i] == 0 || std::isinf(want[i]) || std::isnan(want[i]) || std::fabs(want[i]) == 1;
      EXPECT_TRUE(exact ? st::testing::identical(got[i], want[i]) : st::testing::close(got[i], want[i], t, 4))
          << "erf(" << kEdges[i] << "): " << got[i] << " vs " << want[i];
    }
  }
}

TEST(Erf, FusesWithItsNeighbours) {
  // gelu's exact form: x * (1 + erf(x / sqrt(2))) / 2 — one loop nest.
  auto gelu = [](const Array& x) { return x * (1.0f + st::erf(x * 0.70710678f)) * 0.5f; };
  Array x = st::random::normal(st::random::key(3), {64, 32});
  st::Lowered l = st::jit(gelu).lower(x);
  const std::string& fused = l.as_text("fused");
  EXPECT_EQ(count(fused, "strata.fusion"), 1) << fused;
  EXPECT_EQ(count(fused, "strata.erf"), 1) << fused;
  std::vector<double> got = st::jit(gelu)(x).to_vector<double>(), want = gelu(x).to_vector<double>();
  for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-6 * (1 + std::fabs(want[i])));
}

TEST(Erf, BatchingRuleMovesTheBatchDimensionFirst) {
  ASSERT_NE(st::prim::kErf.batch, nullptr);
  Array x = st::random::normal(st::random::key(5), {3, 4});  // batched along dimension 1
  int dims[] = {1};
  auto [out, out_dims] = st::prim::kErf.batch(std::span<const Array>(&x, 1), dims, st::Params{});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out_dims, std::vector<int>{0});
  EXPECT_EQ(out[0].shape(), (st::Shape{4, 3}));
  std::vector<double> got = out[0].to_vector<double>(), in = x.to_vector<double>();
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < 3; ++i) EXPECT_FLOAT_EQ(got[b * 3 + i], std::erf(static_cast<float>(in[i * 4 + b])));
}
