// searchsorted, digitize, interp, bincount, histogram (strata/searching.h): values from
// jax.numpy (jax 0.10, x64), eager and under jit and vmap; interp's gradient against finite
// differences.
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

std::vector<int32_t> ints(const st::Array& a) { return a.to_vector<int32_t>(); }

}  // namespace

TEST(Searchsorted, SidesTiesAndNansAsJax) {
  st::Array a = st::array(std::vector<double>{1, 2, 2, 3, NAN}, {5});
  st::Array v = st::array(std::vector<double>{NAN, 2, 0, 3.5, 2.5}, {5});
  for (bool jitted : {false, true}) {
    auto left = [](const st::Array& x, const st::Array& y) { return st::searchsorted(x, y); };
    auto right = [](const st::Array& x, const st::Array& y) { return st::searchsorted(x, y, "right"); };
    st::Array l = jitted ? st::jit(left)(a, v) : left(a, v);
    st::Array r = jitted ? st::jit(right)(a, v) : right(a, v);
    EXPECT_EQ(l.dtype(), st::i32);
    EXPECT_EQ(ints(l), (std::vector<int32_t>{4, 1, 0, 4, 3}));
    EXPECT_EQ(ints(r), (std::vector<int32_t>{5, 3, 0, 4, 3}));
  }
  // Integers, a 2-d query, sizes around powers of two, against a linear count.
  for (int64_t n : {0, 1, 2, 3, 7, 8, 9, 16, 17}) {
    std::vector<int32_t> sorted;
    for (int64_t i = 0; i < n; ++i) sorted.push_back(static_cast<int32_t>(2 * (i / 2)));  // pairs of ties
    st::Array s = st::array(sorted, {n});
    std::vector<int32_t> q;
    for (int32_t k = -1; k <= 2 * static_cast<int32_t>(n) + 1; ++k) q.push_back(k);
    st::Array qa = st::array(q, {static_cast<int64_t>(q.size())});
    std::vector<int32_t> l = ints(st::searchsorted(s, qa)), r = ints(st::searchsorted(s, qa, "right"));
    for (size_t j = 0; j < q.size(); ++j) {
      int32_t wl = 0, wr = 0;
      for (int32_t e : sorted) wl += e < q[j], wr += e <= q[j];
      EXPECT_EQ(l[j], wl) << "n " << n << " query " << q[j];
      EXPECT_EQ(r[j], wr) << "n " << n << " query " << q[j];
    }
  }
  st::Array q2 = st::array(std::vector<double>{0.5, 2.5, 1, 3}, {2, 2});
  EXPECT_EQ(st::searchsorted(a, q2).shape(), (st::Shape{2, 2}));
  // Under vmap: one sorted array per example.
  st::Array rows = st::array(std::vector<double>{1, 2, 3, 10, 20, 30}, {2, 3});
  st::Array qs = st::array(std::vector<double>{2.5, 15}, {2});
  EXPECT_EQ(ints(st::vmap([](const st::Array& x, const st::Array& y) { return st::searchsorted(x, y); })(rows, qs)),
            (std::vector<int32_t>{2, 1}));
  expect_contains(error_message<st::ShapeError>([&] { (void)st::searchsorted(rows, qs); }),
                  "searchsorted: expects a 1-d sorted array, but got f64[2,3]");
  expect_contains(error_message<st::ValueError>([&] { (void)st::searchsorted(a, v, "middle"); }), "side \"left\" or");
}

