// Complex matrices (c64, c128) through every decomposition and the jnp.linalg functions built
// on them: the defining identities (L Lᴴ = a, op(a) x = b for every op including conjugate_a,
// a[perm] = L U with LAPACK's |re| + |im| pivoting, Q R = a with Qᴴ Q = I, a v = v diag(w) with
// real w, u diag(s) vᴴ = a, eig's eigen-equations), solve/inv/det/slogdet/pinv/lstsq/norm,
// compiled against eager, vmap, and the derivatives (check_grads, grad as JAX's).
#include "autodiff/check_grads.h"
#include "linalg_test_util.h"

namespace st = strata;
namespace la = strata::linalg;
using st::Array;
using namespace st::testing;
using c128 = std::complex<double>;

namespace {

constexpr st::DType kTypes[] = {st::c64, st::c128};

st::DType part(st::DType c) { return st::real_dtype(c); }

// A random complex array (independent normal parts).
Array crnd(const st::Shape& s, st::DType c, uint64_t seed) {
  return st::complex(rnd(s, part(c), seed), rnd(s, part(c), seed + 1000));
}

Array ceye(int64_t n, st::DType c) { return st::astype(st::eye(n), c); }

// x xᴴ + n I: Hermitian positive definite, well conditioned.
Array hpd(const st::Shape& s, st::DType c, uint64_t seed) {
  Array x = crnd(s, c, seed);
  return st::add(st::matmul(x, mH(x)), st::multiply(ceye(s.back(), c), st::astype(Array(static_cast<double>(s.back())), c)));
}

double ctol(st::DType c, double scale = 1) { return tol(part(c), scale); }

// Zero above (upper = false) or below the diagonal.
void expect_triangular(const Array& x, bool lower, const std::string& what) {
  const st::Shape& s = x.shape();
  std::vector<double> re = st::real(x).to_vector<double>(), im = st::imag(x).to_vector<double>();
  int64_t m = s[s.size() - 2], n = s.back();
  for (size_t i = 0; i < re.size(); ++i) {
    int64_t r = static_cast<int64_t>(i) / n % m, c = static_cast<int64_t>(i) % n;
    if (lower ? c > r : c < r) {
      EXPECT_EQ(re[i], 0) << what << " element " << i;
      EXPECT_EQ(im[i], 0) << what << " element " << i;
    }
  }
}

TEST(ComplexLinalg, CholeskyOfHermitianMatrices) {
  for (st::DType c : kTypes)
    for (const st::Shape& s : {st::Shape{4, 4}, st::Shape{2, 3, 5, 5}}) {
      SCOPED_TRACE(std::string(st::short_name(c)) + " " + st::shape_string(s));
      Array a = hpd(s, c, 1);
      Array l = la::cholesky(a);
      ASSERT_EQ(l.dtype(), c);
      expect_triangular(l, true, "L lower");
      expect_near_c(st::matmul(l, mH(l)), a, ctol(c, 10), "L Lᴴ = a");
      // Its diagonal is real and positive.
      Array d = st::sum(st::multiply(l, ceye(s.back(), c)), {-1});  // the diagonal
      expect_near(st::imag(d), st::zeros_like(st::imag(d)), ctol(c), "real diagonal");
      for (double v : st::real(d).to_vector<double>()) EXPECT_GT(v, 0);
      // Not positive definite: NaNs, as for reals.
      Array bad = st::multiply(a, st::astype(Array(-1.0), c));
      for (double v : st::real(la::cholesky(bad)).to_vector<double>()) EXPECT_TRUE(std::isnan(v));
    }
}

TEST(ComplexLinalg, TriangularSolveEveryOpIncludingConjugate) {
  for (st::DType c : kTypes) {
    Array a = st::add(crnd({2, 4, 4}, c, 3), st::multiply(ceye(4, c), st::astype(Array(4.0), c)));
    for (int flags = 0; flags < 32; ++flags) {
      bool left = flags & 1, lower = flags & 2, trans = flags & 4, unit = flags & 8, conj = flags & 16;
      SCOPED_TRACE(std::string(st::short_name(c)) + " flags " + std::to_string(flags));
      Array b = crnd(left ? st::Shape{2, 4, 3} : st::Shape{2, 3, 4}, c, 5);
      Array x = la::triangular_solve(a, b, left, lower, trans, unit, conj);
      // op(a) from the triangle read, built here.
      Array tri = lower ? st::tril(a, unit ? -1 : 0) : st::triu(a, unit ? 1 : 0);
      if (unit) tri = st::add(tri, ceye(4, c));
      Array op = trans ? mT(tri) : tri;
      if (conj) op = st::conj(op);
      expect_near_c(left ? st::matmul(op, x) : st::matmul(x, op), b, ctol(c, 10), "op(a) x = b");
    }
  }
}

TEST(ComplexLinalg, LuPivotsAsLapack) {
  for (st::DType c : kTypes)
    for (const st::Shape& s : {st::Shape{5, 5}, st::Shape{2, 4, 6}, st::Shape{6, 3}, st::Shape{40, 40}}) {
      SCOPED_TRACE(std::string(st::short_name(c)) + " " + st::shape_string(s));
      Array a = crnd(s, c, 7);
      la::LuResult f = la::lu(a);
      ASSERT_EQ(f.lu.dtype(), c);
      int64_t m = s[s.size() - 2], n = s.back(), k = std::min(m, n);
      st::Shape batch(s.begin(), s.end() - 2);
      // L (m × k, unit diagonal) and U (k × n) out of the packed factor.
      st::Shape ls = batch, us = batch;
      ls.insert(ls.end(), {m, k});
      us.insert(us.end(), {k, n});
      std::vector<int64_t> zero(s.size(), 0), lstop(ls.begin(), ls.end()), ustop(us.begin(), us.end());
      Array packed_l = st::slice(f.lu, zero, lstop);
      Array L = st::add(st::tril(packed_l, -1), st::astype(st::eye(m, k), c));
      Array U = st::triu(st::slice(f.lu, zero, ustop));
      Array rows = st::take_along_axis(a, st::broadcast_to(st::expand_dims(f.permutation, -1), s), -2);
      expect_near_c(st::matmul(L, U), rows, ctol(c, 100), "a[perm] = L U");
      // Partial pivoting on |re| + |im|: every multiplier's modulus is at most √2.
      for (double v : st::abs(L).to_vector<double>()) EXPECT_LE(v, std::sqrt(2.0) + 1e-6);
    }
  // LAPACK's choice where |re| + |im| and the modulus disagree: 2+2i (4 > 3) over 3 (|2+2i| < 3).
  using cd = std::complex<double>;
  Array m = st::array(std::vector<cd>{cd(3, 0), cd(1, 0), cd(2, 2), cd(1, 0)}, {2, 2});
  EXPECT_EQ(la::lu(m).pivots.to_vector<int32_t>(), (std::vector<int32_t>{1, 1}));
  EXPECT_EQ(la::lu(st::astype(m, st::c64)).permutation.to_vector<int32_t>(), (std::vector<int32_t>{1, 0}));
}

TEST(ComplexLinalg, QrUnitaryTimesUpperTriangular) {
  for (st::DType c : kTypes)
    for (const st::Shape& s : {st::Shape{5, 3}, st::Shape{3, 5}, st::Shape{2, 4, 4}})
      for (bool full : {false, true}) {
        SCOPED_TRACE(std::string(st::short_name(c)) + " " + st::shape_string(s) + (full ? " full" : " reduced"));
        Array a = crnd(s, c, 9);
        la::QrResult f = la::qr(a, full);
        expect_near_c(st::matmul(f.q, f.r), a, ctol(c, 10), "q r = a");
        int64_t cols = f.q.shape().back();
        expect_near_c(st::matmul(mH(f.q), f.q), st::broadcast_to(ceye(cols, c), st::matmul(mH(f.q), f.q).shape()),
                      ctol(c, 10), "qᴴ q = I");
        expect_triangular(f.r, false, "r upper");
      }
}

TEST(ComplexLinalg, EighRealEigenvaluesOfHermitianMatrices) {
  for (st::DType c : kTypes)
    for (const st::Shape& s : {st::Shape{5, 5}, st::Shape{3, 4, 4}}) {
      SCOPED_TRACE(std::string(st::short_name(c)) + " " + st::shape_string(s));
      Array x = crnd(s, c, 11);
      Array a = st::add(x, mH(x));  // Hermitian, indefinite
      la::EighResult e = la::eigh(a);
      ASSERT_EQ(e.eigenvalues.dtype(), part(c));
      ASSERT_EQ(e.eigenvectors.dtype(), c);
      Array w = st::astype(st::expand_dims(e.eigenvalues, -2), c);
      expect_near_c(st::matmul(a, e.eigenvectors), st::multiply(e.eigenvectors, w), ctol(c, 100), "a v = v diag(w)");
      Array vhv = st::matmul(mH(e.eigenvectors), e.eigenvectors);
      expect_near_c(vhv, st::broadcast_to(ceye(s.back(), c), vhv.shape()), ctol(c, 10), "vᴴ v = I");
      std::vector<double> wv = e.eigenvalues.to_vector<double>();
      for (size_t i = 0; i + 1 < wv.size(); ++i)
        if ((i + 1) % static_cast<size_t>(s.back())) EXPECT_LE(wv[i], wv[i + 1]) << "ascending";
      // symmetrize_input=false reads the lower triangle only: the same result from a whose
      // upper triangle is garbage.
      Array garbage = st::add(st::tril(a), st::triu(crnd(s, c, 12), 1));
      expect_near(la::eigh(garbage, false).eigenvalues, e.eigenvalues, ctol(c, 10), "lower triangle read");
    }
}

TEST(ComplexLinalg, SvdRealSingularValues) {
  for (st::DType c : kTypes)
    for (const st::Shape& s : {st::Shape{5, 3}, st::Shape{3, 5}, st::Shape{2, 4, 4}})
      for (bool full : {false, true}) {
        SCOPED_TRACE(std::string(st::short_name(c)) + " " + st::shape_string(s) + (full ? " full" : " reduced"));
        Array a = crnd(s, c, 13);
        la::SvdResult f = la::svd(a, full);
        ASSERT_EQ(f.s.dtype(), part(c));
        ASSERT_EQ(f.u.dtype(), c);
        int64_t m = s[s.size() - 2], n = s.back(), k = std::min(m, n);
        // u[:, :k] diag(s) vt[:k, :] = a.
        st::Shape us = f.u.shape(), vs = f.vt.shape();
        std::vector<int64_t> z(s.size(), 0), ustop(us.begin(), us.end()), vstop(vs.begin(), vs.end());
        ustop.back() = k;
        vstop[vstop.size() - 2] = k;
        Array u = st::slice(f.u, z, ustop), vt = st::slice(f.vt, z, vstop);
        Array back = st::matmul(st::multiply(u, st::astype(st::expand_dims(f.s, -2), c)), vt);
        expect_near_c(back, a, ctol(c, 10), "u diag(s) vᴴ = a");
        Array uhu = st::matmul(mH(f.u), f.u);
        expect_near_c(uhu, st::broadcast_to(ceye(f.u.shape().back(), c), uhu.shape()), ctol(c, 10), "uᴴ u = I");
        Array vvh = st::matmul(f.vt, mH(f.vt));
        expect_near_c(vvh, st::broadcast_to(ceye(f.vt.shape()[f.vt.shape().size() - 2], c), vvh.shape()), ctol(c, 10),
                      "vt vtᴴ = I");
        expect_near(la::svdvals(a), f.s, ctol(c, 10), "svdvals");
        (void)m, (void)n;
      }
}

TEST(ComplexLinalg, EigOfComplexMatrices) {
  for (st::DType c : kTypes) {
    SCOPED_TRACE(st::short_name(c));
    Array a = crnd({2, 5, 5}, c, 15);
    la::EigResult e = la::eig(a, true, true);
    ASSERT_EQ(e.eigenvalues.dtype(), c);
    expect_near_c(st::matmul(a, e.eigenvectors), st::multiply(e.eigenvectors, st::expand_dims(e.eigenvalues, -2)),
                  ctol(c, 100), "a v = w v");
    Array uh = mH(e.left_eigenvectors);
    expect_near_c(st::matmul(uh, a), st::multiply(uh, st::expand_dims(e.eigenvalues, -1)), ctol(c, 100), "uᴴ a = w uᴴ");
    // The trace is the sum of the eigenvalues.
    Array trace = st::sum(st::multiply(a, ceye(5, c)), {-2, -1});
    expect_near_c(st::sum(e.eigenvalues, {-1}), trace, ctol(c, 10), "trace");
    expect_same_c(la::eigvals(a), e.eigenvalues, "eigvals");
  }
}

TEST(ComplexLinalg, SolveInvDetSlogdetPinvLstsqNorm) {
  for (st::DType c : kTypes) {
    SCOPED_TRACE(st::short_name(c));
    Array a = st::add(crnd({3, 4, 4}, c, 17), st::multiply(ceye(4, c), st::astype(Array(3.0), c)));
    Array b = crnd({3, 4, 2}, c, 18);
    expect_near_c(st::matmul(a, la::solve(a, b)), b, ctol(c, 10), "a solve(a, b) = b");
    // A real right-hand side is promoted (c64 with f32 stays c64).
    Array br = rnd({3, 4, 2}, part(c), 19);
    Array xr = la::solve(a, br);
    EXPECT_EQ(xr.dtype(), c);
    expect_near_c(st::matmul(a, la::inv(a)), st::broadcast_to(ceye(4, c), {3, 4, 4}), ctol(c, 10), "a inv(a) = I");
    // det = the product of the eigenvalues; slogdet's sign · exp(logabsdet) = det.
    Array d = la::det(a);
    ASSERT_EQ(d.dtype(), c);
    expect_near_c(d, st::prod(la::eigvals(a), {-1}), ctol(c, 100), "det = Π w");
    la::SlogdetResult sl = la::slogdet(a);
    ASSERT_EQ(sl.logabsdet.dtype(), part(c));
    expect_near_c(st::multiply(sl.sign, st::astype(st::exp(sl.logabsdet), c)), d, ctol(c, 100), "sign e^logabsdet");
    expect_near(st::abs(sl.sign), st::ones_like(sl.logabsdet), ctol(c), "|sign| = 1");
    // pinv: a p a = a for a wide matrix; lstsq meets the normal equations aᴴ (a x - b) = 0.
    Array w = crnd({3, 5}, c, 21);
    Array p = la::pinv(w);
    EXPECT_EQ(p.shape(), (st::Shape{5, 3}));
    expect_near_c(st::matmul(st::matmul(w, p), w), w, ctol(c, 100), "a pinv(a) a = a");
    Array tall = crnd({6, 3}, c, 22), rhs = crnd({6}, c, 23);
    la::LstsqResult ls = la::lstsq(tall, rhs);
    Array resid = st::subtract(st::matmul(tall, ls.x), rhs);
    expect_near_c(st::matmul(mH(tall), st::expand_dims(resid, -1)), st::zeros({3, 1}, c), ctol(c, 100), "normal equations");
    ASSERT_EQ(ls.residuals.dtype(), part(c));
    expect_near(ls.residuals, st::reshape(st::sum(st::real(st::multiply(resid, st::conj(resid)))), {1}), ctol(c, 100),
                "residuals = |a x - b|²");
    // norms are real: Frobenius, nuclear (Σ s), 2 (s_max).
    Array fro = la::norm(w);
    ASSERT_EQ(fro.dtype(), part(c));
    expect_near(fro, st::sqrt(st::sum(st::real(st::multiply(w, st::conj(w))))), ctol(c, 10), "fro");
    expect_near(la::norm(w, "nuc"), st::sum(la::svdvals(w)), ctol(c, 10), "nuc");
    EXPECT_EQ(la::norm(st::reshape(w, {15}), 0).dtype(), part(c));
  }
}

TEST(ComplexLinalg, CompiledEqualsEagerAndVmaps) {
  for (st::DType c : kTypes) {
    SCOPED_TRACE(st::short_name(c));
    Array a = hpd({2, 4, 4}, c, 25), b = crnd({2, 4, 3}, c, 26);
    auto f = [](const Array& x, const Array& y) {
      la::EighResult e = la::eigh(x);
      la::SvdResult s = la::svd(y, false);
      la::QrResult q = la::qr(y);
      return std::vector<Array>{la::cholesky(x), la::solve(x, y), e.eigenvalues, e.eigenvectors, s.s, s.u, q.q,
                                la::det(x), la::triangular_solve(x, y, true, true, true, false, true),
                                la::eigvals(x)};
    };
    std::vector<Array> eager = f(a, b);
    std::vector<Array> compiled = st::jit(f)(a, b);
    ASSERT_EQ(eager.size(), compiled.size());
    for (size_t i = 0; i < eager.size(); ++i) {
      SCOPED_TRACE("output " + std::to_string(i));
      if (i == 7)  // det: a product the compiled reduction may associate otherwise
        expect_near_c(compiled[i], eager[i], ctol(c), "jit = eager");
      else if (st::is_complex(eager[i].dtype()))
        expect_same_c(compiled[i], eager[i], "jit = eager");
      else
        expect_same(compiled[i], eager[i], "jit = eager");
    }
    // vmap over the batch gives the batched results.
    Array v = st::vmap([](const Array& x) { return la::cholesky(x); })(a);
    expect_same_c(v, la::cholesky(a), "vmap(cholesky)");
  }
}

// Derivatives of complex matrices (JAX's convention: R-linear JVPs, VJPs their transposes under
// Re Σ a·b): check_grads compares the JVP with finite differences in a random complex direction
// and the VJP with the JVP. Eigen- and singular vectors are defined up to a phase per column,
// so only phase-invariant functions of them are differentiated (|v|, u diag(s) vᴴ).
TEST(ComplexLinalg, DerivativesOfEveryDecomposition) {
  using st::testing::check_grads;
  const st::DType c = st::c128;
  check_grads([](const std::vector<Array>& x) { return la::cholesky(x[0]); }, {hpd({2, 3, 3}, c, 1)}, "cholesky");
  check_grads([](const std::vector<Array>& x) { return la::cholesky(x[0], false); }, {hpd({3, 3}, c, 2)},
              "cholesky of the lower triangle");
  for (int f = 0; f < 32; ++f) {
    bool left = f & 1, lower = f & 2, trans = f & 4, unit = f & 8, conj = f & 16;
    Array a = st::add(crnd({2, 3, 3}, c, 10 + f), ceye(3, c) * c128(4, 1));
    Array b = crnd(left ? st::Shape{2, 3, 2} : st::Shape{2, 2, 3}, c, 50 + f);
    check_grads([=](const std::vector<Array>& x) { return la::triangular_solve(x[0], x[1], left, lower, trans, unit, conj); },
                {a, b}, "triangular_solve flags " + std::to_string(f));
  }
  for (const st::Shape& s : {st::Shape{4, 4}, st::Shape{5, 3}, st::Shape{3, 5}})
    check_grads([](const std::vector<Array>& x) { return la::lu(x[0]).lu; }, {crnd(s, c, 3)}, "lu " + st::shape_string(s));
  for (const st::Shape& s : {st::Shape{4, 4}, st::Shape{5, 3}, st::Shape{2, 4, 2}})
    check_grads([](const std::vector<Array>& x) {
      la::QrResult f = la::qr(x[0]);
      return st::concatenate({st::reshape(f.q, {-1}), st::reshape(f.r, {-1})});
    }, {crnd(s, c, 4)}, "qr " + st::shape_string(s));
  check_grads([](const std::vector<Array>& x) {
    la::EighResult e = la::eigh(x[0]);
    Array w = st::astype(e.eigenvalues, st::c128);
    // v f(w) vᴴ and |v|: phase-invariant.
    Array p = st::matmul(e.eigenvectors * st::reshape(st::exp(w * 0.3), {1, 4}), mH(e.eigenvectors));
    return st::concatenate({st::reshape(p, {-1}), w, st::astype(st::reshape(st::abs(e.eigenvectors), {-1}), st::c128)});
  }, {hpd({4, 4}, c, 5)}, "eigh");
  for (const st::Shape& s : {st::Shape{4, 4}, st::Shape{5, 3}, st::Shape{3, 5}})
    check_grads([](const std::vector<Array>& x) {
      la::SvdResult d = la::svd(x[0], false);
      int64_t k = d.s.shape().back();
      // u diag(s²) vᴴ... as u diag(s) vt weighted, |u|, |vt| and s: phase-invariant.
      Array usv = st::matmul(d.u * st::reshape(st::astype(d.s * d.s, st::c128), {1, k}), d.vt);
      return st::concatenate({st::reshape(usv, {-1}), st::astype(d.s, st::c128),
                              st::astype(st::reshape(st::abs(d.u), {-1}), st::c128),
                              st::astype(st::reshape(st::abs(d.vt), {-1}), st::c128)});
    }, {crnd(s, c, 6)}, "svd " + st::shape_string(s));
  check_grads([](const std::vector<Array>& x) { return la::svdvals(x[0]); }, {crnd({3, 4}, c, 7)}, "svdvals");
  check_grads([](const std::vector<Array>& x) { return la::eigvals(x[0]); }, {crnd({2, 4, 4}, c, 8)}, "eigvals");
}

TEST(ComplexLinalg, DerivativesOfCompositesAndGrad) {
  using st::testing::check_grads;
  const st::DType c = st::c128;
  Array a = st::add(crnd({3, 3}, c, 20), ceye(3, c) * 3.0), b = crnd({3, 2}, c, 21);
  check_grads([](const std::vector<Array>& x) { return la::solve(x[0], x[1]); }, {a, b}, "solve");
  check_grads([](const std::vector<Array>& x) { return la::inv(x[0]); }, {a}, "inv");
  check_grads([](const std::vector<Array>& x) { return la::det(x[0]); }, {a}, "det");
  check_grads([](const std::vector<Array>& x) {
    la::SlogdetResult r = la::slogdet(x[0]);
    return st::concatenate({st::reshape(r.sign, {1}), st::astype(st::reshape(r.logabsdet, {1}), st::c128)});
  }, {a}, "slogdet");
  check_grads([](const std::vector<Array>& x) { return la::pinv(x[0]); }, {crnd({4, 3}, c, 22)}, "pinv");
  // grad of a real loss of a complex matrix, JAX's ∂L/∂x − i ∂L/∂y: log|det A| = Re log det A,
  // and for L = Re h with h holomorphic that is h' — here A⁻ᵀ.
  auto loss = [](const Array& m) { return la::slogdet(m).logabsdet; };
  Array g = st::grad(loss)(a), gj = st::jit(st::grad(loss))(a);
  expect_near_c(g, mT(la::inv(a)), 1e-10, "grad log|det|");
  expect_near_c(gj, g, 1e-12, "jit(grad log|det|)");
  // Holomorphic: d det / dA = det(A) A⁻ᵀ.
  Array gh = st::grad([](const Array& m) { return la::det(m); }, st::holomorphic)(a);
  expect_near_c(gh, mT(la::inv(a)) * la::det(a), 1e-10, "holomorphic grad of det");
}

TEST(ComplexLinalg, BadDtypesNameTheFunction) {
  Array h = st::astype(st::eye(3), st::f16);
  expect_error<st::DTypeError>([&] { la::cholesky(h); }, {"cholesky", "f32, f64, c64 or c128", "f16[3,3]"});
}

}  // namespace
