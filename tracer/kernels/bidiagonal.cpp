// tracer/kernels/bidiagonal.cpp — see bidiagonal.h. Panels of kPanel reflection pairs (LAPACK's
// dlabrd, row-major): after j pairs the trailing block is A - V Yᵀ - X U, V (Q's vectors as
// columns) and U (P's as rows) from the reflections, Y = τq (A - ..)ᵀ v and X = τp (A - ..) u
// grown a column per step from one product of the untouched trailing block with v (columns
// across the pool) and one with u (rows across the pool). After the panel the rest of the
// matrix takes both sides' reflections at once: A ← A - V Yᵀ - X U, two GEMMs.
#include "bidiagonal.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "bidiagonal_svd.h"
#include "bidiagonal_values.h"
#include "householder.h"
#include "parallel.h"

namespace strata::kernels {
namespace {

// Reflection pairs per panel (LAPACK's nb for gebrd), and the trailing size below which the
// rest is reduced as one panel (LAPACK's crossover nx is 128).
constexpr int64_t kPanel = 32;
constexpr int64_t kLastPanel = 96;

// y[0, cols) = Σ_r v[r] a[r][0, cols) over rows [0, rows): columns split across the pool, each
// column's sum over the rows in one fixed order whatever the split.
template <class T>
void transposed_product(const T* a, int64_t lda, int64_t rows, int64_t cols, const T* v, T* y) {
  const int64_t grain = std::max<int64_t>(64, 4 * kElementwiseGrain / std::max<int64_t>(rows, 1));
  parallel_for(cols, grain, [&](int64_t c0, int64_t c1) {
    T* out = y + c0;
    const int64_t len = c1 - c0;
    std::fill(out, out + len, T(0));
    int64_t r = 0;
    for (; r + 4 <= rows; r += 4) {  // four rows a pass: a quarter of the loads and stores of y
      const T *a0 = a + r * lda + c0, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
      const T v0 = v[r], v1 = v[r + 1], v2 = v[r + 2], v3 = v[r + 3];
      for (int64_t c = 0; c < len; ++c) out[c] += (v0 * a0[c] + v1 * a1[c]) + (v2 * a2[c] + v3 * a3[c]);
    }
    for (; r < rows; ++r) {
      const T* ar = a + r * lda + c0;
      const T vr = v[r];
      for (int64_t c = 0; c < len; ++c) out[c] += vr * ar[c];
    }
  });
}

// x[r] = lane_dot(a[r], u, len) for rows [0, rows): groups of kDotRows rows across the pool.
template <class T>
void row_products(const T* a, int64_t lda, int64_t rows, int64_t len, const T* u, T* x) {
  const int64_t groups = (rows + kDotRows - 1) / kDotRows;
  const int64_t grain = std::max<int64_t>(1, 4 * kElementwiseGrain / kDotRows / std::max<int64_t>(len, 1));
  parallel_for(groups, grain, [&](int64_t g0, int64_t g1) {
    for (int64_t r0 = g0 * kDotRows; r0 < std::min(rows, g1 * kDotRows); r0 += kDotRows) {
      if (r0 + kDotRows <= rows) lane_dots(a + r0 * lda, lda, u, len, x + r0);
      else
        for (int64_t r = r0; r < rows; ++r) x[r] = lane_dot(a + r * lda, u, len);
    }
  });
}

template <class T>
struct PanelBuffers {
  // The panel's matrices stored by columns (Vᵀ, Xᵀ, Yᵀ) and U by rows, b×mm or b×nn: each
  // reflection's vector and each column of X and Y contiguous, so the panel's small products
  // are long vector loops (as rows, they were dot products of at most b terms per row).
  std::vector<T> vt, xt, yt, u;
  std::vector<T> col, row, prod, s1, s2;
};

// dst[0, len) -= Σ_k src_k[0, len) c[k], k in [0, count), src_k = src + k·ld: one pass of dst.
template <class T>
void subtract_combination(T* dst, int64_t len, const T* src, int64_t ld, const T* c, int64_t count) {
  int64_t k = 0;
  for (; k + 2 <= count; k += 2) {
    const T *p0 = src + k * ld, *p1 = p0 + ld;
    const T c0 = c[k], c1 = c[k + 1];
    for (int64_t i = 0; i < len; ++i) dst[i] -= c0 * p0[i] + c1 * p1[i];
  }
  for (; k < count; ++k) {
    const T* p0 = src + k * ld;
    const T c0 = c[k];
    for (int64_t i = 0; i < len; ++i) dst[i] -= c0 * p0[i];
  }
}

// b reflection pairs for the trailing block a (mm×nn, rows lda apart, mm ≥ nn ≥ b): pair j
// makes column j zero below the diagonal and row j zero right of the superdiagonal. The block
// is read, not written (its panel rows and columns are the caller's to store); d, e, tauq and
// taup get the pairs' entries, w the panel's V, U, X and Y.
template <class T>
void reduce_panel(const T* a, int64_t lda, int64_t mm, int64_t nn, int64_t b, double* d, double* e, T* tauq,
                  T* taup, PanelBuffers<T>& w) {
  w.vt.assign(b * mm, T(0));
  w.xt.assign(b * mm, T(0));
  w.yt.assign(b * nn, T(0));
  w.u.assign(b * nn, T(0));
  w.col.resize(mm);
  w.row.resize(nn);
  w.prod.resize(std::max(mm, nn));
  w.s1.assign(b, T(0));
  w.s2.assign(b, T(0));
  T *Vt = w.vt.data(), *Xt = w.xt.data(), *Yt = w.yt.data(), *U = w.u.data();
  T *col = w.col.data(), *row = w.row.data(), *prod = w.prod.data(), *s1 = w.s1.data(), *s2 = w.s2.data();
  for (int64_t j = 0; j < b; ++j) {
    // Column j as the first j pairs left it, rows j and below: A - V Yᵀ - X U.
    for (int64_t r = j; r < mm; ++r) col[r - j] = a[r * lda + j];
    for (int64_t k = 0; k < j; ++k) s1[k] = Yt[k * nn + j], s2[k] = U[k * nn + j];
    subtract_combination(col, mm - j, Vt + j, mm, s1, j);
    subtract_combination(col, mm - j, Xt + j, mm, s2, j);
    T beta, tq;
    larfg(col, mm - j, beta, tq);
    tauq[j] = tq;
    d[j] = static_cast<double>(beta);
    col[0] = 1;
    std::copy(col, col + mm - j, Vt + j * mm + j);
    if (j + 1 >= nn) continue;  // the last column has no reflection from the right
    const int64_t cols = nn - j - 1, rows = mm - j - 1;

    // Y's column j = τq (A - V Yᵀ - X U)ᵀ v over the columns right of j.
    transposed_product(a + j * lda + j + 1, lda, mm - j, cols, col, prod);
    row_products(Vt + j, mm, j, mm - j, col, s1);
    row_products(Xt + j, mm, j, mm - j, col, s2);
    subtract_combination(prod, cols, Yt + j + 1, nn, s1, j);
    subtract_combination(prod, cols, U + j + 1, nn, s2, j);
    for (int64_t c = 0; c < cols; ++c) Yt[j * nn + j + 1 + c] = tq * prod[c];

    // Row j as H_j also left it, then the reflection from the right that ends it at e[j].
    std::copy(a + j * lda + j + 1, a + j * lda + nn, row);
    for (int64_t k = 0; k <= j; ++k) s1[k] = Vt[k * mm + j];
    for (int64_t k = 0; k < j; ++k) s2[k] = Xt[k * mm + j];
    subtract_combination(row, cols, Yt + j + 1, nn, s1, j + 1);
    subtract_combination(row, cols, U + j + 1, nn, s2, j);
    T tp;
    larfg(row, cols, beta, tp);
    taup[j] = tp;
    e[j] = static_cast<double>(beta);
    row[0] = 1;
    std::copy(row, row + cols, U + j * nn + j + 1);

    // X's column j = τp (A - V Yᵀ - X U) u over the rows below j.
    row_products(a + (j + 1) * lda + j + 1, lda, rows, cols, row, prod);
    row_products(Yt + j + 1, nn, j + 1, cols, row, s1);
    row_products(U + j + 1, nn, j, cols, row, s2);
    subtract_combination(prod, rows, Vt + j + 1, mm, s1, j + 1);
    subtract_combination(prod, rows, Xt + j + 1, mm, s2, j);
    for (int64_t r = 0; r < rows; ++r) Xt[j * mm + j + 1 + r] = tp * prod[r];
  }
}

}  // namespace

template <class T>
void bidiagonalize(T* a, int64_t m, int64_t n, double* d, double* e, T* tauq, T* taup) {
  PanelBuffers<T> w;
  for (int64_t p = 0; p < n;) {
    const int64_t mm = m - p, nn = n - p, b = nn <= kLastPanel ? nn : kPanel;
    T* blk = a + p * n + p;
    reduce_panel(blk, n, mm, nn, b, d + p, e + p, tauq + p, taup + p, w);
    // The panel's rows and columns: d and e, and the reflections' vectors (LAPACK's storage).
    for (int64_t j = 0; j < b; ++j) {
      blk[j * n + j] = static_cast<T>(d[p + j]);
      for (int64_t r = j + 1; r < mm; ++r) blk[r * n + j] = w.vt[j * mm + r];
      if (j + 1 < nn) {
        blk[j * n + j + 1] = static_cast<T>(e[p + j]);
        for (int64_t c = j + 2; c < nn; ++c) blk[j * n + c] = w.u[j * nn + c];
      }
    }
    if (b < nn) {  // the rest ← A - V Yᵀ - X U
      T* rest = blk + b * n + b;
      gemm(w.vt.data() + b, mm, true, w.yt.data() + b, nn, false, rest, n, mm - b, nn - b, b, true);
      gemm(w.xt.data() + b, mm, true, w.u.data() + b, nn, false, rest, n, mm - b, nn - b, b, true);
    }
    p += b;
  }
}

bool svd_by_bidiagonalization_suits(int64_t m, int64_t n, bool uv) { return std::min(m, n) >= (uv ? 32 : 8); }

template <class T>
bool singular_values(const T* a, int64_t m, int64_t n, T* s) {
  const int64_t k = std::min(m, n);
  if (k == 0) return true;
  int64_t rows = std::max(m, n);
  std::vector<T> w(rows * k);  // a, or aᵀ when wide: rows ≥ k columns
  const int exponent = scaled_copy(a, m, n, w.data(), m < n);
  if (rows >= 2 * k && householder_qr_suits(rows, k)) {  // r of w = q r has w's singular values
    std::vector<T> r(k * k);
    householder_qr(w.data(), static_cast<T*>(nullptr), r.data(), rows, k, false);
    w.swap(r);
    rows = k;
  }
  std::vector<double> d(k), e(k), sd(k);
  std::vector<T> tauq(k), taup(k);
  bidiagonalize(w.data(), rows, k, d.data(), e.data(), tauq.data(), taup.data());
  if (!bidiagonal_singular_values(k, d.data(), e.data(), sd.data())) return false;
  for (int64_t i = 0; i < k; ++i) s[i] = static_cast<T>(std::ldexp(sd[i], -exponent));
  return true;
}

namespace {

// u (m×uc) ← Q u with bidiagonalize's Q = H_0 ⋯ H_{n-1} (reflections in w's columns): blocks
// of kPanel, the last first (LAPACK's ormbr).
template <class T>
void apply_q(const T* w, int64_t m, int64_t n, const T* tauq, T* u, int64_t uc) {
  std::vector<T> v, t(kPanel * kPanel);
  for (int64_t j0 = (n - 1) / kPanel * kPanel; j0 >= 0; j0 -= kPanel) {
    const int64_t nb = std::min(kPanel, n - j0), rows = m - j0;
    gather_reflectors(w, n, j0, rows, j0, nb, v);
    reflector_block_factor(v.data(), rows, nb, tauq + j0, t.data());
    apply_reflector_block(v.data(), t.data(), rows, nb, u + j0 * uc, uc, uc, false);
  }
}

// y (n×n) ← P y with bidiagonalize's P = G_0 ⋯ G_{n-2} (reflections in w's rows, G_i on rows
// i + 1 and below).
template <class T>
void apply_p(const T* w, int64_t n, const T* taup, T* y) {
  std::vector<T> v, t(kPanel * kPanel);
  for (int64_t j0 = (n - 2) / kPanel * kPanel; j0 >= 0 && n > 1; j0 -= kPanel) {
    const int64_t nb = std::min(kPanel, n - 1 - j0), rows = n - 1 - j0;
    v.assign(rows * nb, T(0));
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < nb && c <= r; ++c) v[r * nb + c] = r == c ? T(1) : w[(j0 + c) * n + j0 + 1 + r];
    reflector_block_factor(v.data(), rows, nb, taup + j0, t.data());
    apply_reflector_block(v.data(), t.data(), rows, nb, y + (j0 + 1) * n, n, n, false);
  }
}

// The decomposition of w (m×n, m ≥ n, scaled), destroyed: u m×uc (uc = n, or m with `full`),
// vt n×n, s in double.
template <class T>
bool decompose(T* w, int64_t m, int64_t n, double* s, T* u, T* vt, bool full) {
  const int64_t uc = full ? m : n;
  std::vector<double> d(n), e(n);
  std::vector<T> tauq(n), taup(n), x(n * n), y(n * n);
  bidiagonalize(w, m, n, d.data(), e.data(), tauq.data(), taup.data());
  if (!bidiagonal_svd(n, d.data(), e.data(), s, x.data(), y.data())) return false;
  // u = Q [X 0; 0 I] (the identity's part only when full), vt = (P Y)ᵀ.
  std::fill(u, u + m * uc, T(0));
  for (int64_t r = 0; r < n; ++r) std::copy(&x[r * n], &x[r * n] + n, u + r * uc);
  for (int64_t r = n; r < uc; ++r) u[r * uc + r] = 1;
  apply_q(w, m, n, tauq.data(), u, uc);
  apply_p(w, n, taup.data(), y.data());
  for (int64_t r = 0; r < n; ++r)
    for (int64_t c = 0; c < n; ++c) vt[c * n + r] = y[r * n + c];
  return true;
}

}  // namespace

