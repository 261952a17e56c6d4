// Derivatives through complex intermediates (JAX's convention: R-linear JVPs, VJPs their
// transposes under Re(a·b)): real inputs, real outputs, complex values between, checked by
// check_grads (JVP against finite differences, VJP against JVP) and jit against eager.
#include <gtest/gtest.h>

#include <complex>

#include "check_grads.h"
#include "test_util.h"
#include "strata/strata.h"

namespace st = strata;
using st::Array;
using st::testing::check_grads;
using c128 = std::complex<double>;

namespace {

Array x0() { return st::array(std::vector<double>{0.3, -0.7, 1.1, 0.45, -1.3, 0.8}, {6}); }
Array y0() { return st::array(std::vector<double>{-0.5, 0.25, 0.9, -1.2, 0.6, 0.35}, {6}); }

}  // namespace

TEST(ComplexGrads, ElementwiseChains) {
  std::vector<std::pair<const char*, st::testing::VecFn>> fns = {
      {"real(exp(ix))", [](const std::vector<Array>& v) { return st::real(st::exp(v[0] * c128(0, 1))); }},
      {"abs(x + iy)", [](const std::vector<Array>& v) { return st::abs(st::complex(v[0], v[1] + 2.0)); }},
      {"angle", [](const std::vector<Array>& v) { return st::angle(st::complex(v[0] + 3.0, v[1])); }},
      {"imag(log z · conj w)", [](const std::vector<Array>& v) {
         Array z = st::complex(v[0] + 2.0, v[1]), w = st::complex(v[1] * v[0], v[0]);
         return st::imag(st::log(z) * st::conj(w));
       }},
      {"mul div sqrt rsqrt", [](const std::vector<Array>& v) {
         Array z = st::complex(v[0] + 2.0, v[1]);
         return st::real(st::sqrt(z) * z / (z + c128(0.5, 1.0)) + st::rsqrt(z));
       }},
      {"sin cos tan tanh logistic", [](const std::vector<Array>& v) {
         Array z = st::complex(v[0], v[1] * 0.5);
         return st::imag(st::sin(z) + st::cos(z) * st::tanh(z) + st::tan(z * 0.5) + st::logistic(z));
       }},
      {"expm1 log1p pow integer_pow", [](const std::vector<Array>& v) {
         Array z = st::complex(v[0] * 0.5, v[1] * 0.5);
         Array p = st::power(z + 2.0, st::complex(v[1], v[0] * 0.25));
         return st::real(st::expm1(z) * st::log1p(z) + p + st::integer_pow(z, 3) + st::integer_pow(z + 2.0, -2));
       }},
      {"sinh cosh and the inverse functions", [](const std::vector<Array>& v) {
         // Off the branch cuts: z = x/2 + (y/2 + 0.3)i.
         Array z = st::complex(v[0] * 0.5, v[1] * 0.5 + 0.3);
         return st::real(st::sinh(z) + st::cosh(z) * st::asin(z) + st::acos(z) + st::atan(z)) +
                st::imag(st::asinh(z) + st::acosh(z + 2.0) * st::atanh(z));
       }},
      {"astype both ways", [](const std::vector<Array>& v) {
         Array z = st::astype(v[0], st::c128) * st::complex(v[1], v[0]);
         return st::astype(z, st::f64) + st::imag(z);
       }},
  };
  for (auto& [name, f] : fns) {
    check_grads(f, {x0(), y0()}, name);
    // grad under jit equals eager grad.
    auto loss = [&f](const Array& x, const Array& y) { return st::sum(f({x, y})); };
    Array ge = st::grad(loss)(x0(), y0()), gj = st::jit(st::grad(loss))(x0(), y0());
    std::vector<double> a = ge.to_vector<double>(), b = gj.to_vector<double>();
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-12 * std::max(1.0, std::fabs(a[i]))) << name << " " << i;
  }
}

TEST(ComplexGrads, ReductionsMatmulAndShapes) {
  auto f = [](const std::vector<Array>& v) {
    Array z = st::reshape(st::complex(v[0], v[1]), {2, 3});  // 2x3 complex
    Array m = st::matmul(z, st::transpose(st::conj(z)));   // z zᴴ, Hermitian 2x2
    Array s = st::sum(z * z, {1}) + st::prod(z + 1.0, {1}) + st::cumsum(z, 1)[{st::Slice(), -1}];
    Array c = st::concatenate({st::real(m), st::imag(st::reshape(s, {2, 1}) * m)}, 1);
    return st::reshape(c, {8});
  };
  check_grads(f, {x0(), y0()}, "matmul sum prod cumsum concatenate");
}

