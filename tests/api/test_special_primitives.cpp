// The special-function primitives of jax.lax: igamma, igammac, igamma_grad_a,
// random_gamma_grad, bessel_i0e, bessel_i1e, zeta, polygamma. Values against JAX 0.10 (x64 for
// f64; f32 against the f64 values), edge values (domain errors, 0, inf, kNan), jit against
// eager (the per-element loops compiled), derivatives against finite differences and the
// identities between them.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::expect_elements;

namespace {

Array vec(const std::vector<double>& v, st::DType t = st::f64) { return st::astype(st::testing::array1d(v), t); }

constexpr double kNan = NAN, inf = INFINITY;

// f at (a, x) in f64 within 1e-12 of want, in f32 within f32_rtol; jit equals eager.
template <class F>
void expect_binary(F f, const std::vector<double>& a, const std::vector<double>& x, const std::vector<double>& want,
                   double f32_rtol = 3e-6) {
  SCOPED_TRACE("f64");
  expect_elements(f(vec(a), vec(x)), want, 1e-12);
  {
    SCOPED_TRACE("f32");
    Array r = f(vec(a, st::f32), vec(x, st::f32));
    EXPECT_EQ(r.dtype(), st::f32);
    expect_elements(r, want, f32_rtol);
  }
  for (st::DType t : {st::f64, st::f32}) {
    SCOPED_TRACE(std::string("jit ") + std::string(st::short_name(t)));
    Array e = f(vec(a, t), vec(x, t));
    Array j = st::jit([&](const Array& p, const Array& q) { return f(p, q); })(vec(a, t), vec(x, t));
    expect_elements(j, st::testing::values(e), t == st::f64 ? 1e-13 : 2e-6);
  }
}

}  // namespace

TEST(SpecialPrimitives, IncompleteGammaAsJax) {
  const std::vector<double> a = {0.5, 1.0, 2.5, 10.0, 0.1, 30.0, 100.0, 3.0, 0.0, 1.0, -1.0, 2.0};
  const std::vector<double> x = {0.3, 1.0, 4.0, 9.5, 0.01, 25.0, 120.0, 0.0, 1.0, inf, 1.0, -1.0};
  expect_binary([](const Array& p, const Array& q) { return st::igamma(p, q); }, a, x,
                {0.561421973919, 0.6321205588285577, 0.8437643724222776, 0.47817397776279147, 0.6626212599544796,
                 0.18210391597745862, 0.97213626010948, 0.0, 1.0, 1.0, kNan, kNan});
  expect_binary([](const Array& p, const Array& q) { return st::igammac(p, q); }, a, x,
                {0.43857802608100005, 0.3678794411714423, 0.1562356275777223, 0.5218260222372085, 0.3373787400455204,
                 0.8178960840225413, 0.027863739890520094, 1.0, 0.0, 0.0, kNan, kNan});
  expect_binary([](const Array& p, const Array& q) { return st::igamma_grad_a(p, q); }, a, x,
                {-0.770570351375352, -0.43172971063489896, -0.14765686908718936, -0.12882764167930755,
                 -2.7761608124254216, -0.04995487742583563, -0.0062131859291405505, 0.0, kNan, kNan, kNan, kNan},
                2e-5);
  expect_binary([](const Array& p, const Array& q) { return st::random_gamma_grad(p, q); }, a, x,
                {1.0098019459488552, 1.1735630272247275, 1.3396081953658652, 0.9909624995346924, 0.4227934381297027,
                 0.9166815997356533, 1.095752510707012, 0.0, kNan, kNan, kNan, kNan},
                2e-5);
  // Large a: thousands of series terms per element, each element its own count.
  Array big = st::igamma(vec({1e5, 1e5, 1e5}), vec({99000, 1e5, 101000}));
  expect_elements(big, {0.0007574199210186939, 0.5004205220662398, 0.9991915784870834}, 1e-9);  // as scipy's
  // bf16 and f16 compute in f32 and round once.
  Array h = st::igamma(vec({2.5}, st::bf16), vec({4.0}, st::bf16));
  EXPECT_EQ(h.dtype(), st::bf16);
  EXPECT_NEAR(h.item<double>(), 0.84376437, 4e-3);
  // Integer operands are promoted as jnp does.
  EXPECT_EQ(st::igamma(st::Array(2), st::Array(3)).dtype(), st::f32);
}

TEST(SpecialPrimitives, IncompleteGammaDerivatives) {
  using V = std::vector<Array>;
  Array a = vec({0.7, 2.5, 12.0, 4.0}), x = vec({0.4, 4.0, 9.0, 30.0});
  st::testing::check_grads([](const V& v) { return st::igamma(v[0], v[1]); }, {a, x}, "igamma");
  st::testing::check_grads([](const V& v) { return st::igammac(v[0], v[1]); }, {a, x}, "igammac");
  // The sample derivative is -(∂P/∂a)/(∂P/∂x).
  auto [da, dx] = st::grad([](const Array& p, const Array& q) { return st::sum(st::igamma(p, q)); },
                           st::argnums<0, 1>)(a, x);
  expect_elements(st::random_gamma_grad(a, x), st::testing::values(-da / dx), 1e-12);
  // Not differentiable themselves (as JAX): a clear error.
  try {
    st::grad([](const Array& p) { return st::sum(st::igamma_grad_a(p, Array(2.0))); })(a);
    FAIL() << "expected an error";
  } catch (const st::Error& e) {
    st::testing::expect_contains(e.what(), "igamma_grad_a: is not differentiable");
  }
}

