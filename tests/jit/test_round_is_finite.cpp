// round (both rounding methods) and is_finite end to end, as tests/jit/test_erf.cpp does erf:
// values on halfway cases and edge values, jit against eager bit for bit over the float dtypes,
// fused with their neighbours into one loop nest, the batching rule, and the public functions'
// handling of integer and bool operands. Also in tests/api/test_elementwise.cpp (round against
// std::nearbyint/std::round), tests/backends/test_cpu_primitives.cpp and
// tests/autodiff/test_derivatives.cpp.
#include <gtest/gtest.h>

#include <cmath>

#include "lax.h"
#include "primitive.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

using st::testing::count;
using st::testing::identical;

const std::vector<double> kEdges = {-0.0, 0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, 0.4, -0.6, 1e-30, 1e30, -1e30,
                                    4503599627370497.0, 123456.5, INFINITY, -INFINITY, NAN};

Array vec(const std::vector<double>& v, st::DType t) { return st::array(v, {static_cast<int64_t>(v.size())}, t); }

}  // namespace

TEST(Round, HalfwayCasesAndEdgeValues) {
  Array x = vec({0.5, -0.5, 1.5, -1.5, 2.5, -2.5, -0.0, 0.0, -0.4, INFINITY, -INFINITY, NAN, 1e300}, st::f64);
  std::vector<double> even = {0.0, -0.0, 2, -2, 2, -2, -0.0, 0.0, -0.0, INFINITY, -INFINITY, NAN, 1e300};
  std::vector<double> away = {1, -1, 2, -2, 3, -3, -0.0, 0.0, -0.0, INFINITY, -INFINITY, NAN, 1e300};
  st::testing::expect_exact(st::round(x), {13}, st::f64, even);
  st::testing::expect_exact(st::round(x, st::RoundingMethod::to_nearest_even), {13}, st::f64, even);
  st::testing::expect_exact(st::round(x, st::RoundingMethod::away_from_zero), {13}, st::f64, away);
  // Integers are already whole: returned as they are (as jnp.round).
  Array i = st::array({-3, 7}, {2});
  EXPECT_EQ(st::round(i).dtype(), st::i32);
  EXPECT_EQ(st::round(i).to_vector<double>(), (std::vector<double>{-3, 7}));
}

TEST(Round, CompiledMatchesEagerOverFloatDtypes) {
  for (st::DType t : st::testing::kFloatTypes)
    for (st::RoundingMethod m : {st::RoundingMethod::away_from_zero, st::RoundingMethod::to_nearest_even}) {
      SCOPED_TRACE(std::string(st::short_name(t)) + (m == st::RoundingMethod::away_from_zero ? " away" : " even"));
      Array x = vec(kEdges, t);
      auto f = [m](const Array& v) { return st::round(v, m); };
      std::vector<double> got = st::jit(f)(x).to_vector<double>(), want = f(x).to_vector<double>();
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_TRUE(identical(got[i], want[i])) << "round(" << kEdges[i] << "): " << got[i] << " vs " << want[i];
    }
}

TEST(Round, FusesWithItsNeighboursAndKeepsItsMethod) {
  auto f = [](const Array& x) {
    return st::round(x * 2.0f) + st::round(x * 3.0f, st::RoundingMethod::away_from_zero);
  };
  Array x = st::random::normal(st::random::key(3), {64, 32});
  st::Lowered l = st::jit(f).lower(x);
  const std::string& strata_text = l.as_text("strata");
  EXPECT_EQ(count(strata_text, "strata.round TO_NEAREST_EVEN"), 1) << strata_text;
  EXPECT_EQ(count(strata_text, "strata.round AWAY_FROM_ZERO"), 1) << strata_text;
  EXPECT_NE(l.jaxpr().to_string().find("rounding_method=1"), std::string::npos) << l.jaxpr();
  const std::string& fused = l.as_text("fused");
  EXPECT_EQ(count(fused, "strata.fusion"), 1) << fused;
  std::vector<double> got = st::jit(f)(x).to_vector<double>(), want = f(x).to_vector<double>();
  for (size_t i = 0; i < got.size(); ++i) ASSERT_TRUE(identical(got[i], want[i])) << i;
}