template <class T>
bool singular_value_decomposition(const T* a, int64_t m, int64_t n, T* s, T* u, T* vt, bool full) {
  const int64_t k = std::min(m, n);
  if (k == 0) return true;
  if (m < n) {  // aᵀ = v Σ uᵀ
    std::vector<T> at(n * m), ut(n * (full ? n : m)), vtt(m * m);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) at[j * m + i] = a[i * n + j];
    if (!singular_value_decomposition(at.data(), n, m, s, ut.data(), vtt.data(), full)) return false;
    const int64_t vr = full ? n : m;  // vt = utᵀ (vr×n), u = vttᵀ (m×m)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < vr; ++j) vt[j * n + i] = ut[i * vr + j];
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < m; ++j) u[j * m + i] = vtt[i * m + j];
    return true;
  }
  std::vector<T> w(m * n);
  const int exponent = scaled_copy(a, m, n, w.data());
  std::vector<double> sd(n);
  const int64_t uc = full ? m : n;
  if (m >= 2 * n && householder_qr_suits(m, n)) {
    // w = q r, r = u_r Σ vt: u = q u_r, the rest of a full u q's other columns (gesdd's path
    // past its crossover).
    const int64_t qc = full ? m : n;
    std::vector<T> q(m * qc), r(qc * n), ur(n * n);
    householder_qr(w.data(), q.data(), r.data(), m, n, full);
    if (!decompose(r.data(), n, n, sd.data(), ur.data(), vt, false)) return false;
    gemm(q.data(), qc, false, ur.data(), n, false, u, uc, m, n, n);
    if (full)
      for (int64_t i = 0; i < m; ++i) std::copy(&q[i * qc + n], &q[i * qc + m], &u[i * uc + n]);
  } else if (!decompose(w.data(), m, n, sd.data(), u, vt, full)) {
    return false;
  }
  for (int64_t i = 0; i < n; ++i) s[i] = static_cast<T>(std::ldexp(sd[i], -exponent));
  return true;
}

template void bidiagonalize<float>(float*, int64_t, int64_t, double*, double*, float*, float*);
template void bidiagonalize<double>(double*, int64_t, int64_t, double*, double*, double*, double*);
template bool singular_values<float>(const float*, int64_t, int64_t, float*);
template bool singular_values<double>(const double*, int64_t, int64_t, double*);
template bool singular_value_decomposition<float>(const float*, int64_t, int64_t, float*, float*, float*, bool);
template bool singular_value_decomposition<double>(const double*, int64_t, int64_t, double*, double*, double*, bool);

}  // namespace strata::kernels