TEST(SpecialPrimitives, BesselAsJax) {
  const std::vector<double> x = {0.0, -0.0, 0.5, -1.5, 3.0, 7.9, 8.0, 8.5, -20.0, 100.0, inf, -inf, kNan};
  const std::vector<double> i0e = {1.0, 1.0, 0.6450352704491501, 0.36743360905415834, 0.24300035416182536,
                                   0.14436986414104191, 0.1434317818568503, 0.13900184305484756,
                                   0.08978031188482602, 0.03994437929909668, 0.0, 0.0, kNan};
  const std::vector<double> i1e = {0.0, -0.0, 0.15642080318487173, -0.21903938742092566, 0.19682671329730084,
                                   0.13489649943989376, 0.13414249329269812, 0.13054935509459584,
                                   -0.08750622218328868, 0.03974415302513025, 0.0, -0.0, kNan};
  for (st::DType t : {st::f64, st::f32}) {
    SCOPED_TRACE(st::short_name(t));
    double tol = t == st::f64 ? 1e-14 : 2e-7;
    expect_elements(st::bessel_i0e(vec(x, t)), i0e, tol);
    expect_elements(st::bessel_i1e(vec(x, t)), i1e, tol);
    expect_elements(st::jit([](const Array& v) { return st::bessel_i0e(v); })(vec(x, t)), i0e, tol);
    expect_elements(st::jit([](const Array& v) { return st::bessel_i1e(v); })(vec(x, t)), i1e, tol);
  }
  // i1e is odd down to the sign of zero.
  EXPECT_TRUE(std::signbit(st::bessel_i1e(Array(-0.0)).item<double>()));
  using V = std::vector<Array>;
  Array p = vec({-9.0, -1.3, 0.2, 2.0, 8.5});
  st::testing::check_grads([](const V& v) { return st::bessel_i0e(v[0]); }, {p}, "bessel_i0e");
  st::testing::check_grads([](const V& v) { return st::bessel_i1e(v[0]); }, {p}, "bessel_i1e");
  // At 0 the derivative of i1e is 1/2 (JAX's guard against 0·inf).
  EXPECT_NEAR(st::grad([](const Array& v) { return st::bessel_i1e(v); })(Array(0.0)).item<double>(), 0.5, 1e-15);
  EXPECT_NEAR(st::grad([](const Array& v) { return st::bessel_i0e(v); })(Array(1.3)).item<double>(),
              -0.1831273248889311, 1e-12);  // jax.grad(lax.bessel_i0e)(1.3)
  EXPECT_NEAR(st::grad([](const Array& v) { return st::bessel_i1e(v); })(Array(1.3)).item<double>(),
              0.01597533423517633, 1e-12);
}

TEST(SpecialPrimitives, ZetaAndPolygammaAsJax) {
  expect_binary([](const Array& p, const Array& q) { return st::zeta(p, q); },
                {2.0, 3.0, 1.5, 10.0, 1.0, 0.5, 2.0, 2.0, 3.0, 4.0, 2.0},
                {1.0, 2.5, 0.3, 1.0, 2.0, 1.0, 0.0, -1.5, -2.0, -2.0, 1e6},
                {1.6449340668482264, 0.11810202582086368, 8.237761671459724, 1.0009945751278182, inf, kNan, inf,
                 9.379246644989122, kNan, inf, 1.000000500000167e-06});
  expect_binary([](const Array& p, const Array& q) { return st::polygamma(p, q); },
                {0.0, 1.0, 2.0, 3.0, 1.0, 4.0, 1.5, -1.0, 1.0, 2.0, 5.0},
                {0.5, 1.0, 2.5, 0.1, 30.0, 3.0, 1.0, 1.0, -1.0, -2.5, 10.0},
                {-1.9635100260214255, 1.6449340668482264, -0.2362040516417271, 60004.51287679031,
                 0.033895060357739946, -0.13626612344087832, kNan, kNan, inf, -0.10820405164172803,
                 0.0003059451621172684},
                1e-5);
  using V = std::vector<Array>;
  // ∂ζ/∂q = -x ζ(x+1, q); ∂ψ⁽ⁿ⁾/∂x = ψ⁽ⁿ⁺¹⁾ (against finite differences, q and x only).
  Array xs = vec({2.0, 3.5, 6.0}), qs = vec({0.7, 2.5, 10.0});
  st::testing::check_grads([xs](const V& v) { return st::zeta(xs, v[0]); }, {qs}, "zeta in q");
  Array ns = vec({0.0, 1.0, 3.0});
  st::testing::check_grads([ns](const V& v) { return st::polygamma(ns, v[0]); }, {qs}, "polygamma in x");
  // The derivative of zeta in x is not implemented: kNan, never a silent zero.
  EXPECT_TRUE(std::isnan(st::grad([](const Array& s) { return st::zeta(s, Array(2.0)); })(Array(3.0)).item<double>()));
  // polygamma(0, x) is digamma, polygamma(1, x) trigamma (digamma's derivative).
  Array p = vec({0.3, 1.7, 25.0});
  expect_elements(st::polygamma(Array(0.0), p), st::testing::values(st::digamma(p)), 1e-15);
  expect_elements(st::polygamma(Array(1.0), p),
                  st::testing::values(st::vmap([](const Array& v) { return st::grad([](const Array& w) { return st::digamma(w); })(v); })(p)),
                  1e-11);
}

