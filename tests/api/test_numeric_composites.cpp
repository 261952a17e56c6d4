// diff, cross, kron, inner, vdot, polyval, convolve, correlate, index conversions, moveaxis &
// co., floor_divide and the segment reductions: values from NumPy / jax.numpy (x64), eager and
// under jit; gradients where JAX differentiates.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <vector>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::testing::error_message;
using st::testing::expect_contains;
using st::testing::expect_elements;

namespace {

st::Array vec(const std::vector<double>& v) { return st::testing::array1d(v); }
std::vector<int32_t> ints(const st::Array& a) { return a.to_vector<int32_t>(); }

}  // namespace

TEST(NumericComposites, DiffCrossKronInnerVdotPolyval) {
  expect_elements(st::diff(st::array(std::vector<int32_t>{1, 4, 9, 16}, {4}), 2), {2, 2});
  expect_elements(st::diff(st::array(std::vector<int32_t>{1, 2, 5, 3}, {2, 2}), 1, 0), {4, 1});
  EXPECT_EQ(st::diff(st::array(std::vector<uint8_t>{1, 0, 0}, {3}, st::bool_)).to_vector<bool>(),
            (std::vector<bool>{true, false}));
  expect_elements(st::diff(vec({1, 2}), 1, -1, st::Array(0.0), vec({7})), {1, 1, 5});
  expect_elements(st::cross(vec({1, 2, 3}), vec({4, 5, 6})), {-3, 6, -3});
  expect_elements(st::cross(vec({1, 2}), vec({4, 5})), {-3});
  expect_elements(st::cross(st::array(std::vector<double>{1, 2}, {1, 2}), st::array(std::vector<double>{4, 5, 6}, {1, 3})),
                {12, -6, -3});
  st::Array k = st::kron(st::array(std::vector<int32_t>{1, 2, 3, 4}, {2, 2}), st::array(std::vector<int32_t>{1, 10}, {2}));
  EXPECT_EQ(k.shape(), (st::Shape{2, 4}));
  expect_elements(k, {1, 10, 2, 20, 3, 30, 4, 40});
  expect_elements(st::kron(st::array(std::vector<int32_t>{1, 2}, {2}), st::array(std::vector<int32_t>{1, 10}, {2, 1})),
                {1, 2, 10, 20});
  expect_elements(st::inner(st::reshape(st::astype(st::arange(6), st::f64), {2, 3}), st::astype(st::arange(3), st::f64)),
                {5, 14});
  st::Array va = st::complex(vec({1, 3}), vec({2, 0})), vb = st::complex(vec({2, 0}), vec({0, 1}));
  st::Array d = st::vdot(va, vb);  // conj(1+2i)·2 + 3·i = 2 - 4i + 3i
  EXPECT_EQ(st::real(d).item<double>(), 2);
  EXPECT_EQ(st::imag(d).item<double>(), -1);
  expect_elements(st::polyval(vec({3, 0, -1, 2}), vec({0, 1, 2})), {2, 4, 24});
  // d/dx polyval = the derivative polynomial.
  expect_elements(st::grad([](const st::Array& x) { return st::sum(st::polyval(vec({3, 0, -1, 2}), x)); })(vec({0, 1, 2})),
                {-1, 8, 35});
}

TEST(NumericComposites, ConvolveCorrelateModesAsNumpy) {
  st::Array a = vec({1, 2, 3, 4, 5}), v = vec({1, 0, -1.5});
  struct M {
    const char* mode;
    std::vector<double> conv, corr, conv_swapped, corr_swapped;
  } ms[] = {
      {"full", {1, 2, 1.5, 1, 0.5, -6, -7.5}, {-1.5, -3, -3.5, -4, -4.5, 4, 5}, {1, 2, 1.5, 1, 0.5, -6, -7.5},
       {5, 4, -4.5, -4, -3.5, -3, -1.5}},
      {"same", {2, 1.5, 1, 0.5, -6}, {-3, -3.5, -4, -4.5, 4}, {2, 1.5, 1, 0.5, -6}, {4, -4.5, -4, -3.5, -3}},
      {"valid", {1.5, 1, 0.5}, {-3.5, -4, -4.5}, {1.5, 1, 0.5}, {-4.5, -4, -3.5}},
  };
  for (const M& m : ms) {
    SCOPED_TRACE(m.mode);
    std::string mode = m.mode;
    expect_elements(st::convolve(a, v, mode), m.conv);
    expect_elements(st::correlate(a, v, mode), m.corr);
    expect_elements(st::convolve(v, a, mode), m.conv_swapped);
    expect_elements(st::correlate(v, a, mode), m.corr_swapped);
    expect_elements(st::jit([mode](const st::Array& x, const st::Array& y) { return st::convolve(x, y, mode); })(a, v), m.conv);
  }
  // Complex: correlate conjugates v; the shorter first is the reversed conjugate.
  st::Array c = st::complex(vec({1, 3}), vec({2, -1})), r = st::complex(vec({1, 2, 3}), vec({0, 0, 0}));
  st::Array f = st::correlate(r, c, "full"), g = st::correlate(c, r, "full");
  expect_elements(st::real(f), {3, 7, 11, 3});
  expect_elements(st::imag(f), {1, 0, -1, -6});
  expect_elements(st::real(g), {3, 11, 7, 3});
  expect_elements(st::imag(g), {6, 1, 0, -1});
  EXPECT_EQ(st::convolve(st::array(std::vector<int32_t>{1, 2}, {2}), st::array(std::vector<int32_t>{3, 4}, {2})).dtype(),
            st::i32);
  expect_contains(error_message<st::ValueError>([&] { (void)st::convolve(a, v, "middle"); }), "expects mode \"full\"");
}

