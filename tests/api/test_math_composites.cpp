// square, copysign, signbit, fmax/fmin, nan_to_num, frexp/ldexp, modf/divmod, gcd/lcm,
// logaddexp2, count_nonzero, ptp, average, cov/corrcoef, select, unwrap, cumulative_sum and the
// stacking helpers (composites.h): values from jax.numpy (jax 0.10, x64), eager and under jit.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::testing::error_message;
using st::testing::expect_contains;
using st::testing::expect_elements;

namespace {

st::Array vec(const std::vector<double>& v) { return st::testing::array1d(v); }
st::Array ivec(const std::vector<int32_t>& v) { return st::testing::array1d(v); }
std::vector<bool> bools(const st::Array& a) { return a.to_vector<bool>(); }

}  // namespace

TEST(MathComposites, RoundingSignsAndExtremaAsJax) {
  st::Array x = vec({-2.5, -0.5, 0, 0.5, 1.5, 2.5, -0.0});
  expect_elements(st::trunc(x), {-2, -0.0, 0, 0, 1, 2, -0.0});
  EXPECT_TRUE(std::signbit(st::trunc(x).to_vector<double>()[1]));
  expect_elements(st::rint(x), {-2, -0.0, 0, 0, 2, 2, -0.0});
  expect_elements(st::copysign(vec({1, 2, -3}), vec({-0.0, 1, -1})), {-1, 2, -3});
  EXPECT_EQ(bools(st::signbit(vec({-0.0, 0, -1, NAN}))), (std::vector<bool>{true, false, true, false}));
  EXPECT_EQ(bools(st::signbit(ivec({-3, 0, 4}))), (std::vector<bool>{true, false, false}));
  expect_elements(st::heaviside(vec({-1, 0, 2}), st::Array(0.5)), {0, 0.5, 1});
  expect_elements(st::fmax(vec({1, NAN, NAN}), vec({NAN, 2, NAN})), {1, 2, NAN});
  expect_elements(st::fmin(vec({1, NAN}), vec({0, 2})), {0, 2});
  EXPECT_EQ(bools(st::logical_xor(ivec({0, 1, 2}), ivec({1, 1, 0}))), (std::vector<bool>{true, false, true}));
  expect_elements(st::square(vec({-3, 0.5})), {9, 0.25});
  expect_elements(st::reciprocal(ivec({2, 4})), {0.5, 0.25});
  expect_elements(st::deg2rad(vec({180})), {M_PI});
  expect_elements(st::rad2deg(vec({M_PI / 2})), {90});
}

TEST(MathComposites, NanToNumFloatPowerFrexpLdexpAsJax) {
  st::Array f = st::array(std::vector<float>{NAN, INFINITY, -INFINITY, 1}, {4});
  expect_elements(st::nan_to_num(f), {0, std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(), 1});
  expect_elements(st::nan_to_num(vec({NAN, INFINITY}), 1.0, 2.0), {1, 2});
  st::Array fp = st::float_power(ivec({2, 3}), vec({0.5, 2}));
  EXPECT_EQ(fp.dtype(), st::f64);
  expect_elements(fp, {std::sqrt(2.0), 9});
  expect_elements(st::ldexp(vec({1, 0.75}), ivec({3, -1})), {8, 0.375});
  for (bool jitted : {false, true}) {
    auto f2 = [](const st::Array& v) { return st::frexp(v); };
    auto [m, e] = jitted ? st::jit(f2)(vec({8, 0.3, -5, 0, INFINITY, 1e-310})) : f2(vec({8, 0.3, -5, 0, INFINITY, 1e-310}));
    EXPECT_EQ(e.dtype(), st::i32);
    std::vector<int32_t> es = e.to_vector<int32_t>();
    std::vector<double> ms = m.to_vector<double>();
    int ref_e = 0;
    double ref_m = std::frexp(1e-310, &ref_e);  // a subnormal: C's frexp
    expect_elements(m, {0.5, 0.6, -0.625, 0, INFINITY, ref_m});
    EXPECT_EQ(es, (std::vector<int32_t>{4, -1, 3, 0, 0, ref_e}));
  }
  auto [mf, ef] = st::frexp(st::array(std::vector<float>{8, 0.3f}, {2}));
  expect_elements(mf, {0.5, static_cast<double>(0.3f) * 2.0}, 0);  // exact: a power of two apart
  EXPECT_EQ(ef.to_vector<int32_t>(), (std::vector<int32_t>{4, -1}));
  auto [frac, whole] = st::modf(vec({2.5, -1.25}));
  expect_elements(frac, {0.5, -0.25});
  expect_elements(whole, {2, -1});
  auto [q, r] = st::divmod(ivec({7, -7}), ivec({2, 2}));
  EXPECT_EQ(q.to_vector<int32_t>(), (std::vector<int32_t>{3, -4}));
  EXPECT_EQ(r.to_vector<int32_t>(), (std::vector<int32_t>{1, 1}));
}