TEST(SpecialPrimitives, VmapAndErrors) {
  Array a = vec({0.5, 2.0, 9.0}), x = st::reshape(vec({0.1, 1.0, 3.0, 7.0, 12.0, 40.0}), {2, 3});
  Array batched = st::vmap([&](const Array& row) { return st::igamma(a, row); })(x);
  expect_elements(st::reshape(batched, {6}), st::testing::values(st::reshape(st::igamma(st::broadcast_to(a, {2, 3}), x), {6})), 0);
  try {
    st::igamma(vec({1, 2}), vec({1, 2, 3}));
    FAIL() << "expected a shape error";
  } catch (const st::Error& e) {
    st::testing::expect_contains(e.what(), "igamma");
  }
}

TEST(SpecialPrimitives, IncompleteBetaAsJax) {
  std::vector<double> a = {0.5, 2.0, 5.0, 30.0, 0.1, 1.0, 0.0, 2.0, -1.0, 2.0, 1e-40, 3.0};
  std::vector<double> b = {0.5, 3.0, 1.5, 40.0, 0.2, 1.0, 2.0, 0.0, 1.0, 2.0, 2.0, 3.0};
  std::vector<double> x = {0.3, 0.25, 0.9, 0.45, 0.5, 0.7, 0.5, 0.5, 0.5, 1.5, 0.3, 0.0};
  std::vector<double> want = {0.3690101195655447, 0.2617187500000003, 0.7761721343162152, 0.6447480085585755,
                              0.6705707961028995, 0.7000000000000004, 1.0, 0.0, kNan, kNan, 1.0, 0.0};
  for (st::DType t : {st::f64, st::f32}) {
    SCOPED_TRACE(st::short_name(t));
    double tol = t == st::f64 ? 1e-13 : 4e-6;
    std::vector<double> w = want;
    if (t == st::f32) w[10] = 1.0;  // 1e-40 is subnormal in f32, still below twice the least normal
    Array r = st::betainc(vec(a, t), vec(b, t), vec(x, t));
    EXPECT_EQ(r.dtype(), t);
    expect_elements(r, w, tol);
    Array j = st::jit([](const Array& p, const Array& q, const Array& v) { return st::betainc(p, q, v); })(vec(a, t), vec(b, t),
                                                                                                         vec(x, t));
    expect_elements(j, st::testing::values(r), t == st::f64 ? 1e-13 : 2e-6);
  }
  // Broadcasting and promotion: scalars against an array, integers promoted.
  expect_elements(st::betainc(Array(2), Array(3.0), vec({0.25, 0.5})), {0.26171875, 0.6875}, 1e-13);
  // Symmetry I_x(a, b) = 1 - I_(1-x)(b, a).
  Array p = vec({0.7, 3.0, 12.0}), q = vec({2.5, 0.4, 9.0}), v = vec({0.2, 0.95, 0.6});
  expect_elements(st::betainc(p, q, v), st::testing::values(1.0 - st::betainc(q, p, 1.0 - v)), 1e-13);
  // ∂I/∂x = x^(a-1) (1-x)^(b-1) / B(a, b) (jax.grad at (2, 3, 0.25): 1.6875); in a and b nan.
  EXPECT_NEAR(st::grad([](const Array& w) { return st::betainc(Array(2.0), Array(3.0), w); })(Array(0.25)).item<double>(),
              1.687500000000003, 1e-12);
  using V = std::vector<Array>;
  st::testing::check_grads([p, q](const V& w) { return st::betainc(p, q, w[0]); }, {v}, "betainc in x");
  EXPECT_TRUE(std::isnan(st::grad([](const Array& w) { return st::betainc(w, Array(3.0), Array(0.25)); })(Array(2.0)).item<double>()));
  // The Student t CDF from it: P(T <= 1.5) for 4 degrees of freedom is 1 - I_(4/(4+2.25))(2, 1/2)/2,
  // in closed form 1/2 + t(t² + 6) / (2 (t² + 4)^(3/2)) = 0.896.
  double cdf = 1.0 - 0.5 * st::betainc(Array(2.0), Array(0.5), Array(4.0 / 6.25)).item<double>();
  EXPECT_NEAR(cdf, 0.896, 1e-14);
}
