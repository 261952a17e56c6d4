// eig and schur of complex matrices through tracer/kernels/complex_eigen.cpp (LAPACK's zlahqr
// and ztrevc): both eigen-equations at sizes where the sweeps run long, spectra known in advance
// (a unitary similarity of a diagonal with distinct, clustered and repeated values; defective
// Jordan blocks; a real matrix stored as complex; a diagonal one), the Schur form's defining
// properties, scaling by powers of two, and batch ≡ one matrix ≡ jit bit for bit. The small
// cases and the derivatives are in test_complex_linalg.cpp and test_schur.cpp.
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
constexpr DType kTypes[] = {st::c64, st::c128};

Array crnd(const st::Shape& s, DType c, uint64_t seed) {
  return st::complex(rnd(s, st::real_dtype(c), seed), rnd(s, st::real_dtype(c), seed + 1000));
}

// a v_j = w_j v_j and u_jᴴ a = w_j u_jᴴ to a few ulps of |a| (unit vectors, finite); eigvals
// lists the same eigenvalues bit for bit.
void check_eig(const Array& a, const std::string& what) {
  SCOPED_TRACE(what);
  la::EigResult e = la::eig(a, true, true);
  const int64_t n = a.shape().back();
  const double norm = std::max(max_abs(st::abs(a)), 1e-300) * std::sqrt(double(n)), e0 = eps(st::real_dtype(a.dtype()));
  Array av = st::matmul(a, e.eigenvectors), vw = st::multiply(e.eigenvectors, st::expand_dims(e.eigenvalues, -2));
  EXPECT_LE(max_abs(st::abs(st::subtract(av, vw))), 10 * e0 * n * norm) << "a v = w v";
  Array uh = mH(e.left_eigenvectors);
  Array uha = st::matmul(uh, a), wuh = st::multiply(uh, st::expand_dims(e.eigenvalues, -1));
  EXPECT_LE(max_abs(st::abs(st::subtract(uha, wuh))), 10 * e0 * n * norm) << "uᴴ a = w uᴴ";
  for (const Array& v : {e.eigenvectors, e.left_eigenvectors}) {
    Array norms = st::sum(st::real(st::multiply(v, st::conj(v))), {-2});
    EXPECT_LE(max_abs(st::subtract(norms, st::ones_like(norms))), 10 * e0 * n) << "unit vectors";
  }
  expect_same_c(la::eigvals(a), e.eigenvalues, "eigvals");
  expect_same_c(la::eig(a).eigenvectors, e.eigenvectors, "right vectors alone");
}

// z t zᴴ = a, zᴴ z = I, t upper triangular with exact zeros below the diagonal.
void check_schur(const Array& a, const std::string& what) {
  SCOPED_TRACE(what);
  const int64_t n = a.shape().back();
  const DType c = a.dtype();
  la::SchurResult s = la::schur(a);
  ASSERT_EQ(s.t.dtype(), c);
  const double e0 = eps(st::real_dtype(c)), norm = std::max(max_abs(st::abs(a)), 1e-300) * std::sqrt(double(n));
  EXPECT_LE(max_abs(st::abs(st::subtract(st::matmul(st::matmul(s.z, s.t), mH(s.z)), a))), 10 * e0 * n * norm) << "z t zᴴ";
  EXPECT_LE(max_abs(st::abs(st::subtract(st::matmul(mH(s.z), s.z), st::astype(st::eye(n), c)))), 10 * e0 * n) << "zᴴ z";
  std::vector<Cx> t = complex_values(s.t);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < i; ++j) ASSERT_EQ(t[size_t(i * n + j)], Cx(0, 0)) << i << "," << j;
}

// Each of `want` has an eigenvalue of a within tol (matched by nearest value).
void expect_spectrum(const Array& a, const std::vector<Cx>& want, double tol, const std::string& what) {
  expect_matching_values(complex_values(la::eigvals(a)), want, tol, what);
}

