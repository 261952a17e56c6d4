// jacfwd, jacrev and hessian (strata/jacobian.h) against central finite differences and closed
// forms; forward equals reverse; jit equals eager; argnums, pytree outputs, vmap, complex rules.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <string>

#include "check_grads.h"
#include "test_util.h"
#include "strata/strata.h"

namespace st = strata;
using st::Array;
using c128 = std::complex<double>;

namespace {

void expect_close(const Array& a, const Array& b, double tol, const std::string& what) {
  ASSERT_EQ(a.shape(), b.shape()) << what;
  ASSERT_EQ(a.dtype(), b.dtype()) << what;
  std::vector<double> x = st::testing::flat_parts(a), y = st::testing::flat_parts(b);
  for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(x[i], y[i], tol * std::max(1.0, std::fabs(y[i]))) << what << " " << i;
}

// The Jacobian of f at x (f64) by central differences: shape f(x).shape + x.shape.
Array fd_jacobian(const std::function<Array(const Array&)>& f, const Array& x) {
  const double eps = 1e-6;
  std::vector<double> xv = x.to_vector<double>();
  Array y = f(x);
  std::vector<std::vector<double>> cols;
  for (size_t j = 0; j < xv.size(); ++j) {
    std::vector<double> p = xv, m = xv;
    p[j] += eps;
    m[j] -= eps;
    Array d = (f(st::array(p, x.shape())) - f(st::array(m, x.shape()))) / (2 * eps);
    cols.push_back(d.to_vector<double>());
  }
  std::vector<double> j(y.size() * xv.size());
  for (size_t r = 0; r < static_cast<size_t>(y.size()); ++r)
    for (size_t c = 0; c < xv.size(); ++c) j[r * xv.size() + c] = cols[c][r];
  st::Shape s = y.shape();
  s.insert(s.end(), x.shape().begin(), x.shape().end());
  return st::array(j, s);
}

Array net(const Array& w, const Array& v) { return st::tanh(st::matmul(w, v)) * st::sum(w * w); }

}  // namespace

TEST(Jacobian, ForwardAndReverseMatchFiniteDifferences) {
  Array w = st::reshape(st::array(std::vector<double>{0.3, -0.7, 1.1, 0.45, -1.3, 0.8}, {6}), {2, 3});
  Array v = st::array(std::vector<double>{0.5, -0.25, 0.9}, {3});
  auto f = [&](const Array& a) { return net(a, v); };
  Array fd = fd_jacobian(f, w);
  EXPECT_EQ(fd.shape(), (st::Shape{2, 2, 3}));
  Array jf = st::jacfwd(net)(w, v), jr = st::jacrev(net)(w, v);
  expect_close(jf, fd, 1e-7, "jacfwd");
  expect_close(jr, fd, 1e-7, "jacrev");
  expect_close(st::jit(st::jacfwd(net))(w, v), jf, 1e-13, "jit(jacfwd)");
  expect_close(st::jit(st::jacrev(net))(w, v), jr, 1e-13, "jit(jacrev)");
  // With respect to the second argument, and both at once.
  auto g = [&](const Array& b) { return net(w, b); };
  expect_close(st::jacrev(net, st::argnums<1>)(w, v), fd_jacobian(g, v), 1e-7, "argnums<1>");
  auto [j0, j1] = st::jacfwd(net, st::argnums<0, 1>)(w, v);
  expect_close(j0, jf, 1e-13, "argnums<0, 1> first");
  expect_close(j1, fd_jacobian(g, v), 1e-7, "argnums<0, 1> second");
  // f32 stays f32.
  Array j32 = st::jacrev(net)(st::astype(w, st::f32), st::astype(v, st::f32));
  EXPECT_EQ(j32.dtype(), st::f32);
  expect_close(st::astype(j32, st::f64), jr, 1e-5, "f32");
}

TEST(Jacobian, HessianOfALoss) {
  // L(x) = Σ sin(x_i) x_i² + x_0 x_1 x_2: H_ij = δ_ij (2 sin + 4x cos − x² sin)(x_i) + (i≠j) x_k.
  auto loss = [](const Array& x) { return st::sum(st::sin(x) * x * x) + x[0] * x[1] * x[2]; };
  std::vector<double> xs{0.3, -1.2, 0.7};
  Array x = st::array(xs, {3});
  std::vector<double> h(9);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double a = xs[i];
      h[i * 3 + j] = i == j ? 2 * std::sin(a) + 4 * a * std::cos(a) - a * a * std::sin(a) : xs[3 - i - j];
    }
  Array want = st::array(h, {3, 3});
  expect_close(st::hessian(loss)(x), want, 1e-12, "hessian");
  expect_close(st::jit(st::hessian(loss))(x), want, 1e-12, "jit(hessian)");
  expect_close(st::jacrev(st::jacfwd(loss))(x), want, 1e-12, "jacrev(jacfwd)");
  expect_close(st::jacfwd(st::grad(loss))(x), want, 1e-12, "jacfwd(grad)");
  // A matrix argument: shape I + I.
  Array m = st::reshape(x * x, {3, 1});
  Array hm = st::hessian([](const Array& a) { return st::sum(st::exp(a) * a); })(m);
  EXPECT_EQ(hm.shape(), (st::Shape{3, 1, 3, 1}));
}