// Complex inputs: JAX's grad of a real loss L at z = x + iy is ∂L/∂x − i·∂L/∂y; with
// holomorphic, grad of f is f'(z). These values are jax.grad's.
TEST(ComplexGrads, WithRespectToComplexInputsAsJax) {
  Array z = st::array(std::vector<c128>{{3, 4}}, {});
  auto expect = [](const Array& g, c128 want, const char* what) {
    ASSERT_EQ(g.dtype(), st::c128) << what;
    EXPECT_NEAR(st::real(g).item<double>(), want.real(), 1e-12) << what;
    EXPECT_NEAR(st::imag(g).item<double>(), want.imag(), 1e-12) << what;
  };
  expect(st::grad([](const Array& a) { return st::real(a * st::conj(a)); })(z), {6, -8}, "|z|^2");
  expect(st::grad([](const Array& a) { return st::abs(a); })(z), {0.6, -0.8}, "abs");
  expect(st::grad([](const Array& a) { return st::real(a); })(z), {1, 0}, "real");
  expect(st::grad([](const Array& a) { return st::imag(a); })(z), {0, -1}, "imag");
  expect(st::grad([](const Array& a) { return a * a; }, st::holomorphic)(z), {6, 8}, "z^2 holomorphic");
  expect(st::grad([](const Array& a) { return st::exp(a); }, st::holomorphic)(z), std::exp(c128(3, 4)), "exp holomorphic");
  expect(st::jit(st::grad([](const Array& a) { return st::log(a) * a; }, st::holomorphic))(z),
         std::log(c128(3, 4)) + 1.0, "z log z holomorphic, jit");
  // c64 inputs keep their dtype; value_and_grad, argnums and has_aux combine with holomorphic.
  Array z64 = st::astype(z, st::c64);
  auto [v, g] = st::value_and_grad([](const Array& a, const Array& b) { return std::make_pair(a * b, st::real(b)); },
                                   st::argnums<1>, st::holomorphic, st::has_aux)(z64, z64 * 2.0);
  EXPECT_EQ(g.dtype(), st::c64);
  EXPECT_NEAR(st::real(g).item<double>(), 3, 1e-6);
  EXPECT_NEAR(st::imag(g).item<double>(), 4, 1e-6);
  EXPECT_NEAR(st::real(v.first).item<double>(), 2 * (9 - 16), 1e-5);
  EXPECT_NEAR(v.second.item<double>(), 6, 1e-6);
  // A real input and a complex one in one call.
  auto [gx, gz] = st::grad([](const Array& x, const Array& a) { return st::real(a * x * x); }, st::argnums<0, 1>)(
      st::full({}, 2.0, st::f64), z);
  EXPECT_NEAR(gx.item<double>(), 12, 1e-12);
  expect(gz, {4, 0}, "real(a x^2) in a");
}

TEST(ComplexGrads, ComplexInputsNeedARealLossOrHolomorphic) {
  Array z = st::complex(x0(), y0());
  std::string m = st::testing::error_message<st::Error>([&] { (void)st::grad([](const Array& a) { return st::sum(a * a); })(z); });
  EXPECT_NE(m.find("complex value (c128[])"), std::string::npos) << m;
  EXPECT_NE(m.find("holomorphic"), std::string::npos) << m;
  m = st::testing::error_message<st::Error>([&] { (void)st::grad([](const Array& a) { return st::sum(a * a); }, st::holomorphic)(x0()); });
  EXPECT_NE(m.find("needs complex inputs"), std::string::npos) << m;
  EXPECT_NE(m.find("f64[6]"), std::string::npos) << m;
  m = st::testing::error_message<st::Error>([&] { (void)st::grad([](const Array& a) { return st::sum(st::abs(a)); }, st::holomorphic)(z); });
  EXPECT_NE(m.find("returns f64[]"), std::string::npos) << m;
  m = st::testing::error_message<st::Error>([&] { (void)st::grad([](const Array& a) { return st::sum(st::abs(a)); })(st::array(std::vector<int>{1, 2}, {2})); });
  EXPECT_NE(m.find("only floating-point and complex"), std::string::npos) << m;
}

namespace {
Array z0() { return st::complex(x0(), y0()); }
Array w0() { return st::complex(y0() * 0.5 + 1.0, x0()); }
}  // namespace