// n/2 distinct values, a tight cluster of n/4 and a value repeated n/4 times.
std::vector<Cx> clustered_spectrum(int64_t n) {
  std::vector<Cx> d;
  for (int64_t k = 0; k < n / 2; ++k) d.emplace_back(std::cos(0.3 * double(k)) * 2, std::sin(0.7 * double(k)));
  for (int64_t k = 0; k < n / 4; ++k) d.emplace_back(0.5 + 1e-7 * double(k), -0.25);
  while (static_cast<int64_t>(d.size()) < n) d.emplace_back(-1, 1);
  return d;
}

// diag(d) as a c128 matrix.
Array diagonal(const std::vector<Cx>& d) {
  std::vector<double> re, im;
  for (const Cx& x : d) re.push_back(x.real()), im.push_back(x.imag());
  const int64_t n = static_cast<int64_t>(d.size());
  return st::multiply(st::astype(st::eye(n), st::c128), st::expand_dims(st::complex(st::array(re, {n}), st::array(im, {n})), 0));
}

// Jordan blocks of `order` (n×n, c128), for values[0], values[1], … in turn.
Array jordan_blocks(int64_t n, const std::vector<Cx>& values, int64_t order) {
  std::vector<double> re(static_cast<size_t>(n * n), 0.0), im = re;
  for (int64_t i = 0; i < n; ++i) {
    const Cx v = values[static_cast<size_t>(i / order) % values.size()];
    re[size_t(i * n + i)] = v.real(), im[size_t(i * n + i)] = v.imag();
    if (i % order != order - 1 && i + 1 < n) re[size_t(i * n + i + 1)] = 1;
  }
  return st::complex(st::array(re, {n, n}), st::array(im, {n, n}));
}

// u m uᴴ (u unitary, c128) as c.
Array similar(const Array& u, const Array& m, DType c) { return st::astype(st::matmul(st::matmul(u, m), mH(u)), c); }

TEST(ComplexEigen, LargeRandomMatrices) {
  for (DType c : kTypes)
    for (int64_t n : {2, 3, 17, 65, 128, 200}) {
      const std::string what = std::string(st::short_name(c)) + " n=" + std::to_string(n);
      Array a = crnd({n, n}, c, static_cast<uint64_t>(n) + 3);
      check_eig(a, what);
      check_schur(a, what);
      // The trace is the eigenvalues' sum.
      const Cx trace = complex_values(st::sum(st::diagonal(st::astype(a, st::c128))))[0];
      const Cx sum = complex_values(st::sum(st::astype(la::eigvals(a), st::c128)))[0];
      EXPECT_LE(std::abs(sum - trace), 100 * eps(st::real_dtype(c)) * double(n * n)) << what;
      if (c == st::c64 && n >= 65)  // against the c128 kernel's eigenvalues of the same matrix
        expect_spectrum(a, complex_values(la::eigvals(st::astype(a, st::c128))), 2e-3 * std::sqrt(double(n)),
                        "c64 against c128, " + what);
    }
}

