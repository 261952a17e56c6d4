// tracer/kernels/complex_eigen.cpp — see complex_eigen.h: the drivers (scaling, Hessenberg
// reduction, the QR iteration of complex_schur.cpp) and ztrevc's substitutions. Row-major.
#include "complex_eigen.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "balance.h"
#include "complex_hessenberg.h"
#include "householder.h"
#include "parallel.h"
#include "schur_common.h"

namespace strata::kernels {
namespace {

template <class T>
using C = std::complex<T>;

// Σ a[j]·b[j] in 4 fixed lanes and a fixed tree: the same bits wherever the vectors lie.
template <class T>
C<T> complex_dot(const C<T>* a, const C<T>* b, int64_t len) {
  constexpr int kLanes = 4;
  T re[kLanes] = {}, im[kLanes] = {};
  int64_t j = 0;
  for (; j + kLanes <= len; j += kLanes)
    for (int l = 0; l < kLanes; ++l) {
      const C<T> x = a[j + l], y = b[j + l];
      re[l] += x.real() * y.real() - x.imag() * y.imag();
      im[l] += x.real() * y.imag() + x.imag() * y.real();
    }
  T tr = 0, ti = 0;
  for (; j < len; ++j) {
    const C<T> x = a[j], y = b[j];
    tr += x.real() * y.real() - x.imag() * y.imag();
    ti += x.real() * y.imag() + x.imag() * y.real();
  }
  return {((re[0] + re[2]) + (re[1] + re[3])) + tr, ((im[0] + im[2]) + (im[1] + im[3])) + ti};
}

// a·2^-e with the power of two that brings a's largest |re| or |im| into [1/2, 1) (exact).
template <class T>
int scale_down(const C<T>* a, C<T>* h, int64_t n) {
  T largest = 0;
  for (int64_t i = 0; i < n * n; ++i) largest = std::max({largest, std::abs(a[i].real()), std::abs(a[i].imag())});
  const int e = largest > T(0) ? std::ilogb(largest) + 1 : 0;
  for (int64_t i = 0; i < n * n; ++i) h[i] = C<T>(std::ldexp(a[i].real(), -e), std::ldexp(a[i].imag(), -e));
  return e;
}

// h (scaled a) ← its Hessenberg form Qᴴ h Q, zt ← Qᵀ (when not null): the blocked reduction
// (complex_hessenberg.h) where it suits, Eigen's one reflection at a time below, where its fixed
// costs are lower.
template <class T>
void to_hessenberg(C<T>* h, C<T>* zt, int64_t n) {
  if (complex_hessenberg_suits<T>(n)) return complex_hessenberg(h, zt, n);
  using Col = Eigen::Matrix<C<T>, Eigen::Dynamic, Eigen::Dynamic>;
  using Row = Eigen::Matrix<C<T>, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::HessenbergDecomposition<Col> d(Col(Eigen::Map<Row>(h, n, n)));
  Eigen::Map<Row>(h, n, n) = d.matrixH();
  if (zt) Eigen::Map<Row>(zt, n, n) = Col(d.matrixQ()).transpose();
}

// The eigenvector of the upper triangular t (n×n, scaled) for the eigenvalue at row k (ztrevc):
// right (t x = λ x: x[k] = 1, back substitution along t's rows above k) or, given tt = tᵀ,
// left (the y with tᵀ y = λ y: y[k] = 1, forward substitution along tt's rows below k; the left
// vector is conj(y)). Pivots below smin raised to it; the vector scaled down where it would pass
// big; then to a largest |re| + |im| of 1.
template <class T>
void substitute(const C<T>* t, int64_t n, int64_t k, bool left, C<T>* x, T smlnum, T big) {
  const C<T> lambda = t[k * n + k];
  const T smin = std::max(std::numeric_limits<T>::epsilon() * magnitude(lambda), smlnum);
  x[k] = C<T>(1);
  int64_t lo = k, hi = k;  // the solved components
  auto scale = [&](T s) {
    for (int64_t j = lo; j <= hi; ++j) x[j] *= s;
  };
  auto solve = [&](int64_t j, C<T> r) { x[j] = solve1(r, t[j * n + j] - lambda, smin, big, scale); };
  if (!left) {
    for (int64_t j = k - 1; j >= 0; --j, --lo) solve(j, -complex_dot(t + j * n + j + 1, x + j + 1, k - j));
  } else {
    for (int64_t j = k + 1; j < n; ++j, ++hi) solve(j, -complex_dot(t + j * n + k, x + k, j - k));
  }
  T largest = 0;
  for (int64_t j = lo; j <= hi; ++j) largest = std::max(largest, magnitude(x[j]));
  scale(T(1) / largest);
}

}  // namespace

template <class T>
bool complex_schur_form(const C<T>* a, C<T>* t, C<T>* z, int64_t n) {
  if (n == 0) return true;
  std::vector<C<T>> h(static_cast<size_t>(n * n)), zt(z ? static_cast<size_t>(n * n) : 0), w(static_cast<size_t>(n));
  const int e = scale_down(a, h.data(), n);
  to_hessenberg(h.data(), z ? zt.data() : nullptr, n);
  if (!complex_schur(h.data(), z ? zt.data() : nullptr, w.data(), n, true)) return false;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const C<T> x = h[static_cast<size_t>(i * n + j)];
      t[i * n + j] = j >= i ? C<T>(std::ldexp(x.real(), e), std::ldexp(x.imag(), e)) : C<T>(0);
      if (z) z[i * n + j] = zt[static_cast<size_t>(j * n + i)];
    }
  return true;
}

