// finfo/iinfo, histogramdd/histogram2d, delete_/insert/indices/ix_/block, apply_along_axis:
// the values and shapes JAX 0.10.2 prints (pasted once, the expression beside each), jit
// against eager, errors.
#include <gtest/gtest.h>

#include <cmath>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::values;

namespace {

using D = std::vector<double>;

Array f64v(const D& v) { return st::array(v, {static_cast<int64_t>(v.size())}, st::f64); }

TEST(JnpArrangeMore, ValuesJaxPrints) {
  Array A = st::reshape(st::arange(int64_t{12}), {3, 4});
  Array B = st::reshape(st::arange(0, 24, 1, st::f32), {2, 3, 4});
  Array pts = st::array(D{0.1, 0.2, 0.5, 0.5, 0.9, 0.1, 0.3, 0.8, 1.0, 1.0, -0.1, 0.5, 0.5, 0.25}, {7, 2}, st::f64);
  Array px = st::reshape(st::slice(pts, {0, 0}, {7, 1}), {7}), py = st::reshape(st::slice(pts, {0, 1}, {7, 2}), {7});
  std::vector<st::testing::JaxCase> cases = {
      {"jnp.delete(A, 1, axis=1)", st::delete_(A, {1}, 1), {0.0, 2.0, 3.0, 4.0, 6.0, 7.0, 8.0, 10.0, 11.0}, {3, 3}},
      {"jnp.delete(A, jnp.array([0, -1, 0]))", st::delete_(A, {0, -1, 0}), {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0}, {10}},
      {"jnp.insert(A, 1, 99, axis=1)", st::insert(A, 1, st::Array(99), 1), {0.0, 99.0, 1.0, 2.0, 3.0, 4.0, 99.0, 5.0, 6.0, 7.0, 8.0, 99.0, 9.0, 10.0, 11.0}, {3, 5}},
      {"jnp.insert(A, 2, jnp.array([7, 8, 9]), axis=1)", st::insert(A, 2, st::array(std::vector<int32_t>{7, 8, 9}, {3}), 1), {0.0, 1.0, 7.0, 2.0, 3.0, 4.0, 5.0, 8.0, 6.0, 7.0, 8.0, 9.0, 9.0, 10.0, 11.0}, {3, 5}},
      {"jnp.insert(A, 1, jnp.array([5, 6, 7, 8]), axis=0)", st::insert(A, 1, st::array(std::vector<int32_t>{5, 6, 7, 8}, {4}), 0), {0.0, 1.0, 2.0, 3.0, 5.0, 6.0, 7.0, 8.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0}, {4, 4}},
      {"jnp.insert(A, jnp.array([1, 1, 4]), jnp.array([-1, -2, -3]), axis=1)", st::insert(A, std::vector<int64_t>{1, 1, 4}, st::array(std::vector<int32_t>{-1, -2, -3}, {3}), 1), {0.0, -1.0, -2.0, 1.0, 2.0, 3.0, -3.0, 4.0, -1.0, -2.0, 5.0, 6.0, 7.0, -3.0, 8.0, -1.0, -2.0, 9.0, 10.0, 11.0, -3.0}, {3, 7}},
      {"jnp.insert(A, jnp.array([0, 3]), 0.5)", st::insert(A, std::vector<int64_t>{0, 3}, st::Array(0.5)), {0.0, 0.0, 1.0, 2.0, 0.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0}, {14}},
      {"jnp.insert(jnp.arange(4.), 2, jnp.array([[1., 2.]]))", st::insert(st::arange(0, 4, 1, st::f32), 2, st::array(std::vector<double>{1, 2}, {2}, st::f32)), {0.0, 1.0, 1.0, 2.0, 2.0, 3.0}, {6}},
      {"jnp.indices((2, 3))", st::indices({2, 3}), {0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 2.0, 0.0, 1.0, 2.0}, {2, 2, 3}},
      {"jnp.block([[A, A[:, :1]], [A[:1], jnp.zeros((1, 1), int)]])", st::block({{A, st::slice(A, {0, 0}, {3, 1})}, {st::slice(A, {0, 0}, {1, 4}), st::zeros({1, 1}, st::i32)}}), {0.0, 1.0, 2.0, 3.0, 0.0, 4.0, 5.0, 6.0, 7.0, 4.0, 8.0, 9.0, 10.0, 11.0, 8.0, 0.0, 1.0, 2.0, 3.0, 0.0}, {4, 5}},
      {"jnp.apply_along_axis(lambda r: jnp.cumsum(r)[::2], 1, A)", st::apply_along_axis([](const Array& r) { return st::slice(st::cumsum(r), {0}, {4}, {2}); }, 1, A), {0.0, 3.0, 4.0, 15.0, 8.0, 27.0}, {3, 2}},
      {"jnp.apply_along_axis(lambda r: jnp.outer(r, r[:2]), 1, B)", st::apply_along_axis([](const Array& r) { return st::outer(r, st::slice(r, {0}, {2})); }, 1, B), {0.0, 1.0, 4.0, 9.0, 0.0, 5.0, 12.0, 21.0, 0.0, 5.0, 12.0, 21.0, 16.0, 25.0, 36.0, 49.0, 0.0, 9.0, 20.0, 33.0, 32.0, 45.0, 60.0, 77.0, 144.0, 169.0, 196.0, 225.0, 192.0, 221.0, 252.0, 285.0, 192.0, 221.0, 252.0, 285.0, 256.0, 289.0, 324.0, 361.0, 240.0, 273.0, 308.0, 345.0, 320.0, 357.0, 396.0, 437.0}, {2, 3, 2, 4}},
      {"jnp.histogramdd(pts, bins=(2, 3), range=[(0, 1), (0, 1)])[0]", st::histogramdd(pts, std::vector<int64_t>{2, 3}, {std::pair{0.0, 1.0}, std::pair{0.0, 1.0}}).first, {1.0, 0.0, 1.0, 2.0, 1.0, 1.0}, {2, 3}},
      {"jnp.histogramdd(pts, bins=[[0, .4, 1], [0, .5, 1]], weights=arange(7), density=True)[0]", st::histogramdd(pts, std::vector<Array>{f64v({0, 0.4, 1}), f64v({0, 0.5, 1})}, st::arange(0, 7, 1, st::f64), true).first, {0.0, 0.9375, 1.6666666666666667, 1.0416666666666667}, {2, 2}},
      {"jnp.histogram2d(pts[:, 0], pts[:, 1], bins=3)[0]", std::get<0>(st::histogram2d(px, py, 3)), {1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0}, {3, 3}},
      {"jnp.histogram2d(pts[:, 0], pts[:, 1], bins=3)[2]", std::get<2>(st::histogram2d(px, py, 3)), {0.1, 0.39999999999999997, 0.7, 1.0}, {4}},
  };
  st::testing::expect_jax_cases(cases, [](const st::testing::JaxCase&, double w) { return 1e-12 * std::max(1.0, std::fabs(w)); });
}

TEST(JnpArrangeMore, FinfoIinfoAsJax) {
  struct F {
    st::DType t;
    double eps, max, tiny, subnormal, epsneg;
    int precision, nmant, nexp, minexp, maxexp;
  };
  // jnp.finfo(bfloat16 / float16 / float32 / float64)
  for (const F& f : {F{st::bf16, 0.0078125, 3.3895313892515355e+38, 1.1754943508222875e-38, 9.183549615799121e-41, 0.00390625, 2, 7, 8, -126, 128},
                     F{st::f16, 0.0009765625, 65504.0, 6.103515625e-05, 5.960464477539063e-08, 0.00048828125, 3, 10, 5, -14, 16},
                     F{st::f32, 1.1920928955078125e-07, 3.4028234663852886e+38, 1.1754943508222875e-38, 1.401298464324817e-45, 5.960464477539063e-08, 6, 23, 8, -126, 128},
                     F{st::f64, 2.220446049250313e-16, 1.7976931348623157e+308, 2.2250738585072014e-308, 5e-324, 1.1102230246251565e-16, 15, 52, 11, -1022, 1024}}) {
    SCOPED_TRACE(std::string(st::short_name(f.t)));
    st::FInfo i = st::finfo(f.t);
    EXPECT_EQ(i.eps, f.eps);
    EXPECT_EQ(i.max, f.max);
    EXPECT_EQ(i.min, -f.max);
    EXPECT_EQ(i.tiny, f.tiny);
    EXPECT_EQ(i.smallest_normal, f.tiny);
    EXPECT_EQ(i.smallest_subnormal, f.subnormal);
    EXPECT_EQ(i.epsneg, f.epsneg);
    EXPECT_EQ(i.precision, f.precision);
    EXPECT_EQ(i.nmant, f.nmant);
    EXPECT_EQ(i.nexp, f.nexp);
    EXPECT_EQ(i.minexp, f.minexp);
    EXPECT_EQ(i.maxexp, f.maxexp);
    EXPECT_NEAR(i.resolution, std::pow(10.0, -f.precision), 1e-20);
    EXPECT_EQ(i.bits, static_cast<int>(st::itemsize(f.t) * 8));
  }
  // A complex dtype gives its parts' limits; the maximum is the dtype's largest value.
  EXPECT_EQ(st::finfo(st::c64).dtype, st::f32);
  EXPECT_EQ(static_cast<double>(st::astype(st::Array(st::finfo(st::f32).max), st::f32).item<float>()), st::finfo(st::f32).max);
  EXPECT_THROW(st::finfo(st::i32), st::DTypeError);
  // jnp.iinfo(int8 / uint16 / int64 / uint64)
  EXPECT_EQ(st::iinfo(st::i8).min, -128);
  EXPECT_EQ(st::iinfo(st::i8).max, 127u);
  EXPECT_EQ(st::iinfo(st::u16).min, 0);
  EXPECT_EQ(st::iinfo(st::u16).max, 65535u);
  EXPECT_EQ(st::iinfo(st::i64).min, INT64_MIN);
  EXPECT_EQ(st::iinfo(st::i64).max, static_cast<uint64_t>(INT64_MAX));
  EXPECT_EQ(st::iinfo(st::u64).max, UINT64_MAX);
  EXPECT_EQ(st::iinfo(st::u32).bits, 32);
  EXPECT_THROW(st::iinfo(st::bool_), st::DTypeError);
  EXPECT_THROW(st::iinfo(st::f32), st::DTypeError);
}

TEST(JnpArrangeMore, TracesAndErrors) {
  Array A = st::reshape(st::arange(int64_t{12}, st::f32), {3, 4});
  auto f = [](const Array& a) {
    return std::make_tuple(st::delete_(a, {0, 2}, 1), st::insert(a, {1, 3}, st::Array(-1.0f), 0), st::block({{a, a}, {a, a}}),
                           st::apply_along_axis([](const Array& r) { return st::sum(r * r); }, 0, a), st::ix_({a[0], a[1]})[1]);
  };
  auto e = f(A);
  auto j = st::jit(f)(A);
  EXPECT_EQ(values(std::get<0>(j)), values(std::get<0>(e)));
  EXPECT_EQ(values(std::get<1>(j)), values(std::get<1>(e)));
  EXPECT_EQ(values(std::get<2>(j)), values(std::get<2>(e)));
  EXPECT_EQ(values(std::get<3>(j)), values(std::get<3>(e)));
  EXPECT_EQ(std::get<4>(j).shape(), (st::Shape{1, 4}));
  // Gradients flow through the gathers.
  Array g = st::grad([](const Array& a) { return st::sum(st::insert(st::delete_(a, {1}, 0), 0, st::Array(2.0f), 0)); })(A);
  EXPECT_EQ(values(g), (D{1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1}));
  // histogramdd traces (its points are data; the edges are computed from them when not given).
  Array pts = st::random::uniform(st::random::key(4), {50, 3});
  auto h = [](const Array& p) { return st::histogramdd(p, std::vector<int64_t>{2, 3, 4}, {std::pair{0.0, 1.0}, std::pair{0.0, 1.0}, std::pair{0.0, 1.0}}).first; };
  EXPECT_EQ(values(st::jit(h)(pts)), values(h(pts)));
  EXPECT_EQ(st::sum(h(pts)).item<float>(), 50.0f);
  EXPECT_THROW(st::delete_(A, {5}, 0), st::ValueError);
  EXPECT_THROW(st::insert(A, {1, 2}, st::ones({3, 3}), 1), st::ShapeError);
  EXPECT_THROW(st::ix_({A}), st::ValueError);
  EXPECT_THROW(st::block(std::vector<std::vector<Array>>{}), st::ValueError);
  EXPECT_THROW(st::histogramdd(st::ones({4}), std::vector<int64_t>{2}), st::ShapeError);
  EXPECT_THROW(st::histogramdd(st::ones({4, 2}), std::vector<int64_t>{2}), st::ValueError);
  EXPECT_THROW(st::histogram2d(st::ones({4}), st::ones({5})), st::ShapeError);
  EXPECT_THROW(st::apply_along_axis([](const Array& r) { return r; }, 2, A), st::ValueError);
}

}  // namespace
