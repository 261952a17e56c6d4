// strata/array_utils.h against NumPy's and JAX 0.10.2's answers (checked by hand in a JAX
// session): result_type, can_cast, isreal/iscomplex, broadcast_shapes, fliplr/flipud,
// rollaxis, array_equiv, bitwise_count, put, tril/triu_indices_from, fromfunction,
// apply_over_axes, mask_indices; jit where they take arrays; the errors.
#include <gtest/gtest.h>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::values;

namespace {

Array ints(const std::vector<int32_t>& v, const st::Shape& shape) { return st::array(v, shape); }

TEST(ArrayUtils, DtypeQueries) {
  EXPECT_EQ(st::result_type({st::zeros({2}, st::i8), Array(2.0)}), st::f64);  // a weak float: the default float
  EXPECT_EQ(st::result_type({st::zeros({2}, st::bf16), st::zeros({2}, st::f16)}), st::f32);
  EXPECT_EQ(st::result_type({st::zeros({2}, st::u8), Array(1)}), st::u8);
  struct Cast {
    st::DType from, to;
    const char* casting;
    bool want;
  };
  for (const Cast& c : std::vector<Cast>{{st::i16, st::f32, "safe", true},    {st::i32, st::f32, "safe", false},
                                         {st::i64, st::f64, "safe", true},    {st::u64, st::f64, "safe", true},
                                         {st::u8, st::i8, "safe", false},     {st::u8, st::i16, "safe", true},
                                         {st::i8, st::u16, "safe", false},    {st::f64, st::f32, "same_kind", true},
                                         {st::i64, st::i8, "same_kind", true}, {st::u8, st::i8, "same_kind", true},
                                         {st::i8, st::u8, "same_kind", false}, {st::f32, st::i32, "same_kind", false},
                                         {st::c64, st::f64, "same_kind", false}, {st::f16, st::bf16, "safe", false},
                                         {st::bf16, st::f32, "safe", true},   {st::bool_, st::f16, "safe", true},
                                         {st::i8, st::f16, "safe", true},     {st::u16, st::f16, "safe", false},
                                         {st::f32, st::c64, "safe", true},    {st::f64, st::c64, "safe", false},
                                         {st::f64, st::i8, "unsafe", true},   {st::f32, st::f64, "no", false},
                                         // The byte floats: by their values (biases and specials differ).
                                         {st::f8_e4m3fnuz, st::f8_e4m3fn, "safe", false},  // 2^-10 below e4m3fn's grid
                                         {st::f8_e4m3fn, st::f8_e4m3, "safe", false},      // 448 past e4m3's 240
                                         {st::f8_e4m3fn, st::bf16, "safe", true},  {st::f8_e8m0fnu, st::f32, "safe", true},
                                         {st::f4_e2m1fn, st::f6_e2m3fn, "safe", true}, {st::f6_e3m2fn, st::f8_e5m2, "safe", true},
                                         {st::f6_e2m3fn, st::f8_e5m2, "safe", false}, {st::f4_e2m1fn, st::f8_e8m0fnu, "safe", false},
                                         {st::f8_e5m2, st::f8_e5m2fnuz, "safe", false}}) {  // inf
    EXPECT_EQ(st::can_cast(c.from, c.to, c.casting), c.want)
        << st::short_name(c.from) << " -> " << st::short_name(c.to) << " " << c.casting;
  }
  // jnp.isdtype / issubdtype / isscalar (values from jax 0.10.2).
  EXPECT_TRUE(st::isdtype(st::bf16, "real floating"));
  EXPECT_TRUE(st::isdtype(st::f8_e4m3fn, "real floating"));
  EXPECT_TRUE(st::isdtype(st::i4, "signed integer"));
  EXPECT_FALSE(st::isdtype(st::bool_, "numeric"));
  EXPECT_TRUE(st::isdtype(st::u8, "integral"));
  EXPECT_TRUE(st::isdtype(st::c64, "numeric"));
  EXPECT_TRUE(st::isdtype(st::f32, {"integral", "real floating"}));
  EXPECT_TRUE(st::isdtype(st::f32, st::f32));
  st::testing::expect_error([] { (void)st::isdtype(st::f32, "floating"); }, "isdtype: expects a kind");
  using C = st::DTypeCategory;
  EXPECT_TRUE(st::issubdtype(st::f8_e4m3fn, C::floating));
  EXPECT_TRUE(st::issubdtype(st::bf16, C::inexact));
  EXPECT_TRUE(st::issubdtype(st::i4, C::signedinteger));
  EXPECT_TRUE(st::issubdtype(st::u2, C::unsignedinteger));
  EXPECT_FALSE(st::issubdtype(st::bool_, C::number));
  EXPECT_FALSE(st::issubdtype(st::bool_, C::integer));
  EXPECT_TRUE(st::issubdtype(st::bool_, C::generic));
  EXPECT_TRUE(st::issubdtype(st::c64, C::number));
  EXPECT_FALSE(st::issubdtype(st::f32, st::f64));
  EXPECT_TRUE(st::isscalar(st::array(std::vector<double>{1.0}, {})));
  EXPECT_FALSE(st::isscalar(st::array(std::vector<double>{1.0}, {1})));
  const Array z = st::complex(st::array(std::vector<double>{1, 2, 3}, {3}), st::array(std::vector<double>{0, 1, -0.0}, {3}));
  EXPECT_TRUE(st::iscomplexobj(z));
  EXPECT_TRUE(st::isrealobj(st::zeros({2})));
  EXPECT_EQ(st::isreal(z).to_vector<bool>(), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(st::iscomplex(z).to_vector<bool>(), (std::vector<bool>{false, true, false}));
  EXPECT_EQ(st::isreal(st::zeros({2})).to_vector<bool>(), (std::vector<bool>{true, true}));
  st::testing::expect_error([] { st::can_cast(st::f32, st::f64, "loose"); }, "can_cast: expects casting");
}

TEST(ArrayUtils, ShapesAndArrangement) {
  EXPECT_EQ(st::broadcast_shapes({{3, 1}, {4}, {2, 1, 1}}), (st::Shape{2, 3, 4}));
  EXPECT_EQ(st::broadcast_shapes({}), st::Shape{});
  st::testing::expect_error([] { st::broadcast_shapes({{3}, {4}}); }, "broadcast_shapes: shapes [3], [4] cannot be broadcast");
  const Array x = ints({0, 1, 2, 3, 4, 5}, {2, 3});
  EXPECT_EQ(st::fliplr(x).to_vector<int32_t>(), (std::vector<int32_t>{2, 1, 0, 5, 4, 3}));
  EXPECT_EQ(st::flipud(x).to_vector<int32_t>(), (std::vector<int32_t>{3, 4, 5, 0, 1, 2}));
  st::testing::expect_error([&] { st::fliplr(x[0]); }, "fliplr: expects an array of rank >= 2");
  const Array y = st::zeros({2, 3, 4, 5});
  EXPECT_EQ(st::rollaxis(y, 3, 1).shape(), (st::Shape{2, 5, 3, 4}));
  EXPECT_EQ(st::rollaxis(y, 1, 4).shape(), (st::Shape{2, 4, 5, 3}));
  EXPECT_EQ(st::rollaxis(y, 2).shape(), (st::Shape{4, 2, 3, 5}));
  EXPECT_EQ(st::rollaxis(y, -1, -3).shape(), (st::Shape{2, 5, 3, 4}));
  st::testing::expect_error([&] { st::rollaxis(y, 1, 5); }, "rollaxis: start 5 is out of range");
  EXPECT_TRUE(st::array_equiv(x, x * 1).item<bool>());
  EXPECT_TRUE(st::array_equiv(ints({1, 2}, {2}), ints({1, 2, 1, 2}, {2, 2})).item<bool>());
  EXPECT_FALSE(st::array_equiv(ints({1, 2}, {2}), ints({1, 2, 1, 3}, {2, 2})).item<bool>());
  EXPECT_FALSE(st::array_equiv(ints({1, 2}, {2}), ints({1, 2, 3}, {3})).item<bool>());  // no broadcast
  auto [r, c] = st::triu_indices_from(st::zeros({3, 4}), 1);
  EXPECT_EQ(r.to_vector<int32_t>(), (std::vector<int32_t>{0, 0, 0, 1, 1, 2}));
  EXPECT_EQ(c.to_vector<int32_t>(), (std::vector<int32_t>{1, 2, 3, 2, 3, 3}));
  auto [lr, lc] = st::tril_indices_from(st::zeros({3, 3}));
  EXPECT_EQ(lr.to_vector<int32_t>(), (std::vector<int32_t>{0, 1, 1, 2, 2, 2}));
  EXPECT_EQ(lc.to_vector<int32_t>(), (std::vector<int32_t>{0, 0, 1, 0, 1, 2}));
}

TEST(ArrayUtils, BitsAndPut) {
  EXPECT_EQ(st::bitwise_count(st::astype(ints({-3, 7, 0, -128}, {4}), st::i8)).to_vector<int32_t>(),
            (std::vector<int32_t>{2, 3, 0, 1}));
  EXPECT_EQ(st::bitwise_count(ints({1}, {1})).dtype(), st::u8);
  st::testing::expect_error([] { st::bitwise_count(st::zeros({2})); }, "bitwise_count: expects integers or bools");
  // jnp.put(arange(6).reshape(2, 3), [0, 4, 9, -1], [10, 20]): values tiled; 9 clipped to 5, -1
  // counts from the end (5 again, written last).
  const Array x = ints({0, 1, 2, 3, 4, 5}, {2, 3});
  Array p = st::put(x, ints({0, 4, -1}, {3}), ints({10, 20}, {2}));
  EXPECT_EQ(p.to_vector<int32_t>(), (std::vector<int32_t>{10, 1, 2, 3, 20, 10}));
  EXPECT_EQ(p.shape(), x.shape());
  EXPECT_EQ(st::put(x, ints({9}, {1}), ints({7}, {1})).to_vector<int32_t>(), (std::vector<int32_t>{0, 1, 2, 3, 4, 7}));
  const Array a = ints({0, 1, 2, 3, 4, 5}, {6});
  EXPECT_EQ(st::put(a, ints({0, 7, -8}, {3}), ints({10, 20, 30}, {3}), "wrap").to_vector<int32_t>(),
            (std::vector<int32_t>{10, 20, 2, 3, 30, 5}));
  EXPECT_EQ(st::put(a, ints({0, 7, -8}, {3}), ints({10, 20, 30}, {3}), "clip").to_vector<int32_t>(),
            (std::vector<int32_t>{30, 1, 2, 3, 4, 20}));
  EXPECT_EQ(x.to_vector<int32_t>(), (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));  // the input unchanged
  auto jitted = st::jit([](const Array& v, const Array& i) { return st::put(v, i, Array(int32_t{-1}), "wrap"); });
  EXPECT_EQ(jitted(a, ints({1, 8}, {2})).to_vector<int32_t>(), (std::vector<int32_t>{0, -1, -1, 3, 4, 5}));
  st::testing::expect_error([&] { st::put(a, ints({1}, {1}), a, "raise"); }, "put: expects mode");
  st::testing::expect_error([&] { st::put(a, st::zeros({1}), a); }, "put: expects integer positions");
}

TEST(ArrayUtils, FunctionsOfIndicesAndAxes) {
  // fromfunction: i + 10 j over a 2 × 3 grid, and one vector argument for any rank.
  Array g = st::fromfunction([](const Array& i, const Array& j) { return i + 10.0 * j; }, {2, 3});
  EXPECT_EQ(g.dtype(), st::f32);
  st::testing::expect_relative(g, {0, 10, 20, 1, 11, 21}, 0, 0);
  Array s = st::fromfunction([](const std::vector<Array>& ix) { return ix[0] * ix[1] * ix[2]; }, {2, 2, 2}, st::i32);
  EXPECT_EQ(s.to_vector<int32_t>(), (std::vector<int32_t>{0, 0, 0, 0, 0, 0, 0, 1}));
  st::testing::expect_error([] { st::fromfunction([](const Array& i, const Array& j) { return i + j; }, {3}); },
                            "fromfunction: f takes 2 index arrays, but the shape has 1 dimensions");
  // apply_over_axes(sum, a, [0, 2]) keeps the rank.
  const Array a = st::reshape(st::arange(24, st::f64), {2, 3, 4});
  Array r = st::apply_over_axes([](const Array& v, int ax) { return st::sum(v, ax); }, a, {0, 2});
  EXPECT_EQ(r.shape(), (st::Shape{1, 3, 1}));
  st::testing::expect_relative(r, {60, 92, 124}, 0, 0);
  auto [mr, mc] = st::mask_indices(3, [](const Array& m, int64_t k) { return st::triu(m, k); }, 1);
  EXPECT_EQ(mr.to_vector<int32_t>(), (std::vector<int32_t>{0, 0, 1}));
  EXPECT_EQ(mc.to_vector<int32_t>(), (std::vector<int32_t>{1, 2, 2}));
}

TEST(ArrayUtils, PiecewiseAndVq) {
  // JAX's documented example: the last function is the default; constants allowed.
  const Array x = ints({-4, -3, -2, -1, 0, 1, 2, 3, 4}, {9});
  Array p = st::piecewise(x, {x < -1, x > 1}, [](const Array& v) { return 1 + v; }, [](const Array& v) { return v - 1; }, 0);
  EXPECT_EQ(p.dtype(), st::i32);
  EXPECT_EQ(p.to_vector<int32_t>(), (std::vector<int32_t>{-3, -2, -1, 0, 0, 0, 1, 2, 3}));
  // Each function sees one element (0-d), as under JAX's vectorized switch; later conditions win.
  const Array xf = st::linspace(-2.0, 2.0, 5, true, st::f64);
  Array q = st::piecewise(xf, {xf < 0.0, xf > -1.5}, [](const Array& v) {
    EXPECT_EQ(v.ndim(), 0);
    return v * v;
  }, [](const Array& v) { return st::sin(v); });
  st::testing::expect_relative(q, {4.0, std::sin(-1.0), 0.0, std::sin(1.0), std::sin(2.0)}, 1e-15, 0);
  st::testing::expect_relative(st::jit([](const Array& v) { return st::piecewise(v, {v < 0.0}, 1.0, 2.0); })(xf),
                               {1, 1, 2, 2, 2}, 0, 0);
  st::testing::expect_error([&] { st::piecewise(x, {x < 0}, 1.0, 2.0, 3.0); },
                            "piecewise: expects one function per condition (1), plus an optional default, but got 3");
  // scipy.cluster.vq.vq against JAX 0.10.2 (x64).
  const Array obs = st::testing::sin_sequence({6, 2}, 0.7, 0.1);
  std::vector<double> cbv(6);
  for (size_t i = 0; i < 6; ++i) cbv[i] = std::cos(1.3 * static_cast<double>(i) + 0.2);
  const Array cb = st::array(cbv, {3, 2}, st::f64);
  auto [code, dist] = st::vq(obs, cb);
  EXPECT_EQ(code.to_vector<int32_t>(), (std::vector<int32_t>{2, 2, 0, 1, 1, 2}));
  st::testing::expect_relative(dist, {0.5699950021891471, 0.3779383205542182, 0.901245585828952, 0.38498311424616355,
                                      0.794542571985932, 0.12637616039280847}, 1e-14, 0);
  auto [code1, dist1] = st::vq(obs[{st::Slice(), 0}], cb[{st::Slice(), 1}]);
  EXPECT_EQ(code1.to_vector<int32_t>(), (std::vector<int32_t>{0, 2, 0, 1, 1, 2}));
  st::testing::expect_relative(dist1, {0.02909621497912525, 0.08311183836873504, 0.16851212754627953, 0.34134199021618605,
                                       0.02413840393563016, 0.18541410810944348}, 1e-13, 0);
  st::testing::expect_error([&] { st::vq(obs, cbv.empty() ? cb : cb[0]); }, "vq: expects observations and code book of one rank");
}

}  // namespace