TEST(Jacobian, PytreeOutputsVmapAndEmpty) {
  Array x = st::array(std::vector<double>{0.4, -0.6}, {2});
  auto f = [](const Array& a) { return std::make_pair(st::exp(a), st::sum(a * a)); };
  auto [je, js] = st::jacrev(f)(x);
  auto [fe, fs] = st::jacfwd(f)(x);
  EXPECT_EQ(je.shape(), (st::Shape{2, 2}));
  EXPECT_EQ(js.shape(), (st::Shape{2}));
  expect_close(je, st::diag(st::exp(x)), 1e-14, "exp leaf");
  expect_close(js, x * 2.0, 1e-14, "sum leaf");
  expect_close(fe, je, 1e-14, "jacfwd exp leaf");
  expect_close(fs, js, 1e-14, "jacfwd sum leaf");
  // Per-example Jacobians.
  Array xs = st::reshape(st::array(std::vector<double>{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, {6}), {3, 2});
  auto g = [](const Array& a) { return st::sin(a) * a[0]; };
  Array jb = st::vmap(st::jacrev(g))(xs);
  EXPECT_EQ(jb.shape(), (st::Shape{3, 2, 2}));
  for (int b = 0; b < 3; ++b) expect_close(jb[b], st::jacfwd(g)(xs[b]), 1e-14, "vmap(jacrev)");
  // An empty input gives an empty Jacobian of the right shape.
  Array e = st::zeros({0}, st::f64);
  EXPECT_EQ(st::jacfwd([](const Array& a) { return st::concatenate({a, a}, 0); })(e).shape(), (st::Shape{0, 0}));
  EXPECT_EQ(st::jacrev([](const Array& a) { return st::sum(a) + 1.0; })(e).shape(), (st::Shape{0}));
}

TEST(Jacobian, ComplexAsJax) {
  Array z = st::complex(st::array(std::vector<double>{0.3, -0.5}, {2}), st::array(std::vector<double>{0.2, 0.4}, {2}));
  // Holomorphic: f'(z) on the diagonal, both modes.
  auto f = [](const Array& a) { return st::exp(a) * a; };
  Array want = st::diag(st::exp(z) * (z + 1.0));
  expect_close(st::jacfwd(f, st::holomorphic)(z), want, 1e-14, "jacfwd holomorphic");
  expect_close(st::jacrev(f, st::holomorphic)(z), want, 1e-14, "jacrev holomorphic");
  // A real output of a complex input: rows in grad's convention.
  auto r = [](const Array& a) { return st::abs(a); };
  Array rows = st::jacrev(r)(z);
  EXPECT_EQ(rows.dtype(), st::c128);
  expect_close(rows, st::diag(st::conj(z) / st::astype(st::abs(z), st::c128)), 1e-14, "jacrev of abs");
  // A complex output of a real input, forward mode.
  Array t = st::array(std::vector<double>{0.3, 1.1}, {2});
  expect_close(st::jacfwd([](const Array& a) { return st::exp(a * c128(0, 1)); })(t),
               st::diag(st::exp(t * c128(0, 1)) * c128(0, 1)), 1e-14, "jacfwd of exp(ix)");
  std::string m = st::testing::error_message<st::Error>([&] { (void)st::jacfwd(f)(z); });
  EXPECT_NE(m.find("jacfwd needs real inputs"), std::string::npos) << m;
  m = st::testing::error_message<st::Error>([&] { (void)st::jacrev(f)(z); });
  EXPECT_NE(m.find("jacrev needs real outputs"), std::string::npos) << m;
  m = st::testing::error_message<st::Error>([&] { (void)st::jacrev(f, st::holomorphic)(t); });
  EXPECT_NE(m.find("needs complex inputs"), std::string::npos) << m;
  m = st::testing::error_message<st::Error>([&] { (void)st::jacrev(r, st::holomorphic)(z); });
  EXPECT_NE(m.find("returns complex values"), std::string::npos) << m;
  m = st::testing::error_message<st::Error>([&] { (void)st::jacrev(r)(st::array(std::vector<int>{1, 2}, {2})); });
  EXPECT_NE(m.find("only floating-point and complex"), std::string::npos) << m;
}

// has_aux: f returns (output, aux); the result is (Jacobian, aux), for hessian too.
TEST(Jacobian, HasAux) {
  Array x = st::array(std::vector<double>{0.4, -0.6, 1.2}, {3});
  auto f = [](const Array& a) { return std::make_pair(st::sin(a) * a[0], st::sum(a * a)); };
  auto [jf, aux_f] = st::jacfwd(f, st::has_aux)(x);
  auto [jr, aux_r] = st::jacrev(f, st::has_aux)(x);
  Array want = st::jacfwd([&](const Array& a) { return f(a).first; })(x);
  expect_close(jf, want, 1e-14, "jacfwd has_aux");
  expect_close(jr, want, 1e-14, "jacrev has_aux");
  EXPECT_NEAR(aux_f.item<double>(), 0.16 + 0.36 + 1.44, 1e-14);
  EXPECT_NEAR(aux_r.item<double>(), 0.16 + 0.36 + 1.44, 1e-14);
  auto loss = [](const Array& a) { return std::make_pair(st::sum(st::exp(a) * a), st::max(a)); };
  auto [h, aux_h] = st::hessian(loss, st::has_aux)(x);
  expect_close(h, st::hessian([&](const Array& a) { return loss(a).first; })(x), 1e-12, "hessian has_aux");
  EXPECT_NEAR(aux_h.item<double>(), 1.2, 1e-15);
  auto [jj, aux_j] = st::jit(st::jacrev(f, st::has_aux))(x);
  expect_close(jj, want, 1e-13, "jit(jacrev has_aux)");
  EXPECT_NEAR(aux_j.item<double>(), 0.16 + 0.36 + 1.44, 1e-14);
}