TEST(ComplexEigen, KnownSpectra) {
  for (DType c : kTypes) {
    const std::string tn(st::short_name(c));
    const double e0 = eps(st::real_dtype(c));
    // U D Uᴴ, U unitary: distinct values, a tight cluster, a repeated value (normal: each
    // eigenvalue within a few ulps of |a|).
    const int64_t n = 120;
    const std::vector<Cx> d = clustered_spectrum(n);
    Array u = la::qr(crnd({n, n}, st::c128, 51)).q, dm = diagonal(d);
    Array a = similar(u, dm, c);
    expect_spectrum(a, d, 1000 * e0, tn + " normal");
    check_eig(a, tn + " normal");
    check_schur(a, tn + " normal");
    // Jordan blocks of order 3 for 1 + i, 2 and −i in turn, moved by a unitary similarity:
    // defective, so only the backward errors are small (and the left vectors finite).
    Array jordan = similar(u, jordan_blocks(n, {{1, 1}, {2, 0}, {0, -1}}, 3), c);
    check_schur(jordan, tn + " Jordan blocks");
    la::EigResult je = la::eig(jordan, true, true);
    for (const Array& x : {je.left_eigenvectors, je.eigenvectors})
      for (double v : st::real(x).to_vector<double>()) ASSERT_TRUE(std::isfinite(v)) << tn;
    // A real matrix stored as complex: the real kernel's eigenvalues (conjugate pairs).
    Array r = rnd({90, 90}, st::real_dtype(c), 52);
    expect_spectrum(st::astype(r, c), complex_values(la::eigvals(r)), 2000 * e0, tn + " real as complex");
    // Diagonal: its entries exactly; the zero matrix: zeros.
    Array diag = st::astype(dm, c);
    std::vector<Cx> dw = complex_values(la::eigvals(diag)), want = complex_values(st::diagonal(diag));
    std::sort(dw.begin(), dw.end(), [](Cx x, Cx y) { return x.real() != y.real() ? x.real() < y.real() : x.imag() < y.imag(); });
    std::sort(want.begin(), want.end(), [](Cx x, Cx y) { return x.real() != y.real() ? x.real() < y.real() : x.imag() < y.imag(); });
    EXPECT_EQ(dw, want) << tn << " diagonal";
    for (const Cx& x : complex_values(la::eigvals(st::zeros({40, 40}, c)))) EXPECT_EQ(x, Cx(0, 0));
    // A power-of-two scaling scales the eigenvalues exactly, to the ends of the exponent range.
    Array small = crnd({50, 50}, c, 53);
    const std::vector<Cx> w0 = complex_values(la::eigvals(small));
    for (double s : c == st::c64 ? std::vector<double>{0x1p-100, 0x1p100} : std::vector<double>{0x1p-900, 0x1p900}) {
      std::vector<Cx> ws = complex_values(la::eigvals(st::multiply(small, st::astype(Array(s), c))));
      for (size_t j = 0; j < w0.size(); ++j) EXPECT_EQ(ws[j], w0[j] * s) << tn << " scaled by " << s;
    }
  }
}

