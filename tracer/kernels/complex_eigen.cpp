// tracer/kernels/complex_eigen.cpp — see complex_eigen.h. Row-major throughout; h's columns are
// never walked down during a sweep (the rows above the bulge take the sweep's reflections from
// the right at its end, each row along itself).
#include "complex_eigen.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "schur_common.h"
#include "householder.h"
#include "parallel.h"

namespace strata::kernels {
namespace {

template <class T>
using C = std::complex<T>;

// a·b written out: std::complex's operator* recovers NaN products through a library call per
// product (C's Annex G), which finite input never needs, and which keeps the loops scalar.
template <class T>
inline C<T> mul(C<T> a, C<T> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

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

// LAPACK's zlarfg of order 2 on (alpha, x): H = I − tau·v·vᴴ with Hᴴ (alpha, x) = (beta, 0),
// beta real, v = (1, x'); alpha becomes beta and x becomes x'. tau = 0 (H = I) when x = 0 and
// alpha is real. (LAPACK's rescaling near underflow is left out: the matrix is scaled to a
// largest entry in [1/2, 1).)
template <class T>
C<T> larfg2(C<T>& alpha, C<T>& x) {
  const T ar = alpha.real(), ai = alpha.imag(), xnorm = std::abs(x);
  if (xnorm == T(0) && ai == T(0)) return C<T>(0);
  const T beta = -std::copysign(std::hypot(std::hypot(ar, ai), xnorm), ar);
  const C<T> tau((beta - ar) / beta, -ai / beta);
  x = x * (C<T>(1) / (alpha - C<T>(beta)));
  alpha = C<T>(beta);
  return tau;
}

// One reflection of a sweep, I − t1·v·vᴴ with v = (1, v2) on columns k, k + 1; t2 = t1·v2.
template <class T>
struct Step {
  C<T> t1, t2, cv2;  // cv2 = conj(v2)
  int64_t k;
};

// An n×n complex matrix (row-major) as two real ones, so that every row operation of the
// iteration is plain real arithmetic the compiler vectorizes (interleaved complex values
// left it scalar: most of the time at 256²).
template <class T>
struct Split {
  int64_t n;
  std::vector<T> re, im;
  Split(const C<T>* x, int64_t n) : n(n), re(static_cast<size_t>(n * n)), im(static_cast<size_t>(n * n)) {
    for (int64_t i = 0; i < n * n; ++i) re[static_cast<size_t>(i)] = x[i].real(), im[static_cast<size_t>(i)] = x[i].imag();
  }
  void store(C<T>* x) const {
    for (int64_t i = 0; i < n * n; ++i) x[i] = C<T>(re[static_cast<size_t>(i)], im[static_cast<size_t>(i)]);
  }
  C<T> operator()(int64_t i, int64_t j) const { return {re[static_cast<size_t>(i * n + j)], im[static_cast<size_t>(i * n + j)]}; }
  void set(int64_t i, int64_t j, C<T> x) { re[static_cast<size_t>(i * n + j)] = x.real(), im[static_cast<size_t>(i * n + j)] = x.imag(); }
  T* r(int64_t i) { return re.data() + i * n; }
  T* m(int64_t i) { return im.data() + i * n; }
  // Row i's columns [c0, c1) ← s·(them); column j's rows [r0, r1) likewise.
  void scale_row(int64_t i, int64_t c0, int64_t c1, C<T> s) {
    for (int64_t c = c0; c < c1; ++c) set(i, c, mul(s, (*this)(i, c)));
  }
  void scale_column(int64_t j, int64_t r0, int64_t r1, C<T> s) {
    for (int64_t q = r0; q < r1; ++q) set(q, j, mul(s, (*this)(q, j)));
  }
};

// Rows a and b of x over columns [c0, c1) ← (I − t1 v vᴴ)ᴴ applied from the left when `left`
// (each column (x_a, x_b) ← (x_a − s, x_b − s·v2), s = conj(t1)·x_a + conj(t2)·x_b), else the
// reflection from the right on Zᵀ's rows (s = t1·x_a + t2·x_b, x_b − s·conj(v2)).
template <class T>
void reflect_rows(Split<T>& x, int64_t a, int64_t c0, int64_t c1, const Step<T>& st, bool left) {
  T* __restrict ar = x.r(a);
  T* __restrict ai = x.m(a);
  T* __restrict br = x.r(a + 1);
  T* __restrict bi = x.m(a + 1);
  const C<T> p = left ? std::conj(st.t1) : st.t1, q = left ? std::conj(st.t2) : st.t2;
  const C<T> v = left ? std::conj(st.cv2) : st.cv2;
  const T pr = p.real(), pi = p.imag(), qr = q.real(), qi = q.imag(), vr = v.real(), vi = v.imag();
  for (int64_t c = c0; c < c1; ++c) {
    const T sr = pr * ar[c] - pi * ai[c] + qr * br[c] - qi * bi[c];
    const T si = pr * ai[c] + pi * ar[c] + qr * bi[c] + qi * br[c];
    ar[c] -= sr, ai[c] -= si;
    br[c] -= sr * vr - si * vi, bi[c] -= sr * vi + si * vr;
  }
}

// The sweep's reflections from the right on rows [0, i − 1) of h, deferred to its end: row r
// takes those with k > r, in order. Eight rows at a time transposed into `block` (columns as
// rows of eight lanes, real and imaginary parts apart) so that each reflection is one 8-wide
// operation on two columns; a lane whose row it skips gets t1 = t2 = 0. Across the pool; each
// row's bits the same on any number of threads.
template <class T>
void deferred_right(Split<T>& h, int64_t m, int64_t i, const std::vector<Step<T>>& steps) {
  constexpr int64_t kLanes = 8;
  const int64_t rows = i - 1, blocks = (rows + kLanes - 1) / kLanes;
  parallel_for(blocks, 4, [&](int64_t b0, int64_t b1) {
    std::vector<T> re, im;
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t r0 = b * kLanes, nr = std::min(kLanes, rows - r0), c0 = std::max(r0 + 1, m);
      const int64_t width = i + 1 - c0;
      re.assign(static_cast<size_t>(width * kLanes), T(0));
      im.assign(static_cast<size_t>(width * kLanes), T(0));
      for (int64_t q = 0; q < nr; ++q)
        for (int64_t c = c0; c <= i; ++c) {
          re[static_cast<size_t>((c - c0) * kLanes + q)] = h.r(r0 + q)[c];
          im[static_cast<size_t>((c - c0) * kLanes + q)] = h.m(r0 + q)[c];
        }
      for (const Step<T>& st : steps) {
        if (st.k < c0) continue;  // no row of this block takes it
        T* x0r = re.data() + (st.k - c0) * kLanes;
        T* x0i = im.data() + (st.k - c0) * kLanes;
        T* x1r = x0r + kLanes;
        T* x1i = x0i + kLanes;
        const T vr = st.cv2.real(), vi = st.cv2.imag();
        // The reflection on the eight lanes, lane q's (t1, t2) from coef(q, part): part 0..3 =
        // re t1, im t1, re t2, im t2.
        auto reflect = [&](auto coef) {
          for (int64_t q = 0; q < kLanes; ++q) {
            const T ar = coef(q, 0), ai = coef(q, 1), br = coef(q, 2), bi = coef(q, 3);
            const T sr = ar * x0r[q] - ai * x0i[q] + br * x1r[q] - bi * x1i[q];
            const T si = ar * x0i[q] + ai * x0r[q] + br * x1i[q] + bi * x1r[q];
            x0r[q] -= sr, x0i[q] -= si;
            x1r[q] -= sr * vr - si * vi, x1i[q] -= sr * vi + si * vr;
          }
        };
        const T coefs[4] = {st.t1.real(), st.t1.imag(), st.t2.real(), st.t2.imag()};
        if (st.k > r0 + kLanes - 1) {  // every row of the block (lanes past nr are not stored)
          reflect([&](int64_t, int p) { return coefs[p]; });
        } else {  // rows k and below skip it
          reflect([&](int64_t q, int p) { return st.k > r0 + q ? coefs[p] : T(0); });
        }
      }
      for (int64_t q = 0; q < nr; ++q)
        for (int64_t c = c0; c <= i; ++c) {
          h.r(r0 + q)[c] = re[static_cast<size_t>((c - c0) * kLanes + q)];
          h.m(r0 + q)[c] = im[static_cast<size_t>((c - c0) * kLanes + q)];
        }
    }
  });
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

// h (scaled a) ← its Hessenberg form Qᴴ h Q, zt ← Qᵀ (when not null). Eigen's reduction.
template <class T>
void to_hessenberg(C<T>* h, C<T>* zt, int64_t n) {
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
bool complex_schur(C<T>* hc, C<T>* ztc, C<T>* w, int64_t n) {
  if (n == 0) return true;
  for (int64_t i = 2; i < n; ++i) std::fill(hc + i * n, hc + i * n + i - 1, C<T>(0));
  if (n == 1) {
    w[0] = hc[0];
    return true;
  }
  Split<T> H(hc, n);
  std::optional<Split<T>> Z;
  if (ztc) Z.emplace(ztc, n);
  // A diagonal unitary similarity makes the subdiagonal real; the sweeps keep it so (the first
  // column of each bulge then has a real second entry).
  for (int64_t i = 1; i < n; ++i) {
    const C<T> s = H(i, i - 1);
    if (s.imag() == T(0)) continue;
    C<T> sc = s / magnitude(s);
    sc = std::conj(sc) / std::abs(sc);
    H.set(i, i - 1, C<T>(std::abs(s)));
    H.scale_row(i, i, n, sc);
    H.scale_column(i, 0, std::min(n - 1, i + 1) + 1, std::conj(sc));
    if (Z) Z->scale_row(i, 0, n, std::conj(sc));
  }
  const T ulp = std::numeric_limits<T>::epsilon(), smlnum = std::numeric_limits<T>::min() * (T(n) / ulp);
  constexpr T dat1 = T(0.75);
  constexpr int64_t kexsh = 10;
  const int64_t itmax = 30 * std::max<int64_t>(10, n);
  int64_t kdefl = 0;  // iterations since the last deflation
  std::vector<Step<T>> steps;
  for (int64_t i = n - 1; i >= 0;) {
    int64_t l = 0;
    bool split = false;
    for (int64_t its = 0; its <= itmax; ++its) {
      // A negligible subdiagonal h(k, k−1) splits the active block [l, i] at k.
      int64_t k = i;
      for (; k > l; --k) {
        if (magnitude(H(k, k - 1)) <= smlnum) break;
        T tst = magnitude(H(k - 1, k - 1)) + magnitude(H(k, k));
        if (tst == T(0)) {
          if (k - 2 >= 0) tst += std::abs(H(k - 1, k - 2).real());
          if (k + 1 <= n - 1) tst += std::abs(H(k + 1, k).real());
        }
        if (std::abs(H(k, k - 1).real()) <= ulp * tst &&
            negligible_subdiagonal(magnitude(H(k, k - 1)), magnitude(H(k - 1, k)), magnitude(H(k, k)),
                                   magnitude(H(k - 1, k - 1) - H(k, k)), smlnum, ulp))
          break;
      }
      l = k;
      if (l > 0) H.set(l, l - 1, C<T>(0));
      if (l >= i) {  // a 1×1 block has split off
        split = true;
        break;
      }
      ++kdefl;
      // The shift: Wilkinson's (the trailing 2×2 block's eigenvalue nearer h(i, i)), or an
      // exceptional one after 10 (from the top) and 20 (from the bottom) iterations without a
      // deflation.
      C<T> t;
      if (kdefl % (2 * kexsh) == 0) {
        t = dat1 * std::abs(H(i, i - 1).real()) + H(i, i);
      } else if (kdefl % kexsh == 0) {
        t = dat1 * std::abs(H(l + 1, l).real()) + H(l, l);
      } else {
        t = H(i, i);
        const C<T> u = std::sqrt(H(i - 1, i)) * std::sqrt(H(i, i - 1));
        T s = magnitude(u);
        if (s != T(0)) {
          const C<T> x = T(0.5) * (H(i - 1, i - 1) - t);
          const T sx = magnitude(x);
          s = std::max(s, sx);
          C<T> y = s * std::sqrt((x / s) * (x / s) + (u / s) * (u / s));
          if (sx > T(0)) {
            const C<T> xs = x / sx;
            if (xs.real() * y.real() + xs.imag() * y.imag() < T(0)) y = -y;
          }
          t -= u * (u / (x + y));
        }
      }
      // The bulge starts at the lowest m where two consecutive subdiagonals are small enough
      // that h(m, m−1) stays negligible; v = the first column of h − t from row m (scaled).
      int64_t m = i - 1;
      C<T> v0;
      T v1;
      for (;; --m) {
        const C<T> h11 = H(m, m), h22 = H(m + 1, m + 1);
        const T h21 = H(m + 1, m).real();
        const C<T> h11s = h11 - t;
        const T s = magnitude(h11s) + std::abs(h21);
        v0 = h11s / s, v1 = h21 / s;
        if (m == l) break;
        const T h10 = H(m, m - 1).real();
        if (std::abs(h10) * std::abs(v1) <= ulp * (magnitude(v0) * (magnitude(h11) + magnitude(h22)))) break;
      }
      // The single-shift sweep from m to i. Reflection k from the left runs along rows k, k + 1;
      // from the right it reaches rows k..k + 2 at once (the next reflection's column), and the
      // rows above, which no later reflection from the left touches, at the sweep's end
      // (deferred_right); Z's at the sweep's end too, by columns across the pool. A bulge started
      // below l rescales columns after its first step (zlahqr keeps h(m, m−1) real so): that
      // rare sweep applies everything at once instead.
      const bool defer = m == l;
      steps.clear();
      for (k = m; k <= i - 1; ++k) {
        C<T> a0 = k > m ? H(k, k - 1) : v0, a1 = k > m ? H(k + 1, k - 1) : C<T>(v1);
        const C<T> t1 = larfg2(a0, a1);
        if (k > m) H.set(k, k - 1, a0), H.set(k + 1, k - 1, C<T>(0));
        const Step<T> st{t1, mul(t1, a1), std::conj(a1), k};
        reflect_rows(H, k, k, n, st, true);
        for (int64_t j = defer ? k : 0; j <= std::min(k + 2, i); ++j) {
          C<T> x0 = H(j, k), x1 = H(j, k + 1);
          const C<T> sum = mul(st.t1, x0) + mul(st.t2, x1);
          H.set(j, k, x0 - sum), H.set(j, k + 1, x1 - mul(sum, st.cv2));
        }
        steps.push_back(st);
        if (!defer) {
          if (Z) reflect_rows(*Z, k, 0, n, st, false);
          if (k == m && m > l) {
            C<T> temp = C<T>(1) - t1;
            temp /= std::abs(temp);
            const C<T> ctemp = std::conj(temp);
            H.set(m + 1, m, mul(H(m + 1, m), ctemp));
            if (m + 2 <= i) H.set(m + 2, m + 1, mul(H(m + 2, m + 1), temp));
            for (int64_t j = m; j <= i; ++j) {
              if (j == m + 1) continue;
              H.scale_row(j, j + 1, n, temp);
              H.scale_column(j, 0, j, ctemp);
              if (Z) Z->scale_row(j, 0, n, ctemp);
            }
          }
        }
      }
      if (defer) {
        deferred_right(H, m, i, steps);
        if (Z)
          parallel_for(n, 64, [&](int64_t c0, int64_t c1) {
            for (const Step<T>& st : steps) reflect_rows(*Z, st.k, c0, c1, st, false);
          });
      }
      // h(i, i−1) real again (a diagonal unitary similarity).
      const C<T> last = H(i, i - 1);
      if (last.imag() != T(0)) {
        const T rt = std::abs(last);
        H.set(i, i - 1, C<T>(rt));
        const C<T> temp = last / rt;
        H.scale_row(i, i + 1, n, std::conj(temp));
        H.scale_column(i, 0, i, temp);
        if (Z) Z->scale_row(i, 0, n, temp);
      }
    }
    if (!split) return false;
    w[i] = H(i, i);
    kdefl = 0;
    i = l - 1;
  }
  H.store(hc);
  if (Z) Z->store(ztc);
  return true;
}

template <class T>
bool complex_schur_form(const C<T>* a, C<T>* t, C<T>* z, int64_t n) {
  if (n == 0) return true;
  std::vector<C<T>> h(static_cast<size_t>(n * n)), zt(z ? static_cast<size_t>(n * n) : 0), w(static_cast<size_t>(n));
  const int e = scale_down(a, h.data(), n);
  to_hessenberg(h.data(), z ? zt.data() : nullptr, n);
  if (!complex_schur(h.data(), z ? zt.data() : nullptr, w.data(), n)) return false;
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
  std::vector<C<T>> h(static_cast<size_t>(n * n)), zt(vectors ? static_cast<size_t>(n * n) : 0);
  const int e = scale_down(a, h.data(), n);
  to_hessenberg(h.data(), vectors ? zt.data() : nullptr, n);
  if (!complex_schur(h.data(), vectors ? zt.data() : nullptr, w, n)) return false;
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
  template bool complex_schur<T>(C<T>*, C<T>*, C<T>*, int64_t);                              \
  template bool complex_schur_form<T>(const C<T>*, C<T>*, C<T>*, int64_t);                   \
  template bool complex_eigen<T>(const C<T>*, C<T>*, C<T>*, C<T>*, int64_t);
STRATA_COMPLEX_EIGEN(float)
STRATA_COMPLEX_EIGEN(double)
#undef STRATA_COMPLEX_EIGEN

}  // namespace strata::kernels
