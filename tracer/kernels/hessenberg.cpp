// tracer/kernels/hessenberg.cpp — see hessenberg.h. Panels of kPanel reflections (LAPACK's
// dlahr2, row-major): reflection j of a panel needs column c = p + j of the matrix that the
// panel's first j reflections have transformed from both sides. It is formed from the original
// column and Y = A V T (the panel's right-hand transformation A Q = A - Y Vᵀ, grown a column per
// reflection from one matrix-vector product with the trailing matrix), and the left-hand
// transformation I - V Tᵀ Vᵀ applied to that one column. After the panel, the rest of the matrix
// takes A ← (I - V Tᵀ Vᵀ)(A - Y Vᵀ) by GEMMs.
#include "hessenberg.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "householder.h"
#include "parallel.h"

namespace strata::kernels {
namespace {

// Reflections per panel (LAPACK's nb for gehrd).
constexpr int64_t kPanel = 32;

// b reflections for the columns p .. p + b - 1 of a (n×n, row-major), which become Hessenberg
// (zeros below the subdiagonal). v (m×b, m = n - p - 1, rows for a's rows p + 1 ...): the
// reflections' vectors as columns, unit lower trapezoidal (zeros and ones stored); t (b×b) the
// upper triangular T of H_p ⋯ H_{p+b-1} = I - V T Vᵀ; y (n×b) = A V T for the rows below p
// (rows 0 .. p are left to the caller's GEMM). Columns past the panel are read, not written.
template <class T>
void reduce_panel(T* a, int64_t n, int64_t p, int64_t b, std::vector<T>& v, std::vector<T>& t, std::vector<T>& y) {
  const int64_t m = n - p - 1;
  v.assign(static_cast<size_t>(m * b), T(0));
  t.assign(static_cast<size_t>(b * b), T(0));
  y.assign(static_cast<size_t>(n * b), T(0));
  std::vector<T> x(static_cast<size_t>(m)), vj(static_cast<size_t>(m)), u(static_cast<size_t>(b)), w(static_cast<size_t>(b));
  T* yb = y.data() + (p + 1) * b;  // Y's rows p + 1 ..., as v's
  for (int64_t j = 0; j < b; ++j) {
    const int64_t c = p + j;
    for (int64_t r = 0; r < m; ++r) x[r] = a[(p + 1 + r) * n + c];
    if (j > 0) {
      // Column c of A Q_{<j} = A - Y Vᵀ over the first j reflections (V's row for a's row c
      // is its row j - 1) ...
      const T* vc = &v[(j - 1) * b];
      for (int64_t r = 0; r < m; ++r) x[r] -= lane_dot(yb + r * b, vc, j);
      // ... then Q_{<j}ᵀ from the left: x -= V Tᵀ (Vᵀ x). Each sum in one order (r ascending).
      std::fill(w.begin(), w.end(), T(0));
      for (int64_t r = 0; r < m; ++r)
        for (int64_t i = 0; i < std::min(j, r + 1); ++i) w[i] += v[r * b + i] * x[r];
      for (int64_t i = j - 1; i >= 0; --i) {  // w ← Tᵀ w, from the bottom (T upper triangular)
        T s = 0;
        for (int64_t k = 0; k <= i; ++k) s += t[k * b + i] * w[k];
        w[i] = s;
      }
      for (int64_t r = 0; r < m; ++r) x[r] -= lane_dot(&v[r * b], w.data(), std::min(j, r + 1));
    }
    // Rows p + 1 .. c of column c are final; the reflection of x[j:] leaves beta at row c + 1.
    T beta, tau;
    larfg(&x[j], m - j, beta, tau);
    for (int64_t r = 0; r < m; ++r) a[(p + 1 + r) * n + c] = r < j ? x[r] : r == j ? beta : T(0);
    vj[0] = 1;
    for (int64_t r = j + 1; r < m; ++r) vj[r - j] = x[r];
    for (int64_t r = j; r < m; ++r) v[r * b + j] = vj[r - j];
    // u = V(:, 0:j)ᵀ v_j, over the rows from j where v_j is nonzero.
    std::fill(u.begin(), u.end(), T(0));
    for (int64_t r = j; r < m; ++r)
      for (int64_t i = 0; i < j; ++i) u[i] += v[r * b + i] * vj[r - j];
    // Y's column j = tau (A v_j - Y(:, 0:j) u): A v_j reads the columns right of c, which the
    // panel has not written; the one pass over the trailing matrix, rows across the pool.
    parallel_for((m + kDotRows - 1) / kDotRows, 64 / kDotRows, [&](int64_t g0, int64_t g1) {
      T av[kDotRows];
      for (int64_t r0 = g0 * kDotRows; r0 < std::min(m, g1 * kDotRows); r0 += kDotRows) {
        const T* row = a + (p + 1 + r0) * n + c + 1;
        if (r0 + kDotRows <= m) lane_dots(row, n, vj.data(), m - j, av);
        else
          for (int64_t r = r0; r < m; ++r) av[r - r0] = lane_dot(row + (r - r0) * n, vj.data(), m - j);
        for (int64_t r = r0; r < std::min(m, r0 + kDotRows); ++r)
          yb[r * b + j] = tau * (av[r - r0] - lane_dot(yb + r * b, u.data(), j));
      }
    });
    // T's column j = (-tau T(0:j, 0:j) u, tau).
    for (int64_t i = 0; i < j; ++i) {
      T s = 0;
      for (int64_t k = i; k < j; ++k) s += t[i * b + k] * u[k];
      t[i * b + j] = -tau * s;
    }
    t[j * b + j] = tau;
  }
}

}  // namespace

template <class T>
void hessenberg(T* a, T* q_out, int64_t n, bool transpose_q) {
  struct Panel {
    int64_t p, b;
    std::vector<T> v, t;
  };
  std::vector<Panel> panels;
  std::vector<T> y, tmp;
  for (int64_t p = 0; p + 2 < n; p += kPanel) {
    const int64_t b = std::min(kPanel, n - 2 - p), m = n - p - 1;
    Panel& pn = panels.emplace_back(Panel{p, b, {}, {}});
    reduce_panel(a, n, p, b, pn.v, pn.t, y);
    // Y's rows 0 .. p = A(0:p+1, p+1:n) V T (those rows of A are as the panel found them).
    tmp.resize(static_cast<size_t>((p + 1) * b));
    gemm(a + p + 1, n, false, pn.v.data(), b, false, tmp.data(), b, p + 1, b, m);
    gemm(tmp.data(), b, false, pn.t.data(), b, false, y.data(), b, p + 1, b, b);
    // A ← A - Y Vᵀ: rows 0 .. p from column p + 1 on; the rows below from column p + b on
    // (their panel columns are final). V's row b - 1 is a's row p + b.
    gemm(y.data(), b, false, pn.v.data(), b, true, a + p + 1, n, p + 1, m, b, true);
    gemm(y.data() + (p + 1) * b, b, false, pn.v.data() + (b - 1) * b, b, true, a + (p + 1) * n + p + b, n, m,
         m - b + 1, b, true);
    // A ← (I - V Tᵀ Vᵀ) A for the rows below p, right of the panel.
    apply_reflector_block(pn.v.data(), pn.t.data(), m, b, a + (p + 1) * n + p + b, n, n - p - b, true);
  }
  if (!q_out) return;
  // Q = H_0 ⋯ H_{n-3}, the last panel first (LAPACK's orghr/orgqr): panel p changes rows and
  // columns from p + 1 on only, those left of them being the identity's still. Formed
  // row-major (in q_out itself unless Qᵀ is asked for).
  std::vector<T> scratch(transpose_q ? static_cast<size_t>(n * n) : 0);
  T* q = transpose_q ? scratch.data() : q_out;
  std::fill(q, q + n * n, T(0));
  for (int64_t i = 0; i < n; ++i) q[i * n + i] = 1;
  for (auto it = panels.rbegin(); it != panels.rend(); ++it) {
    const int64_t m = n - it->p - 1;
    T* sub = q + (it->p + 1) * n + it->p + 1;
    apply_reflector_block(it->v.data(), it->t.data(), m, it->b, sub, n, m, false);
  }
  if (!transpose_q) return;
  constexpr int64_t kTile = 32;
  for (int64_t i0 = 0; i0 < n; i0 += kTile)
    for (int64_t j0 = 0; j0 < n; j0 += kTile)
      for (int64_t i = i0; i < std::min(n, i0 + kTile); ++i)
        for (int64_t j = j0; j < std::min(n, j0 + kTile); ++j) q_out[j * n + i] = q[i * n + j];
}

template void hessenberg<float>(float*, float*, int64_t, bool);
template void hessenberg<double>(double*, double*, int64_t, bool);

}  // namespace strata::kernels