// From 96 rows the iteration deflates early (a window of 40 rows brought to Schur form, its
// converged rows split off) and chases up to 20 bulges at once through GEMMs: random matrices
// over several sweeps and windows, and spectra that stress the deflation — clusters and repeated
// values (many deflate in one window), many zero eigenvalues (rank 20: spikes and reflections
// near underflow), a triangular matrix (the whole block deflates in the first window), conjugate
// pairs of a real matrix, a companion matrix's known roots, and Jordan blocks. (f32 once lost a
// sweep to NaN: a bulge's reflection of entries near underflow, 1 / (x₀ − β) overflowing.)
TEST(ComplexEigen, MultishiftSizes) {
  for (DType c : kTypes) {
    const std::string tn(st::short_name(c));
    const double e0 = eps(st::real_dtype(c));
    for (int64_t n : {97, 300, 420}) {
      const std::string what = tn + " n=" + std::to_string(n);
      Array a = crnd({n, n}, c, static_cast<uint64_t>(n) + 7);
      check_eig(a, what);
      check_schur(a, what);
    }
    const int64_t n = 260;
    const std::vector<Cx> d = clustered_spectrum(n);
    Array u = la::qr(crnd({n, n}, st::c128, 61)).q;
    Array normal = similar(u, diagonal(d), c);
    expect_spectrum(normal, d, 1000 * e0, tn + " normal, clustered and repeated");
    check_eig(normal, tn + " normal");
    check_schur(normal, tn + " normal");
    // Rank 20: 240 zero eigenvalues (to about √ε of |a|, as a defective value), 20 of x yᴴ's.
    Array x = crnd({n, 20}, c, 62), y = crnd({n, 20}, c, 63);
    Array low = st::matmul(x, mH(y));
    check_schur(low, tn + " rank 20");
    std::vector<Cx> lw = complex_values(la::eigvals(low));
    std::sort(lw.begin(), lw.end(), [](Cx p, Cx q) { return std::abs(p) < std::abs(q); });
    const double scale = max_abs(st::abs(low));
    for (int64_t j = 0; j < n - 20; ++j) EXPECT_LE(std::abs(lw[size_t(j)]), 50 * std::sqrt(e0) * scale) << tn << " zero " << j;
    std::vector<Cx> small_w = complex_values(la::eigvals(st::matmul(mH(y), x)));  // the nonzero ones
    expect_matching_values(std::vector<Cx>(lw.end() - 20, lw.end()), small_w, 1e-2 * scale, tn + " rank 20 nonzero");
    // Upper triangular: its diagonal, exactly.
    Array tri = st::triu(crnd({n, n}, c, 64));
    std::vector<Cx> tw = complex_values(la::eigvals(tri)), td = complex_values(st::diagonal(tri));
    auto lexical = [](Cx p, Cx q) { return p.real() != q.real() ? p.real() < q.real() : p.imag() < q.imag(); };
    std::sort(tw.begin(), tw.end(), lexical), std::sort(td.begin(), td.end(), lexical);
    EXPECT_EQ(tw, td) << tn << " triangular";
    // A real matrix stored as complex: the real kernel's eigenvalues.
    Array r = rnd({200, 200}, st::real_dtype(c), 65);
    expect_spectrum(st::astype(r, c), complex_values(la::eigvals(r)), 5000 * e0, tn + " real as complex");
    // The companion matrix of z¹²⁰ − c (c = 0.3 + 0.4i, first row zero but its last entry, ones
    // below the diagonal: already Hessenberg, a cyclic shift): c's 120 roots.
    const int64_t m = 120;
    const Cx cc(0.3, 0.4);
    std::vector<Cx> roots;
    for (int64_t k = 0; k < m; ++k) roots.push_back(std::polar(std::pow(std::abs(cc), 1.0 / double(m)), (std::arg(cc) + 2 * M_PI * double(k)) / double(m)));
    std::vector<double> cre(static_cast<size_t>(m * m), 0.0), cim = cre;
    cre[size_t(m - 1)] = cc.real(), cim[size_t(m - 1)] = cc.imag();
    for (int64_t i = 1; i < m; ++i) cre[size_t(i * m + i - 1)] = 1;
    Array companion = st::astype(st::complex(st::array(cre, {m, m}), st::array(cim, {m, m})), c);
    expect_spectrum(companion, roots, 200 * e0, tn + " companion");
    check_schur(companion, tn + " companion");
    // Jordan blocks of order 4 for 1 + i and −2 in turn under a unitary similarity: defective.
    Array jordan = similar(u, jordan_blocks(n, {{1, 1}, {-2, 0}}, 4), c);
    check_schur(jordan, tn + " Jordan blocks");
  }
}

