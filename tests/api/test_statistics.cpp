// Quantiles, NaN-ignoring reductions, isnan & co, isclose (strata/statistics.h): values from
// jax.numpy (jax 0.10, x64), eager and under jit; the quantile's gradient as JAX's.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::testing::error_message;
using st::testing::expect_contains;
using st::testing::expect_elements;

namespace {

st::Array a34() { return st::array(std::vector<double>{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8}, {3, 4}); }
st::Array qs() { return st::array(std::vector<double>{0, 0.3, 0.5, 1}, {4}); }

}  // namespace

TEST(Quantile, MethodsAlongAnAxisAsJax) {
  struct M {
    const char* method;
    std::vector<double> want;  // [4 q] x [3 rows]
  } ms[] = {
      {"linear", {1, 2, 3, 1, 4.7, 4.800000000000001, 2, 5.5, 5, 4, 9, 8}},
      {"lower", {1, 2, 3, 1, 2, 3, 1, 5, 5, 4, 9, 8}},
      {"higher", {1, 2, 3, 1, 5, 5, 3, 6, 5, 4, 9, 8}},
      {"nearest", {1, 2, 3, 1, 5, 5, 1, 5, 5, 4, 9, 8}},
      {"midpoint", {1, 2, 3, 1, 3.5, 4, 2, 5.5, 5, 4, 9, 8}},
  };
  for (const M& m : ms) {
    SCOPED_TRACE(m.method);
    st::Array r = st::quantile(a34(), qs(), 1, m.method);
    EXPECT_EQ(r.shape(), (st::Shape{4, 3}));
    expect_elements(r, m.want);
    std::string method = m.method;
    expect_elements(st::jit([method](const st::Array& x, const st::Array& q) { return st::quantile(x, q, 1, method); })(a34(), qs()),
                  m.want);
  }
  expect_elements(st::quantile(a34(), st::Array(0.25)), {2.75});
  expect_elements(st::median(a34(), 0), {5, 3, 4, 6});
  st::Array p = st::percentile(a34(), st::Array(75.0), 0, "linear", true);
  EXPECT_EQ(p.shape(), (st::Shape{1, 4}));
  expect_elements(p, {5, 6, 4.5, 7});
  expect_elements(st::median(st::array(std::vector<double>{1, NAN, 3}, {3})), {NAN});
  EXPECT_EQ(st::median(st::array(std::vector<int32_t>{1, 2, 3, 4}, {4})).dtype(), st::f32);
  expect_contains(error_message<st::ValueError>([] { (void)st::quantile(a34(), st::Array(0.5), 1, "cubic"); }),
                  "expects method \"linear\"");
}

TEST(Quantile, NanVariantsAsJax) {
  expect_elements(st::nanmedian(st::array(std::vector<double>{1, NAN, 3, 4, NAN, NAN, NAN, NAN}, {2, 4}), 1), {3, NAN});
  expect_elements(st::nanquantile(st::array(std::vector<double>{1, NAN, 3, 4}, {4}), st::Array(0.4)), {2.6});
  expect_elements(st::nanpercentile(st::array(std::vector<double>{1, NAN, 3, 4}, {4}), st::Array(40.0)), {2.6});
}

TEST(Quantile, GradientAsJax) {
  // Ties (the two 1s of row 0) take their sorted positions, as the stable sort puts them.
  st::Array g = st::grad([](const st::Array& x) {
    return st::sum(st::quantile(x, st::array(std::vector<double>{0.3, 0.5}, {2}), 1));
  })(a34());
  expect_elements(g, {0.5, 0.1, 0, 1.4, 1.4, 0, 0.1, 0.5, 1.4, 0.1, 0.5, 0}, 1e-12);
}

TEST(NanReductions, SkipNansAsJax) {
  st::Array b = st::array(std::vector<double>{1, NAN, 3, NAN, NAN, NAN}, {2, 3});
  expect_elements(st::nansum(b, 1), {4, 0});
  expect_elements(st::nanmean(b, 1), {2, NAN});
  expect_elements(st::nanmax(b, 1), {3, NAN});
  expect_elements(st::nanmin(b, 1), {1, NAN});
  expect_elements(st::nanprod(b, 1), {3, 1});
  expect_elements(st::nanvar(b, 1), {1, NAN});
  expect_elements(st::nanstd(b, 1, 1), {std::sqrt(2.0), NAN});
  expect_elements(st::jit([](const st::Array& x) { return st::nanmean(x, 1); })(b), {2, NAN});
  st::Array i = st::array(std::vector<int32_t>{1, 5, 2}, {3});
  EXPECT_EQ(st::nanmax(i).item<int32_t>(), 5);
  // The gradient of nansum is 0 at the NaNs (and NaN where a NaN came from a finite input's
  // derivative, x·x here: 2x · 0), as JAX's.
  expect_elements(st::grad([](const st::Array& x) { return st::nansum(x); })(st::array(std::vector<double>{1, NAN, 3}, {3})),
                {1, 0, 1});
  expect_elements(st::grad([](const st::Array& x) { return st::nansum(x * x); })(st::array(std::vector<double>{1, NAN, 3}, {3})),
                {2, NAN, 6});
}

TEST(ElementTests, IsnanIsinfIscloseAsJax) {
  st::Array x = st::array(std::vector<double>{1, NAN, INFINITY, -INFINITY}, {4});
  EXPECT_EQ(st::isnan(x).to_vector<bool>(), (std::vector<bool>{false, true, false, false}));
  EXPECT_EQ(st::isinf(x).to_vector<bool>(), (std::vector<bool>{false, false, true, true}));
  EXPECT_EQ(st::isposinf(x).to_vector<bool>(), (std::vector<bool>{false, false, true, false}));
  EXPECT_EQ(st::isneginf(x).to_vector<bool>(), (std::vector<bool>{false, false, false, true}));
  EXPECT_EQ(st::isnan(st::complex(st::array(std::vector<float>{1, NAN}, {2}), st::zeros({2}))).to_vector<bool>(),
            (std::vector<bool>{false, true}));
  EXPECT_EQ(st::isnan(st::array(std::vector<int32_t>{1}, {1})).to_vector<bool>(), (std::vector<bool>{false}));
  st::Array a = st::array(std::vector<double>{1, 1e10, INFINITY, NAN, INFINITY, 1e-9}, {6});
  st::Array b = st::array(std::vector<double>{1 + 1e-6, 1.00001e10, INFINITY, NAN, -INFINITY, 0}, {6});
  EXPECT_EQ(st::isclose(a, b).to_vector<bool>(), (std::vector<bool>{true, true, true, false, false, true}));
  EXPECT_TRUE(st::isclose(st::Array(NAN), st::Array(NAN), 1e-5, 1e-8, true).item<bool>());
  EXPECT_FALSE(st::allclose(a, b).item<bool>());
  EXPECT_TRUE(st::allclose(a34(), a34() + 1e-9).item<bool>());
}