TEST(NumericComposites, IndexConversionsAsJax) {
  std::vector<st::Array> u = st::unravel_index(st::array(std::vector<int32_t>{0, 5, 11, -1, 12, -20}, {6}), {3, 4});
  ASSERT_EQ(u.size(), 2u);
  EXPECT_EQ(ints(u[0]), (std::vector<int32_t>{0, 1, 2, 2, 2, 0}));
  EXPECT_EQ(ints(u[1]), (std::vector<int32_t>{0, 1, 3, 3, 3, 0}));
  std::vector<st::Array> mi{st::array(std::vector<int32_t>{0, 2, 5}, {3}), st::array(std::vector<int32_t>{1, -1, 3}, {3})};
  EXPECT_EQ(ints(st::ravel_multi_index(mi, {3, 4})), (std::vector<int32_t>{1, 8, 11}));
  EXPECT_EQ(ints(st::ravel_multi_index(mi, {3, 4}, "wrap")), (std::vector<int32_t>{1, 11, 11}));
  auto [r, c] = st::triu_indices(3, 1);
  EXPECT_EQ(ints(r), (std::vector<int32_t>{0, 0, 1}));
  EXPECT_EQ(ints(c), (std::vector<int32_t>{1, 2, 2}));
  auto [lr, lc] = st::tril_indices(3, 0, 4);
  EXPECT_EQ(ints(lr), (std::vector<int32_t>{0, 1, 1, 2, 2, 2}));
  EXPECT_EQ(ints(lc), (std::vector<int32_t>{0, 0, 1, 0, 1, 2}));
}

