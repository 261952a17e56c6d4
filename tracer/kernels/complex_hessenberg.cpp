// tracer/kernels/complex_hessenberg.cpp — see complex_hessenberg.h. hessenberg.cpp's scheme with
// complex reflections H = I − τ v vᴴ (zlahr2, row-major): reflection j of a panel needs column
// c = p + j of the matrix the panel's first j reflections have transformed from both sides,
// formed from the original column, Y = A V T (the right-hand transformation A Q = A − Y Vᴴ,
// grown a column per reflection from one matrix-vector product with the trailing matrix), and
// the left-hand I − V Tᴴ Vᴴ applied to that one column. After the panel the rest of the matrix
// takes A ← (I − V Tᴴ Vᴴ)(A − Y Vᴴ) by GEMMs.
//
// a stays interleaved (std::complex's layout) and every complex product with it is one real GEMM
// (four real ones on split parts would pack each operand twice): A·M is A's n × 2n real view
// times M's 2×2-block real form R(M) (R(Mᴴ) = R(M)ᵀ); from the left, [Vr Vi]ᵀ A gives Vᴴ A's
// four real products at once, recombined (a panel-sized pass) into [W; iW], W = Vᴴ A, and
// M·W = [Mr Mi]·[W; iW]. Inside the panel V and Y are held transposed with real and imaginary
// parts apart (Vᵀ's row i: reflection i's vector), so the per-column updates run along
// contiguous real arrays and vectorize.
#include "complex_hessenberg.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "householder.h"
#include "parallel.h"