TEST(MathComposites, GcdLcmLogaddexp2CountsAsJax) {
  EXPECT_EQ(st::gcd(ivec({12, -18, 0, 7}), ivec({18, 12, 5, 0})).to_vector<int32_t>(), (std::vector<int32_t>{6, 6, 5, 7}));
  EXPECT_EQ(st::jit([](const st::Array& a, const st::Array& b) { return st::gcd(a, b); })(ivec({12, -18}), ivec({18, 12}))
                .to_vector<int32_t>(),
            (std::vector<int32_t>{6, 6}));
  EXPECT_EQ(st::lcm(ivec({4, -6, 0}), ivec({6, 4, 3})).to_vector<int32_t>(), (std::vector<int32_t>{12, 12, 0}));
  EXPECT_EQ(st::gcd(ivec({12, 9}), st::Array(6)).to_vector<int32_t>(), (std::vector<int32_t>{6, 3}));
  expect_contains(error_message<st::DTypeError>([] { (void)st::gcd(vec({1.5}), vec({2})); }), "gcd: expects integers");
  expect_elements(st::logaddexp2(vec({1, 3}), vec({2, 3})), {2.584962500721156, 4});
  st::Array m = st::array(std::vector<int32_t>{0, 1, 2, 0, 0, 3}, {2, 3});
  EXPECT_EQ(st::count_nonzero(m, 1).to_vector<int32_t>(), (std::vector<int32_t>{2, 1}));
  EXPECT_EQ(st::count_nonzero(m).item<int32_t>(), 3);
  EXPECT_EQ(st::ptp(st::array(std::vector<int32_t>{1, 5, 2, 7, 0, 3}, {2, 3}), 1).to_vector<int32_t>(),
            (std::vector<int32_t>{4, 7}));
}

TEST(MathComposites, AverageCovCorrcoefSelectUnwrapAsJax) {
  expect_elements(st::average(vec({1, 2, 3, 4}), std::nullopt, vec({4, 3, 2, 1})), {2});
  expect_elements(st::average(st::array(std::vector<double>{1, 2, 3, 4}, {2, 2}), 0, vec({1, 3})), {2.5, 3.5});
  st::Array x = st::array(std::vector<double>{1, 2, 3, 4, 2, 1, 4, 3, 1, 0, 1, 0}, {3, 4});
  expect_elements(st::corrcoef(x), {1, 0.6, -0.4472135954999579, 0.6, 1, 0.4472135954999579, -0.4472135954999579,
                                  0.4472135954999579, 1});
  // cov against NumPy's definition on the same rows, and of columns with rowvar false.
  st::Array c = st::cov(x);
  EXPECT_EQ(c.shape(), (st::Shape{3, 3}));
  expect_elements(st::index(c, {0, 0}), {5.0 / 3.0});
  expect_elements(st::cov(st::transpose(x), false), c.to_vector<double>());
  expect_elements(st::cov(vec({1, 2, 3, 4}), true, true), {1.25});
  st::Array s = st::select({st::array(std::vector<uint8_t>{1, 0, 0}, {3}, st::bool_), st::array(std::vector<uint8_t>{1, 1, 0}, {3}, st::bool_)},
                           {ivec({1, 2, 3}), ivec({4, 5, 6})}, st::Array(9));
  EXPECT_EQ(s.to_vector<int32_t>(), (std::vector<int32_t>{1, 5, 9}));
  expect_elements(st::unwrap(vec({0, 3, 6.5, 0.5, 7})), {0, 3, 0.21681469282041377, 0.5, 0.7168146928204138});
  expect_elements(st::jit([](const st::Array& p) { return st::unwrap(p); })(vec({0, 3, 6.5, 0.5, 7})),
                {0, 3, 0.21681469282041377, 0.5, 0.7168146928204138});
  EXPECT_EQ(st::cumulative_sum(ivec({1, 2, 3}), std::nullopt, true).to_vector<int32_t>(), (std::vector<int32_t>{0, 1, 3, 6}));
}

TEST(MathComposites, StackingAndShapes) {
  st::Array a = vec({1, 2}), b = vec({3, 4});
  EXPECT_EQ(st::hstack({a, b}).shape(), (st::Shape{4}));
  EXPECT_EQ(st::vstack({a, b}).shape(), (st::Shape{2, 2}));
  EXPECT_EQ(st::dstack({a, b}).shape(), (st::Shape{1, 2, 2}));
  EXPECT_EQ(st::column_stack({a, b}).shape(), (st::Shape{2, 2}));
  expect_elements(st::column_stack({a, b}), {1, 3, 2, 4});
  EXPECT_EQ(st::atleast_2d(st::Array(1.0)).shape(), (st::Shape{1, 1}));
  EXPECT_EQ(st::atleast_3d(a).shape(), (st::Shape{1, 2, 1}));
  expect_elements(st::append(st::reshape(a, {1, 2}), b), {1, 2, 3, 4});
  EXPECT_TRUE(st::array_equal(a, vec({1, 2})).item<bool>());
  EXPECT_FALSE(st::array_equal(a, vec({1, 2, 3})).item<bool>());
  EXPECT_TRUE(st::array_equal(vec({NAN}), vec({NAN}), true).item<bool>());
  std::vector<st::Array> bs = st::broadcast_arrays({st::zeros({3, 1}), st::zeros({4})});
  EXPECT_EQ(bs[0].shape(), (st::Shape{3, 4}));
  EXPECT_EQ(bs[1].shape(), (st::Shape{3, 4}));
}
