// erfcx, dawsn, bessel_jn and bernoulli of st::special against the values JAX 0.10.2 prints
// (jax_enable_x64; pasted once, the expression beside each), f32, jit, derivatives.
#include <gtest/gtest.h>

#include <cmath>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
namespace sp = strata::special;
using st::Array;
using st::testing::values;

namespace {

using D = std::vector<double>;

// The label names the check in failures.
void expect_close_(const Array& got, const D& want, double rtol, const char* what) {
  SCOPED_TRACE(what);
  st::testing::expect_relative(got, want, rtol, 1e-300);
}

Array f64(const D& v) { return st::array(v, {static_cast<int64_t>(v.size())}, st::f64); }


const D kX = {-30., -3.0, -0.5, 0.0, 0.4, 1.0, 2.5, 5.0, 9.0, 26.0, 27.0, 1e3, 1e10};

TEST(SpecialErrorFunctions, AsJax) {
  // jax.scipy.special.erfcx(x), x64 and float32
  expect_close_(sp::erfcx(f64(kX)), {INFINITY, 16205.988853999588, 1.952360489182557, 1.0, 0.6707877852947616, 0.42758357615580705, 0.21080636406114356, 0.11070463773306867, 0.06230772403777471, 0.021683584850562918, 0.020881607990420943, 0.0005641893014533876, 5.641895835477563e-11}, 1e-13, "erfcx");
  expect_close_(sp::erfcx(st::array(kX, {13}, st::f32)), {INFINITY, 16205.9892578125, 1.9523603916168213, 1.0, 0.6707878112792969, 0.42758363485336304, 0.21080636978149414, 0.11070463806390762, 0.062307726591825485, 0.02168358489871025, 0.02088160812854767, 0.0005641893367283046, 5.6418956312365154e-11}, 3e-6, "erfcx f32");
  EXPECT_EQ(sp::erfcx(st::array(kX, {13}, st::bf16)).dtype(), st::bf16);
  // jax.scipy.special.dawsn([-7, -3.3, -1, 0, 0.2, 1.5, 3.24, 3.26, 5, 6.3, 20, 1e5])
  expect_close_(sp::dawsn(f64({-7.0, -3.3, -1.0, 0.0, 0.2, 1.5, 3.24, 3.26, 5.0, 6.3, 20.0, 1e5})), {-0.0721809746582363, -0.159788580474495, -0.5380795069127684, 0.0, 0.1947510333680281, 0.42824907108539856, 0.16314020731050508, 0.16200596982667712, 0.10213407442427683, 0.08040529489538834, 0.02503136792640367, 5.0000000002500005e-06}, 1e-14, "dawsn");
  // jax.scipy.special.bessel_jn([0.3, 1, 2.5, 7, 15], v=3): [4, 5], orders first
  Array jn = sp::bessel_jn(f64({0.3, 1.0, 2.5, 7.0, 15.0}), 3);
  EXPECT_EQ(jn.shape(), (st::Shape{4, 5}));
  expect_close_(jn, {0.9776262465382962, 0.7651976865579666, -0.04838377646819793, 0.3000792705195556, -0.014224472826780792, 0.14831881627310403, 0.44005058574493355, 0.49709410246427405, -0.004682823482345829, 0.20510403861352275, 0.011165861949063965, 0.11490348493190049, 0.4460590584396172, -0.30141722008594013, 0.04157167797525049, 0.0005593430477488461, 0.019563353982668407, 0.2166003910391135, -0.16755558799533424, -0.1940182578201226}, 1e-12, "bessel_jn");
  // jax.scipy.special.bernoulli(12) (JAX's B_4 is -0.0333332487, 3e-6 off; these are exact)
  expect_close_(sp::bernoulli(12, st::f64), {1, -0.5, 1.0 / 6, 0, -1.0 / 30, 0, 1.0 / 42, 0, -1.0 / 30, 0, 5.0 / 66, 0, -691.0 / 2730}, 1e-14, "bernoulli");
  EXPECT_EQ(sp::bernoulli(1).shape(), (st::Shape{2}));
  EXPECT_THROW(sp::bernoulli(-1), st::ValueError);
  EXPECT_THROW(sp::bessel_jn(f64({1.0}), 5, 3), st::ValueError);
}

TEST(SpecialErrorFunctions, JitAndDerivatives) {
  Array x = f64({-2.0, -0.3, 0.7, 4.0, 8.0, 30.0});
  auto f = [](const Array& v) { return std::make_tuple(sp::erfcx(v), sp::dawsn(v), sp::bessel_jn(v, 2)); };
  auto e = f(x);
  auto j = st::jit(f)(x);
  expect_close_(std::get<0>(j), values(std::get<0>(e)), 1e-14, "jit erfcx");
  expect_close_(std::get<1>(j), values(std::get<1>(e)), 1e-14, "jit dawsn");
  expect_close_(std::get<2>(j), values(std::get<2>(e)), 1e-12, "jit bessel_jn");
  // jax.vmap(jax.grad(erfcx))([-1, 0.5, 30])
  expect_close_(st::vmap(st::grad([](const Array& v) { return sp::erfcx(v); }))(f64({-1.0, 0.5, 30.0})), {-11.146339328620082, -0.5126888229025867, -0.0006258354105073138}, 1e-12,
               "grad erfcx");
  using V = std::vector<Array>;
  st::testing::check_grads([](const V& v) { return sp::erfcx(v[0]); }, {x}, "erfcx");
  st::testing::check_grads([](const V& v) { return sp::dawsn(v[0]); }, {x}, "dawsn");
  st::testing::check_grads([](const V& v) { return sp::bessel_jn(v[0], 3); }, {f64({0.5, 1.5, 3.0})}, "bessel_jn");
}

TEST(SpecialErrorFunctions, OwensTAsJax) {
  // jax.scipy.special.owens_t(h, a), x64
  Array h = f64({0.0, 0.3, -1.0, 2.0, 0.5, 1.2, 0.1, 3.0, NAN}), a = f64({0.5, 1.0, 0.7, -0.4, 3.0, 2.5, 10.0, 0.2, 1.0});
  D got = values(sp::owens_t(h, a)), want = {0.07379180882521663, 0.11804844825868928, 0.054931848700563626, -0.007429697704021654, 0.15108404307601844, 0.05750875652918847, 0.22679969643349898, 0.00032935196937246535, NAN};
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::isnan(want[i])) EXPECT_TRUE(std::isnan(got[i])) << i;
    else EXPECT_NEAR(got[i], want[i], 1e-14) << i;
  }
  // jax.vmap(jax.grad(owens_t, 0 / 1))(h[:8], a[:8])
  Array h8 = st::slice(h, {0}, {8}), a8 = st::slice(a, {0}, {8});
  auto dh = st::vmap(st::grad([](const Array& x, const Array& y) { return sp::owens_t(x, y); }))(h8, a8);
  auto da = st::vmap(st::grad([](const Array& x, const Array& y) { return sp::owens_t(x, y); }, st::argnums<1>))(h8, a8);
  expect_close_(dh, {-0.0, -0.04496997972648821, 0.062437242023856664, 0.015557205526039751, -0.15251216423722092, -0.09683089611821463, -0.1354976665198018, -0.001000475961599293}, 1e-13, "dT/dh");
  expect_close_(da, {0.12732395447351627, 0.0727283328908754, 0.050708933215239956, 0.013483385279567809, 0.004559865463983859, 0.00011870388405487712, 0.000950998965472596, 0.001420000891485284}, 1e-13, "dT/da");
  using V = std::vector<Array>;
  st::testing::check_grads([](const V& v) { return sp::owens_t(v[0], v[1]); }, {f64({0.3, 1.5, -0.8}), f64({0.6, 2.0, -1.7})}, "owens_t");
  expect_close_(st::jit([](const Array& x, const Array& y) { return sp::owens_t(x, y); })(h8, a8), values(sp::owens_t(h8, a8)), 1e-14,
               "jit owens_t");
}