// JVP against finite differences in a random complex direction and VJP against JVP, for
// functions of complex inputs with complex (or real) outputs, over the primitives that take
// complex operands; grad under jit equals eager grad.
TEST(ComplexGrads, OfComplexInputsAgainstFiniteDifferences) {
  std::vector<std::pair<const char*, st::testing::VecFn>> fns = {
      {"holomorphic chain", [](const std::vector<Array>& v) {
         Array z = v[0], w = v[1];
         return st::exp(z * 0.5) * w + st::sin(z) / (w + 2.0) + st::sqrt(w + 3.0) - st::log1p(z * 0.25) +
                st::integer_pow(z, 3) + st::tanh(w * 0.5) + st::power(w + 2.0, z * 0.5) + st::expm1(-z * 0.5);
       }},
      {"conj real imag abs complex", [](const std::vector<Array>& v) {
         Array z = v[0], w = v[1];
         return st::conj(z) * w + st::complex(st::abs(z), st::imag(w) * st::real(z)) + st::rsqrt(w * st::conj(w));
       }},
      {"astype to real and back", [](const std::vector<Array>& v) {
         return st::astype(st::astype(v[0], st::f64) * st::imag(v[1]), st::c128) + v[1] * 2.0;
       }},
      {"reductions and cumulative", [](const std::vector<Array>& v) {
         Array z = st::reshape(v[0], {2, 3}), w = st::reshape(v[1], {2, 3});
         Array s = st::sum(z * w, {1}) + st::prod(z + 1.0, {1}) + st::mean(w, {1});
         return st::concatenate({s, st::reshape(st::cumsum(z, 1) * st::cumprod(w, 1), {6})}, 0);
       }},
      {"matmul einsum transpose", [](const std::vector<Array>& v) {
         Array z = st::reshape(v[0], {2, 3}), w = st::reshape(v[1], {3, 2});
         Array m = st::matmul(z, w) + st::einsum("ij,jk->ik", {st::conj(z), w});
         return st::reshape(st::transpose(m) * m, {4});
       }},
      {"shapes and indexing", [](const std::vector<Array>& v) {
         Array z = v[0], w = v[1];
         Array a = st::flip(z) * st::roll(w, 2) + st::pad(z, {{1, 0}})[{st::Slice(0, 6)}];
         Array idx = st::array(std::vector<int>{4, 0, 4, 2}, {4});
         Array t = st::take(w, idx) * st::broadcast_to(z[{st::Slice(1, 2)}], {4});
         Array u = a.at(idx).add(w[{st::Slice(0, 4)}]).at(1).set(t[0]).at(5).mul(z[3]);
         Array d = st::dynamic_slice(u, {st::full({}, 2, st::i32)}, {3});
         return st::concatenate({u, d, t, st::where(st::real(z) > 0, z, w)}, 0);
       }},
      {"fft ifft irfft", [](const std::vector<Array>& v) {
         Array z = v[0], w = v[1];
         Array f = st::fft::fft(z * w) + st::fft::ifft(st::conj(z), 8)[{st::Slice(0, 6)}];
         return st::concatenate({f, st::astype(st::fft::irfft(w, 6), st::c128)}, 0);
       }},
      {"real loss of complex inputs", [](const std::vector<Array>& v) {
         return st::abs(v[0] * v[1] + 1.0) + st::angle(v[1] + 3.0) + st::real(st::log(v[0] + 2.0));
       }},
  };
  for (auto& [name, f] : fns) {
    check_grads(f, {z0(), w0()}, name);
    auto loss = [&f](const Array& z, const Array& w) { return st::sum(st::abs(f({z, w}))); };
    Array ge = st::grad(loss)(z0(), w0());
    Array gj = st::jit(st::grad(loss))(z0(), w0());
    std::vector<double> a = st::testing::flat_parts(ge), b = st::testing::flat_parts(gj);
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-12 * std::max(1.0, std::fabs(a[i]))) << name << " " << i;
  }
}

// Through control flow with complex carries, and per-example complex gradients under vmap.
TEST(ComplexGrads, OfComplexInputsThroughControlFlowAndVmap) {
  auto loop = [](const std::vector<Array>& v) {
    auto [c, ys] = st::scan([](const Array& c, const Array& x) { return std::make_pair(c * x + 0.5, c * st::conj(x)); },
                            v[1][0], v[0]);
    Array w = st::fori_loop(0, 3, [](const Array&, const Array& a) { return a * a * 0.5 + 0.25; }, v[1]);
    Array k = st::cond(st::real(v[0][0]) > 0, [](const Array& a) { return st::sin(a); }, [](const Array& a) { return a * 2.0; },
                       v[1]);
    return st::concatenate({ys, st::reshape(c, {1}), w, k}, 0);
  };
  check_grads(loop, {z0(), w0()}, "scan fori_loop cond");
  auto loss = [](const Array& z, const Array& w) { return st::real(st::sum(z * z * w)); };
  Array zs = st::reshape(st::concatenate({z0(), w0()}, 0), {2, 6});
  Array g = st::vmap(st::grad(loss), {0, std::nullopt})(zs, w0());
  for (int b = 0; b < 2; ++b) {
    Array want = st::grad(loss)(zs[b], w0());
    std::vector<double> x = st::testing::flat_parts(g[b]), y = st::testing::flat_parts(want);
    for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(x[i], y[i], 1e-12) << b << " " << i;
  }
}
