// eig and schur of real matrices through tracer/kernels/nonsymmetric_eigen.cpp (LAPACK's
// dlahqr and dtrevc): the eigen-equations at sizes where the QR sweeps run long, spectra known
// in advance (complex pairs placed by an orthogonal similarity, a cyclic shift whose
// eigenvalues all have modulus 1 — the case Francis shifts stall on without exceptional shifts
// —, a companion matrix, triangular, diagonal, decoupled, defective and badly scaled
// matrices), the large real Schur form, and batch ≡ one matrix ≡ jit bit for bit. The small
// cases and the derivatives are in test_eig.cpp and test_schur.cpp.
#include <algorithm>
#include <cmath>
#include <complex>

#include "linalg_test_util.h"

namespace st = strata;
namespace la = strata::linalg;
using st::Array;
using st::DType;
using namespace st::testing;

namespace {

using Cx = std::complex<double>;

// A v_j = w_j v_j and u_jᴴ A = w_j u_jᴴ for every column to a few ulps of |A| (unit vectors),
// and the eigenvalues of a real matrix in conjugate pairs, the one with the positive imaginary
// part first.
void check_eig(const Array& a, const std::string& what, double slack = 1) {
  SCOPED_TRACE(what);
  la::EigResult e = la::eig(a, true, true);
  const int64_t n = a.shape().back();
  const DType c = a.dtype() == st::f64 ? st::c128 : st::c64;
  const double norm = std::max(max_abs(a), 1e-300) * std::sqrt(double(n)), e0 = eps(a.dtype());
  Array av = st::matmul(st::astype(a, c), e.eigenvectors);
  Array vw = st::multiply(e.eigenvectors, st::expand_dims(e.eigenvalues, -2));
  EXPECT_LE(max_abs(st::subtract(av, vw)), slack * 10 * e0 * n * norm) << "A v = w v";
  Array uh = mH(e.left_eigenvectors);
  Array uha = st::matmul(uh, st::astype(a, c)), wuh = st::multiply(uh, st::expand_dims(e.eigenvalues, -1));
  EXPECT_LE(max_abs(st::subtract(uha, wuh)), slack * 10 * e0 * n * norm) << "uᴴ A = w uᴴ";
  for (const Array& v : {e.eigenvectors, e.left_eigenvectors}) {
    Array norms = st::sum(st::real(st::multiply(v, st::conj(v))), {-2});
    EXPECT_LE(max_abs(st::subtract(norms, st::ones_like(norms))), 10 * e0 * n) << "unit vectors";
  }
  expect_same_c(la::eig(a).eigenvectors, e.eigenvectors, "right vectors alone");
  std::vector<Cx> w = complex_values(e.eigenvalues);
  for (size_t j = 0; j < w.size(); ++j) {
    if (w[j].imag() == 0) continue;
    ASSERT_GT(w[j].imag(), 0) << "pair at " << j << " starts with the negative imaginary part";
    ASSERT_LT(j + 1, w.size());
    EXPECT_EQ(w[j + 1], std::conj(w[j])) << "pair at " << j;
    ++j;
  }
  // eigvals lists the same eigenvalues in the same order, bit for bit.
  expect_same_c(la::eigvals(a), e.eigenvalues, "eigvals");
}

// Each of `want` has an eigenvalue of a within tol (matched by nearest value).
void expect_spectrum(const Array& a, const std::vector<Cx>& want, double tol, const std::string& what) {
  expect_matching_values(complex_values(la::eigvals(a)), want, tol, what);
}

// Q B Qᵀ for a random orthogonal Q (n×n, f64, then cast), B block diagonal with the 1×1 blocks
// `real` and, per complex pair a ± bi, the 2×2 block [a b; −b a]: a matrix with that spectrum.
Array with_spectrum(const std::vector<double>& real, const std::vector<Cx>& pairs, DType t, uint64_t seed,
                    std::vector<Cx>& spectrum) {
  const int64_t n = static_cast<int64_t>(real.size() + 2 * pairs.size());
  std::vector<double> b(static_cast<size_t>(n * n), 0.0);
  int64_t k = 0;
  spectrum.clear();
  for (double r : real) b[size_t(k * n + k)] = r, spectrum.emplace_back(r, 0), ++k;
  for (const Cx& p : pairs) {
    b[size_t(k * n + k)] = b[size_t((k + 1) * n + k + 1)] = p.real();
    b[size_t(k * n + k + 1)] = p.imag(), b[size_t((k + 1) * n + k)] = -p.imag();
    spectrum.push_back(p), spectrum.push_back(std::conj(p));
    k += 2;
  }
  Array q = la::qr(rnd({n, n}, st::f64, seed)).q;
  return st::astype(st::matmul(st::matmul(q, st::array(b, {n, n}, st::f64)), mT(q)), t);
}

TEST(NonsymmetricEigen, LargeRandomMatrices) {
  for (DType t : {st::f32, st::f64})
    for (int64_t n : {2, 3, 17, 65, 128, 256}) {
      Array a = rnd({n, n}, t, static_cast<uint64_t>(n) + 7);
      check_eig(a, std::string(st::short_name(t)) + " n=" + std::to_string(n));
      // The trace is the eigenvalues' sum.
      const double trace = st::sum(st::multiply(st::astype(a, st::f64), st::eye(n, -1, 0, st::f64))).item<double>();
      const double sum = st::sum(st::real(st::astype(la::eigvals(a), st::c128))).item<double>();
      EXPECT_NEAR(sum, trace, 100 * eps(t) * n * n) << n;
      if (t == st::f32 && n >= 65) {  // the f64 kernel's eigenvalues of the same matrix
        std::vector<Cx> w64 = complex_values(la::eigvals(st::astype(a, st::f64)));
        expect_spectrum(a, w64, 2e-3 * std::sqrt(double(n)), "f32 against f64, n=" + std::to_string(n));
      }
    }
}

TEST(NonsymmetricEigen, KnownSpectra) {
  for (DType t : {st::f32, st::f64}) {
    const double e0 = eps(t);
    const std::string tn(st::short_name(t));
    std::vector<Cx> spectrum;
    // Real eigenvalues and complex pairs, some of them close or equal in modulus.
    std::vector<double> real;
    std::vector<Cx> pairs;
    for (int i = 0; i < 40; ++i) real.push_back(std::sin(1.0 + i) * 3);
    for (int i = 0; i < 30; ++i) pairs.emplace_back(std::cos(2.0 + i), 0.1 + 0.05 * i);
    Array a = with_spectrum(real, pairs, t, 3, spectrum);
    expect_spectrum(a, spectrum, 1e3 * e0 * 10, tn + " placed spectrum");
    check_eig(a, tn + " placed spectrum");
    // The cyclic shift (x_i ← x_{i+1}): the n-th roots of unity.
    for (int64_t n : {8, 64, 101}) {
      std::vector<double> p(static_cast<size_t>(n * n), 0.0);
      for (int64_t i = 0; i < n; ++i) p[size_t(i * n + (i + 1) % n)] = 1;
      Array shift = st::array(p, {n, n}, t);
      std::vector<Cx> roots;
      for (int64_t k = 0; k < n; ++k) roots.push_back(std::polar(1.0, 2 * M_PI * double(k) / double(n)));
      expect_spectrum(shift, roots, 1e3 * e0, tn + " cyclic shift n=" + std::to_string(n));
      check_eig(shift, tn + " cyclic shift n=" + std::to_string(n));
    }
    // The companion matrix of (x − 1)(x − 2)⋯(x − 8) (ill-conditioned: a looser bound).
    {
      std::vector<double> coef = {1};  // the polynomial's coefficients, highest first
      for (int r = 1; r <= 8; ++r) {
        coef.push_back(0);
        for (size_t i = coef.size() - 1; i > 0; --i) coef[i] -= r * coef[i - 1];
      }
      std::vector<double> c(64, 0.0);
      for (int j = 0; j < 8; ++j) c[size_t(j)] = -coef[size_t(j + 1)];
      for (int i = 1; i < 8; ++i) c[size_t(i * 8 + i - 1)] = 1;
      std::vector<Cx> roots;
      for (int r = 1; r <= 8; ++r) roots.emplace_back(r, 0);
      expect_spectrum(st::array(c, {8, 8}, t), roots, t == st::f64 ? 1e-6 : 0.5, tn + " companion");
    }
    // Upper triangular (already a Schur form), diagonal out of order, a multiple of I, zeros.
    {
      Array u = st::triu(rnd({90, 90}, t, 4));
      std::vector<double> d = st::diagonal(u).to_vector<double>();
      std::vector<Cx> want(d.begin(), d.end());
      expect_spectrum(u, want, 10 * e0, tn + " triangular");
      check_eig(u, tn + " triangular");
      Array diag = st::multiply(st::eye(90, -1, 0, t), st::expand_dims(st::diagonal(u), 0));
      expect_spectrum(diag, want, 0, tn + " diagonal");
      check_eig(diag, tn + " diagonal");
      Array three = st::multiply(st::eye(70, -1, 0, t), st::full({}, 3.0, t));
      expect_spectrum(three, std::vector<Cx>(70, Cx(3, 0)), 0, tn + " 3 I");
      check_eig(three, tn + " 3 I");
      expect_spectrum(st::zeros({70, 70}, t), std::vector<Cx>(70, Cx(0, 0)), 0, tn + " zeros");
    }
    // Two decoupled blocks (a zero subdiagonal at the split from the start) and a defective
    // Jordan block (eigenvalue 2 of multiplicity 6 splits by about eps^(1/6)).
    {
      Array x = rnd({80, 80}, t, 5);
      std::vector<double> mask(80 * 80, 0.0);
      for (int i = 0; i < 80; ++i)
        for (int k = 0; k < 80; ++k) mask[size_t(i * 80 + k)] = (i < 40) == (k < 40);
      check_eig(st::multiply(x, st::array(mask, {80, 80}, t)), tn + " two blocks");
      std::vector<double> j(36, 0.0);
      for (int i = 0; i < 6; ++i) j[size_t(i * 6 + i)] = 2;
      for (int i = 0; i < 5; ++i) j[size_t(i * 6 + i + 1)] = 1;
      expect_spectrum(st::array(j, {6, 6}, t), std::vector<Cx>(6, Cx(2, 0)), 4 * std::pow(e0, 1.0 / 6), tn + " Jordan");
    }
    // Tiny and huge entries (the power-of-two scaling): the spectrum scales with them.
    for (double s : t == st::f32 ? std::vector<double>{1e-30, 1e30} : std::vector<double>{1e-200, 1e200}) {
      Array scaled = st::astype(st::multiply(st::astype(a, st::f64), st::full({}, s, st::f64)), t);
      std::vector<Cx> want;
      for (const Cx& x : spectrum) want.push_back(x * s);
      expect_spectrum(scaled, want, 1e4 * e0 * s, tn + " scaled by " + std::to_string(s));
      check_eig(scaled, tn + " scaled");
    }
  }
}

// Balancing (geev's dgebal): a diagonal similarity D A D⁻¹ whose entries span 2^±88 (f64) or
// 2^±44 (f32) has A's eigenvalues to A's accuracy, not to ‖D A D⁻¹‖'s; a companion matrix whose
// roots span eight orders of magnitude has each root to a relative error; rows and columns zero
// off the diagonal isolate their eigenvalues exactly (the permutation), and the eigenvectors
// come back through the scaling and the permutation (A v = w v).
TEST(NonsymmetricEigen, BalancedMatrices) {
  for (DType t : {st::f32, st::f64}) {
    const double e0 = eps(t);
    const std::string tn(st::short_name(t));
    std::vector<Cx> spectrum;
    Array a = with_spectrum({1.5, -0.75, 0.5, 2.25, -1.25, 0.25}, {{0.5, 1.0}, {-1.0, 0.5}, {1.75, 0.25}}, st::f64, 31,
                            spectrum);
    const int64_t n = 12, step = t == st::f64 ? 8 : 4;
    std::vector<double> d(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) d[size_t(i)] = std::ldexp(1.0, int(step * (i % 2 ? i : -i)));
    Array dv = st::array(d, {n}, st::f64);
    Array b = st::astype(st::divide(st::multiply(st::expand_dims(dv, 1), a), st::expand_dims(dv, 0)), t);
    expect_spectrum(b, spectrum, 1e3 * e0, tn + " D A D⁻¹");
    check_eig(b, tn + " D A D⁻¹");
    if (t == st::f64) {  // (x - 1e-4)(x - 1e-2)(x - 1)(x - 1e2)(x - 1e4): a companion matrix
      const std::vector<double> roots = {1e-4, 1e-2, 1, 1e2, 1e4};
      std::vector<double> coef = {1};
      for (double r : roots) {
        coef.push_back(0);
        for (size_t i = coef.size() - 1; i > 0; --i) coef[i] -= r * coef[i - 1];
      }
      std::vector<double> c(25, 0.0);
      for (int j = 0; j < 5; ++j) c[size_t(j)] = -coef[size_t(j + 1)];
      for (int i = 1; i < 5; ++i) c[size_t(i * 5 + i - 1)] = 1;
      std::vector<Cx> got = complex_values(la::eigvals(st::array(c, {5, 5}, st::f64)));
      for (double r : roots) {
        double best = 1e300;
        for (const Cx& g : got) best = std::min(best, std::abs(g - r) / r);
        EXPECT_LE(best, 1e-9) << "root " << r;
      }
    }
    // Row 3 zero but for its diagonal 5 and column 7 zero but for -2.5: both eigenvalues exact.
    Array x = rnd({10, 10}, t, 33);
    std::vector<double> m = x.to_vector<double>();
    for (int64_t k = 0; k < 10; ++k) m[size_t(3 * 10 + k)] = k == 3 ? 5.0 : 0.0, m[size_t(k * 10 + 7)] = k == 7 ? -2.5 : 0.0;
    Array iso = st::array(m, {10, 10}, t);
    std::vector<Cx> w = complex_values(la::eigvals(iso));
    EXPECT_NE(std::find(w.begin(), w.end(), Cx(5, 0)), w.end()) << tn << " isolated 5";
    EXPECT_NE(std::find(w.begin(), w.end(), Cx(-2.5, 0)), w.end()) << tn << " isolated -2.5";
    check_eig(iso, tn + " isolated eigenvalues");
  }
}

// z t zᵀ = a, zᵀ z = I, t quasi-triangular with LAPACK's standard 2×2 blocks.
void check_schur(const Array& a, const std::string& what) {
  SCOPED_TRACE(what);
  const DType t = a.dtype();
  const int64_t n = a.shape().back();
  la::SchurResult s = la::schur(a);
  const double e0 = eps(t), norm = max_abs(a) * std::sqrt(double(n));
  EXPECT_LE(max_abs(st::subtract(st::matmul(st::matmul(s.z, s.t), mT(s.z)), a)), 10 * e0 * n * norm) << "z t zᵀ = a";
  EXPECT_LE(max_abs(st::subtract(st::matmul(mT(s.z), s.z), st::eye(n, -1, 0, t))), 10 * e0 * n) << "zᵀ z = I";
  std::vector<double> tv = s.t.to_vector<double>();
  auto at = [&](int64_t i, int64_t j) { return tv[size_t(i * n + j)]; };
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j + 1 < i; ++j) ASSERT_EQ(at(i, j), 0) << i << "," << j;
  for (int64_t i = 0; i + 1 < n; ++i) {
    if (at(i + 1, i) == 0) continue;
    EXPECT_EQ(at(i, i), at(i + 1, i + 1)) << "block at " << i << ": equal diagonal";
    EXPECT_LT(at(i, i + 1) * at(i + 1, i), 0) << "block at " << i << ": b c < 0";
    if (i + 2 < n) EXPECT_EQ(at(i + 2, i + 1), 0) << "blocks at " << i << " overlap";
    ++i;
  }
}

