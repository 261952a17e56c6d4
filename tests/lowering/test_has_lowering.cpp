// Every primitive in tracer/primitive_list.def has a lowering entry, and programs that use the
// primitives lower through every stage.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <tuple>

#include "lowering/JaxprToStrata.h"
#include "primitive.h"
#include "strata/strata.h"

namespace st = strata;

TEST(Lowering, EveryPrimitiveHasALoweringEntry) {
  for (const st::Primitive* p : st::all_primitives())
    EXPECT_TRUE(st::has_lowering(p->name)) << "primitive `" << p->name
                                          << "` has no entry in lowering/JaxprToStrata.cpp";
}

TEST(Lowering, UnknownNamesHaveNoEntry) { EXPECT_FALSE(st::has_lowering("no_such_primitive")); }

// One program touching most primitives, traced through the public API and lowered.
TEST(Lowering, AProgramOfManyPrimitivesLowersThroughEveryStage) {
  auto f = [](st::Array x, st::Array n, st::Array key) {
    st::Array u = st::exp(x) + st::log(x) - st::log1p(x) * st::expm1(x) / st::tanh(x);
    u = st::logistic(u) + st::sin(u) + st::cos(u) + st::sqrt(u) + st::rsqrt(u) + st::abs(u);
    u = st::sign(u) + st::floor(u) + st::ceil(u) + st::power(u, 2.0f) + (-u) % 3.0f;
    u = st::maximum(u, 0.0f) + st::minimum(u, 1.0f);
    st::Array p = (x == u) | (x != u) | (x < u) | (x <= u) | (x > u) | ~(x >= u);
    st::Array v = st::where(p, u, x);
    st::Array m = st::transpose(st::reshape(v, {4, 3}), {1, 0});
    m = st::concatenate({st::slice(m, {0, 0}, {3, 2}), st::broadcast_to(st::Array(1.0f), {3, 2})}, 1);
    st::Array r = st::sum(m, 1) + st::max(m, 1) + st::min(m, 1) + st::prod(m, 1);
    st::Array i = st::argmax(m, 1) + st::astype(n, st::i32);
    st::Array d = st::matmul(m, st::transpose(m, {1, 0}));
    st::Array bits = st::random::bits(key, {3});
    return std::vector<st::Array>{r, i, d, bits, st::arange(int64_t{3}) & 1};
  };
  st::Lowered l = st::jit(f).lower(st::ones({12}), st::zeros({3}, st::i64), st::random::key(1));
  std::set<std::string> used;
  for (const std::string& p : l.jaxpr().primitive_names()) used.insert(p);
  EXPECT_GE(used.size(), 40u) << l.jaxpr();
  EXPECT_NE(l.as_text("strata").find("strata.reduce"), std::string::npos);
  EXPECT_NE(l.as_text("cse").find("strata.threefry2x32"), std::string::npos);
  // Every stage, down to the host's assembly, and each one's text is of its level.
  std::vector<std::string> stages = l.stages();
  ASSERT_EQ(stages.back(), "asm");
  for (const std::string& s : stages) EXPECT_FALSE(l.as_text(s).empty()) << s;
  EXPECT_EQ(l.as_text("llvm-dialect").find("= strata."), std::string::npos) << "strata ops left in the LLVM dialect";
  EXPECT_NE(l.as_text("llvm-dialect").find("llvm.func @strata_entry"), std::string::npos);
  EXPECT_NE(l.as_text("llvm-ir").find("define void @strata_entry"), std::string::npos);
  EXPECT_NE(l.as_text("asm").find("strata_entry:"), std::string::npos);
  // And it runs, equal to eager evaluation.
  auto args = std::make_tuple(st::ones({12}), st::zeros({3}, st::i64), st::random::key(1));
  auto got = std::apply(st::jit(f), args), want = std::apply(f, args);
  ASSERT_EQ(got.size(), want.size());
  for (size_t k = 0; k < got.size(); ++k) {
    std::vector<double> g = got[k].to_vector<double>(), w = want[k].to_vector<double>();
    ASSERT_EQ(g.size(), w.size()) << "output " << k;
    for (size_t i = 0; i < g.size(); ++i)
      if (!(std::isnan(g[i]) && std::isnan(w[i])))
        EXPECT_NEAR(g[i], w[i], 1e-4 * (1 + std::fabs(w[i]))) << "output " << k << " element " << i;
  }
}
