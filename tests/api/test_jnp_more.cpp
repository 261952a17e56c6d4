// More of jax.numpy (logspace, geomspace, linspace without endpoint, tri, window functions,
// trapezoid, gradient, ediff1d, cumulative_prod, nancumsum/nancumprod/nanargmax/nanargmin,
// polyadd/polysub/polymul/polydiv/poly/roots, array_split & co, unstack, diagflat,
// fill_diagonal, trim_zeros, matvec/vecmat, choose, compress, extract, put_along_axis,
// packbits/unpackbits, spacing): the values and shapes JAX 0.10.2 prints (pasted once, the
// expression beside each), jit against eager, derivatives against finite differences, errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::values;

namespace {

using D = std::vector<double>;

TEST(JnpMore, ValuesJaxPrints) {
  Array y = st::array(D{1, 2, 3, 2, 3, 2, 1}, {7}, st::f32);
  Array xs = st::array(D{0, 2, 5, 7, 10, 15, 20}, {7}, st::f32);
  Array M = st::power(st::reshape(st::arange(int64_t{20}, st::f32), {4, 5}), st::Array(1.5f)) / 7.0f;
  Array cs = st::array(D{0, 0.5, 1.5, 3.0, 4.5}, {5}, st::f32);
  Array nanv = st::array(D{1, NAN, 3, NAN, NAN, NAN, 2, -1, NAN}, {3, 3}, st::f32);
  Array p1 = st::array(D{2, 3}, {2}, st::f32), p2 = st::array(D{5, 4, 1}, {3}, st::f32);
  Array A = st::reshape(st::arange(int64_t{12}), {3, 4});
  std::vector<Array> choices = {st::array(std::vector<int32_t>{0, 1, 2, 3}, {4}), st::array(std::vector<int32_t>{10, 11, 12, 13}, {4}),
                                st::array(std::vector<int32_t>{20, 21, 22, 23}, {4})};
  Array cond = st::array(std::vector<bool>{true, false, true}, {3});
  Array bits = st::array(std::vector<int32_t>{1, 0, 1, 0, 1, 1}, {2, 3});
  std::vector<st::testing::JaxCase> cases = {
      {"jnp.logspace(0, 3, 7)", st::logspace(0, 3, 7), {1.0, 3.1622776985168457, 10.0, 31.62277603149414, 100.0, 316.2277526855469, 1000.0}, {7}},
      {"jnp.logspace(1, 2, 4, endpoint=False, base=2)", st::logspace(1, 2, 4, false, 2.0), {2.0, 2.3784141540527344, 2.8284270763397217, 3.3635857105255127}, {4}},
      {"jnp.geomspace(1, 1000, 4)", st::geomspace(1, 1000, 4), {1.0, 10.00000286102295, 100.00005340576172, 1000.0}, {4}},
      {"jnp.geomspace(-2, -32, 5)", st::geomspace(-2, -32, 5), {-2.0, -4.000000476837158, -8.0, -15.999998092651367, -31.999998092651367}, {5}},
      {"jnp.linspace(0, 1, 4, endpoint=False)", st::linspace(0, 1, 4, false), {0.0, 0.25, 0.5, 0.75}, {4}},
      {"jnp.tri(3, 4, k=-1)", st::tri(3, 4, -1), {0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0}, {3, 4}},
      {"jnp.bartlett(6)", st::bartlett(6), {0.0, 0.3999999761581421, 0.800000011920929, 0.800000011920929, 0.3999999761581421, 0.0}, {6}},
      {"jnp.blackman(6)", st::blackman(6), {-1.4901161193847656e-08, 0.20077012479305267, 0.8492299318313599, 0.8492297530174255, 0.2007700800895691, -1.4901161193847656e-08}, {6}},
      {"jnp.hamming(7)", st::hamming(7), {0.08000001311302185, 0.3100000321865082, 0.7700000405311584, 1.0, 0.7699999809265137, 0.30999985337257385, 0.08000001311302185}, {7}},
      {"jnp.hanning(7)", st::hanning(7), {0.0, 0.25, 0.75, 1.0, 0.7499999403953552, 0.24999982118606567, 0.0}, {7}},
      {"jnp.kaiser(8, 5.0)", st::kaiser(8, 5.0), {0.036710891872644424, 0.270694375038147, 0.651738166809082, 0.9552472829818726, 0.9552472829818726, 0.651738166809082, 0.270694375038147, 0.036710891872644424}, {8}},
      {"jnp.trapezoid(y)", st::trapezoid(y), {13.0}, {}},
      {"jnp.trapezoid(y, xs)", st::trapezoid(y, xs), {43.0}, {}},
      {"jnp.trapezoid(M, dx=0.5, axis=0)", st::trapezoid(M, std::nullopt, 0.5, 0), {5.13217830657959, 5.9771294593811035, 6.896435260772705, 7.87724494934082, 8.913766860961914}, {5}},
      {"jnp.trapezoid(M, cs)", st::trapezoid(M, cs), {2.5828232765197754, 13.022748947143555, 28.117860794067383, 46.68647003173828}, {4}},
      {"jnp.gradient(y)", st::gradient(y)[0], {1.0, 1.0, 0.0, 0.0, 0.0, -1.0, -1.0}, {7}},
      {"jnp.gradient(y, xs)", st::gradient(y, {xs})[0], {0.5, 0.4333333373069763, -0.1666666865348816, -0.16666670143604279, 0.13333337008953094, -0.20000001788139343, -0.20000000298023224}, {7}},
      {"jnp.gradient(M, 0.5, cs)[0]", st::gradient(M, {st::Array(0.5f), cs})[0], {3.194382905960083, 3.9134109020233154, 4.4833807945251465, 4.980361461639404, 5.428571701049805, 4.5175395011901855, 5.068982124328613, 5.534399032592773, 5.953716278076172, 6.340457916259766, 6.702059268951416, 7.043294906616211, 7.3675055503845215, 7.677159786224365, 7.974153995513916, 7.563422203063965, 7.86203670501709, 8.1495943069458, 8.427248001098633, 8.695963859558105}, {4, 5}},
      {"jnp.gradient(M, 0.5, cs)[1]", st::gradient(M, {st::Array(0.5f), cs})[1], {0.2857142984867096, 0.27754417061805725, 0.2469213902950287, 0.24626539647579193, 0.2670331597328186, 1.0047423839569092, 0.8518911600112915, 0.4841764271259308, 0.4037971794605255, 0.4164365231990814, 1.3885993957519531, 1.1679396629333496, 0.6379895210266113, 0.5149517059326172, 0.5248607397079468, 1.6872138977050781, 1.4149422645568848, 0.7612772583961487, 0.6060134172439575, 0.614432692527771}, {4, 5}},
      {"jnp.gradient(M, axis=1)", st::gradient(M, {}, 1)[0], {0.1428571492433548, 0.2020305097103119, 0.29972517490386963, 0.3693980872631073, 0.4005497097969055, 0.5023711919784546, 0.5242800116539001, 0.5664627552032471, 0.6056957244873047, 0.6246547698974609, 0.6942996978759766, 0.7104601860046387, 0.7420923709869385, 0.7724275588989258, 0.7872910499572754, 0.8436069488525391, 0.8570032119750977, 0.8833951950073242, 0.909019947052002, 0.9216489791870117}, {4, 5}},
      {"jnp.ediff1d(M[:2], to_begin=-1, to_end=jnp.array([7, 8]))", st::ediff1d(st::slice(M, {0, 0}, {2, 5}), st::array(D{7, 8}, {2}, st::f32), st::Array(-1.0f)), {-1.0, 0.1428571492433548, 0.2612038850784302, 0.3382464647293091, 0.4005497097969055, 0.4543342590332031, 0.5023711919784546, 0.5461888313293457, 0.5867366790771484, 0.6246547698974609, 7.0, 8.0}, {12}},
      {"jnp.cumulative_prod(cs[1:], include_initial=True)", st::cumulative_prod(st::slice(cs, {1}, {5}), std::nullopt, true), {1.0, 0.5, 0.75, 2.25, 10.125}, {5}},
      {"jnp.nancumsum(nanv, axis=1)", st::nancumsum(nanv, 1), {1.0, 1.0, 4.0, 0.0, 0.0, 0.0, 2.0, 1.0, 1.0}, {3, 3}},
      {"jnp.nancumprod(nanv)", st::nancumprod(nanv), {1.0, 1.0, 3.0, 3.0, 3.0, 3.0, 6.0, -6.0, -6.0}, {9}},
      {"jnp.nanargmax(nanv, axis=1)", st::nanargmax(nanv, 1), {2.0, -1.0, 0.0}, {3}},
      {"jnp.nanargmin(nanv, axis=0, keepdims=True)", st::nanargmin(nanv, 0, true), {0.0, 2.0, 0.0}, {1, 3}},
      {"jnp.nanargmax(nanv)", st::nanargmax(nanv), {2.0}, {}},
      {"jnp.polyadd(p1, p2)", st::polyadd(p1, p2), {5.0, 6.0, 4.0}, {3}},
      {"jnp.polysub(p1, p2)", st::polysub(p1, p2), {-5.0, -2.0, 2.0}, {3}},
      {"jnp.polyadd(jnp.array([[2, 3, 1]]), jnp.array([[5, 7, 3], [8, 2, 6]]))", st::polyadd(st::array(std::vector<int32_t>{2, 3, 1}, {1, 3}), st::array(std::vector<int32_t>{5, 7, 3, 8, 2, 6}, {2, 3})), {5.0, 7.0, 3.0, 10.0, 5.0, 7.0}, {2, 3}},
      {"jnp.polymul(jnp.array([2, 1, 0]), jnp.array([0, 5, 0, 3]))", st::polymul(st::array(std::vector<int32_t>{2, 1, 0}, {3}), st::array(std::vector<int32_t>{0, 5, 0, 3}, {4})), {0.0, 10.0, 5.0, 6.0, 3.0, 0.0}, {6}},
      {"jnp.polydiv([5, 7, 9], [4, 1])[0]", st::polydiv(st::array(D{5, 7, 9}, {3}, st::f32), st::array(D{4, 1}, {2}, st::f32)).first, {1.25, 1.4375}, {2}},
      {"jnp.polydiv([5, 7, 9], [4, 1])[1]", st::polydiv(st::array(D{5, 7, 9}, {3}, st::f32), st::array(D{4, 1}, {2}, st::f32)).second, {0.0, 0.0, 7.5625}, {3}},
      {"jnp.poly(jnp.array([1., 2., -3.]))", st::poly(st::array(D{1, 2, -3}, {3}, st::f32)), {1.0, 0.0, -7.0, 6.0}, {4}},
      {"jnp.array_split(jnp.arange(10), 3)[0]", st::array_split(st::arange(int64_t{10}), 3)[0], {0.0, 1.0, 2.0, 3.0}, {4}},
      {"jnp.array_split(jnp.arange(10), 3)[2]", st::array_split(st::arange(int64_t{10}), 3)[2], {7.0, 8.0, 9.0}, {3}},
      {"jnp.hsplit(A, 2)[1]", st::hsplit(A, 2)[1], {2.0, 3.0, 6.0, 7.0, 10.0, 11.0}, {3, 2}},
      {"jnp.unstack(A, axis=1)[2]", st::unstack(A, 1)[2], {2.0, 6.0, 10.0}, {3}},
      {"jnp.diagflat(jnp.array([[1, 2], [3, 4]]), k=1)", st::diagflat(st::array(std::vector<int32_t>{1, 2, 3, 4}, {2, 2}), 1), {0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0}, {5, 5}},
      {"jnp.fill_diagonal(A, jnp.array([7, 8]), inplace=False)", st::fill_diagonal(A, st::array(std::vector<int32_t>{7, 8}, {2})), {7.0, 1.0, 2.0, 3.0, 4.0, 8.0, 6.0, 7.0, 8.0, 9.0, 7.0, 11.0}, {3, 4}},
      {"jnp.fill_diagonal(jnp.zeros((3, 3, 3)), 5, inplace=False)", st::fill_diagonal(st::zeros({3, 3, 3}), st::Array(5)), {5.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 5.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 5.0}, {3, 3, 3}},
      {"jnp.trim_zeros(jnp.array([0, 0, 1, 0, 2, 0]))", st::trim_zeros(st::array(std::vector<int32_t>{0, 0, 1, 0, 2, 0}, {6})), {1.0, 0.0, 2.0}, {3}},
      {"jnp.trim_zeros(jnp.array([0, 0, 1, 0, 2, 0]), 'b')", st::trim_zeros(st::array(std::vector<int32_t>{0, 0, 1, 0, 2, 0}, {6}), "b"), {0.0, 0.0, 1.0, 0.0, 2.0}, {5}},
      {"jnp.matvec(A, jnp.array([1, 0, 2, -1]))", st::matvec(A, st::array(std::vector<int32_t>{1, 0, 2, -1}, {4})), {1.0, 9.0, 17.0}, {3}},
      {"jnp.vecmat(jnp.array([1, 0, 2]), A)", st::vecmat(st::array(std::vector<int32_t>{1, 0, 2}, {3}), A), {16.0, 19.0, 22.0, 25.0}, {4}},
      {"jnp.choose(jnp.array([2, 0, 1, 0]), choices)", st::choose(st::array(std::vector<int32_t>{2, 0, 1, 0}, {4}), choices), {20.0, 1.0, 12.0, 3.0}, {4}},
      {"jnp.choose(jnp.array([5, -1, 1, 0]), choices, mode='wrap')", st::choose(st::array(std::vector<int32_t>{5, -1, 1, 0}, {4}), choices, "wrap"), {20.0, 21.0, 12.0, 3.0}, {4}},
      {"jnp.choose(jnp.array([5, -1, 1, 0]), choices, mode='clip')", st::choose(st::array(std::vector<int32_t>{5, -1, 1, 0}, {4}), choices, "clip"), {20.0, 1.0, 12.0, 3.0}, {4}},
      {"jnp.compress(cond, A, axis=0)", st::compress(cond, A, 0), {0.0, 1.0, 2.0, 3.0, 8.0, 9.0, 10.0, 11.0}, {2, 4}},
      {"jnp.compress(jnp.array([0, 1, 1, 0]), A, axis=1, size=3, fill_value=-1)", st::compress(st::array(std::vector<int32_t>{0, 1, 1, 0}, {4}), A, 1, 3, st::Array(-1)), {1.0, 2.0, -1.0, 5.0, 6.0, -1.0, 9.0, 10.0, -1.0}, {3, 3}},
      {"jnp.extract(A % 3 == 0, A)", st::extract(A % 3 == 0, A), {0.0, 3.0, 6.0, 9.0}, {4}},
      {"jnp.put_along_axis(A, jnp.array([[1], [3], [0]]), 99, axis=1, inplace=False)", st::put_along_axis(A, st::array(std::vector<int32_t>{1, 3, 0}, {3, 1}), st::Array(99), 1), {0.0, 99.0, 2.0, 3.0, 4.0, 5.0, 6.0, 99.0, 99.0, 9.0, 10.0, 11.0}, {3, 4}},
      {"jnp.put_along_axis(A, jnp.array([[0, -1, 2, 1]]), jnp.array([[5, 6, 7, 8]]), axis=0, inplace=False)", st::put_along_axis(A, st::array(std::vector<int32_t>{0, -1, 2, 1}, {1, 4}), st::array(std::vector<int32_t>{5, 6, 7, 8}, {1, 4}), 0), {5.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 8.0, 6.0, 7.0, 11.0}, {3, 4}},
      {"jnp.packbits(bits)", st::packbits(bits), {172.0}, {1}},
      {"jnp.packbits(bits, axis=1, bitorder='little')", st::packbits(bits, 1, "little"), {5.0, 6.0}, {2, 1}},
      {"jnp.unpackbits(jnp.array([[2], [7], [23]], jnp.uint8), axis=1)", st::unpackbits(st::array(std::vector<uint8_t>{2, 7, 23}, {3, 1}), 1), {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0}, {3, 8}},
      {"jnp.unpackbits(jnp.array([5, 255], jnp.uint8), count=11, bitorder='little')", st::unpackbits(st::array(std::vector<uint8_t>{5, 255}, {2}), std::nullopt, 11, "little"), {1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0}, {11}},
      {"jnp.spacing(jnp.array([0., 0.25, 1., -3., 1e30]))", st::spacing(st::array(D{0, 0.25, 1, -3, 1e30}, {5}, st::f32)), {1.401298464324817e-45, 2.9802322387695312e-08, 1.1920928955078125e-07, -2.384185791015625e-07, 7.555786372591432e+22}, {5}},
  };
  // f32 results of a few ops, or computed in f64 and rounded once where JAX rounds each step
  // in f32 (logspace, the windows): within 2e-6 relative; the windows' zeros (blackman's ends
  // are -1.5e-8 in JAX's f32 cosines, ~1e-17 here) within 1e-7.
  st::testing::expect_jax_cases(cases, [](const st::testing::JaxCase& c, double w) {
    std::string e = c.expr;
    bool window = e.starts_with("jnp.blackman") || e.starts_with("jnp.hanning") || e.starts_with("jnp.hamming") ||
                  e.starts_with("jnp.kaiser");
    return 2e-6 * std::max(std::fabs(w), 1e-6) + (window ? 1e-7 : 0);
  });
}

TEST(JnpMore, DtypesAsJax) {
  // polymul promotes to floats; trapezoid and gradient too; packbits gives u8; nanargmax i32.
  EXPECT_EQ(st::polymul(st::array(std::vector<int32_t>{2, 1}, {2}), st::array(std::vector<int32_t>{1}, {1})).dtype(), st::f32);
  EXPECT_EQ(st::trapezoid(st::array(std::vector<int32_t>{1, 2, 3}, {3})).dtype(), st::f32);
  EXPECT_EQ(st::gradient(st::array(std::vector<int32_t>{1, 2, 4}, {3}))[0].dtype(), st::f32);
  EXPECT_EQ(st::packbits(st::ones({3}, st::i32)).dtype(), st::u8);
  EXPECT_EQ(st::nanargmax(st::ones({3}, st::f32)).dtype(), st::i32);
  EXPECT_EQ(st::logspace(0, 1, 3, true, 10.0, st::f64).dtype(), st::f64);
  EXPECT_EQ(st::full_like(st::ones({2, 3}, st::i16), 7).dtype(), st::i16);
  EXPECT_EQ(values(st::full_like(st::ones({2}, st::i16), 7, st::f32, st::Shape{3})), (D{7, 7, 7}));
  EXPECT_EQ(st::tri(2).dtype(), st::f32);
  EXPECT_EQ(values(st::bartlett(1)), (D{1}));
  EXPECT_EQ(st::hanning(0).shape(), (st::Shape{0}));
  // kaiser at a large beta: no overflow (I0(1000) is ~1e432).
  D k = values(st::kaiser(5, 1000.0, st::f64));
  EXPECT_EQ(k[2], 1.0);
  EXPECT_GT(k[1], 0.0);
  EXPECT_LT(k[1], 1e-50);
}

TEST(JnpMore, RootsAndPolynomials) {
  // (x - 1)(x - 2)(x - 3): the roots in some order, complex.
  Array r = st::roots(st::array(D{1, -6, 11, -6}, {4}, st::f64));
  EXPECT_EQ(r.dtype(), st::c128);
  D re = values(st::real(r));
  std::sort(re.begin(), re.end());
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(re[static_cast<size_t>(i)], i + 1, 1e-10);
  for (double im : values(st::imag(r))) EXPECT_NEAR(im, 0, 1e-10);
  // Leading zeros: stripped; or (traceable) NaN roots, sorted last.
  EXPECT_EQ(st::roots(st::array(D{0, 0, 1, -3, 2}, {5}, st::f32)).shape(), (st::Shape{2}));
  auto traced = st::jit([](const Array& p) { return st::roots(p, false); });
  Array rn = traced(st::array(D{0, 0, 1, -3, 2}, {5}, st::f32));
  EXPECT_EQ(rn.shape(), (st::Shape{4}));
  D rr = values(st::real(rn));
  std::sort(rr.begin(), rr.begin() + 2);
  EXPECT_NEAR(rr[0], 1, 1e-5);
  EXPECT_NEAR(rr[1], 2, 1e-5);
  EXPECT_TRUE(std::isnan(rr[2]) && std::isnan(rr[3]));
  EXPECT_THROW(st::jit([](const Array& p) { return st::roots(p); })(st::ones({3})), st::ConcretizationError);
  EXPECT_EQ(st::roots(st::array(D{3}, {1}, st::f32)).shape(), (st::Shape{0}));
  // poly(roots(p)) is p / p[0]; polydiv undoes polymul.
  Array p = st::array(D{2, -3, 0.5, 4}, {4}, st::f64);
  D back = values(st::real(st::poly(st::roots(p))));
  D want = {1, -1.5, 0.25, 2};
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(back[i], want[i], 1e-12);
  Array q = st::array(D{1, 2}, {2}, st::f64);
  auto [quot, rem] = st::polydiv(st::polymul(p, q), q);
  D qv = values(quot), pv = values(p);
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(qv[i], pv[i], 1e-12);
  for (double v : values(rem)) EXPECT_NEAR(v, 0, 1e-12);
}

TEST(JnpMore, JitMatchesEager) {
  Array M = st::random::normal(st::random::key(9), {5, 6});
  Array xs = st::cumsum(st::random::uniform(st::random::key(10), {6}, st::f32, 0.1f, 1.0f));
  auto f = [](const Array& m, const Array& x) {
    std::vector<Array> g = st::gradient(m, {st::Array(0.5f), x});
    return std::make_tuple(st::trapezoid(m, x), g[0], g[1], st::nancumsum(m, 1), st::nanargmin(m, 0), st::ediff1d(m),
                           st::cumulative_prod(m, 1, true), st::polymul(st::ravel(m), x), st::unstack(m)[2],
                           st::fill_diagonal(m, st::Array(3.0f)), st::matvec(m, x), st::spacing(m),
                           st::put_along_axis(m, st::argmax(m, 1, true), st::Array(-9.0f), 1),
                           st::compress(st::array(std::vector<bool>{true, false, true, true, false}, {5}), m, 0, 2, st::Array(0.0f)));
  };
  auto e = f(M, xs);
  auto j = st::jit(f)(M, xs);
  std::apply([&](const auto&... je) {
    std::apply([&](const auto&... ee) {
      int i = 0;
      ([&] {
        SCOPED_TRACE(i++);
        D a = values(je), b = values(ee);
        ASSERT_EQ(a.size(), b.size());
        for (size_t k = 0; k < a.size(); ++k) EXPECT_NEAR(a[k], b[k], 1e-5 * (1 + std::fabs(b[k])));
      }(), ...);
    }, e);
  }, j);
  // The polydiv loop and packbits trace too.
  auto pd = st::jit([](const Array& u, const Array& v) { return st::polydiv(u, v); });
  auto [q, r] = pd(st::array(D{5, 7, 9}, {3}, st::f32), st::array(D{4, 1}, {2}, st::f32));
  EXPECT_NEAR(values(r)[2], 7.5625, 1e-6);
  Array b = st::random::bernoulli(st::random::key(3), st::Array(0.5), st::Shape{4, 13});
  EXPECT_EQ(values(st::jit([](const Array& x) { return st::packbits(x, 1); })(b)), values(st::packbits(b, 1)));
  // unpackbits(packbits(b)) gives b back (padded to whole bytes, then cut by count).
  EXPECT_EQ(values(st::unpackbits(st::packbits(b, 1), 1, 13)), values(st::astype(b, st::u8)));
}

TEST(JnpMore, DerivativesAgainstFiniteDifferences) {
  using V = std::vector<Array>;
  Array m = st::random::normal(st::random::key(20), {4, 5}, st::f64);
  Array x = st::cumsum(st::random::uniform(st::random::key(21), {5}, st::f64, 0.2, 1.0));
  st::testing::check_grads([](const V& v) { return st::trapezoid(v[0], v[1]); }, {m, x}, "trapezoid");
  st::testing::check_grads([](const V& v) { return st::gradient(v[0], {v[1]}, 1)[0]; }, {m, x}, "gradient");
  st::testing::check_grads([](const V& v) { return st::polymul(st::ravel(v[0]), v[1]); }, {m, x}, "polymul");
  st::testing::check_grads([](const V& v) { return st::polydiv(st::ravel(v[0]), v[1]).second; }, {m, x}, "polydiv");
  st::testing::check_grads([](const V& v) { return st::cumulative_prod(v[0], 1, true); }, {m}, "cumulative_prod");
  st::testing::check_grads([](const V& v) { return st::fill_diagonal(v[0], st::sum(v[1])); }, {m, x}, "fill_diagonal");
  st::testing::check_grads([](const V& v) { return st::matvec(v[0], v[1]); }, {m, x}, "matvec");
}

TEST(JnpMore, Errors) {
  Array A = st::reshape(st::arange(int64_t{12}), {3, 4});
  EXPECT_THROW(st::geomspace(0, 10, 3), st::ValueError);
  EXPECT_THROW(st::geomspace(-1, 10, 3), st::ValueError);
  EXPECT_THROW(st::hamming(4, st::i32), st::DTypeError);
  EXPECT_THROW(st::gradient(st::ones({1, 4})), st::ValueError);
  EXPECT_THROW(st::gradient(st::ones({3}), {st::ones({4})}), st::ShapeError);
  EXPECT_THROW(st::trapezoid(st::ones({3}), st::ones({4})), st::ShapeError);
  EXPECT_THROW(st::choose(A, {A, A}), st::ValueError);  // raise: 11 is out of range
  EXPECT_THROW(st::choose(st::ones({2}), {A}), st::DTypeError);
  EXPECT_THROW(st::jit([](const Array& a) { return st::choose(a, {a}); })(st::zeros({2}, st::i32)), st::ConcretizationError);
  EXPECT_THROW(st::compress(st::ones({2, 2}), A), st::ValueError);
  EXPECT_THROW(st::jit([](const Array& c, const Array& a) { return st::compress(c, a); })(st::ones({3}, st::bool_), A),
               st::ConcretizationError);
  EXPECT_THROW(st::trim_zeros(A), st::ValueError);
  EXPECT_THROW(st::unpackbits(A), st::DTypeError);
  EXPECT_THROW(st::packbits(st::ones({3})), st::DTypeError);
  EXPECT_THROW(st::vsplit(st::ones({4}), 2), st::ValueError);
  EXPECT_THROW(st::array_split(A, 0), st::ValueError);
  EXPECT_THROW(st::fill_diagonal(st::ones({3}), st::Array(1.0f)), st::ValueError);
  EXPECT_THROW(st::spacing(st::complex(st::ones({2}), st::ones({2}))), st::DTypeError);
  EXPECT_THROW(st::polydiv(st::ones({2, 2}), st::ones({2})), st::ValueError);
  // array_split tolerates uneven parts; trim_zeros of all zeros is empty.
  EXPECT_EQ(st::array_split(st::arange(int64_t{5}), 3).size(), 3u);
  EXPECT_EQ(st::trim_zeros(st::zeros({4}, st::i32)).shape(), (st::Shape{0}));
}

}  // namespace