TEST(Digitize, IncreasingDecreasingRightAsJax) {
  st::Array x = st::array(std::vector<double>{0.5, 1, 2.5, 4}, {4});
  EXPECT_EQ(ints(st::digitize(x, st::array(std::vector<double>{1, 2, 3}, {3}))), (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(ints(st::digitize(x, st::array(std::vector<double>{3, 2, 1}, {3}))), (std::vector<int32_t>{3, 2, 1, 0}));
  EXPECT_EQ(ints(st::digitize(x, st::array(std::vector<double>{1, 2, 3}, {3}), true)), (std::vector<int32_t>{0, 0, 2, 3}));
}

TEST(Interp, ValuesEdgesPeriodAsJax) {
  st::Array xp = st::array(std::vector<double>{0, 1, 3}, {3}), fp = st::array(std::vector<double>{10, 20, 0}, {3});
  st::Array x = st::array(std::vector<double>{-1, 0, 0.5, 2.5, 3, 4}, {6});
  expect_elements(st::interp(x, xp, fp), {10, 10, 15, 5, 0, 0});
  expect_elements(st::jit([&](const st::Array& q) { return st::interp(q, xp, fp); })(x), {10, 10, 15, 5, 0, 0});
  expect_elements(st::interp(st::array(std::vector<double>{-1, 4}, {2}), xp, fp, -5.0, 7.0), {-5, 7});
  st::Array px = st::array(std::vector<double>{0, 90, 180, 270}, {4}), pf = st::array(std::vector<double>{1, 2, 3, 4}, {4});
  expect_elements(st::interp(st::array(std::vector<double>{-1, 4, 370}, {3}), px, pf, std::nullopt, std::nullopt, 360.0),
              {1.0333333333333334, 1.0444444444444445, 1.1111111111111112});
  // f32 stays f32; integer points become floats.
  EXPECT_EQ(st::interp(st::array(std::vector<float>{0.5f}, {1}), st::array(std::vector<int32_t>{0, 1}, {2}),
                       st::array(std::vector<float>{0, 2}, {2}))
                .dtype(),
            st::f32);
}

TEST(Interp, GradientMatchesFiniteDifferences) {
  st::Array xp = st::array(std::vector<double>{0, 1, 3, 4}, {4});
  st::Array fp = st::array(std::vector<double>{10, 20, 0, 1}, {4});
  st::Array x = st::array(std::vector<double>{0.3, 1.7, 3.2, 5}, {4});
  auto loss = [&](const st::Array& q, const st::Array& f) { return st::sum(st::sin(st::interp(q, xp, f))); };
  auto [gx, gf] = st::grad(loss, st::argnums<0, 1>)(x, fp);
  std::vector<double> xs = x.to_vector<double>(), fs = fp.to_vector<double>();
  std::vector<double> gxs = gx.to_vector<double>(), gfs = gf.to_vector<double>();
  const double eps = 1e-6;
  for (size_t i = 0; i < xs.size(); ++i) {
    std::vector<double> p = xs, m = xs;
    p[i] += eps, m[i] -= eps;
    double fd = (loss(st::array(p, {4}), fp).item<double>() - loss(st::array(m, {4}), fp).item<double>()) / (2 * eps);
    EXPECT_NEAR(gxs[i], fd, 1e-6) << "x " << i;
    p = fs, m = fs;
    p[i] += eps, m[i] -= eps;
    fd = (loss(x, st::array(p, {4})).item<double>() - loss(x, st::array(m, {4})).item<double>()) / (2 * eps);
    EXPECT_NEAR(gfs[i], fd, 1e-6) << "fp " << i;
  }
}

TEST(Bincount, CountsAndWeightsAsJax) {
  st::Array x = st::array(std::vector<int32_t>{0, 1, 1, 3, -1, 7}, {6});
  st::Array c = st::bincount(x, 5);
  EXPECT_EQ(c.dtype(), st::i32);
  EXPECT_EQ(ints(c), (std::vector<int32_t>{2, 2, 0, 1, 0}));
  EXPECT_EQ(ints(st::jit([](const st::Array& v) { return st::bincount(v, 5); })(x)), (std::vector<int32_t>{2, 2, 0, 1, 0}));
  st::Array w = st::array(std::vector<double>{0.5, 1, 2, 3}, {4});
  expect_elements(st::bincount(st::array(std::vector<int32_t>{0, 1, 1, 3}, {4}), 4, w), {0.5, 3, 0, 3});
  expect_contains(error_message<st::DTypeError>([&] { (void)st::bincount(w, 4); }), "expects non-negative integers");
}

TEST(Histogram, BinsRangeDensityAsJax) {
  st::Array a = st::array(std::vector<double>{1, 2, 2, 3, 5}, {5});
  auto [h, e] = st::histogram(a, 4);
  expect_elements(h, {1, 2, 1, 1});
  expect_elements(e, {1, 2, 3, 4, 5});
  auto [hd, ed] = st::histogram(a, 2, std::pair{0.0, 4.0}, std::nullopt, true);
  expect_elements(hd, {0.125, 0.375});
  expect_elements(ed, {0, 2, 4});
  auto [hs, es] = st::histogram(st::array(std::vector<double>{2, 2}, {2}), 2);
  expect_elements(hs, {0, 2});
  expect_elements(es, {1.5, 2, 2.5});
  // Under jit the range comes from the traced values.
  auto f = [](const st::Array& v) { return st::histogram(v, 4).first; };
  expect_elements(st::jit(f)(a), {1, 2, 1, 1});
  // Explicit edges and weights.
  auto [hw, ew] = st::histogram(a, st::array(std::vector<double>{0, 2, 6}, {3}), st::ones({5}, st::f64) * 2.0);
  expect_elements(hw, {2, 8});
}
