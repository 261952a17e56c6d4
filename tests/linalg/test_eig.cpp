// eig (jnp.linalg.eig, jax.lax.linalg.eig) of general real matrices: the eigen-equations of
// the right and left eigenvectors, LAPACK's normalization, known spectra, compiled against
// eager, vmap, bad input, and the derivative of the eigenvalues against finite differences.
#include "autodiff/check_grads.h"
#include "linalg_test_util.h"

namespace st = strata;
namespace la = strata::linalg;
using st::Array;
using namespace st::testing;

namespace {

constexpr st::DType kTypes[] = {st::f32, st::f64};

Array cx(const Array& x, st::DType real) { return st::astype(x, real == st::f64 ? st::c128 : st::c64); }

TEST(Eig, RightAndLeftEigenvectorsOfRandomMatrices) {
  for (st::DType t : kTypes)
    for (const st::Shape& s : {st::Shape{5, 5}, st::Shape{2, 3, 4, 4}, st::Shape{1, 1}, st::Shape{8, 8}}) {
      SCOPED_TRACE(std::string(st::short_name(t)) + " " + st::shape_string(s));
      Array a = rnd(s, t, 11);
      la::EigResult e = la::eig(a, true, true);
      const st::DType c = t == st::f64 ? st::c128 : st::c64;
      ASSERT_EQ(e.eigenvalues.dtype(), c);
      ASSERT_EQ(e.eigenvectors.dtype(), c);
      ASSERT_EQ(e.left_eigenvectors.dtype(), c);
      EXPECT_EQ(e.eigenvalues.shape(), st::Shape(s.begin(), s.end() - 1));
      Array w = st::expand_dims(e.eigenvalues, -2);  // [..., 1, n]: column j scaled by w_j
      Array ac = cx(a, t);
      expect_near_c(st::matmul(ac, e.eigenvectors), st::multiply(e.eigenvectors, w), tol(t, 100), "A v = w v");
      // u_jᴴ A = w_j u_jᴴ  ⇔  Aᵀ conj(u_j) = w_j conj(u_j), i.e. Uᴴ A = diag(w) Uᴴ.
      Array uh = mH(e.left_eigenvectors);
      expect_near_c(st::matmul(uh, ac), st::multiply(uh, st::expand_dims(e.eigenvalues, -1)), tol(t, 100),
                    "uᴴ A = w uᴴ");
      // Unit columns.
      for (const Array& v : {e.eigenvectors, e.left_eigenvectors}) {
        Array norms = st::sum(st::real(st::multiply(v, st::conj(v))), {-2});
        expect_near(norms, st::ones_like(norms), tol(t, 10), "unit norm");
      }
      // A real matrix: the eigenvalues come in conjugate pairs, so their imaginary parts sum to 0,
      // and the trace is their sum.
      expect_near(st::sum(st::imag(e.eigenvalues), {-1}), st::zeros_like(st::sum(st::real(e.eigenvalues), {-1})),
                  tol(t, 10), "conjugate pairs");
      Array trace = st::sum(st::multiply(a, st::astype(st::eye(s.back()), t)), {-2, -1});
      expect_near(st::sum(st::real(e.eigenvalues), {-1}), trace, tol(t, 10), "trace");
      // The other flags give the same values (the same kernel).
      expect_same_c(la::eigvals(a), e.eigenvalues, "eigvals");
      expect_same_c(la::eig(a).eigenvectors, e.eigenvectors, "right only");
      EXPECT_FALSE(la::eig(a).left_eigenvectors.valid());
      EXPECT_FALSE(la::eig(a, true, false).eigenvectors.valid());
    }
}

TEST(Eig, KnownSpectra) {
  // A rotation by 90°: ±i, eigenvectors (1, ∓i)/√2 with the largest component real (LAPACK).
  Array rot = st::array({0.0, -1.0, 1.0, 0.0}, {2, 2}, st::f64);
  la::EigResult e = la::eig(rot);
  std::vector<double> re = st::real(e.eigenvalues).to_vector<double>(), im = st::imag(e.eigenvalues).to_vector<double>();
  EXPECT_NEAR(re[0], 0, 1e-15);
  EXPECT_NEAR(re[1], 0, 1e-15);
  EXPECT_NEAR(std::fabs(im[0]), 1, 1e-15);
  EXPECT_NEAR(im[0], -im[1], 1e-15);
  std::vector<double> v_im = st::imag(e.eigenvectors).to_vector<double>(), v_re = st::real(e.eigenvectors).to_vector<double>();
  for (int j = 0; j < 2; ++j) {  // component 0 or 1 is the real one, 1/√2 either way
    double a0 = std::hypot(v_re[j], v_im[j]), a1 = std::hypot(v_re[2 + j], v_im[2 + j]);
    EXPECT_NEAR(a0, std::sqrt(0.5), 1e-15);
    EXPECT_NEAR(a1, std::sqrt(0.5), 1e-15);
    EXPECT_TRUE(v_im[j] == 0 || v_im[2 + j] == 0) << "column " << j << ": no real component";
  }
  // Upper triangular: the eigenvalues are the diagonal (real).
  Array tri = st::array({2.0f, 5.0f, 7.0f, 0.0f, -3.0f, 1.0f, 0.0f, 0.0f, 0.5f}, {3, 3});
  std::vector<double> w = st::real(la::eigvals(tri)).to_vector<double>();
  std::sort(w.begin(), w.end());
  EXPECT_NEAR(w[0], -3, 1e-5);
  EXPECT_NEAR(w[1], 0.5, 1e-5);
  EXPECT_NEAR(w[2], 2, 1e-5);
  for (double v : st::imag(la::eigvals(tri)).to_vector<double>()) EXPECT_EQ(v, 0);
  // Integers are promoted to f32, as the other decompositions.
  EXPECT_EQ(la::eigvals(st::array({1, 2, 3, 4}, {2, 2})).dtype(), st::c64);
}

// A defective matrix (Jordan blocks) has no basis of eigenvectors, so V⁻ᴴ does not exist; the
// left vectors come from their own substitution (LAPACK's dtrevc), finite, as geev's.
TEST(Eig, LeftEigenvectorsOfADefectiveMatrix) {
  for (st::DType t : kTypes) {
    SCOPED_TRACE(st::short_name(t));
    // Jordan blocks for 2 (order 3) and for the pair 0.5 ± i (order 2: [C I; 0 C]).
    std::vector<double> m(49, 0.0);
    auto set = [&](int i, int j, double v) { m[size_t(i * 7 + j)] = v; };
    for (int i = 0; i < 3; ++i) set(i, i, 2);
    set(0, 1, 1), set(1, 2, 1);
    for (int i : {3, 5}) set(i, i, 0.5), set(i + 1, i + 1, 0.5), set(i, i + 1, 1), set(i + 1, i, -1);
    set(3, 5, 1), set(4, 6, 1);
    Array a = st::astype(st::array(m, {7, 7}, st::f64), t);
    la::EigResult e = la::eig(a, true, true);
    for (const Array& x : {e.left_eigenvectors, e.eigenvectors}) {
      for (double v : st::real(x).to_vector<double>()) ASSERT_TRUE(std::isfinite(v));
      for (double v : st::imag(x).to_vector<double>()) ASSERT_TRUE(std::isfinite(v));
    }
    Array uh = mH(e.left_eigenvectors), ac = cx(a, t);
    expect_near_c(st::matmul(uh, ac), st::multiply(uh, st::expand_dims(e.eigenvalues, -1)), tol(t, 100), "uᴴ A = w uᴴ");
    expect_near_c(st::matmul(ac, e.eigenvectors), st::multiply(e.eigenvectors, st::expand_dims(e.eigenvalues, -2)),
                  tol(t, 100), "A v = w v");
    Array norms = st::sum(st::real(st::multiply(e.left_eigenvectors, st::conj(e.left_eigenvectors))), {-2});
    expect_near(norms, st::ones_like(norms), tol(t, 10), "unit norm");
  }
}

TEST(Eig, EdgesAndBadInput) {
  la::EigResult e = la::eig(st::full({3, 3}, NAN), true, true);
  for (const Array& x : {e.eigenvalues, e.eigenvectors, e.left_eigenvectors}) {
    expect_all_nan(st::real(x), "nan input (real)");
    expect_all_nan(st::imag(x), "nan input (imag)");
  }
  expect_all_nan(st::real(la::eigvals(st::array({1.0f, INFINITY, 0.0f, 1.0f}, {2, 2}))), "inf input");
  EXPECT_EQ(la::eig(st::zeros({0, 0})).eigenvalues.shape(), (st::Shape{0}));
  EXPECT_EQ(la::eig(st::zeros({0, 3, 3})).eigenvectors.shape(), (st::Shape{0, 3, 3}));
  // The zero matrix: eigenvalues 0, the identity's columns as eigenvectors.
  la::EigResult z = la::eig(st::zeros({3, 3}), true, true);
  expect_near_c(z.eigenvalues, cx(st::zeros({3}), st::f32), 0, "zeros");
  expect_error<st::ShapeError>([] { la::eig(st::zeros({2, 3})); }, {"eig", "f32[2,3]"});
  expect_error<st::ShapeError>([] { la::eigvals(st::zeros({4})); }, {"eig", "f32[4]"});
  expect_error<st::DTypeError>([] { la::eig(st::zeros({2, 2}, st::f16)); }, {"eig", "f16[2,2]"});
  // Complex matrices are taken (test_complex_linalg.cpp); a non-finite one gives NaNs too.
  expect_all_nan(st::imag(la::eigvals(st::astype(st::array({1.0f, NAN, 0.0f, 1.0f}, {2, 2}), st::c64))), "nan c64");
}

TEST(Eig, CompiledMatchesEagerAndVmap) {
  for (st::DType t : kTypes) {
    Array a = rnd({3, 6, 6}, t, 5);
    auto f = [](const Array& x) {
      la::EigResult e = la::eig(x, true, true);
      return std::vector<Array>{e.eigenvalues, e.left_eigenvectors, e.eigenvectors};
    };
    std::vector<Array> want = f(a), got = st::jit(f)(a);
    ASSERT_EQ(got.size(), 3u);
    for (int i = 0; i < 3; ++i) expect_same_c(got[i], want[i], "jit " + std::to_string(i));
    Array w = st::vmap([](const Array& x) { return la::eigvals(x); })(a);
    expect_same_c(w, la::eigvals(a), "vmap");
    Array wj = st::jit([](const Array& x) { return la::eigvals(x); })(a);
    expect_same_c(wj, la::eigvals(a), "jit eigvals");
  }
}

// A function of the eigenvalues that does not depend on their order (nor on which of a
// conjugate pair comes first): Σ Re(w)³ + Re(w)·Im(w)².
Array spectrum_loss(const Array& w) {
  Array re = st::real(w), im = st::imag(w);
  return st::sum(st::add(st::multiply(st::multiply(re, re), re), st::multiply(re, st::multiply(im, im))));
}

TEST(Eig, EigenvalueDerivativesAgainstFiniteDifferences) {
  // Random matrices have distinct eigenvalues (some complex pairs).
  for (uint64_t seed : {1, 2, 3})
    check_grads([](const std::vector<Array>& x) { return st::reshape(spectrum_loss(la::eigvals(x[0])), {1}); },
                {rnd({2, 5, 5}, st::f64, seed)}, "eigvals seed " + std::to_string(seed), 1e-5);
  // d(trace)/dA = I: the eigenvalues sum to the trace.
  Array a = rnd({4, 4}, st::f64, 9);
  Array g = st::grad([](const Array& x) { return st::sum(st::real(la::eigvals(x))); })(a);
  expect_near(g, st::eye(4, -1, 0, st::f64), 1e-10, "d trace = I");
  // The gradient through eig with vectors computed, of a function of w alone, is eigvals'.
  Array g2 = st::grad([](const Array& x) { return spectrum_loss(la::eig(x, true, true).eigenvalues); })(a);
  Array g1 = st::grad([](const Array& x) { return spectrum_loss(la::eigvals(x)); })(a);
  expect_near(g2, g1, 1e-12, "w alone");
  Array gj = st::jit(st::grad([](const Array& x) { return spectrum_loss(la::eigvals(x)); }))(a);
  expect_near(gj, g1, 1e-10, "jit(grad)");
  // Eigenvectors are not differentiable (as in JAX): a clear error.
  expect_error<st::ValueError>(
      [&] { st::grad([](const Array& x) { return st::sum(st::real(la::eig(x).eigenvectors)); })(a); },
      {"eig", "eigenvectors", "eigvals"});
}

}  // namespace