namespace strata::kernels {
namespace {

template <class T>
using C = std::complex<T>;

// Reflections per panel (LAPACK's nb for zgehrd).
constexpr int64_t kPanel = 32;

// a·b written out: std::complex's operator* recovers NaN products through a library call.
template <class T>
inline C<T> mul(C<T> a, C<T> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// Σ conj(a[j])·b[j] over split vectors in one pass: kDotLanes lanes, then lane_total's fixed
// tree plus the tail, as lane_dot (four lane_dots cost four reductions on the panel's short
// vectors).
template <class T>
C<T> conj_dot(const T* ar, const T* ai, const T* br, const T* bi, int64_t len) {
  T re[kDotLanes] = {}, im[kDotLanes] = {};
  int64_t j = 0;
#if defined(__GNUC__)
  typedef T Lanes __attribute__((vector_size(kDotLanes * sizeof(T))));
  Lanes sr = {}, si = {};
  for (; j + kDotLanes <= len; j += kDotLanes) {
    Lanes xr, xi, yr, yi;
    std::memcpy(&xr, ar + j, sizeof(Lanes));
    std::memcpy(&xi, ai + j, sizeof(Lanes));
    std::memcpy(&yr, br + j, sizeof(Lanes));
    std::memcpy(&yi, bi + j, sizeof(Lanes));
    sr += xr * yr + xi * yi;
    si += xr * yi - xi * yr;
  }
  std::memcpy(re, &sr, sizeof(Lanes));
  std::memcpy(im, &si, sizeof(Lanes));
#else
  for (; j + kDotLanes <= len; j += kDotLanes)
    for (int l = 0; l < kDotLanes; ++l) {
      re[l] += ar[j + l] * br[j + l] + ai[j + l] * bi[j + l];
      im[l] += ar[j + l] * bi[j + l] - ai[j + l] * br[j + l];
    }
#endif
  T tr = 0, ti = 0;
  for (; j < len; ++j) tr += ar[j] * br[j] + ai[j] * bi[j], ti += ar[j] * bi[j] - ai[j] * br[j];
  return {lane_total(re, tr), lane_total(im, ti)};
}

// LAPACK's zlarfg on split x[0, len): H = I − tau·v·vᴴ with Hᴴ x = (beta, 0, …), beta real,
// v = (1, x[1:] on return). tau = 0 (H = I) when x[1:] = 0 and x[0] is real. As
// complex_schur.cpp's: the norm from sums of squares, x first scaled by a power of two where
// they could underflow (or overflow).
template <class T>
void larfg(T* xr, T* xi, int64_t len, T& beta, C<T>& tau) {
  auto sums = [&](T& tail) {
    tail = len > 1 ? lane_dot(xr + 1, xr + 1, len - 1) + lane_dot(xi + 1, xi + 1, len - 1) : T(0);
    return xr[0] * xr[0] + xi[0] * xi[0] + tail;
  };
  constexpr T kSafe = std::numeric_limits<T>::min() / std::numeric_limits<T>::epsilon();
  constexpr T kBig = std::numeric_limits<T>::max() / 4;
  T tail, total = sums(tail);
  int e = 0;
  if (!(total >= kSafe && total <= kBig)) {
    T largest = 0;
    for (int64_t j = 0; j < len; ++j) largest = std::max({largest, std::abs(xr[j]), std::abs(xi[j])});
    if (largest == T(0)) {
      beta = 0, tau = 0;
      return;
    }
    if (std::isfinite(largest)) {  // (an infinite or NaN entry goes on to NaNs)
      e = std::ilogb(largest) + 1;
      for (int64_t j = 0; j < len; ++j) xr[j] = std::ldexp(xr[j], -e), xi[j] = std::ldexp(xi[j], -e);
      total = sums(tail);
    }
  }
  const T ar = xr[0], ai = xi[0];
  if (tail == T(0) && ai == T(0)) {
    for (int64_t j = 0; j < len; ++j) xr[j] = std::ldexp(xr[j], e), xi[j] = std::ldexp(xi[j], e);
    beta = xr[0], tau = 0;
    return;
  }
  const T b = -std::copysign(std::sqrt(total), ar);
  const T dr = ar - b, d = dr * dr + ai * ai;  // |x[0] − beta|² in [total, 4·total]
  const T sr = dr / d, si = -ai / d;           // 1 / (x[0] − beta)
  for (int64_t j = 1; j < len; ++j) {
    const T r = xr[j], i = xi[j];
    xr[j] = r * sr - i * si, xi[j] = r * si + i * sr;
  }
  beta = std::ldexp(b, e);
  tau = C<T>((b - ar) / b, -ai / b);
}

// out[r] = Σ_k row_r[k]·v[k] for kRows rows (interleaved complex, len reals each; vs = v with
// each pair swapped, (Im, Re)) in one pass: lanes of 64 bytes, Re from x·v's lanes (even minus
// odd), Im from x·vs's, then a fixed order and the tail. Each row's bits the same whichever
// rows share its pass (the caller repeats the last row to fill one).
constexpr int kRows = 4;
template <class T>
void row_products(const T* const* row, const T* v, const T* vs, int64_t len, T* re, T* im) {
  constexpr int kLanes = 64 / sizeof(T);
  int64_t j = 0;
#if defined(__GNUC__)
  typedef T Lanes __attribute__((vector_size(kLanes * sizeof(T))));
  Lanes p[kRows] = {}, q[kRows] = {};
  for (; j + kLanes <= len; j += kLanes) {
    Lanes x, y;
    std::memcpy(&x, v + j, sizeof(Lanes));
    std::memcpy(&y, vs + j, sizeof(Lanes));
    for (int r = 0; r < kRows; ++r) {
      Lanes a;
      std::memcpy(&a, row[r] + j, sizeof(Lanes));
      p[r] += a * x;
      q[r] += a * y;
    }
  }
  T pl[kRows][kLanes], ql[kRows][kLanes];
  std::memcpy(pl, p, sizeof(p));
  std::memcpy(ql, q, sizeof(q));
#else
  T pl[kRows][kLanes] = {}, ql[kRows][kLanes] = {};
  for (; j + kLanes <= len; j += kLanes)
    for (int r = 0; r < kRows; ++r)
      for (int l = 0; l < kLanes; ++l) pl[r][l] += row[r][j + l] * v[j + l], ql[r][l] += row[r][j + l] * vs[j + l];
#endif
  for (int r = 0; r < kRows; ++r) {
    // The lanes by a fixed tree of halves (pairs keep their parity), odd lanes of x·v negated.
    T sp[kLanes], sq[kLanes];
    for (int l = 0; l < kLanes; ++l) sp[l] = l % 2 ? -pl[r][l] : pl[r][l], sq[l] = ql[r][l];
    for (int w = kLanes / 2; w >= 2; w /= 2)
      for (int l = 0; l < w; ++l) sp[l] += sp[l + w], sq[l] += sq[l + w];
    T sr = sp[0] + sp[1], si = sq[0] + sq[1];
    const T* a = row[r];
    for (int64_t k = j; k < len; k += 2) {
      sr += a[k] * v[k] - a[k + 1] * v[k + 1];
      si += a[k] * v[k + 1] + a[k + 1] * v[k];
    }
    re[r] = sr, im[r] = si;
  }
}

// R(M) (2·rows × 2·cols, row-major) of the complex rows × cols matrix M of entries m(k, i):
// X·R(M) is (X M)'s interleaved form for an interleaved X.
template <class T, class F>
void real_form(int64_t rows, int64_t cols, F m, std::vector<T>& out) {
  out.resize(static_cast<size_t>(4 * rows * cols));
  const int64_t ld = 2 * cols;
  for (int64_t k = 0; k < rows; ++k)
    for (int64_t i = 0; i < cols; ++i) {
      const C<T> x = m(k, i);
      T* o = out.data() + 2 * k * ld + 2 * i;
      o[0] = x.real(), o[1] = x.imag(), o[ld] = -x.imag(), o[ld + 1] = x.real();
    }
}

// A panel's reflections: vr, vi (b × m) = Vᵀ's parts (row i: reflection i's vector over a's rows
// p + 1 ..., zeros above its 1 stored), t (b × b) the upper triangular T with
// H_p ⋯ H_{p+b-1} = I − V T Vᴴ.
template <class T>
struct Panel {
  int64_t p, b;
  std::vector<T> vr, vi;
  std::vector<C<T>> t;
};

// b reflections for the columns p .. p + b − 1 of a (n×n), which become Hessenberg. yr, yi
// (b × m): Yᵀ's parts for a's rows p + 1 ... (rows 0 .. p are left to the caller's GEMMs).
// Columns past the panel are read, not written.
template <class T>
void reduce_panel(C<T>* a, int64_t n, Panel<T>& pn, std::vector<T>& yr, std::vector<T>& yi) {
  const int64_t p = pn.p, b = pn.b, m = n - p - 1;
  const T* raw = reinterpret_cast<const T*>(a);
  pn.vr.assign(static_cast<size_t>(b * m), T(0));
  pn.vi.assign(pn.vr.size(), T(0));
  pn.t.assign(static_cast<size_t>(b * b), C<T>(0));
  yr.assign(pn.vr.size(), T(0));
  yi.assign(pn.vr.size(), T(0));
  std::vector<T> xr(static_cast<size_t>(m)), xi(xr.size()), nxr(xr.size()), nxi(xr.size()), avr(xr.size()),
      avi(xr.size());
  std::vector<T> vn(static_cast<size_t>(2 * m)), vs(vn.size());
  std::vector<C<T>> w(static_cast<size_t>(b)), u(w.size());
  auto vr = [&](int64_t i) { return pn.vr.data() + i * m; };
  auto vi = [&](int64_t i) { return pn.vi.data() + i * m; };
  C<T>* t = pn.t.data();
  for (int64_t r = 0; r < m; ++r) xr[r] = a[(p + 1 + r) * n + p].real(), xi[r] = a[(p + 1 + r) * n + p].imag();
  for (int64_t j = 0; j < b; ++j) {
    const int64_t c = p + j;
    if (j > 0) {
      // Column c of A − Y Vᴴ over the first j reflections (V's row for a's row c is its row
      // j − 1): x −= Y(:, i)·conj(V(j − 1, i)), i ascending ...
      for (int64_t i = 0; i < j; ++i) {
        const T gr = vr(i)[j - 1], gi = -vi(i)[j - 1];
        const T* __restrict pr = yr.data() + i * m;
        const T* __restrict pi = yi.data() + i * m;
        for (int64_t r = 0; r < m; ++r) {
          xr[r] -= pr[r] * gr - pi[r] * gi;
          xi[r] -= pr[r] * gi + pi[r] * gr;
        }
      }
      // ... then (I − V Tᴴ Vᴴ) from the left: w = Vᴴ x, w ← Tᴴ w (from the bottom, T upper
      // triangular), x −= V w.
      for (int64_t i = 0; i < j; ++i) w[i] = conj_dot(vr(i) + i, vi(i) + i, &xr[i], &xi[i], m - i);
      for (int64_t i = j - 1; i >= 0; --i) {
        C<T> s = 0;
        for (int64_t k = 0; k <= i; ++k) s += mul(std::conj(t[k * b + i]), w[k]);
        w[i] = s;
      }
      for (int64_t i = 0; i < j; ++i) {
        const T wr = w[i].real(), wi = w[i].imag();
        const T* __restrict pr = vr(i);
        const T* __restrict pi = vi(i);
        for (int64_t r = i; r < m; ++r) {
          xr[r] -= pr[r] * wr - pi[r] * wi;
          xi[r] -= pr[r] * wi + pi[r] * wr;
        }
      }
    }
    // Rows p + 1 .. c of column c are final; the reflection of x[j:] leaves beta at row c + 1.
    T beta;
    C<T> tau;
    larfg(&xr[j], &xi[j], m - j, beta, tau);
    vr(j)[j] = 1;
    for (int64_t r = j + 1; r < m; ++r) vr(j)[r] = xr[r], vi(j)[r] = xi[r], xr[r] = xi[r] = 0;
    xr[j] = beta, xi[j] = 0;
    // u = V(:, 0:j)ᴴ v_j, over the rows from j where v_j is nonzero.
    for (int64_t i = 0; i < j; ++i) u[i] = conj_dot(vr(i) + j, vi(i) + j, vr(j) + j, vi(j) + j, m - j);
    // A v_j, which reads the columns right of c (not yet written by the panel): the one pass
    // over the trailing matrix, rows across the pool. The same pass stores column c (x, now
    // final) and takes column c + 1 for the next reflection: a column walked down on its own
    // missed the cache once per row.
    const int64_t len = m - j, groups = (m + kRows - 1) / kRows;
    for (int64_t k = 0; k < len; ++k) {
      vn[2 * k] = vs[2 * k + 1] = vr(j)[j + k];
      vn[2 * k + 1] = vs[2 * k] = vi(j)[j + k];
    }
    parallel_for(groups, std::max<int64_t>(1, 4096 / (kRows * len)), [&](int64_t g0, int64_t g1) {
      for (int64_t g = g0; g < g1; ++g) {
        const T* rows[kRows];
        T re[kRows], im[kRows];
        for (int q = 0; q < kRows; ++q) rows[q] = raw + (p + 1 + std::min(m - 1, g * kRows + q)) * 2 * n + 2 * (c + 1);
        row_products(rows, vn.data(), vs.data(), 2 * len, re, im);
        for (int64_t q = 0; q < kRows && g * kRows + q < m; ++q) {
          const int64_t r = g * kRows + q;
          avr[r] = re[q], avi[r] = im[q];
          a[(p + 1 + r) * n + c] = C<T>(xr[r], xi[r]);
          nxr[r] = rows[q][0], nxi[r] = rows[q][1];
        }
      }
    });
    std::swap(xr, nxr), std::swap(xi, nxi);
    // Y's column j = tau (A v_j − Y(:, 0:j) u).
    for (int64_t i = 0; i < j; ++i) {
      const T ur = u[i].real(), ui = u[i].imag();
      const T* __restrict pr = yr.data() + i * m;
      const T* __restrict pi = yi.data() + i * m;
      for (int64_t r = 0; r < m; ++r) {
        avr[r] -= pr[r] * ur - pi[r] * ui;
        avi[r] -= pr[r] * ui + pi[r] * ur;
      }
    }
    {
      const T tr = tau.real(), ti = tau.imag();
      T* __restrict pr = yr.data() + j * m;
      T* __restrict pi = yi.data() + j * m;
      for (int64_t r = 0; r < m; ++r) pr[r] = tr * avr[r] - ti * avi[r], pi[r] = tr * avi[r] + ti * avr[r];
    }
    // T's column j = (−tau T(0:j, 0:j) u, tau).
    for (int64_t i = 0; i < j; ++i) {
      C<T> s = 0;
      for (int64_t k = i; k < j; ++k) s += mul(t[i * b + k], u[k]);
      t[i * b + j] = -mul(tau, s);
    }
    t[j * b + j] = tau;
  }
}

}  // namespace

template <class T>
void complex_hessenberg(C<T>* a, C<T>* qt, int64_t n) {
  T* raw = reinterpret_cast<T*>(a);
  const int64_t ld = 2 * n;  // a's rows in reals
  std::vector<Panel<T>> panels;
  std::vector<T> yr, yi, vform, tform, vcat, y, tmp, prod, g, z;
  for (int64_t p = 0; p + 2 < n; p += kPanel) {
    const int64_t b = std::min(kPanel, n - 2 - p), m = n - p - 1, cols = n - p - b;
    Panel<T> pn{p, b, {}, {}, {}};
    reduce_panel(a, n, pn, yr, yi);
    auto v = [&](int64_t r, int64_t i) { return C<T>(pn.vr[size_t(i * m + r)], pn.vi[size_t(i * m + r)]); };
    real_form<T>(m, b, v, vform);
    real_form<T>(b, b, [&](int64_t k, int64_t i) { return pn.t[size_t(k * b + i)]; }, tform);
    // Y's rows 0 .. p = A(0:p+1, p+1:n) V T (those rows of A are as the panel found them), then
    // A ← A − Y Vᴴ there, from column p + 1 on.
    tmp.resize(static_cast<size_t>((p + 1) * 2 * b));
    y.resize(static_cast<size_t>(n * 2 * b));
    gemm(raw + 2 * (p + 1), ld, false, vform.data(), 2 * b, false, tmp.data(), 2 * b, p + 1, 2 * b, 2 * m);
    gemm(tmp.data(), 2 * b, false, tform.data(), 2 * b, false, y.data(), 2 * b, p + 1, 2 * b, 2 * b);
    gemm(y.data(), 2 * b, false, vform.data(), 2 * b, true, raw + 2 * (p + 1), ld, p + 1, 2 * m, 2 * b, true);
    // The rows below from column p + b on (their panel columns are final): V's row b − 1 is a's
    // row p + b.
    for (int64_t r = 0; r < m; ++r)
      for (int64_t i = 0; i < b; ++i) {
        y[size_t((p + 1 + r) * 2 * b + 2 * i)] = yr[size_t(i * m + r)];
        y[size_t((p + 1 + r) * 2 * b + 2 * i + 1)] = yi[size_t(i * m + r)];
      }
    gemm(y.data() + (p + 1) * 2 * b, 2 * b, false, vform.data() + (b - 1) * 4 * b, 2 * b, true,
         raw + (p + 1) * ld + 2 * (p + b), ld, m, 2 * cols, 2 * b, true);
    // A ← (I − V Tᴴ Vᴴ) A for the rows below p, right of the panel (c = those columns):
    // prod = [Vr Vi]ᵀ c holds Vᴴ c's four real products, recombined in place into
    // u = [Vᴴ c; i Vᴴ c]; z = [Tᴴ Vᴴ c; i Tᴴ Vᴴ c] = G u with G = [[Lr, Li], [−Li, Lr]], L = Tᴴ;
    // c −= [Vr Vi] z.
    vcat.resize(static_cast<size_t>(m * 2 * b));
    for (int64_t r = 0; r < m; ++r)
      for (int64_t i = 0; i < b; ++i) {
        vcat[size_t(r * 2 * b + i)] = pn.vr[size_t(i * m + r)];
        vcat[size_t(r * 2 * b + b + i)] = pn.vi[size_t(i * m + r)];
      }
    T* cm = raw + (p + 1) * ld + 2 * (p + b);
    const int64_t w2 = 2 * cols;
    prod.resize(static_cast<size_t>(2 * b * w2));
    z.resize(prod.size());
    gemm(vcat.data(), 2 * b, true, cm, ld, false, prod.data(), w2, 2 * b, w2, m);
    for (int64_t i = 0; i < b; ++i) {
      T* top = prod.data() + i * w2;  // Vrᵀ c (Re, Im interleaved)
      T* bot = prod.data() + (b + i) * w2;  // Viᵀ c
      for (int64_t k = 0; k < cols; ++k) {
        const T re = top[2 * k] + bot[2 * k + 1], im = top[2 * k + 1] - bot[2 * k];
        top[2 * k] = re, top[2 * k + 1] = im, bot[2 * k] = -im, bot[2 * k + 1] = re;
      }
    }
    g.resize(static_cast<size_t>(4 * b * b));
    for (int64_t i = 0; i < b; ++i)
      for (int64_t k = 0; k < b; ++k) {
        const C<T> x = pn.t[size_t(k * b + i)];  // L(i, k) = conj(T(k, i))
        g[size_t(i * 2 * b + k)] = g[size_t((b + i) * 2 * b + b + k)] = x.real();
        g[size_t(i * 2 * b + b + k)] = -x.imag();
        g[size_t((b + i) * 2 * b + k)] = x.imag();
      }
    gemm(g.data(), 2 * b, false, prod.data(), w2, false, z.data(), w2, 2 * b, w2, 2 * b);
    gemm(vcat.data(), 2 * b, false, z.data(), w2, false, cm, ld, m, w2, 2 * b, true);
    if (qt) panels.push_back(std::move(pn));
  }
  if (!qt) return;
  // Qᵀ = H_{n-3}ᵀ ⋯ H_0ᵀ, built from the identity taking the last panel first from the right
  // (LAPACK's zunghr, transposed): panel p changes rows and columns from p + 1 on only, those
  // left of them being the identity's still. Each panel's (I − V T Vᴴ)ᵀ = I − conj(V) Tᵀ Vᵀ:
  // s ← s − ((s conj(V)) Tᵀ) Vᵀ, R(Vᵀ) = R(conj V)ᵀ and R(Tᵀ) = R(conj T)ᵀ.
  std::fill(qt, qt + n * n, C<T>(0));
  for (int64_t i = 0; i < n; ++i) qt[i * n + i] = 1;
  T* qraw = reinterpret_cast<T*>(qt);
  for (auto it = panels.rbegin(); it != panels.rend(); ++it) {
    const int64_t p = it->p, b = it->b, m = n - p - 1;
    const Panel<T>& pn = *it;
    real_form<T>(m, b, [&](int64_t r, int64_t i) { return C<T>(pn.vr[size_t(i * m + r)], -pn.vi[size_t(i * m + r)]); },
                 vform);
    real_form<T>(b, b, [&](int64_t k, int64_t i) { return std::conj(pn.t[size_t(k * b + i)]); }, tform);
    T* s = qraw + (p + 1) * ld + 2 * (p + 1);
    tmp.resize(static_cast<size_t>(m * 2 * b));
    y.resize(tmp.size());
    gemm(s, ld, false, vform.data(), 2 * b, false, tmp.data(), 2 * b, m, 2 * b, 2 * m);
    gemm(tmp.data(), 2 * b, false, tform.data(), 2 * b, true, y.data(), 2 * b, m, 2 * b, 2 * b);
    gemm(y.data(), 2 * b, false, vform.data(), 2 * b, true, s, ld, m, 2 * m, 2 * b, true);
  }
}

template void complex_hessenberg<float>(C<float>*, C<float>*, int64_t);
template void complex_hessenberg<double>(C<double>*, C<double>*, int64_t);

}  // namespace strata::kernels
