// eigh of matrices large enough for the divide-and-conquer kernel (tracer/kernels/
// symmetric_eigen.cpp: n > 64): the defining identities over f32/f64 and Hermitian c64/c128,
// spectra whose merges deflate (repeated, clustered, graded, diagonal, decoupled blocks),
// batched ≡ one by one and jit ≡ eager bit for bit, and the derivative against finite
// differences. The small sizes (Eigen's QR) are covered by test_decompositions.cpp.
#include <algorithm>
#include <cmath>

#include "linalg_test_util.h"

namespace st = strata;
namespace la = strata::linalg;
using st::Array;
using st::DType;
using namespace st::testing;

namespace {

// A V = V diag(w), Vᴴ V = I, w ascending, to a few ulps of |A| per row.
void check_eigh(const Array& a, const std::string& what) {
  SCOPED_TRACE(what);
  la::EighResult e = la::eigh(a);
  const int64_t n = a.shape().back();
  const double scale = std::max(max_abs(a), 1e-300), e0 = eps(a.dtype());
  Array av = st::matmul(a, e.eigenvectors);
  Array vw = st::multiply(e.eigenvectors, st::expand_dims(st::astype(e.eigenvalues, a.dtype()), -2));
  EXPECT_LE(max_abs(st::subtract(av, vw)), 10 * e0 * n * scale) << "A v = λ v";
  Array vhv = st::matmul(mH(e.eigenvectors), e.eigenvectors);
  EXPECT_LE(max_abs(st::subtract(vhv, st::astype(st::eye(n), a.dtype()))), 10 * e0 * n) << "Vᴴ V = I";
  std::vector<double> w = e.eigenvalues.to_vector<double>();
  for (size_t i = 1; i < w.size(); ++i)
    if (i % n) EXPECT_LE(w[i - 1], w[i]);
}

// Q diag(lambda) Qᵀ for a random orthogonal Q.
Array with_spectrum(const std::vector<double>& lambda, DType t, uint64_t seed) {
  const int64_t n = static_cast<int64_t>(lambda.size());
  Array q = la::qr(rnd({n, n}, st::f64, seed)).q;
  Array a = st::matmul(st::multiply(q, st::array(lambda, {1, n}, st::f64)), mT(q));
  return st::astype(st::multiply(st::add(a, mT(a)), st::full({}, 0.5, st::f64)), t);  // exactly symmetric
}

void expect_spectrum(const Array& a, std::vector<double> lambda, const std::string& what) {
  std::sort(lambda.begin(), lambda.end());
  double scale = 0;
  for (double l : lambda) scale = std::max(scale, std::abs(l));
  std::vector<double> w = la::eigh(a).eigenvalues.to_vector<double>();
  ASSERT_EQ(w.size(), lambda.size());
  for (size_t i = 0; i < w.size(); ++i)
    EXPECT_NEAR(w[i], lambda[i], 20 * eps(a.dtype()) * lambda.size() * std::max(scale, 1e-300)) << what << " " << i;
  check_eigh(a, what);
}

TEST(SymmetricEigen, LargeRandomMatrices) {
  for (DType t : {st::f32, st::f64})
    for (int64_t n : {65, 100, 257, 512}) {
      Array x = rnd({n, n}, t, static_cast<uint64_t>(n));
      Array a = st::add(x, mT(x));
      check_eigh(a, std::string(st::short_name(t)) + " n=" + std::to_string(n));
      if (t == st::f32) {  // the eigenvalues of the f32 matrix as the f64 kernel finds them
        std::vector<double> w32 = la::eigh(a).eigenvalues.to_vector<double>(),
                            w64 = la::eigh(st::astype(a, st::f64)).eigenvalues.to_vector<double>();
        const double bound = 10 * eps(t) * n * max_abs(a);
        for (size_t i = 0; i < w32.size(); ++i) EXPECT_NEAR(w32[i], w64[i], bound) << "n=" << n << " " << i;
      }
    }
}

TEST(SymmetricEigen, SpectraThatDeflate) {
  for (DType t : {st::f32, st::f64}) {
    const int64_t n = 300;
    std::vector<double> clustered(n), graded(n), equal(n, 3.0), zero(n, 0.0), pairs(n);
    for (int64_t i = 0; i < n; ++i) {
      clustered[i] = static_cast<double>((i * 7) % 5) - 2;  // 5 values, each 60 times
      graded[i] = std::pow(10.0, -12.0 * i / (n - 1));
      pairs[i] = std::floor(i / 2.0) + (i % 2) * 1e-9;  // pairs closer than f32 can tell apart
    }
    const std::string name = std::string(st::short_name(t));
    expect_spectrum(with_spectrum(clustered, t, 1), clustered, name + " clustered");
    expect_spectrum(with_spectrum(graded, t, 2), graded, name + " graded 1..1e-12");
    expect_spectrum(with_spectrum(pairs, t, 3), pairs, name + " close pairs");
    expect_spectrum(st::astype(st::multiply(st::eye(n), st::full({}, 3.0)), t), equal, name + " 3 I");
    expect_spectrum(st::zeros({n, n}, t), zero, name + " zeros");
    // Diagonal, unsorted: every merge's z is zero but for one entry.
    std::vector<double> diag(n);
    for (int64_t i = 0; i < n; ++i) diag[i] = std::sin(1.0 + i);
    expect_spectrum(st::astype(st::diag(st::array(diag, {n}, st::f64)), t), diag, name + " diagonal");
    // Block diagonal: the off-diagonal entry at a split is zero (β = 0, the merge all deflated).
    Array x = rnd({n / 2, n / 2}, t, 4), y = rnd({n - n / 2, n - n / 2}, t, 5);
    check_eigh(la::block_diag({st::add(x, mT(x)), st::add(y, mT(y))}), name + " two blocks");
    // Wilkinson's W+: diagonal |i - n/2|, ones beside it (pairs of eigenvalues equal to many digits).
    Array i = st::astype(st::arange(n), t);
    Array wilkinson = st::add(st::diag(st::abs(st::subtract(i, st::full({}, n / 2.0, t)))),
                              st::add(st::diag(st::ones({n - 1}, t), 1), st::diag(st::ones({n - 1}, t), -1)));
    check_eigh(wilkinson, name + " Wilkinson");
    // Tiny and huge scales (the kernel scales the tridiagonal matrix to 1).
    Array r = rnd({n, n}, t, 6);
    Array sym = st::add(r, mT(r));
    check_eigh(st::multiply(sym, st::full({}, t == st::f32 ? 1e-30 : 1e-200, t)), name + " tiny");
    check_eigh(st::multiply(sym, st::full({}, t == st::f32 ? 1e30 : 1e200, t)), name + " huge");
  }
}

TEST(SymmetricEigen, HermitianBatchedAndJit) {
  for (DType t : {st::c64, st::c128}) {
    const DType real = t == st::c64 ? st::f32 : st::f64;
    Array z = st::complex(rnd({130, 130}, real, 7), rnd({130, 130}, real, 8));
    check_eigh(st::add(z, mH(z)), std::string(st::short_name(t)));
  }
  Array x = rnd({3, 100, 100}, st::f32, 9);
  Array a = st::add(x, mT(x));
  check_eigh(a, "batched");
  expect_batch_and_jit_same_bits(
      [](const Array& m) {
        la::EighResult e = la::eigh(m);
        return std::vector<Array>{e.eigenvalues, e.eigenvectors};
      },
      a);
}

TEST(SymmetricEigen, DerivativeMatchesFiniteDifferences) {
  const int64_t n = 70;
  Array x = rnd({n, n}, st::f64, 10);
  Array a = st::add(x, mT(x));
  Array c = rnd({n}, st::f64, 11);
  Array u = rnd({n, n}, st::f64, 12);
  Array dir = st::add(u, mT(u));
  // f(A) = Σ c_i λ_i + Σ (vᵀ A v)_{ii}², sensitive to the values and the vectors.
  auto f = [c](const Array& m) {
    la::EighResult e = la::eigh(m);
    Array q = st::matmul(mT(e.eigenvectors), st::matmul(m, e.eigenvectors));
    return st::add(st::sum(st::multiply(c, e.eigenvalues)), st::sum(st::square(st::diagonal(q))));
  };
  Array g = st::grad(f)(a);
  const double h = 1e-6;
  double fd = (f(st::add(a, st::multiply(dir, st::full({}, h, st::f64)))).item<double>() -
               f(st::subtract(a, st::multiply(dir, st::full({}, h, st::f64)))).item<double>()) /
              (2 * h);
  double ad = st::sum(st::multiply(g, dir)).item<double>();
  EXPECT_NEAR(ad, fd, 1e-5 * std::max(1.0, std::abs(fd)));
}

}  // namespace