// Balancing (zgeev's zgebal): a diagonal similarity D A D⁻¹ of a normal A whose entries span
// 2^±88 (c128) or 2^±44 (c64) has A's eigenvalues to A's accuracy, not to ‖D A D⁻¹‖'s; a row
// and a column zero off the diagonal isolate their eigenvalues exactly (the permutation); the
// eigenvectors come back through the scaling and the permutation (a v = w v, uᴴ a = w uᴴ).
TEST(ComplexEigen, BalancedMatrices) {
  for (DType c : kTypes) {
    const std::string tn(st::short_name(c));
    const double e0 = eps(st::real_dtype(c));
    const int64_t n = 12, step = c == st::c128 ? 8 : 4;
    std::vector<Cx> spectrum;
    for (int64_t k = 0; k < n; ++k) spectrum.emplace_back(std::cos(0.9 * double(k)) * (1 + 0.1 * double(k)), std::sin(1.3 * double(k)));
    Array a = similar(la::qr(crnd({n, n}, st::c128, 71)).q, diagonal(spectrum), st::c128);
    std::vector<double> d(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) d[size_t(i)] = std::ldexp(1.0, int(step * (i % 2 ? i : -i)));
    Array dv = st::astype(st::array(d, {n}, st::f64), st::c128);
    Array b = st::astype(st::divide(st::multiply(st::expand_dims(dv, 1), a), st::expand_dims(dv, 0)), c);
    expect_spectrum(b, spectrum, 1e3 * e0, tn + " D A D⁻¹");
    la::EigResult e = la::eig(b, true, true);  // vectors relative to each row's and column's scale
    const int64_t m = n;
    std::vector<Cx> bv = complex_values(st::astype(b, st::c128)), w = complex_values(e.eigenvalues);
    std::vector<Cx> v = complex_values(e.eigenvectors), ul = complex_values(e.left_eigenvectors);
    for (int64_t j = 0; j < m; ++j) {
      double right = 0, left = 0, vnorm = 0, unorm = 0;
      for (int64_t i = 0; i < m; ++i) {
        Cx av = 0, ua = 0;
        for (int64_t k = 0; k < m; ++k) av += bv[size_t(i * m + k)] * v[size_t(k * m + j)], ua += std::conj(ul[size_t(k * m + j)]) * bv[size_t(k * m + i)];
        right = std::max(right, std::abs(av - w[size_t(j)] * v[size_t(i * m + j)]) / d[size_t(i)]);
        left = std::max(left, std::abs(ua - w[size_t(j)] * std::conj(ul[size_t(i * m + j)])) * d[size_t(i)]);
        vnorm = std::max(vnorm, std::abs(v[size_t(i * m + j)]) / d[size_t(i)]);
        unorm = std::max(unorm, std::abs(ul[size_t(i * m + j)]) * d[size_t(i)]);
      }
      EXPECT_LE(right, 1e3 * e0 * vnorm) << tn << " a v = w v, vector " << j;
      EXPECT_LE(left, 1e3 * e0 * unorm) << tn << " uᴴ a = w uᴴ, vector " << j;
    }
    // Row 3 zero but for its diagonal 5 + i and column 7 zero but for −2.5: both exact.
    std::vector<Cx> x = complex_values(crnd({10, 10}, c, 72));
    std::vector<double> xre, xim;
    for (int64_t k = 0; k < 100; ++k) {
      const int64_t i = k / 10, j = k % 10;
      Cx value = x[size_t(k)];
      if (i == 3) value = j == 3 ? Cx(5, 1) : Cx(0);
      if (j == 7) value = i == 7 ? Cx(-2.5, 0) : Cx(0);
      xre.push_back(value.real()), xim.push_back(value.imag());
    }
    Array iso = st::astype(st::complex(st::array(xre, {10, 10}), st::array(xim, {10, 10})), c);
    std::vector<Cx> wi = complex_values(la::eigvals(iso));
    EXPECT_NE(std::find(wi.begin(), wi.end(), Cx(5, 1)), wi.end()) << tn << " isolated 5 + i";
    EXPECT_NE(std::find(wi.begin(), wi.end(), Cx(-2.5, 0)), wi.end()) << tn << " isolated -2.5";
    check_eig(iso, tn + " isolated eigenvalues");
  }
}

TEST(ComplexEigen, BatchedAloneAndJitSameBits) {
  for (DType c : kTypes) {
    Array batch = crnd({3, 130, 130}, c, 54);
    auto decompose = [](const Array& x) {
      la::EigResult e = la::eig(x, true, true);
      la::SchurResult s = la::schur(x);
      return std::vector<Array>{st::real(e.eigenvalues), st::imag(e.eigenvalues), st::real(e.eigenvectors),
                                st::imag(e.eigenvectors), st::real(e.left_eigenvectors), st::imag(e.left_eigenvectors),
                                st::real(s.t),          st::imag(s.t),          st::real(s.z),
                                st::imag(s.z)};
    };
    expect_batch_and_jit_same_bits(decompose, batch);
  }
}

}  // namespace