TEST(NonsymmetricEigen, LargeRealSchurForm) {
  for (DType t : {st::f32, st::f64}) check_schur(rnd({150, 150}, t, 21), std::string(st::short_name(t)));
}

// Blocks of 96 rows or more deflate early (dlaqr3): the trailing window's Schur form, its
// converged blocks kept and the others moved up past them (dlaexc's swaps of 1×1 and 2×2
// blocks). Spectra that make those swaps hard: tight and exact clusters of real values and of
// complex pairs (a swap of nearly equal blocks is refused and the block stays where it is), and
// Jordan blocks (non-normal: only the Schur form's backward error is defined).
TEST(NonsymmetricEigen, EarlyDeflationOfClusteredSpectra) {
  for (DType t : {st::f32, st::f64}) {
    const std::string tn(st::short_name(t));
    const double e0 = eps(t);
    std::vector<double> real;
    std::vector<Cx> pairs, spectrum;
    for (int k = 0; k < 40; ++k) real.push_back(1 + 1e-7 * k);
    for (int k = 0; k < 20; ++k) real.push_back(2);
    for (int k = 0; k < 30; ++k) pairs.emplace_back(-0.5 + 1e-7 * k, 0.8);
    for (int k = 0; k < 10; ++k) pairs.emplace_back(0.25, 1.5);
    Array a = with_spectrum(real, pairs, st::f64, 41, spectrum);  // n = 160, a normal matrix
    Array at = st::astype(a, t);
    expect_spectrum(at, spectrum, 200 * e0 * 2, tn + " clusters");
    check_schur(at, tn + " clusters");
    check_eig(at, tn + " clusters");
    // Jordan blocks of order 4 with eigenvalues 1 and −1, and their complex kin [C I; 0 C] with
    // C = [0.5 1; −1 0.5] (a defective pair 0.5 ± i: swaps of those 2×2 blocks are refused),
    // in turn, moved by a random orthogonal similarity.
    const int64_t n = 120;
    std::vector<double> j(static_cast<size_t>(n * n), 0.0);
    for (int64_t b = 0; b < n; b += 4) {
      auto set = [&](int64_t r, int64_t c, double v) { j[size_t((b + r) * n + b + c)] = v; };
      if (b / 4 % 3 < 2) {
        for (int64_t r = 0; r < 4; ++r) set(r, r, b / 4 % 3 == 0 ? 1 : -1);
        for (int64_t r = 0; r < 3; ++r) set(r, r + 1, 1);
      } else {
        for (int64_t r : {0, 2}) set(r, r, 0.5), set(r + 1, r + 1, 0.5), set(r, r + 1, 1), set(r + 1, r, -1);
        set(0, 2, 1), set(1, 3, 1);
      }
    }
    Array q = la::qr(rnd({n, n}, st::f64, 43)).q;
    Array jordan = st::astype(st::matmul(st::matmul(q, st::array(j, {n, n}, st::f64)), mT(q)), t);
    check_schur(jordan, tn + " Jordan blocks");
    // The eigenvalues' sum is the trace (each cluster's mean is well conditioned).
    const double sum = st::sum(st::real(st::astype(la::eigvals(jordan), st::c128))).item<double>();
    const double trace = st::sum(st::multiply(st::astype(jordan, st::f64), st::eye(n, -1, 0, st::f64))).item<double>();
    EXPECT_NEAR(sum, trace, 100 * e0 * n * n) << tn;
  }
}

TEST(NonsymmetricEigen, BatchedAloneAndJitSameBits) {
  for (DType t : {st::f32, st::f64}) {
    Array batch = rnd({3, 140, 140}, t, 8);
    auto decompose = [](const Array& x) {
      la::EigResult e = la::eig(x);
      la::SchurResult s = la::schur(x);
      return std::vector<Array>{st::real(e.eigenvalues), st::imag(e.eigenvalues), st::real(e.eigenvectors),
                                st::imag(e.eigenvectors), st::real(la::eigvals(x)), s.t, s.z};
    };
    expect_batch_and_jit_same_bits(decompose, batch);
  }
}

}  // namespace
