// The blocked complex Hessenberg reduction (tracer/kernels/complex_hessenberg.h) against its
// definition, in double precision: H = Qᴴ a Q upper Hessenberg with exact zeros below the
// subdiagonal, Q unitary (from Qᵀ as returned), Q H Qᴴ = a; sizes below one panel of 32
// reflections, at and just past one, mid-panel and after several; f32 and f64; reflections that
// are the identity (a zero column, an input that is Hessenberg already); tiny entries; H's bits
// the same without Q, on one thread as across the pool, and wherever the buffers lie.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/complex_hessenberg.h"
#include "kernels/parallel.h"
#include "one_thread.h"

namespace k = strata::kernels;
using strata::testing::on_one_thread;

namespace {

using Z = std::complex<double>;

// Entries with |re|, |im| ≤ 0.7 (|entry| < 1, as the caller scales).
std::vector<Z> random_matrix(int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-0.7, 0.7);
  std::vector<Z> a(static_cast<size_t>(n * n));
  for (Z& x : a) {
    const double re = u(gen);
    x = Z(re, u(gen));
  }
  return a;
}

template <class T>
std::vector<std::complex<T>> cast(const std::vector<Z>& a) {
  std::vector<std::complex<T>> out(a.size());
  for (size_t i = 0; i < a.size(); ++i) out[i] = std::complex<T>(T(a[i].real()), T(a[i].imag()));
  return out;
}

double frobenius(const std::vector<Z>& a) {
  double s = 0;
  for (const Z& x : a) s += std::norm(x);
  return std::sqrt(s);
}

// a (as T) reduced: zeros below the subdiagonal, ‖QᴴQ − I‖ and ‖Q H Qᴴ − a‖ (Frobenius, the
// latter against ‖a‖) within 4·n·ε, and H's bits the same without Q.
template <class T>
void check(const std::vector<Z>& a64, int64_t n, const std::string& what) {
  SCOPED_TRACE(what + ", n=" + std::to_string(n) + (sizeof(T) == 4 ? ", f32" : ", f64"));
  const std::vector<std::complex<T>> a = cast<T>(a64);
  std::vector<std::complex<T>> h = a, h_alone = a, qt(a.size());
  k::complex_hessenberg(h.data(), qt.data(), n);
  k::complex_hessenberg(h_alone.data(), static_cast<std::complex<T>*>(nullptr), n);
  EXPECT_EQ(h, h_alone) << "H without Q";
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j + 1 < i; ++j)
      ASSERT_EQ(h[size_t(i * n + j)], std::complex<T>(0)) << "H[" << i << "," << j << "]";
  // Q (n×n) from Qᵀ; exact values (the inputs as T) in double.
  std::vector<Z> q(a.size()), hd(a.size()), ad(a.size());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      q[size_t(i * n + j)] = Z(qt[size_t(j * n + i)]);
      hd[size_t(i * n + j)] = Z(h[size_t(i * n + j)]);
      ad[size_t(i * n + j)] = Z(a[size_t(i * n + j)]);
    }
  std::vector<Z> qh(a.size(), Z(0)), gram(a.size(), Z(0)), residual(a.size(), Z(0));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t l = 0; l < n; ++l) {
      const Z x = q[size_t(i * n + l)], cx = std::conj(q[size_t(l * n + i)]);  // Q(i, l), Qᴴ(i, l)
      for (int64_t j = 0; j < n; ++j) {
        qh[size_t(i * n + j)] += x * hd[size_t(l * n + j)];
        gram[size_t(i * n + j)] += cx * q[size_t(l * n + j)];
      }
    }
  for (int64_t i = 0; i < n; ++i) {
    gram[size_t(i * n + i)] -= 1.0;
    for (int64_t j = 0; j < n; ++j) {
      Z s = 0;
      for (int64_t l = 0; l < n; ++l) s += qh[size_t(i * n + l)] * std::conj(q[size_t(j * n + l)]);
      residual[size_t(i * n + j)] = s - ad[size_t(i * n + j)];
    }
  }
  const double tol = 4.0 * double(std::max<int64_t>(n, 1)) * double(std::numeric_limits<T>::epsilon());
  EXPECT_LE(frobenius(gram), tol) << "‖QᴴQ − I‖";
  EXPECT_LE(frobenius(residual), tol * std::max(frobenius(ad), 1e-300)) << "‖Q H Qᴴ − a‖ / ‖a‖";
}

}  // namespace

