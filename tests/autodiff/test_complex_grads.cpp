// Derivatives through complex intermediates (JAX's convention: R-linear JVPs, VJPs their
// transposes under Re(a·b)): real inputs, real outputs, complex values between, checked by
// check_grads (JVP against finite differences, VJP against JVP) and jit against eager.
#include <gtest/gtest.h>

#include <complex>

#include "check_grads.h"
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

TEST(ComplexGrads, WithRespectToComplexInputsIsRefused) {
  Array z = st::complex(x0(), y0());
  std::string m;
  try {
    (void)st::grad([](const Array& a) { return st::sum(st::abs(a)); })(z);
  } catch (const st::DTypeError& e) {
    m = e.what();
  }
  EXPECT_NE(m.find("c128"), std::string::npos) << m;
  EXPECT_NE(m.find("complex"), std::string::npos) << m;
}