TEST(Round, RejectsAnUnknownRoundingMethod) {
  Array x = vec({1.5}, st::f32);
  std::string msg = st::testing::error_message<st::Error>(
      [&] { st::lax::bind1(st::prim::kRound, {x}, {{"rounding_method", int64_t{2}}}); });
  st::testing::expect_contains(msg, "rounding_method");
}

TEST(Round, BatchingRule) {
  ASSERT_NE(st::prim::kRound.batch, nullptr);
  Array x = st::random::normal(st::random::key(5), {3, 4}) * 4.0f;  // batched along dimension 1
  int dims[] = {1};
  auto [out, out_dims] = st::prim::kRound.batch(std::span<const Array>(&x, 1), dims, st::Params{{"rounding_method", int64_t{0}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out_dims, std::vector<int>{0});
  EXPECT_EQ(out[0].shape(), (st::Shape{4, 3}));
  std::vector<double> got = out[0].to_vector<double>(), in = x.to_vector<double>();
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < 3; ++i) EXPECT_EQ(got[b * 3 + i], std::round(static_cast<float>(in[i * 4 + b])));
  // Through vmap too, the method kept.
  Array y = vec({0.5, 1.5, 2.5, -2.5}, st::f32);
  Array r = st::vmap([](const Array& v) { return st::round(v); })(st::reshape(y, {2, 2}));
  EXPECT_EQ(r.to_vector<double>(), (std::vector<double>{0, 2, 2, -2}));
}

TEST(IsFinite, ValuesOverFloatDtypes) {
  for (st::DType t : st::testing::kFloatTypes) {
    SCOPED_TRACE(st::short_name(t));
    std::vector<double> x = st::testing::round_all(kEdges, t);
    x.push_back(t == st::f64 ? 1.7976931348623157e308 : t == st::f32 ? 3.4028234663852886e38 : t == st::f16 ? 65504.0 : 3.3895313892515355e38);
    Array a = vec(x, t);
    Array r = st::is_finite(a);
    ASSERT_EQ(r.dtype(), st::bool_);
    std::vector<double> want;
    for (double v : x) want.push_back(std::isfinite(v) ? 1 : 0);
    EXPECT_EQ(r.to_vector<double>(), want);
    auto f = [](const Array& v) { return st::is_finite(v); };
    EXPECT_EQ(st::jit(f)(a).to_vector<double>(), want);
  }
  // Integers and bools are always finite, as jnp.isfinite.
  Array ri = st::is_finite(st::array({-3, 7}, {2}));
  EXPECT_EQ(ri.dtype(), st::bool_);
  EXPECT_EQ(ri.to_vector<double>(), (std::vector<double>{1, 1}));
  EXPECT_EQ(st::is_finite(st::array({0, 1}, {2}, st::bool_)).to_vector<double>(), (std::vector<double>{1, 1}));
}

TEST(IsFinite, FusesAndBatches) {
  // Where finite keep x, else 0: one loop nest.
  auto f = [](const Array& x) { return st::where(st::is_finite(x), x, st::Array(0.0f)) * 2.0f; };
  Array x = vec({1, INFINITY, -2, NAN, -INFINITY, 3}, st::f32);
  st::Lowered l = st::jit(f).lower(x);
  const std::string& fused = l.as_text("fused");
  EXPECT_EQ(count(fused, "strata.fusion"), 1) << fused;
  EXPECT_EQ(count(fused, "strata.is_finite"), 1) << fused;
  EXPECT_EQ(st::jit(f)(x).to_vector<double>(), (std::vector<double>{2, 0, -4, 0, 0, 6}));
  ASSERT_NE(st::prim::kIsFinite.batch, nullptr);
  Array r = st::vmap([](const Array& v) { return st::is_finite(v); })(st::reshape(x, {3, 2}));
  EXPECT_EQ(r.to_vector<double>(), (std::vector<double>{1, 0, 1, 0, 0, 1}));
  // Not differentiable: a gradient through the select only.
  Array g = st::grad([](const Array& v) { return st::sum(st::where(st::is_finite(v), v * v, st::Array(0.0f))); })(
      vec({1, 2}, st::f32));
  EXPECT_EQ(g.to_vector<double>(), (std::vector<double>{2, 4}));
}
