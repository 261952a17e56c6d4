// The elementwise special functions of issue 14 (erfc tan asin acos atan sinh cosh asinh acosh
// atanh cbrt exp2), end to end as tests/jit/test_erf.cpp does for erf: jit against eager over
// the float dtypes and edge values (out-of-domain inputs included), fused with their
// neighbours into one loop nest, and their batching rule (the shared elementwise one). Values
// against std:: are in tests/api/test_elementwise.cpp, derivatives in
// tests/autodiff/test_derivatives.cpp, the compiled kernels in tests/backends/test_cpu_primitives.cpp.
#include <gtest/gtest.h>

#include <cmath>

#include "primitive.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

using st::testing::count;

struct Special {
  const char* name;     // the primitive
  const char* op;       // its dialect op
  const st::Primitive& prim;
  Array (*fn)(const Array&);
  float (*ref)(float);  // std:: in f32
  double lo, hi;        // inputs inside the domain
  // Compiled against eager, in ULPs (0 = bit for bit). Vectorised loops call glibc's libmvec
  // (lowering/LlvmCodegen.cpp: vectorMathLibrary), documented within 4 ULPs of the correctly
  // rounded result, where eager calls scalar libm: they differ by a few ULPs (tan by up to 3 over
  // 4e7 random inputs of |x| up to 1e8). Zeros, infinities and nan must still be identical.
  double ulps = 4;
};

const Special kSpecials[] = {
    {"erfc", "strata.erfc", st::prim::kErfc, [](const Array& x) { return st::erfc(x); }, [](float x) { return std::erfc(x); }, -3, 3},
    {"tan", "strata.tan", st::prim::kTan, [](const Array& x) { return st::tan(x); }, [](float x) { return std::tan(x); }, -1.5, 1.5},
    {"asin", "strata.asin", st::prim::kAsin, [](const Array& x) { return st::asin(x); }, [](float x) { return std::asin(x); }, -1, 1},
    {"acos", "strata.acos", st::prim::kAcos, [](const Array& x) { return st::acos(x); }, [](float x) { return std::acos(x); }, -1, 1},
    {"atan", "strata.atan", st::prim::kAtan, [](const Array& x) { return st::atan(x); }, [](float x) { return std::atan(x); }, -10, 10},
    {"sinh", "strata.sinh", st::prim::kSinh, [](const Array& x) { return st::sinh(x); }, [](float x) { return std::sinh(x); }, -5, 5},
    {"cosh", "strata.cosh", st::prim::kCosh, [](const Array& x) { return st::cosh(x); }, [](float x) { return std::cosh(x); }, -5, 5},
    {"asinh", "strata.asinh", st::prim::kAsinh, [](const Array& x) { return st::asinh(x); }, [](float x) { return std::asinh(x); }, -10, 10},
    {"acosh", "strata.acosh", st::prim::kAcosh, [](const Array& x) { return st::acosh(x); }, [](float x) { return std::acosh(x); }, 1, 10},
    {"atanh", "strata.atanh", st::prim::kAtanh, [](const Array& x) { return st::atanh(x); }, [](float x) { return std::atanh(x); }, -1, 1},
    {"cbrt", "strata.cbrt", st::prim::kCbrt, [](const Array& x) { return st::cbrt(x); }, [](float x) { return std::cbrt(x); }, -10, 10},
    {"exp2", "strata.exp2", st::prim::kExp2, [](const Array& x) { return st::exp2(x); }, [](float x) { return std::exp2(x); }, -10, 10},
};

// Edge values for every op: ±0, tiny, the domain boundaries ±1, out-of-domain values (asin(2),
// acosh(0.5), atanh(±1)), large values that overflow sinh, cosh and exp2, ±inf and nan.
const std::vector<double> kEdges = {-0.0, 0.0, 1e-30, -1e-8, 0.3, -0.5, 1.0, -1.0, 0.5, 1.5, 2.0, -2.0, 2.5,
                                    -3.9, 6.0, 27.0, 100.0, -100.0, 1e30, INFINITY, -INFINITY, NAN};

}  // namespace

TEST(SpecialFunctions, CompiledMatchesEagerOverFloatDtypes) {
  for (const Special& s : kSpecials) {
    for (st::DType t : st::testing::kFloatTypes) {
      SCOPED_TRACE(std::string(s.name) + " " + std::string(st::short_name(t)));
      Array x = st::array(kEdges, {static_cast<int64_t>(kEdges.size())}, t);
      std::vector<double> got = st::jit(s.fn)(x).to_vector<double>(), want = s.fn(x).to_vector<double>(),
                          in = x.to_vector<double>();
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        bool ok = s.ulps == 0 || want[i] == 0 ? st::testing::identical(got[i], want[i]) : st::testing::close(got[i], want[i], t, s.ulps);
        EXPECT_TRUE(ok) << s.name << "(" << in[i] << "): " << got[i] << " vs " << want[i];
      }
    }
  }
}

TEST(SpecialFunctions, FuseWithTheirNeighbours) {
  for (const Special& s : kSpecials) {
    SCOPED_TRACE(s.name);
    auto fn = s.fn;
    // An affine map into the domain, the op, and a product with the input: one loop nest.
    double mid = (s.lo + s.hi) / 2, half = (s.hi - s.lo) / 2 * 0.9;
    auto f = [fn, mid, half](const Array& x) { return x * fn(x * static_cast<float>(half) + static_cast<float>(mid)) + 1.0f; };
    Array x = st::random::uniform(st::random::key(3), {64, 32}, st::f32, -1, 1);
    st::Lowered l = st::jit(f).lower(x);
    const std::string& fused = l.as_text("fused");
    EXPECT_EQ(count(fused, "strata.fusion"), 1) << fused;
    EXPECT_EQ(count(fused, std::string(s.op) + " "), 1) << fused;
    std::vector<double> got = st::jit(f)(x).to_vector<double>(), want = f(x).to_vector<double>();
    for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-6 * (1 + std::fabs(want[i]))) << i;
  }
}

TEST(SpecialFunctions, BatchingRuleMovesTheBatchDimensionFirst) {
  for (const Special& s : kSpecials) {
    SCOPED_TRACE(s.name);
    ASSERT_NE(s.prim.batch, nullptr);
    Array x = st::random::uniform(st::random::key(5), {3, 4}, st::f32, s.lo, s.hi);  // batched along dimension 1
    int dims[] = {1};
    auto [out, out_dims] = s.prim.batch(std::span<const Array>(&x, 1), dims, st::Params{});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out_dims, std::vector<int>{0});
    EXPECT_EQ(out[0].shape(), (st::Shape{4, 3}));
    std::vector<double> got = out[0].to_vector<double>(), in = x.to_vector<double>();
    for (int b = 0; b < 4; ++b)
      for (int i = 0; i < 3; ++i) EXPECT_FLOAT_EQ(got[b * 3 + i], s.ref(static_cast<float>(in[i * 4 + b])));
  }
}