template <class T>
bool complex_eigen(const C<T>* a, C<T>* w, C<T>* vt, C<T>* ut, int64_t n) {
  if (n == 0) return true;
  const bool vectors = vt || ut;
  std::vector<C<T>> h(a, a + n * n), zt(vectors ? static_cast<size_t>(n * n) : 0);
  // Balanced as zgeev does (job 'B': permutation and power-of-two scaling, before the scaling
  // below, which would flush a badly scaled matrix's small entries); schur's form is of a
  // itself, as zgees's.
  int64_t ilo = 0, ihi = 0;
  std::vector<T> scale;
  balance(h.data(), n, ilo, ihi, scale);
  const int e = scale_down(h.data(), h.data(), n);
  to_hessenberg(h.data(), vectors ? zt.data() : nullptr, n);
  // The eigenvalues alone still transform all of T, as the real kernel does: transforming only
  // the active blocks rounds differently, the multishift sweeps then converge in another order,
  // and eigvals would not list eig's eigenvalues (about 10% more time at 512²).
  if (!complex_schur(h.data(), vectors ? zt.data() : nullptr, w, n, true)) return false;
  for (int64_t j = 0; j < n; ++j) w[j] = C<T>(std::ldexp(w[j].real(), e), std::ldexp(w[j].imag(), e));
  if (!vectors) return true;
  T tmax = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i; j < n; ++j) tmax = std::max(tmax, magnitude(h[static_cast<size_t>(i * n + j)]));
  const T big = std::numeric_limits<T>::max() / (T(4) * T(n + 1) * std::max(T(1), tmax));
  const T smlnum = std::numeric_limits<T>::min() * (T(n) / std::numeric_limits<T>::epsilon());
  // Xᵀ (row k: the vector of the eigenvalue at row k of T), then Vᵀ = Xᵀ Zᵀ; across the pool,
  // the longest vectors interleaved with the shortest.
  auto solve_all = [&](const C<T>* t, bool left, C<T>* out) {
    std::vector<C<T>> xt(static_cast<size_t>(n * n), C<T>(0));
    parallel_for(n, n >= 128 ? 8 : n, [&](int64_t begin, int64_t end) {
      for (int64_t q = begin; q < end; ++q) {
        const int64_t k = q % 2 ? n - 1 - q / 2 : q / 2;
        substitute(t, n, k, left, xt.data() + k * n, smlnum, big);
      }
    });
    if (left)  // u = conj(y)
      for (C<T>& x : xt) x = std::conj(x);
    gemm(xt.data(), n, false, zt.data(), n, false, out, n, n, n, n);
    unbalance(out, n, ilo, ihi, scale, left);
  };
  if (vt) solve_all(h.data(), false, vt);
  if (ut) {
    std::vector<C<T>> tt(static_cast<size_t>(n * n), C<T>(0));  // Tᵀ, its rows T's columns
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = i; j < n; ++j) tt[static_cast<size_t>(j * n + i)] = h[static_cast<size_t>(i * n + j)];
    solve_all(tt.data(), true, ut);
  }
  return true;
}

#define STRATA_COMPLEX_EIGEN(T)                                                              \
  template bool complex_schur_form<T>(const C<T>*, C<T>*, C<T>*, int64_t);                   \
  template bool complex_eigen<T>(const C<T>*, C<T>*, C<T>*, C<T>*, int64_t);
STRATA_COMPLEX_EIGEN(float)
STRATA_COMPLEX_EIGEN(double)
#undef STRATA_COMPLEX_EIGEN

}  // namespace strata::kernels
