// conv_general_dilated's derivatives (JAX's transpose rules, binding the same primitive) and
// batching rule: JVP against finite differences and VJP against JVP over strides, padding,
// dilations, groups, batch groups and layouts; second derivatives; jit of grad; vmap against
// a loop over the examples.
#include <gtest/gtest.h>

#include "autodiff/check_grads.h"
#include "conv_reference.h"
#include "test_util.h"

namespace st = strata;
using namespace strata::testing;

namespace {

st::Array randn(const st::Shape& s, uint64_t seed) { return st::random::normal(st::random::key(seed), s, st::f64); }

// Hand-picked cases that cover each parameter, then seeded random ones.
std::vector<ConvCase> grad_cases() {
  std::vector<ConvCase> cases;
  auto make = [](st::Shape lhs, st::Shape rhs, std::vector<int64_t> s, std::vector<int64_t> lo, std::vector<int64_t> hi,
                 std::vector<int64_t> ld, std::vector<int64_t> rd, st::ConvDimensionNumbers dn, int64_t g = 1,
                 int64_t bg = 1) {
    ConvCase c;
    c.lhs = lhs, c.rhs = rhs, c.strides = s, c.lo = lo, c.hi = hi, c.lhs_dil = ld, c.rhs_dil = rd, c.dn = dn;
    c.groups = g, c.batch_groups = bg;
    return c;
  };
  st::ConvDimensionNumbers nchw("NCHW", "OIHW", "NCHW");
  st::ConvDimensionNumbers nhwc("NHWC", "HWIO", "NHWC");
  cases.push_back(make({2, 3, 5, 5}, {4, 3, 3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, nchw));
  cases.push_back(make({2, 6, 7, 3}, {3, 3, 3, 4}, {2, 2}, {1, 0}, {1, 2}, {1, 1}, {1, 1}, nhwc));
  cases.push_back(make({1, 2, 6, 5}, {2, 2, 2, 3}, {1, 2}, {0, -1}, {2, 1}, {2, 1}, {1, 2}, nchw));
  cases.push_back(make({2, 4, 5, 5}, {6, 2, 3, 2}, {2, 1}, {1, 1}, {0, 1}, {1, 1}, {2, 1}, nchw, 2));
  cases.push_back(make({4, 3, 5, 4}, {4, 3, 2, 2}, {1, 1}, {0, 0}, {1, 0}, {1, 1}, {1, 1}, nchw, 1, 2));
  cases.push_back(make({2, 3, 7}, {2, 3, 3}, {3}, {2}, {1}, {1}, {2}, st::ConvDimensionNumbers("NCH", "OIH", "NCH")));
  cases.push_back(make({1, 4, 4, 3, 2}, {2, 2, 2, 2, 2}, {1, 2, 1}, {1, 0, 1}, {0, 1, 0}, {1, 1, 1}, {1, 1, 1},
                       st::ConvDimensionNumbers("NDHWC", "DHWIO", "NDHWC")));
  std::mt19937 rng(77);
  for (int i = 0; i < 12; ++i) cases.push_back(random_conv_case(rng));
  return cases;
}

TEST(ConvGrads, JvpAndVjpMatchFiniteDifferences) {
  uint64_t seed = 1;
  for (const ConvCase& c : grad_cases()) {
    st::Array x = randn(c.lhs, seed++), w = randn(c.rhs, seed++);
    check_grads([c](const std::vector<st::Array>& a) { return c.apply(a[0], a[1]); }, {x, w}, c.str());
  }
}

// The derivative of the lhs gradient (which holds the flipped kernel) and of the rhs gradient.
TEST(ConvGrads, SecondDerivatives) {
  uint64_t seed = 100;
  for (const ConvCase& c : grad_cases()) {
    st::Array x = randn(c.lhs, seed++), w = randn(c.rhs, seed++);
    st::Array y0 = c.apply(x, w);
    st::Array probe = randn(y0.shape(), seed++);
    auto loss = [c, probe](const st::Array& a, const st::Array& b) { return st::sum(st::tanh(c.apply(a, b)) * probe); };
    check_grads([loss](const std::vector<st::Array>& a) { return std::get<0>(st::grad(loss, st::argnums<0, 1>)(a[0], a[1])); },
                {x, w}, "d/dx " + c.str());
    check_grads([loss](const std::vector<st::Array>& a) { return std::get<1>(st::grad(loss, st::argnums<0, 1>)(a[0], a[1])); },
                {x, w}, "d/dw " + c.str());
  }
}

TEST(ConvGrads, JitOfGradMatchesGrad) {
  uint64_t seed = 300;
  for (const ConvCase& c : grad_cases()) {
    st::Array x = randn(c.lhs, seed++), w = randn(c.rhs, seed++);
    auto loss = [c](const st::Array& a, const st::Array& b) { return st::sum(st::sin(c.apply(a, b))); };
    auto g = st::grad(loss, st::argnums<0, 1>);
    auto [gx, gw] = g(x, w);
    auto [jx, jw] = st::jit(g)(x, w);
    std::vector<double> a = gx.to_vector<double>(), b = jx.to_vector<double>();
    for (size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], b[i], 1e-10) << "dx " << c.str();
    a = gw.to_vector<double>(), b = jw.to_vector<double>();
    for (size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], b[i], 1e-10) << "dw " << c.str();
  }
}

// vmap over the lhs, the rhs or both, against the examples one by one.
TEST(ConvBatching, MatchesPerExampleLoop) {
  uint64_t seed = 500;
  for (const ConvCase& c : grad_cases()) {
    const int64_t B = 3;
    for (int which = 0; which < 3; ++which) {
      SCOPED_TRACE(c.str() + " batched " + std::to_string(which));
      bool bl = which != 1, br = which != 0;
      st::Shape ls = c.lhs, rs = c.rhs;
      if (bl) ls.insert(ls.begin(), B);
      if (br) rs.insert(rs.begin() + 1, B);  // a batch dimension that is not the first
      st::Array x = randn(ls, seed++), w = randn(rs, seed++);
      auto f = [c](const st::Array& a, const st::Array& b) { return c.apply(a, b); };
      std::optional<int> ax = bl ? std::optional<int>(0) : std::nullopt, aw = br ? std::optional<int>(1) : std::nullopt;
      st::Array got = st::vmap(f, {ax, aw})(x, w);
      std::vector<double> g = got.to_vector<double>();
      int64_t per = static_cast<int64_t>(g.size()) / B;
      for (int64_t b = 0; b < B; ++b) {
        st::Array xb = bl ? st::squeeze(st::slice(x, [&] { std::vector<int64_t> s(ls.size(), 0); s[0] = b; return s; }(), [&] { std::vector<int64_t> s(ls.begin(), ls.end()); s[0] = b + 1; return s; }()), 0) : x;
        st::Array wb = br ? st::squeeze(st::slice(w, [&] { std::vector<int64_t> s(rs.size(), 0); s[1] = b; return s; }(), [&] { std::vector<int64_t> s(rs.begin(), rs.end()); s[1] = b + 1; return s; }()), 1) : w;
        std::vector<double> want = c.apply(xb, wb).to_vector<double>();
        ASSERT_EQ(static_cast<int64_t>(want.size()), per);
        for (int64_t i = 0; i < per; ++i) ASSERT_NEAR(g[b * per + i], want[i], 1e-10) << "example " << b;
      }
    }
  }
}

}  // namespace