TEST(NumericComposites, AxesMovesAndRotations) {
  st::Array x = st::zeros({2, 3, 4});
  EXPECT_EQ(st::moveaxis(x, 0, -1).shape(), (st::Shape{3, 4, 2}));
  EXPECT_EQ(st::moveaxis(x, -1, 0).shape(), (st::Shape{4, 2, 3}));
  EXPECT_EQ(st::swapaxes(x, 0, 2).shape(), (st::Shape{4, 3, 2}));
  EXPECT_EQ(st::ravel(x).shape(), (st::Shape{24}));
  st::Array m = st::reshape(st::arange(6), {2, 3});
  EXPECT_EQ(ints(st::rot90(m)), (std::vector<int32_t>{2, 5, 1, 4, 0, 3}));
  EXPECT_EQ(ints(st::rot90(m, 2)), (std::vector<int32_t>{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(ints(st::rot90(m, -1)), (std::vector<int32_t>{3, 0, 4, 1, 5, 2}));
}

TEST(NumericComposites, FloorDivideAsJax) {
  st::Array a = st::array(std::vector<int32_t>{-7, 7, -7, 7, 0}, {5}), b = st::array(std::vector<int32_t>{2, 2, -2, -2, 3}, {5});
  EXPECT_EQ(ints(st::floor_divide(a, b)), (std::vector<int32_t>{-4, 3, 3, -4, 0}));
  EXPECT_EQ(ints(st::jit([](const st::Array& p, const st::Array& q) { return st::floor_divide(p, q); })(a, b)),
            (std::vector<int32_t>{-4, 3, 3, -4, 0}));
  expect_elements(st::floor_divide(vec({7.5, -7.5, 1, -0.5}), vec({2, 2, -3, 0.25})), {3, -4, -1, -2});
  EXPECT_EQ(st::floor_divide(st::array(std::vector<uint8_t>{7}, {1}), st::array(std::vector<uint8_t>{2}, {1})).to_vector<uint8_t>(),
            (std::vector<uint8_t>{3}));
}

TEST(Segment, SumProdMaxMinAsJax) {
  st::Array d = vec({1, 2, 3, 4, 5});
  st::Array ids = st::array(std::vector<int32_t>{0, 0, 2, 2, 5}, {5});
  expect_elements(st::segment_sum(d, ids, 4), {3, 0, 7, 0});
  expect_elements(st::segment_prod(d, ids, 4), {2, 1, 12, 1});
  expect_elements(st::segment_max(d, ids, 4), {2, -INFINITY, 4, -INFINITY});
  expect_elements(st::segment_min(d, ids, 4), {1, INFINITY, 3, INFINITY});
  expect_elements(st::jit([](const st::Array& x, const st::Array& i) { return st::segment_sum(x, i, 4); })(d, ids), {3, 0, 7, 0});
  // Negative ids are dropped (not counted from the end); without num_segments, max + 1.
  expect_elements(st::segment_sum(d, st::array(std::vector<int32_t>{0, -1, 1, 1, 3}, {5}), 3), {1, 7, 0});
  EXPECT_EQ(st::segment_sum(d, ids).shape(), (st::Shape{6}));
  st::Array im = st::segment_max(st::array(std::vector<int64_t>{1, 2, 3}, {3}), st::array(std::vector<int32_t>{0, 0, 2}, {3}), 3);
  EXPECT_EQ(im.to_vector<int64_t>(), (std::vector<int64_t>{2, std::numeric_limits<int64_t>::min(), 3}));
  // Rows of a 2-d data array, and the gradient (each row gets its segment's cotangent).
  st::Array rows = st::reshape(st::astype(st::arange(6), st::f64), {3, 2});
  st::Array r = st::segment_sum(rows, st::array(std::vector<int32_t>{1, 0, 1}, {3}), 2);
  expect_elements(r, {2, 3, 4, 6});
  st::Array w = vec({10, 20});
  expect_elements(st::grad([&](const st::Array& x) {
                  return st::sum(st::segment_sum(x, st::array(std::vector<int32_t>{1, 0, 1}, {3}), 2) *
                                 st::reshape(w, {2, 1}));
                })(rows),
                {20, 20, 10, 10, 20, 20});
  expect_contains(error_message<st::ConcretizationError>([&] {
                    (void)st::jit([](const st::Array& x, const st::Array& i) { return st::segment_sum(x, i); })(d, ids);
                  }),
                  "pass num_segments");
}

// Empty and one-element inputs: results of the right shape, no crash.
TEST(NumericComposites, EmptyAndTinyInputs) {
  EXPECT_EQ(st::searchsorted(st::zeros({0}), vec({1, 2})).to_vector<int32_t>(), (std::vector<int32_t>{0, 0}));
  EXPECT_EQ(st::searchsorted(vec({1}), st::zeros({0}, st::f64)).shape(), (st::Shape{0}));
  expect_elements(st::quantile(vec({3}), st::Array(0.7)), {3});
  EXPECT_EQ(st::segment_sum(st::zeros({0, 2}), st::zeros({0}, st::i32), 3).shape(), (st::Shape{3, 2}));
  auto [h, e] = st::histogram(st::zeros({0}, st::f64), 2);
  expect_elements(h, {0, 0});
  expect_elements(e, {0, 0.5, 1});
  expect_elements(st::convolve(vec({2}), vec({3})), {6});
  expect_elements(st::diff(vec({1, 2}), 5), {});
  EXPECT_EQ(st::kron(st::Array(2.0), st::Array(3.0)).item<double>(), 6);
  EXPECT_EQ(st::unravel_index(st::zeros({0}, st::i32), {0, 3}).size(), 2u);
  EXPECT_EQ(st::linalg::expm(st::zeros({0, 0}, st::f64)).shape(), (st::Shape{0, 0}));
  EXPECT_EQ(st::linalg::lu_pivots_to_permutation(st::zeros({0}, st::i32), 2).to_vector<int32_t>(), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(st::associative_scan([](st::Array a, st::Array b) { return a + b; }, st::zeros({0})).shape(), (st::Shape{0}));
  EXPECT_EQ(st::interp(st::zeros({0}, st::f64), vec({0, 1}), vec({0, 1})).shape(), (st::Shape{0}));
  expect_contains(error_message<st::ShapeError>([] { (void)st::interp(vec({1}), st::zeros({0}, st::f64), st::zeros({0}, st::f64)); }),
                  "interp: expects xp and fp of one non-zero length");
}

// nonzero / argwhere / flatnonzero with a static size (JAX's size= and fill_value=), traceable.
TEST(NumericComposites, NonzeroWithStaticSizeAsJax) {
  st::Array x = st::array(std::vector<int32_t>{0, 3, 0, 4, 0, 5}, {2, 3});
  std::vector<st::Array> nz = st::nonzero(x, 4, -1);
  EXPECT_EQ(ints(nz[0]), (std::vector<int32_t>{0, 1, 1, -1}));
  EXPECT_EQ(ints(nz[1]), (std::vector<int32_t>{1, 0, 2, -1}));
  std::vector<st::Array> two = st::nonzero(x, 2);
  EXPECT_EQ(ints(two[0]), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(ints(two[1]), (std::vector<int32_t>{1, 0}));
  EXPECT_EQ(ints(st::argwhere(x, 4, 9)), (std::vector<int32_t>{0, 1, 1, 0, 1, 2, 9, 9}));
  EXPECT_EQ(ints(st::argwhere(x)), (std::vector<int32_t>{0, 1, 1, 0, 1, 2}));
  EXPECT_EQ(ints(st::flatnonzero(x, 4)), (std::vector<int32_t>{1, 3, 5, 0}));
  EXPECT_EQ(ints(st::jit([](const st::Array& v) { return st::nonzero(v, 3)[1]; })(x)), (std::vector<int32_t>{1, 0, 2}));
  EXPECT_EQ(ints(st::vmap([](const st::Array& row) { return st::flatnonzero(row, 2, -1); })(x)),
            (std::vector<int32_t>{1, -1, 0, 2}));
}