TEST(SpecialErrorFunctions, WofzAsJax) {
  // jax.scipy.special.wofz / erfcx of [0.5+0.3j, -1.2+0.1j, 2-1.5j, 0, -3-0.2j, 10+5j] (x64;
  // scipy's wofz agrees to ~1e-13)
  Array z = st::complex(f64({0.5, -1.2, 2.0, 0.0, -3.0, 10.0}), f64({0.3, 0.1, -1.5, 0.0, -0.2, 5.0}));
  Array w = sp::wofz(z);
  EXPECT_EQ(w.dtype(), st::c128);
  expect_close_(st::real(w), {0.6148515391469915, 0.2573742112967448, 0.18328971531931704, 1.0000000000000304, -0.015533683463406533, 0.02276794835982029}, 1e-13, "Re w");
  expect_close_(st::imag(w), {0.3031243496473513, -0.5182826412596924, 0.07326087679608077, 0.0, -0.19990799707651447, 0.04516957942734107}, 1e-13, "Im w");
  Array e = sp::erfcx(z);
  expect_close_(st::real(e), {0.5843329734596312, 7.740465267983407, 0.18333476238114998, 1.0000000000000304, 5641.99092785919, 0.04509745948893327}, 1e-12, "Re erfcx");
  expect_close_(st::imag(e), {-0.14796481889063864, -2.0085097278687454, 0.11929823300627296, 0.0, 14512.525744675566, -0.022370769035781085}, 1e-12, "Im erfcx");
  // Real inputs become complex (c64 from f32, as JAX's promote_args_complex).
  EXPECT_EQ(sp::wofz(st::ones({2}, st::f32)).dtype(), st::c64);
  // w'(z) = -2z w + 2i/√π: the JVP along 1 against a central difference.
  Array z0 = st::complex(f64({0.4, -2.0}), f64({0.7, -0.3}));
  auto [y, dy] = st::jvp([](const Array& v) { return sp::wofz(v); }, std::make_tuple(z0),
                         std::make_tuple(st::complex(f64({1.0, 1.0}), f64({0.0, 0.0}))));
  const double h = 1e-6;
  Array fd = (sp::wofz(z0 + std::complex<double>(h, 0)) - sp::wofz(z0 - std::complex<double>(h, 0))) / std::complex<double>(2 * h, 0);
  expect_close_(st::real(dy), values(st::real(fd)), 1e-8, "Re w'");
  expect_close_(st::imag(dy), values(st::imag(fd)), 1e-8, "Im w'");
  Array j = st::jit([](const Array& v) { return sp::wofz(v); })(z);
  expect_close_(st::real(j), values(st::real(w)), 1e-14, "jit");
}

}  // namespace