TEST(ComplexHessenberg, RandomSizes) {
  for (int64_t n : {1, 2, 3, 5, 17, 31, 32, 33, 64, 65, 100, 130, 257, 300}) {
    const std::vector<Z> a = random_matrix(n, 10 + unsigned(n));
    check<float>(a, n, "random");
    check<double>(a, n, "random");
  }
}

// Reflections that are the identity (tau = 0): a zero column (the first, and one mid-panel),
// a matrix that is Hessenberg already with a real subdiagonal (every reflection), a real upper
// triangular one; and a matrix of zeros.
TEST(ComplexHessenberg, IdentityReflections) {
  for (int64_t n : {5, 40, 70}) {
    const std::vector<Z> r = random_matrix(n, 50 + unsigned(n));
    std::vector<Z> zero_columns = r, hess = r, upper = r, zeros(r.size(), Z(0));
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        Z& x = hess[size_t(i * n + j)];
        if (j + 1 < i) x = 0;
        if (j + 1 == i) x = x.real();
        Z& y = upper[size_t(i * n + j)];
        y = j < i ? Z(0) : Z(y.real());
        if (j == 0 || j == n / 2) zero_columns[size_t(i * n + j)] = 0;
      }
    for (auto [m, what] : {std::pair{&zero_columns, "zero columns"}, std::pair{&hess, "Hessenberg"},
                           std::pair{&upper, "real upper triangular"}, std::pair{&zeros, "zeros"}}) {
      check<float>(*m, n, what);
      check<double>(*m, n, what);
    }
    // Hessenberg with a real subdiagonal: nothing to do, H = a bit for bit and Q = I.
    std::vector<std::complex<double>> h = hess, qt(hess.size());
    k::complex_hessenberg(h.data(), qt.data(), n);
    EXPECT_EQ(h, hess);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) ASSERT_EQ(qt[size_t(i * n + j)], Z(i == j ? 1.0 : 0.0));
  }
}

// Tiny entries (2⁻⁷⁰ in f32, 2⁻⁵⁵⁰ in f64: their squares underflow, so larfg rescales first):
// a whole matrix of them (the error bound is relative to its norm), and half of its columns next
// to entries near 1.
TEST(ComplexHessenberg, TinyEntries) {
  for (int64_t n : {9, 45}) {
    const std::vector<Z> r = random_matrix(n, 80 + unsigned(n));
    for (int e : {70, 550}) {
      std::vector<Z> tiny = r, columns = r;
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) {
          tiny[size_t(i * n + j)] *= std::ldexp(1.0, -e);
          if (j < n / 2) columns[size_t(i * n + j)] *= std::ldexp(1.0, -e);
        }
      if (e == 70) {
        check<float>(tiny, n, "tiny matrix");
        check<float>(columns, n, "tiny columns");
      } else {
        check<double>(tiny, n, "tiny matrix");
        check<double>(columns, n, "tiny columns");
      }
    }
  }
}

TEST(ComplexHessenberg, DoesNotDependOnTheThreadCountOrAddresses) {
  const int64_t n = 301;
  auto run = [&](auto one) {
    using T = decltype(one);
    const std::vector<std::complex<T>> a = cast<T>(random_matrix(n, 60));
    std::vector<std::complex<T>> h1 = a, h2 = a, q1(a.size()), q2(a.size());
    on_one_thread([&] { k::complex_hessenberg(h1.data(), q1.data(), n); });
    k::complex_hessenberg(h2.data(), q2.data(), n);
    EXPECT_EQ(h1, h2);
    EXPECT_EQ(q1, q2);
    // The same matrix one element further into its buffers.
    std::vector<std::complex<T>> h3(a.size() + 1), q3(a.size() + 1);
    std::copy(a.begin(), a.end(), h3.begin() + 1);
    k::complex_hessenberg(h3.data() + 1, q3.data() + 1, n);
    EXPECT_TRUE(std::equal(h2.begin(), h2.end(), h3.begin() + 1));
    EXPECT_TRUE(std::equal(q2.begin(), q2.end(), q3.begin() + 1));
  };
  run(float(0));
  run(double(0));
}
