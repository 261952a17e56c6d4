// st::associative_scan (jax.lax.associative_scan): prefix sums, products and a non-commutative
// pytree operator (affine maps composed, a linear recurrence) against sequential loops, every
// length around powers of two, reverse, another axis, under jit, vmap and grad.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::testing::error_message;
using st::testing::expect_contains;

TEST(AssociativeScan, PrefixSumsEveryLength) {
  for (int64_t n = 0; n <= 17; ++n) {
    std::vector<double> v;
    for (int64_t i = 0; i < n; ++i) v.push_back(std::sin(static_cast<double>(i)) + 2);
    st::Array x = st::array(v, {n});
    std::vector<double> got = st::associative_scan([](st::Array a, st::Array b) { return a + b; }, x).to_vector<double>();
    std::vector<double> rev =
        st::associative_scan([](st::Array a, st::Array b) { return a + b; }, x, true).to_vector<double>();
    ASSERT_EQ(got.size(), v.size());
    double acc = 0;
    for (int64_t i = 0; i < n; ++i) {
      acc += v[i];
      EXPECT_NEAR(got[i], acc, 1e-12) << "n " << n << " i " << i;
    }
    acc = 0;
    for (int64_t i = n; i-- > 0;) {
      acc += v[i];
      EXPECT_NEAR(rev[i], acc, 1e-12) << "reverse n " << n << " i " << i;
    }
  }
}

// The recurrence h[t] = a[t]·h[t-1] + b[t] (h[-1] = 0) as the composition of affine maps
// (a, b): (a1, b1) then (a2, b2) is (a1·a2, b1·a2 + b2) — associative, not commutative.
TEST(AssociativeScan, LinearRecurrenceAsPytreeJitVmapGrad) {
  const int64_t n = 11;
  std::vector<double> av, bv;
  for (int64_t i = 0; i < n; ++i) {
    av.push_back(0.9 - 0.05 * static_cast<double>(i % 4));
    bv.push_back(std::cos(static_cast<double>(i)));
  }
  auto compose = [](const std::pair<st::Array, st::Array>& p, const std::pair<st::Array, st::Array>& q) {
    return std::make_pair(p.first * q.first, p.second * q.first + q.second);
  };
  auto run = [&](const st::Array& a, const st::Array& b) { return st::associative_scan(compose, std::make_pair(a, b)).second; };
  st::Array a = st::array(av, {n}), b = st::array(bv, {n});
  std::vector<double> want;
  double h = 0;
  for (int64_t i = 0; i < n; ++i) want.push_back(h = av[i] * h + bv[i]);
  for (const st::Array& got : {run(a, b), st::jit(run)(a, b)}) {
    std::vector<double> g = got.to_vector<double>();
    for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(g[i], want[i], 1e-12) << i;
  }
  // Along axis 1 of a batch, and under vmap: the same rows.
  st::Array a2 = st::stack({a, a * 0.5}), b2 = st::stack({b, b});
  st::Array rows = st::associative_scan(compose, std::make_pair(a2, b2), false, 1).second;
  st::Array vm = st::vmap([&](const st::Array& p, const st::Array& q) { return run(p, q); })(a2, b2);
  EXPECT_EQ(rows.to_vector<double>(), vm.to_vector<double>());
  std::vector<double> r0 = st::index(rows, {0}).to_vector<double>();
  for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(r0[i], want[i], 1e-12);
  // d(Σ h)/d b against finite differences.
  auto loss = [&](const st::Array& q) { return st::sum(run(a, q)); };
  std::vector<double> g = st::grad(loss)(b).to_vector<double>();
  for (int64_t i = 0; i < n; ++i) {
    std::vector<double> p = bv, m = bv;
    p[i] += 1e-6, m[i] -= 1e-6;
    double fd = (loss(st::array(p, {n})).item<double>() - loss(st::array(m, {n})).item<double>()) / 2e-6;
    EXPECT_NEAR(g[i], fd, 1e-6) << i;
  }
  expect_contains(error_message<st::ShapeError>([&] {
                    (void)st::associative_scan(compose, std::make_pair(a, st::zeros({n + 1}, st::f64)));
                  }),
                  "associative_scan: expects every element of elems to have length 11");
}

TEST(AssociativeScan, MaxAndBoolOr) {
  st::Array x = st::array(std::vector<int32_t>{3, 1, 4, 1, 5, 9, 2, 6}, {8});
  EXPECT_EQ(st::associative_scan([](st::Array a, st::Array b) { return st::maximum(a, b); }, x).to_vector<int32_t>(),
            (std::vector<int32_t>{3, 3, 4, 4, 5, 9, 9, 9}));
  st::Array bits = st::array(std::vector<uint8_t>{0, 0, 1, 0, 0}, {5}, st::bool_);
  EXPECT_EQ(st::associative_scan([](st::Array a, st::Array b) { return st::logical_or(a, b); }, bits).to_vector<bool>(),
            (std::vector<bool>{false, false, true, true, true}));
}
