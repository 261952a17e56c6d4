// tracer/kernels/nonsymmetric_eigen.cpp — see nonsymmetric_eigen.h. Row-major throughout: the
// QR sweep's reflections from the left run along rows of h (contiguous, vectorized) and those
// from the right along rows of Zᵀ; only h's columns are strided (three adjacent values a row).
#include "nonsymmetric_eigen.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
#include <vector>

#include "balance.h"
#include "hessenberg.h"
#include "schur_common.h"
#include "householder.h"
#include "parallel.h"

namespace strata::kernels {
namespace {

// LAPACK's dlanv2: the rotation (cs, sn) that brings the 2×2 block [a b; c d] to standard form
// — equal diagonal entries and b·c < 0 for a complex pair, upper triangular (c = 0) for real
// eigenvalues — and the new block: [a b; c d] = [cs −sn; sn cs] [a' b'; c' d'] [cs sn; −sn cs].
// (LAPACK's rescaling of blocks near overflow is left out.)
template <class T>
void lanv2(T& a, T& b, T& c, T& d, T& cs, T& sn) {
  const T eps = std::numeric_limits<T>::epsilon(), half = T(0.5), one = T(1);
  auto sign = [](T x, T y) { return std::copysign(std::abs(x), y); };
  cs = one;
  sn = T(0);
  if (c == T(0)) return;
  if (b == T(0)) {  // swap rows and columns
    cs = T(0);
    sn = one;
    std::swap(a, d);
    b = -c;
    c = T(0);
    return;
  }
  if (a - d == T(0) && std::signbit(b) != std::signbit(c)) return;
  T temp = a - d, p = half * temp;
  T bcmax = std::max(std::abs(b), std::abs(c));
  T bcmis = std::min(std::abs(b), std::abs(c)) * sign(one, b) * sign(one, c);
  T scale = std::max(std::abs(p), bcmax);
  T zz = (p / scale) * p + (bcmax / scale) * bcmis;
  if (zz >= T(4) * eps) {  // real eigenvalues
    zz = p + sign(std::sqrt(scale) * std::sqrt(zz), p);
    a = d + zz;
    d = d - (bcmax / zz) * bcmis;
    T tau = std::hypot(c, zz);
    cs = zz / tau;
    sn = c / tau;
    b = b - c;
    c = T(0);
    return;
  }
  // Complex (or nearly equal real) eigenvalues: make the diagonal entries equal.
  T sigma = b + c;
  T tau = std::hypot(sigma, temp);
  cs = std::sqrt(half * (one + std::abs(sigma) / tau));
  sn = -(p / (tau * cs)) * sign(one, sigma);
  T aa = a * cs + b * sn, bb = -a * sn + b * cs, cc = c * cs + d * sn, dd = -c * sn + d * cs;
  a = aa * cs + cc * sn;
  b = bb * cs + dd * sn;
  c = -aa * sn + cc * cs;
  d = -bb * sn + dd * cs;
  temp = half * (a + d);
  a = d = temp;
  if (c == T(0)) return;
  if (b != T(0)) {
    if (std::signbit(b) == std::signbit(c)) {  // real after all: upper triangular
      T sab = std::sqrt(std::abs(b)), sac = std::sqrt(std::abs(c));
      p = sign(sab * sac, c);
      tau = one / std::sqrt(std::abs(b + c));
      a = temp + p;
      d = temp - p;
      b = b - c;
      c = T(0);
      T cs1 = sab * tau, sn1 = sac * tau;
      temp = cs * cs1 - sn * sn1;
      sn = cs * sn1 + sn * cs1;
      cs = temp;
    }
  } else {
    b = -c;
    c = T(0);
    temp = cs;
    cs = -sn;
    sn = temp;
  }
}

// Buffers at Eigen's alignment (64 bytes): what the AVX-512 loads of its vectorized loops
// prefer. The bits no longer depend on it (lane_dot, householder.h's gemm).
template <class T>
using Buffer = std::vector<T, Eigen::aligned_allocator<T>>;

// x, y ← cs·x + sn·y, cs·y − sn·x over len values `stride` apart (BLAS drot).
template <class T>
void rotate(T* x, T* y, int64_t len, int64_t stride, T cs, T sn) {
  for (int64_t j = 0; j < len; ++j) {
    const T a = x[j * stride], b = y[j * stride];
    x[j * stride] = cs * a + sn * b;
    y[j * stride] = cs * b - sn * a;
  }
}

// I − tau·v·vᵀ, v = (1, v2, v3), applied to rows r0, r1, r2 (or r0, r1 when r2 is null) over
// columns [0, len): the QR sweep's reflection from the left of h, and from the right of Z
// (rows of Zᵀ).
template <class T>
void reflect_rows(T* __restrict r0, T* __restrict r1, T* __restrict r2, int64_t len, T tau, T v2, T v3) {
  const T t2 = tau * v2, t3 = tau * v3;
  if (r2) {
    for (int64_t j = 0; j < len; ++j) {
      const T sum = r0[j] + v2 * r1[j] + v3 * r2[j];
      r0[j] -= sum * tau;
      r1[j] -= sum * t2;
      r2[j] -= sum * t3;
    }
  } else {
    for (int64_t j = 0; j < len; ++j) {
      const T sum = r0[j] + v2 * r1[j];
      r0[j] -= sum * tau;
      r1[j] -= sum * t2;
    }
  }
}

// One reflection of a QR sweep: I − tau·v·vᵀ with v = (1, v2, v3) (v3 = 0 for the last, 2×2)
// on columns p..p + 2.
template <class T>
struct Reflection {
  T tau, v2, v3;
  int64_t p;
};

// A bulge's two shifts, r1 + i·i1 and r2 + i·i2 (a complex pair or two real values).
template <class T>
struct Shifts {
  T r1, i1, r2, i2;
};

// Active blocks from this many rows chase kBulges bulges per sweep, kSlabSteps steps per slab
// (measured at 150² to 1024²; 4 bulges left U's GEMMs too little to gain over their extra
// flops, 16 and slabs of 48 lost again). The shifts' own iteration on 2·kBulges rows must stay
// below the threshold (else it would recurse on itself).
constexpr int64_t kMultishiftRows = 96, kBulges = 12, kSlabSteps = 36;
// The aggressive early deflation's window (below) on active blocks of kMultishiftRows or more:
// 48 rows, as 32 and 64 measured no better (eig 1024² f32: 310-340 ms for 32 to 64 rows and 12
// to 20 bulges; 96 rows would have its own iteration recurse into another window).
constexpr int64_t kDeflationWindow = 48;
static_assert(kDeflationWindow < kMultishiftRows);  // the window's own iteration deflates at the bottom alone
static_assert(2 * kBulges < kMultishiftRows);

// The reflections r of a one-bulge sweep (in its order) applied from the right to the rows
// above each one's column p, rows i1..i − 2 of h: row j takes those with p > j (the ones before
// reached it during the sweep). Eight rows at a time, transposed into `block` so that each
// reflection is one 8-wide operation on three of its columns; a lane whose row it skips gets
// tau = 0.
template <class T>
void deferred_right(T* h, int64_t n, int64_t i1, int64_t start, int64_t i, const std::vector<Reflection<T>>& r,
                    std::vector<T>& block) {
  constexpr int64_t kLanes = 8;
  for (int64_t j0 = i1; j0 <= i - 2; j0 += kLanes) {
    const int64_t rows = std::min(kLanes, i - 1 - j0), c0 = std::max(j0 + 1, start);
    const int64_t width = i - c0 + 2;  // columns c0..i and a zero column for the last reflection's v3
    block.assign(static_cast<size_t>(width * kLanes), T(0));
    for (int64_t q = 0; q < rows; ++q)
      for (int64_t c = c0; c <= i; ++c) block[static_cast<size_t>((c - c0) * kLanes + q)] = h[(j0 + q) * n + c];
    for (const Reflection<T>& f : r) {
      if (f.p <= j0) continue;  // no row of this block
      T tau[kLanes];
      for (int64_t q = 0; q < kLanes; ++q) tau[q] = q < rows && f.p > j0 + q ? f.tau : T(0);
      T* x0 = block.data() + (f.p - c0) * kLanes;
      T* x1 = x0 + kLanes;
      T* x2 = x1 + kLanes;
      for (int64_t q = 0; q < kLanes; ++q) {
        const T sum = (x0[q] + f.v2 * x1[q] + f.v3 * x2[q]) * tau[q];
        x0[q] -= sum;
        x1[q] -= sum * f.v2;
        x2[q] -= sum * f.v3;
      }
    }
    for (int64_t q = 0; q < rows; ++q)
      for (int64_t c = c0; c <= i; ++c) h[(j0 + q) * n + c] = block[static_cast<size_t>((c - c0) * kLanes + q)];
  }
}


// LAPACK's dlartg: [cs sn; −sn cs] (f, g) = (r, 0).
template <class T>
void lartg(T f, T g, T& cs, T& sn) {
  if (g == T(0)) {
    cs = T(1), sn = T(0);
  } else if (f == T(0)) {
    cs = T(0), sn = std::copysign(T(1), g);
  } else {
    const T r = std::copysign(std::hypot(f, g), f);
    cs = f / r, sn = g / r;
  }
}

// I − tau·u·uᵀ (u of 3) from the left on rows r..r + 2 of m (rows ld apart), columns [c0, c1);
// and from the right on columns c..c + 2, rows [r0, r1) (LAPACK's dlarfx of order 3).
template <class T>
void reflect3_left(T* m, int64_t ld, int64_t r, int64_t c0, int64_t c1, const T* u, T tau) {
  T* x = m + r * ld;
  T* y = x + ld;
  T* z = y + ld;
  for (int64_t c = c0; c < c1; ++c) {
    const T s = tau * (u[0] * x[c] + u[1] * y[c] + u[2] * z[c]);
    x[c] -= s * u[0], y[c] -= s * u[1], z[c] -= s * u[2];
  }
}
template <class T>
void reflect3_right(T* m, int64_t ld, int64_t c, int64_t r0, int64_t r1, const T* u, T tau) {
  for (int64_t r = r0; r < r1; ++r) {
    T* x = m + r * ld + c;
    const T s = tau * (x[0] * u[0] + x[1] * u[1] + x[2] * u[2]);
    x[0] -= s * u[0], x[1] -= s * u[1], x[2] -= s * u[2];
  }
}

// X (n1×n2, 1 ≤ n1, n2 ≤ 2) with tl·X − X·tr = scale·b (tl, tr, b rows ld apart), as LAPACK's
// dlasy2: the Kronecker system of n1·n2 unknowns by Gaussian elimination with complete pivoting,
// pivots below smin raised to it (a nearly common eigenvalue), the right side scaled down
// (scale ≤ 1) where the solution could overflow.
template <class T>
T small_sylvester(const T* tl, const T* tr, const T* b, int64_t ld, int n1, int n2, T x[2][2]) {
  const int m = n1 * n2;
  const T eps = std::numeric_limits<T>::epsilon(), smlnum = std::numeric_limits<T>::min() / eps;
  T a[4][4] = {}, rhs[4], big = T(0);
  for (int i = 0; i < n1; ++i)
    for (int j = 0; j < n1; ++j) big = std::max(big, std::abs(tl[i * ld + j]));
  for (int i = 0; i < n2; ++i)
    for (int j = 0; j < n2; ++j) big = std::max(big, std::abs(tr[i * ld + j]));
  const T smin = std::max(eps * big, smlnum);
  for (int i = 0; i < n1; ++i)
    for (int k = 0; k < n2; ++k) {
      const int row = i * n2 + k;
      rhs[row] = b[i * ld + k];
      for (int j = 0; j < n1; ++j) a[row][j * n2 + k] += tl[i * ld + j];
      for (int l = 0; l < n2; ++l) a[row][i * n2 + l] -= tr[l * ld + k];
    }
  int unknown[4] = {0, 1, 2, 3};  // the unknown in each column after the column swaps
  for (int p = 0; p < m; ++p) {
    int pr = p, pc = p;
    for (int r = p; r < m; ++r)
      for (int c = p; c < m; ++c)
        if (std::abs(a[r][c]) > std::abs(a[pr][pc])) pr = r, pc = c;
    if (pr != p) {
      for (int c = 0; c < m; ++c) std::swap(a[p][c], a[pr][c]);
      std::swap(rhs[p], rhs[pr]);
    }
    if (pc != p) {
      for (int r = 0; r < m; ++r) std::swap(a[r][p], a[r][pc]);
      std::swap(unknown[p], unknown[pc]);
    }
    if (std::abs(a[p][p]) < smin) a[p][p] = smin;
    for (int r = p + 1; r < m; ++r) {
      const T f = a[r][p] / a[p][p];
      for (int c = p + 1; c < m; ++c) a[r][c] -= f * a[p][c];
      rhs[r] -= f * rhs[p];
    }
  }
  T scale = T(1), bmax = T(0);
  for (int r = 0; r < m; ++r) bmax = std::max(bmax, std::abs(rhs[r]));
  if (T(8) * smlnum * bmax > std::abs(a[m - 1][m - 1])) {
    scale = T(0.125) / bmax;
    for (int r = 0; r < m; ++r) rhs[r] *= scale;
  }
  T sol[4];
  for (int p = m - 1; p >= 0; --p) {
    T s = rhs[p];
    for (int c = p + 1; c < m; ++c) s -= a[p][c] * sol[c];
    sol[p] = s / a[p][p];
  }
  for (int p = 0; p < m; ++p) x[unknown[p] / n2][unknown[p] % n2] = sol[p];
  return scale;
}

// LAPACK's dlaexc: swaps the adjacent diagonal blocks of orders n1 and n2 (1 or 2) at row j1 of
// the quasi-triangular t (n×n, row-major, standard 2×2 blocks) by an orthogonal similarity, also
// applied to the rows of zt (Zᵀ) when not null. A swap that would perturb the blocks by more than
// 10·ulp·max|block| (nearly equal eigenvalues) is refused: false, nothing changed.
template <class T>
bool swap_blocks(T* t, T* zt, int64_t n, int64_t j1, int n1, int n2) {
  auto Tm = [t, n](int64_t i, int64_t j) -> T& { return t[i * n + j]; };
  const int64_t j2 = j1 + 1, j3 = j1 + 2, j4 = j1 + 3;
  T cs, sn;
  if (n1 == 1 && n2 == 1) {
    const T t11 = Tm(j1, j1), t22 = Tm(j2, j2);
    lartg(Tm(j1, j2), t22 - t11, cs, sn);
    if (j3 < n) rotate(&Tm(j1, j3), &Tm(j2, j3), n - j3, 1, cs, sn);
    rotate(&Tm(0, j1), &Tm(0, j2), j1, n, cs, sn);
    Tm(j1, j1) = t22, Tm(j2, j2) = t11;
    if (zt) rotate(zt + j1 * n, zt + j2 * n, n, 1, cs, sn);
    return true;
  }
  const int nd = n1 + n2;
  T d[16], dnorm = T(0);
  for (int r = 0; r < nd; ++r)
    for (int c = 0; c < nd; ++c) dnorm = std::max(dnorm, std::abs(d[r * 4 + c] = Tm(j1 + r, j1 + c)));
  const T eps = std::numeric_limits<T>::epsilon(), smlnum = std::numeric_limits<T>::min() / eps;
  const T thresh = std::max(T(10) * eps * dnorm, smlnum);
  T x[2][2];
  const T scale = small_sylvester(d, d + n1 * 4 + n1, d + n1, 4, n1, n2, x);
  auto D = [&d](int r, int c) { return std::abs(d[r * 4 + c]); };
  T beta, tau;
  if (n1 == 1) {  // n2 = 2: H with (scale, x11, x12) H = (0, 0, *)
    T v[3] = {x[0][1], scale, x[0][0]};
    larfg(v, 3, beta, tau);
    const T u[3] = {v[1], v[2], T(1)}, t11 = Tm(j1, j1);
    reflect3_left(d, 4, 0, 0, 3, u, tau);
    reflect3_right(d, 4, 0, 0, 3, u, tau);
    if (std::max({D(2, 0), D(2, 1), std::abs(d[2 * 4 + 2] - t11)}) > thresh) return false;
    reflect3_left(t, n, j1, j1, n, u, tau);
    reflect3_right(t, n, j1, 0, j1 + 2, u, tau);
    Tm(j3, j1) = T(0), Tm(j3, j2) = T(0), Tm(j3, j3) = t11;
    if (zt) reflect3_left(zt, n, j1, 0, n, u, tau);
  } else if (n2 == 1) {  // n1 = 2: H (−x11, −x21, scale)ᵀ = (*, 0, 0)ᵀ
    T u[3] = {-x[0][0], -x[1][0], scale};
    larfg(u, 3, beta, tau);
    u[0] = T(1);
    const T t33 = Tm(j3, j3);
    reflect3_left(d, 4, 0, 0, 3, u, tau);
    reflect3_right(d, 4, 0, 0, 3, u, tau);
    if (std::max({D(1, 0), D(2, 0), std::abs(d[0] - t33)}) > thresh) return false;
    reflect3_right(t, n, j1, 0, j1 + 3, u, tau);
    reflect3_left(t, n, j1, j2, n, u, tau);
    Tm(j1, j1) = t33, Tm(j2, j1) = T(0), Tm(j3, j1) = T(0);
    if (zt) reflect3_left(zt, n, j1, 0, n, u, tau);
  } else {  // two 2×2 blocks: H2 H1 (−X; scale·I) = (R; 0)
    T u1[3] = {-x[0][0], -x[1][0], scale};
    T tau1, tau2;
    larfg(u1, 3, beta, tau1);
    u1[0] = T(1);
    const T temp = -tau1 * (x[0][1] + u1[1] * x[1][1]);
    T u2[3] = {-temp * u1[1] - x[1][1], -temp * u1[2], scale};
    larfg(u2, 3, beta, tau2);
    u2[0] = T(1);
    reflect3_left(d, 4, 0, 0, 4, u1, tau1);
    reflect3_right(d, 4, 0, 0, 4, u1, tau1);
    reflect3_left(d, 4, 1, 0, 4, u2, tau2);
    reflect3_right(d, 4, 1, 0, 4, u2, tau2);
    if (std::max({D(2, 0), D(2, 1), D(3, 0), D(3, 1)}) > thresh) return false;
    reflect3_left(t, n, j1, j1, n, u1, tau1);
    reflect3_right(t, n, j1, 0, j1 + 4, u1, tau1);
    reflect3_left(t, n, j2, j1, n, u2, tau2);
    reflect3_right(t, n, j2, 0, j1 + 4, u2, tau2);
    Tm(j3, j1) = Tm(j3, j2) = Tm(j4, j1) = Tm(j4, j2) = T(0);
    if (zt) {
      reflect3_left(zt, n, j1, 0, n, u1, tau1);
      reflect3_left(zt, n, j2, 0, n, u2, tau2);
    }
  }
  // The blocks that moved back to standard form.
  auto standardize = [&](int64_t k) {
    lanv2(Tm(k, k), Tm(k, k + 1), Tm(k + 1, k), Tm(k + 1, k + 1), cs, sn);
    if (k + 2 < n) rotate(&Tm(k, k + 2), &Tm(k + 1, k + 2), n - k - 2, 1, cs, sn);
    rotate(&Tm(0, k), &Tm(0, k + 1), k, n, cs, sn);
    if (zt) rotate(zt + k * n, zt + (k + 1) * n, n, 1, cs, sn);
  };
  if (n2 == 2) standardize(j1);
  if (n1 == 2) standardize(j1 + n2);
  return true;
}

}  // namespace

// LAPACK's dtrexc for a block moving up (see the header); a 2×2 block whose eigenvalues a swap
// made real moves on as two 1×1 blocks.
template <class T>
int64_t move_block_up(T* t, T* zt, int64_t n, int64_t ifst, int64_t ilst) {
  auto Tm = [t, n](int64_t i, int64_t j) -> T& { return t[i * n + j]; };
  if (ifst > 0 && Tm(ifst, ifst - 1) != T(0)) --ifst;
  int nbf = ifst + 1 < n && Tm(ifst + 1, ifst) != T(0) ? 2 : 1;
  int64_t here = ifst;
  while (here > ilst) {
    int nbnext = here >= 2 && Tm(here - 1, here - 2) != T(0) ? 2 : 1;
    if (nbf != 3) {
      if (!swap_blocks(t, zt, n, here - nbnext, nbnext, nbf)) return here;
      here -= nbnext;
      if (nbf == 2 && Tm(here + 1, here) == T(0)) nbf = 3;
      continue;
    }
    // Two 1×1 blocks, at here and here + 1, each swapped on its own.
    if (!swap_blocks(t, zt, n, here - nbnext, nbnext, 1)) return here;
    if (nbnext == 1) {
      swap_blocks(t, zt, n, here, 1, 1);
      here -= 1;
    } else if (Tm(here, here - 1) != T(0)) {  // the 2×2 block above did not split
      if (!swap_blocks(t, zt, n, here - 1, 2, 1)) return here;
      here -= 2;
    } else {
      swap_blocks(t, zt, n, here, 1, 1);
      swap_blocks(t, zt, n, here - 1, 1, 1);
      here -= 2;
    }
  }
  return here;
}

// LAPACK 3.12's dlahqr with wantz over all of Z's rows, ilo = 0, ihi = n − 1; indices from 0.
template <class T>
bool real_schur(T* h, T* zt, T* wr, T* wi, int64_t n, bool want_t) {
  if (n == 0) return true;
  auto H = [h, n](int64_t i, int64_t j) -> T& { return h[i * n + j]; };
  for (int64_t i = 2; i < n; ++i) std::fill(h + i * n, h + i * n + i - 1, T(0));
  if (n == 1) {
    wr[0] = h[0];
    wi[0] = T(0);
    return true;
  }
  const T ulp = std::numeric_limits<T>::epsilon(), safmin = std::numeric_limits<T>::min();
  const T smlnum = safmin * (T(n) / ulp);
  constexpr T dat1 = T(0.75), dat2 = T(-0.4375);
  constexpr int64_t kexsh = 10;
  const int64_t itmax = 30 * std::max<int64_t>(10, n);
  int64_t i1 = 0, i2 = n - 1;  // the columns (rows) the sweeps transform: all of h for T
  int64_t kdefl = 0;           // iterations since the last deflation
  std::vector<Reflection<T>> reflections;  // a sweep's, in order
  std::vector<T> block;                    // deferred_right's rows, transposed
  std::vector<Shifts<T>> bulges;           // a sweep's shifts, a pair per bulge
  Buffer<T> ut, tmp;                       // a multishift slab's Uᵀ, and its GEMMs' products
  // The shifts of a multishift sweep over an active block ending at row i: the eigenvalues of its
  // trailing 2·kBulges rows (this iteration on them), complex pairs as they come and real ones
  // two by two. None when that iteration fails.
  auto multishift_shifts = [&](int64_t i, std::vector<Shifts<T>>& out) {
    const int64_t ns = 2 * kBulges, f = i - ns + 1;
    std::vector<T> small(static_cast<size_t>(ns * ns)), sr(static_cast<size_t>(ns)), si(static_cast<size_t>(ns));
    for (int64_t r = 0; r < ns; ++r)
      for (int64_t c = std::max<int64_t>(0, r - 1); c < ns; ++c) small[static_cast<size_t>(r * ns + c)] = H(f + r, f + c);
    if (!real_schur(small.data(), static_cast<T*>(nullptr), sr.data(), si.data(), ns, false)) return;
    std::vector<T> reals;
    for (int64_t j = 0; j < ns; ++j) {
      if (si[static_cast<size_t>(j)] != T(0) && j + 1 < ns) {
        out.push_back({sr[size_t(j)], si[size_t(j)], sr[size_t(j + 1)], si[size_t(j + 1)]});
        ++j;
      } else {
        reals.push_back(sr[static_cast<size_t>(j)]);
      }
    }
    for (size_t j = 0; j + 1 < reals.size(); j += 2) out.push_back({reals[j], T(0), reals[j + 1], T(0)});
    if (out.size() < 2) out.clear();
  };
  // An orthogonal similarity U (w × w, given as Uᵀ) of h's rows and columns [w0, w0 + w) reaches
  // the rest: the rows above (h U), the columns to the right up to i2 (Uᵀ h) and Z (Uᵀ Zᵀ), each
  // one GEMM. (The window's own part of h the caller has already transformed.)
  auto apply_window = [&](int64_t w0, int64_t w, const T* u) {
    const int64_t w1 = w0 + w - 1;
    if (w0 > i1) {  // h[i1, w0) × [w0, w1] ← · U
      const int64_t m = w0 - i1;
      tmp.resize(static_cast<size_t>(m * w));
      gemm(&H(i1, w0), n, false, u, w, true, tmp.data(), w, m, w, w);
      for (int64_t r = 0; r < m; ++r) std::copy_n(tmp.data() + r * w, w, &H(i1 + r, w0));
    }
    if (w1 < i2) {  // h[w0, w1] × (w1, i2] ← Uᵀ ·
      const int64_t c = i2 - w1;
      tmp.resize(static_cast<size_t>(w * c));
      gemm(u, w, false, &H(w0, w1 + 1), n, false, tmp.data(), c, w, c, w);
      for (int64_t r = 0; r < w; ++r) std::copy_n(tmp.data() + r * c, c, &H(w0 + r, w1 + 1));
    }
    if (zt) {  // Zᵀ rows [w0, w1] ← Uᵀ ·
      tmp.resize(static_cast<size_t>(w * n));
      gemm(u, w, false, zt + w0 * n, n, false, tmp.data(), n, w, n, w);
      std::copy_n(tmp.data(), w * n, zt + w0 * n);
    }
  };
  // LAPACK's aggressive early deflation (dlaqr3) on the active block [l, i]: the trailing window
  // of kDeflationWindow rows brought to Schur form, W = V Tw Vᵀ (this iteration on it), couples
  // to the rest only through the spike s·V's first row (s = h(kw, kw − 1)). Each of Tw's blocks
  // from the bottom whose spike entries are negligible has converged (deflated); one that has not
  // is moved to the top (move_block_up), out of the way. With deflations, the spike is folded
  // into its first entry by a reflection, the undeflated part brought back to Hessenberg form,
  // and V reaches the rows above, the columns to the right and Z by three GEMMs; the deflated
  // blocks then split off at the next test. Returns how many rows deflated (−1 when the
  // window's iteration failed); the undeflated eigenvalues, the smallest first, become `out`'s
  // shifts (LAPACK's sweeps use the same). Far fewer sweeps than deflating at the bottom alone:
  // a sweep's shifts converge many eigenvalues in the window at once, not only the last.
  Buffer<T> wt, wv, sub, q;
  auto early_deflation = [&](int64_t l, int64_t i, std::vector<Shifts<T>>& out) -> int64_t {
    const int64_t jw = std::min(kDeflationWindow, i - l + 1), kw = i - jw + 1;
    T s = kw == l ? T(0) : H(kw, kw - 1);
    wt.assign(static_cast<size_t>(jw * jw), T(0));
    wv.assign(static_cast<size_t>(jw * jw), T(0));
    auto W = [&](int64_t r, int64_t c) -> T& { return wt[static_cast<size_t>(r * jw + c)]; };
    for (int64_t r = 0; r < jw; ++r) {
      for (int64_t c = std::max<int64_t>(0, r - 1); c < jw; ++c) W(r, c) = H(kw + r, kw + c);
      wv[static_cast<size_t>(r * jw + r)] = T(1);
    }
    std::vector<T> sr(static_cast<size_t>(jw)), si(static_cast<size_t>(jw));
    if (!real_schur(wt.data(), wv.data(), sr.data(), si.data(), jw, true)) return -1;
    auto spike = [&](int64_t j) { return std::abs(s * wv[static_cast<size_t>(j * jw)]); };  // |s·V(0, j)|
    int64_t ns = jw, ilst = 0;
    while (ilst < ns) {
      if (ns == 1 || W(ns - 1, ns - 2) == T(0)) {
        T foo = std::abs(W(ns - 1, ns - 1));
        if (foo == T(0)) foo = std::abs(s);
        if (spike(ns - 1) <= std::max(smlnum, ulp * foo)) {
          ns -= 1;
        } else {
          ilst = move_block_up(wt.data(), wv.data(), jw, ns - 1, ilst) + 1;
        }
      } else {
        T foo = std::abs(W(ns - 1, ns - 1)) + std::sqrt(std::abs(W(ns - 1, ns - 2))) * std::sqrt(std::abs(W(ns - 2, ns - 1)));
        if (foo == T(0)) foo = std::abs(s);
        if (std::max(spike(ns - 1), spike(ns - 2)) <= std::max(smlnum, ulp * foo)) {
          ns -= 2;
        } else {
          ilst = move_block_up(wt.data(), wv.data(), jw, ns - 1, ilst) + 2;
        }
      }
    }
    if (ns == 0) s = T(0);
    // The undeflated eigenvalues as shifts, smallest |λ| first: a complex pair is one bulge, real
    // ones two by two.
    struct Candidate {
      T size, re, im;
    };
    std::vector<Candidate> candidates;
    for (int64_t j = 0; j < ns;) {
      if (j + 1 < ns && W(j + 1, j) != T(0)) {
        const T im = std::sqrt(std::abs(W(j, j + 1))) * std::sqrt(std::abs(W(j + 1, j)));
        candidates.push_back({std::abs(W(j, j)) + im, W(j, j), im});
        j += 2;
      } else {
        candidates.push_back({std::abs(W(j, j)), W(j, j), T(0)});
        j += 1;
      }
    }
    std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) { return a.size < b.size; });
    bool odd = false;
    T real = T(0);
    for (const Candidate& c : candidates) {
      if (static_cast<int64_t>(out.size()) == kBulges) break;
      if (c.im != T(0)) {
        out.push_back({c.re, c.im, c.re, -c.im});
      } else if (odd) {
        out.push_back({real, T(0), c.re, T(0)});
        odd = false;
      } else {
        real = c.re, odd = true;
      }
    }
    if (out.size() < 2) out.clear();
    if (ns == jw && s != T(0)) return 0;  // nothing deflated: h unchanged
    if (ns > 1 && s != T(0)) {
      // The reflection P with P·(V's first row over the undeflated columns) = (β, 0, …): Tw's
      // undeflated part ← P Tw P, V ← V P; then Tw's undeflated part back to Hessenberg form,
      // Q its reflections' product: its rows to the right ← Qᵀ ·, V ← V Q.
      std::vector<T> w(static_cast<size_t>(ns)), y(static_cast<size_t>(jw));
      for (int64_t j = 0; j < ns; ++j) w[static_cast<size_t>(j)] = wv[static_cast<size_t>(j * jw)];
      T beta, tau;
      larfg(w.data(), ns, beta, tau);
      w[0] = T(1);
      auto reflect_left = [&](T* m, int64_t cols) {  // rows [0, ns) of m (cols wide, rows jw apart)
        std::fill(y.begin(), y.begin() + cols, T(0));
        for (int64_t r = 0; r < ns; ++r)
          for (int64_t c = 0; c < cols; ++c) y[static_cast<size_t>(c)] += w[static_cast<size_t>(r)] * m[r * jw + c];
        for (int64_t r = 0; r < ns; ++r)
          for (int64_t c = 0; c < cols; ++c) m[r * jw + c] -= tau * w[static_cast<size_t>(r)] * y[static_cast<size_t>(c)];
      };
      reflect_left(wt.data(), jw);
      for (int64_t r = 0; r < ns; ++r) {
        T sum = T(0);
        for (int64_t c = 0; c < ns; ++c) sum += W(r, c) * w[static_cast<size_t>(c)];
        for (int64_t c = 0; c < ns; ++c) W(r, c) -= tau * sum * w[static_cast<size_t>(c)];
      }
      reflect_left(wv.data(), jw);  // V's columns are Vᵀ's rows
      sub.resize(static_cast<size_t>(ns * ns));
      q.resize(static_cast<size_t>(ns * ns));
      for (int64_t r = 0; r < ns; ++r) std::copy_n(&W(r, 0), ns, sub.data() + r * ns);
      hessenberg(sub.data(), q.data(), ns, false);
      for (int64_t r = 0; r < ns; ++r) std::copy_n(sub.data() + r * ns, ns, &W(r, 0));
      if (jw > ns) {
        tmp.resize(static_cast<size_t>(ns * (jw - ns)));
        gemm(q.data(), ns, true, &W(0, ns), jw, false, tmp.data(), jw - ns, ns, jw - ns, ns);
        for (int64_t r = 0; r < ns; ++r) std::copy_n(tmp.data() + r * (jw - ns), jw - ns, &W(r, ns));
      }
      tmp.resize(static_cast<size_t>(ns * jw));
      gemm(q.data(), ns, true, wv.data(), jw, false, tmp.data(), jw, ns, jw, ns);
      std::copy_n(tmp.data(), ns * jw, wv.data());
    }
    if (kw > 0) H(kw, kw - 1) = s * wv[0];
    for (int64_t r = 0; r < jw; ++r)
      for (int64_t c = std::max<int64_t>(0, r - 1); c < jw; ++c) H(kw + r, kw + c) = W(r, c);
    apply_window(kw, jw, wv.data());
    return jw - ns;
  };
  for (int64_t i = n - 1; i >= 0;) {
    int64_t l = 0;
    bool split = false;
    for (int64_t its = 0; its <= itmax; ++its) {
      // A negligible subdiagonal h(k, k−1) splits the active block [l, i] at k.
      int64_t k = i;
      for (; k > l; --k) {
        if (std::abs(H(k, k - 1)) <= smlnum) break;
        T tst = std::abs(H(k - 1, k - 1)) + std::abs(H(k, k));
        if (tst == T(0)) {
          if (k - 2 >= 0) tst += std::abs(H(k - 1, k - 2));
          if (k + 1 <= n - 1) tst += std::abs(H(k + 1, k));
        }
        if (std::abs(H(k, k - 1)) <= ulp * tst &&
            negligible_subdiagonal(std::abs(H(k, k - 1)), std::abs(H(k - 1, k)), std::abs(H(k, k)),
                                   std::abs(H(k - 1, k - 1) - H(k, k)), smlnum, ulp))
          break;
      }
      l = k;
      if (l > 0) H(l, l - 1) = T(0);
      if (l >= i - 1) {  // a 1×1 or 2×2 block has split off
        split = true;
        break;
      }
      ++kdefl;
      if (!want_t) i1 = l, i2 = i;
      // The first column of (H − s1)(H − s2) from row m (dlahqr's v, scaled to |v|₁ = 1).
      auto first_column = [&](int64_t m, const Shifts<T>& sh, T* v) {
        T h21s = H(m + 1, m);
        T s = std::abs(H(m, m) - sh.r2) + std::abs(sh.i2) + std::abs(h21s);
        h21s = H(m + 1, m) / s;
        v[0] = h21s * H(m, m + 1) + (H(m, m) - sh.r1) * ((H(m, m) - sh.r2) / s) - sh.i1 * (sh.i2 / s);
        v[1] = h21s * (H(m, m) + H(m + 1, m + 1) - sh.r1 - sh.r2);
        v[2] = h21s * H(m + 2, m + 1);
        s = std::abs(v[0]) + std::abs(v[1]) + std::abs(v[2]);
        v[0] /= s, v[1] /= s, v[2] /= s;
      };
      // A large active block chases several bulges at once (below), except at an exceptional
      // shift; else one, started at the lowest m where two consecutive subdiagonals are small
      // enough that h(m, m−1) stays negligible.
      bulges.clear();
      if (kdefl % kexsh != 0 && i - l + 1 >= kMultishiftRows) {
        const int64_t deflated = early_deflation(l, i, bulges);
        if (deflated > 0) {  // they split off at the next test; then another window
          bulges.clear();
          continue;
        }
        if (bulges.empty()) multishift_shifts(i, bulges);
      }
      int64_t start = l;
      T v0[3];
      if (bulges.empty()) {
        // The shifts: the trailing 2×2 block's eigenvalues, or an exceptional shift after 10
        // (from the top) and 20 (from the bottom) iterations without a deflation.
        T h11, h12, h21, h22;
        if (kdefl % (2 * kexsh) == 0) {
          const T s = std::abs(H(i, i - 1)) + std::abs(H(i - 1, i - 2));
          h11 = dat1 * s + H(i, i), h12 = dat2 * s, h21 = s, h22 = h11;
        } else if (kdefl % kexsh == 0) {
          const T s = std::abs(H(l + 1, l)) + std::abs(H(l + 2, l + 1));
          h11 = dat1 * s + H(l, l), h12 = dat2 * s, h21 = s, h22 = h11;
        } else {
          h11 = H(i - 1, i - 1), h21 = H(i, i - 1), h12 = H(i - 1, i), h22 = H(i, i);
        }
        T rt1r = 0, rt1i = 0, rt2r = 0, rt2i = 0;
        if (const T s = std::abs(h11) + std::abs(h12) + std::abs(h21) + std::abs(h22); s != T(0)) {
          h11 /= s, h21 /= s, h12 /= s, h22 /= s;
          const T tr = (h11 + h22) / T(2);
          const T det = (h11 - tr) * (h22 - tr) - h12 * h21;
          const T rtdisc = std::sqrt(std::abs(det));
          if (det >= T(0)) {  // a complex conjugate pair
            rt1r = rt2r = tr * s;
            rt1i = rtdisc * s;
            rt2i = -rt1i;
          } else {  // real: both shifts the one nearer h22
            rt1r = tr + rtdisc;
            rt2r = tr - rtdisc;
            rt1r = rt2r = (std::abs(rt1r - h22) <= std::abs(rt2r - h22) ? rt1r : rt2r) * s;
          }
        }
        bulges.push_back({rt1r, rt1i, rt2r, rt2i});
        for (start = i - 2;; --start) {
          first_column(start, bulges[0], v0);
          if (start == l) break;
          const T h00 = std::abs(H(start, start - 1)) * (std::abs(v0[1]) + std::abs(v0[2]));
          const T h01 = std::abs(v0[0]) * (std::abs(H(start - 1, start - 1)) + std::abs(H(start, start)) +
                                           std::abs(H(start + 1, start + 1)));
          if (h00 <= ulp * h01) break;
        }
      }
      const int64_t nb = static_cast<int64_t>(bulges.size());
      // Bulge b's step at row p: its reflection made (from the shifts at `start`, else from
      // column p − 1, whose bulge entries it then clears) and applied from the left to
      // columns p..cols and from the right to rows rows..min(p + 3, i) (all of [rows, i] for
      // the last, 2×2 one); returned for the rest of h and for Z.
      auto step = [&](int64_t p, int64_t b, int64_t cols, int64_t rows) {
        const int64_t nr = std::min<int64_t>(3, i - p + 1);
        T v[3];
        if (p > start) {
          for (int64_t r = 0; r < nr; ++r) v[r] = H(p + r, p - 1);
        } else if (nb == 1) {
          std::copy(v0, v0 + 3, v);
        } else {
          first_column(start, bulges[static_cast<size_t>(b)], v);
        }
        T beta, t1;
        larfg(v, nr, beta, t1);
        if (p > start) {
          H(p, p - 1) = beta;
          H(p + 1, p - 1) = T(0);
          if (p < i - 1) H(p + 2, p - 1) = T(0);
        } else if (start > l) {
          H(p, p - 1) *= T(1) - t1;  // not −h(k, k−1): LAPACK's fix for v2, v3 underflowing
        }
        const T v2 = v[1], v3 = nr == 3 ? v[2] : T(0);
        const T t2 = t1 * v2, t3 = t1 * v3;
        reflect_rows(&H(p, p), &H(p + 1, p), nr == 3 ? &H(p + 2, p) : nullptr, cols - p + 1, t1, v2, v3);
        const int64_t last = nr == 3 ? std::min(p + 3, i) : i;
        for (int64_t j = rows; j <= last; ++j) {
          T* row = h + j * n + p;
          const T sum = row[0] + v2 * row[1] + (nr == 3 ? v3 * row[2] : T(0));
          row[0] -= sum * t1;
          row[1] -= sum * t2;
          if (nr == 3) row[2] -= sum * t3;
        }
        return Reflection<T>{t1, v2, v3, p};
      };
      if (nb == 1) {
        // One bulge from m to i. Its reflections from the right reach rows i1..min(p + 3, i),
        // but the rows above p see no later reflection from the left, so theirs wait for the
        // sweep's end (deferred_right) and run along the rows rather than down three strided
        // columns per step (63% of the time at n = 1024, in cache misses).
        reflections.clear();
        for (int64_t p = start; p <= i - 1; ++p) {
          const Reflection<T> f = step(p, 0, i2, p);  // p ≥ start ≥ i1
          reflections.push_back(f);
          if (zt) reflect_rows(zt + p * n, zt + (p + 1) * n, p + 2 <= i ? zt + (p + 2) * n : nullptr, n, f.tau, f.v2, f.v3);
        }
        deferred_right(h, n, i1, start, i, reflections, block);
        continue;
      }
      // nb bulges from l to i, bulge b three rows behind bulge b − 1 (a step moves each by one,
      // the leading one first), as LAPACK's dlaqr5 chases them: kSlabSteps steps at a time
      // inside the window of rows and columns [w0, w1] they reach, their reflections gathered
      // into one orthogonal U (as Uᵀ, w × w), which then reaches the rest of h — the rows above
      // (h U), the columns to the right (Uᵀ h) — and Z (Uᵀ Zᵀ) by three GEMMs. Nothing else
      // reads those parts during the slab, and h's columns are never walked down.
      const int64_t last_t = i - 1 - start + 3 * (nb - 1);
      for (int64_t t0 = 0; t0 <= last_t; t0 += kSlabSteps) {
        const int64_t t_end = std::min(last_t, t0 + kSlabSteps - 1);
        const int64_t w0 = std::max(start, start + t0 - 3 * (nb - 1)), w1 = std::min(i, start + t_end + 3);
        const int64_t w = w1 - w0 + 1;
        ut.assign(static_cast<size_t>(w * w), T(0));
        for (int64_t d = 0; d < w; ++d) ut[static_cast<size_t>(d * w + d)] = T(1);
        for (int64_t t = t0; t <= t_end; ++t)
          for (int64_t b = 0; b < nb; ++b) {
            const int64_t p = start + t - 3 * b;
            if (p < start || p > i - 1) continue;
            const Reflection<T> f = step(p, b, w1, w0);
            T* u0 = ut.data() + (p - w0) * w;
            reflect_rows(u0, u0 + w, p + 2 <= i ? u0 + 2 * w : nullptr, w, f.tau, f.v2, f.v3);
          }
        apply_window(w0, w, ut.data());
      }
    }
    if (!split) return false;
    if (l == i) {
      wr[i] = H(i, i);
      wi[i] = T(0);
    } else {  // l == i − 1: a 2×2 block, brought to standard form
      T cs, sn;
      lanv2(H(i - 1, i - 1), H(i - 1, i), H(i, i - 1), H(i, i), cs, sn);
      wr[i - 1] = H(i - 1, i - 1);
      wr[i] = H(i, i);
      wi[i - 1] = H(i, i - 1) == T(0) ? T(0) : std::sqrt(std::abs(H(i - 1, i))) * std::sqrt(std::abs(H(i, i - 1)));
      wi[i] = -wi[i - 1];
      if (want_t) {
        if (i2 > i) rotate(&H(i - 1, i + 1), &H(i, i + 1), i2 - i, 1, cs, sn);
        rotate(&H(i1, i - 1), &H(i1, i), i - i1 - 1, n, cs, sn);
      }
      if (zt) rotate(zt + (i - 1) * n, zt + i * n, n, 1, cs, sn);
    }
    kdefl = 0;
    i = l - 1;
  }
  return true;
}

namespace {

// The solution of [a00 a01; a10 a11] x = s·b for a scale s ≤ 1 that keeps |x| ≤ big (s is
// returned; b in x0, x1 on entry): complete pivoting, pivots below smin raised to smin (a
// perturbation of a nearly singular block, as LAPACK's dlaln2). C: T or std::complex<T>.
template <class C, class T>
T solve2(C a00, C a01, C a10, C a11, C& x0, C& x1, T smin, T big) {
  const T m[4] = {magnitude(a00), magnitude(a01), magnitude(a10), magnitude(a11)};
  const int p = static_cast<int>(std::max_element(m, m + 4) - m);
  if (m[p] < smin) a00 = a11 = C(smin), a01 = a10 = C(0);
  const bool col_swap = p == 1 || p == 3;
  if (col_swap) std::swap(a00, a01), std::swap(a10, a11);
  if (p >= 2) std::swap(a00, a10), std::swap(a01, a11), std::swap(x0, x1);
  const C l = a10 / a00;
  C u11 = a11 - l * a01;
  if (magnitude(u11) < smin) u11 = C(smin);
  C b1 = x1 - l * x0, b0 = x0;
  T s = 1;
  if (magnitude(b1) > big * magnitude(u11)) s = big * magnitude(u11) / magnitude(b1);
  C y1 = (s * b1) / u11;
  C num0 = s * b0 - a01 * y1;
  if (magnitude(num0) > big * magnitude(a00)) {
    const T s2 = big * magnitude(a00) / magnitude(num0);
    y1 *= s2, num0 *= s2, s *= s2;
  }
  C y0 = num0 / a00;
  if (col_swap) std::swap(y0, y1);
  x0 = y0, x1 = y1;
  return s;
}

// The eigenvector of the quasi-triangular t (n×n, row-major, standard 2×2 blocks) for the
// eigenvalue at row ki by back substitution (LAPACK's dtrevc, right vectors): real, x[0, ki]
// with x[ki] = 1; or, when xi is given (ki the first row of a complex pair's block, wr + i·wi
// with wi > 0), real and imaginary parts x[0, ki + 1] + i·xi[0, ki + 1]. Scaled down where it
// would pass big; entries past the vector's end are left as they are (zero).
template <class T>
void back_substitute(const T* t, int64_t n, int64_t ki, T wr, T wi, T* x, T* xi, T smlnum, T big) {
  const T smin = std::max(std::numeric_limits<T>::epsilon() * (std::abs(wr) + std::abs(wi)), smlnum);
  auto at = [t, n](int64_t i, int64_t j) { return t[i * n + j]; };
  int64_t top;  // the last row set by the block's own equations; rows below it are solved for
  if (!xi) {
    x[ki] = T(1);
    top = ki;
  } else {
    // The block's own equations (dtrevc): one of its two components set, the other from it.
    if (std::abs(at(ki, ki + 1)) >= std::abs(at(ki + 1, ki))) {
      x[ki] = T(1), xi[ki + 1] = wi / at(ki, ki + 1);
    } else {
      x[ki] = -wi / at(ki + 1, ki), xi[ki + 1] = T(1);
    }
    x[ki + 1] = T(0), xi[ki] = T(0);
    top = ki + 1;
  }
  auto scale = [&](int64_t from, T s) {
    for (int64_t j = from; j <= top; ++j) x[j] *= s;
    if (xi)
      for (int64_t j = from; j <= top; ++j) xi[j] *= s;
  };
  using C = std::complex<T>;
  const C lambda(wr, wi);
  for (int64_t k = ki - 1; k >= 0; --k) {
    const bool block = k > 0 && at(k, k - 1) != T(0);
    if (!block) {
      const int64_t len = top - k;
      auto scale_solved = [&](T s) { scale(k + 1, s); };
      if (!xi) {
        x[k] = solve1(-lane_dot(t + k * n + k + 1, x + k + 1, len), at(k, k) - wr, smin, big, scale_solved);
      } else {
        const C r(-lane_dot(t + k * n + k + 1, x + k + 1, len), -lane_dot(t + k * n + k + 1, xi + k + 1, len));
        const C y = solve1(r, at(k, k) - lambda, smin, big, scale_solved);
        x[k] = y.real(), xi[k] = y.imag();
      }
      continue;
    }
    // A 2×2 block in rows k − 1, k.
    const int64_t len = top - k;
    const T* r0 = t + (k - 1) * n + k + 1;
    const T* r1 = t + k * n + k + 1;
    if (!xi) {
      T y0 = -lane_dot(r0, x + k + 1, len), y1 = -lane_dot(r1, x + k + 1, len);
      const T s = solve2<T, T>(at(k - 1, k - 1) - wr, at(k - 1, k), at(k, k - 1), at(k, k) - wr, y0, y1, smin, big);
      if (s != T(1)) scale(k + 1, s);
      x[k - 1] = y0, x[k] = y1;
    } else {
      C y0(-lane_dot(r0, x + k + 1, len), -lane_dot(r0, xi + k + 1, len));
      C y1(-lane_dot(r1, x + k + 1, len), -lane_dot(r1, xi + k + 1, len));
      const T s = solve2<C, T>(C(at(k - 1, k - 1)) - lambda, C(at(k - 1, k)), C(at(k, k - 1)), C(at(k, k)) - lambda,
                               y0, y1, smin, big);
      if (s != T(1)) scale(k + 1, s);
      x[k - 1] = y0.real(), xi[k - 1] = y0.imag();
      x[k] = y1.real(), xi[k] = y1.imag();
    }
    --k;
  }
  // Largest |component| 1 (|re| + |im| for a pair, as dtrevc): the Schur vectors' GEMM and the
  // Euclidean normalization after it stay far from overflow.
  T largest = 0;
  for (int64_t j = 0; j <= top; ++j) largest = std::max(largest, std::abs(x[j]) + (xi ? std::abs(xi[j]) : T(0)));
  scale(0, T(1) / largest);
}


// The left eigenvector of t for the eigenvalue at row ki (LAPACK's dtrevc, left vectors): u with
// uᴴ t = λ uᴴ, zero above ki, by forward substitution on tt = tᵀ (row-major, so each step is a
// dot product along a row of tt, as back_substitute's along a row of t). Real: x[ki, n) with
// x[ki] = 1; or, when xi is given (ki the first row of a complex pair, λ = wr + i·wi, wi > 0),
// u = x + i·xi over [ki, n), which solves (tᵀ − (wr − i·wi)) u = 0. Scaled as back_substitute.
template <class T>
void forward_substitute(const T* tt, int64_t n, int64_t ki, T wr, T wi, T* x, T* xi, T smlnum, T big) {
  const T smin = std::max(std::numeric_limits<T>::epsilon() * (std::abs(wr) + std::abs(wi)), smlnum);
  auto at = [tt, n](int64_t i, int64_t j) { return tt[i * n + j]; };  // tᵀ(i, j) = t(j, i)
  int64_t k;  // the first row still to solve for
  if (!xi) {
    x[ki] = T(1);
    k = ki + 1;
  } else {
    // The block's own equations (dtrevc): one of the two components set, the other from it.
    if (std::abs(at(ki + 1, ki)) >= std::abs(at(ki, ki + 1))) {  // |t(ki, ki+1)| ≥ |t(ki+1, ki)|
      x[ki] = wi / at(ki + 1, ki), xi[ki + 1] = T(1);
    } else {
      x[ki] = T(1), xi[ki + 1] = -wi / at(ki, ki + 1);
    }
    xi[ki] = T(0), x[ki + 1] = T(0);
    k = ki + 2;
  }
  auto scale = [&](int64_t to, T s) {  // the components solved so far, [ki, to)
    for (int64_t j = ki; j < to; ++j) x[j] *= s;
    if (xi)
      for (int64_t j = ki; j < to; ++j) xi[j] *= s;
  };
  using C = std::complex<T>;
  const C mu(wr, -wi);
  while (k < n) {
    const bool block = k + 1 < n && at(k, k + 1) != T(0);
    const int64_t len = k - ki;
    const T* r0 = tt + k * n + ki;
    if (!block) {
      auto scale_solved = [&](T s) { scale(k, s); };
      if (!xi) {
        x[k] = solve1(-lane_dot(r0, x + ki, len), at(k, k) - wr, smin, big, scale_solved);
      } else {
        const C r(-lane_dot(r0, x + ki, len), -lane_dot(r0, xi + ki, len));
        const C y = solve1(r, at(k, k) - mu, smin, big, scale_solved);
        x[k] = y.real(), xi[k] = y.imag();
      }
      k += 1;
      continue;
    }
    // A 2×2 block in rows k, k + 1 (of tᵀ: the block transposed).
    const T* r1 = r0 + n;
    if (!xi) {
      T y0 = -lane_dot(r0, x + ki, len), y1 = -lane_dot(r1, x + ki, len);
      const T s = solve2<T, T>(at(k, k) - wr, at(k, k + 1), at(k + 1, k), at(k + 1, k + 1) - wr, y0, y1, smin, big);
      if (s != T(1)) scale(k, s);
      x[k] = y0, x[k + 1] = y1;
    } else {
      C y0(-lane_dot(r0, x + ki, len), -lane_dot(r0, xi + ki, len));
      C y1(-lane_dot(r1, x + ki, len), -lane_dot(r1, xi + ki, len));
      const T s = solve2<C, T>(C(at(k, k)) - mu, C(at(k, k + 1)), C(at(k + 1, k)), C(at(k + 1, k + 1)) - mu, y0, y1,
                               smin, big);
      if (s != T(1)) scale(k, s);
      x[k] = y0.real(), xi[k] = y0.imag();
      x[k + 1] = y1.real(), xi[k + 1] = y1.imag();
    }
    k += 2;
  }
  T largest = 0;
  for (int64_t j = ki; j < n; ++j) largest = std::max(largest, std::abs(x[j]) + (xi ? std::abs(xi[j]) : T(0)));
  for (int64_t j = ki; j < n; ++j) x[j] /= largest;
  if (xi)
    for (int64_t j = ki; j < n; ++j) xi[j] /= largest;
}

// a·2^-e = Z T Zᵀ with the power of two 2^e that brings a's largest |entry| into [1/2, 1)
// (exact; as Eigen's RealSchur divides by it): the iteration's squares and the back
// substitution's bound then depend on n alone. h gets T, zt Zᵀ (when not null); wr + i·wi
// the eigenvalues of a itself. With `balanced` (not null), a is balanced first (dgebal, above;
// before the scaling, which would flush a badly scaled matrix's small entries to zero) and T,
// Z are those of the balanced matrix.
template <class T>
struct Balanced {
  int64_t ilo = 0, ihi = 0;
  std::vector<T> scale;
};
template <class T>
bool scaled_schur(const T* a, Buffer<T>& h, Buffer<T>* zt, T* wr, T* wi, int64_t n, int& e, Balanced<T>* balanced) {
  h.assign(a, a + n * n);
  if (balanced) balance(h.data(), n, balanced->ilo, balanced->ihi, balanced->scale);
  T largest = 0;
  for (int64_t i = 0; i < n * n; ++i) largest = std::max(largest, std::abs(h[i]));
  e = largest > T(0) ? std::ilogb(largest) + 1 : 0;
  for (int64_t i = 0; i < n * n; ++i) h[i] = std::ldexp(h[i], -e);
  if (zt) zt->resize(static_cast<size_t>(n * n));
  hessenberg(h.data(), zt ? zt->data() : nullptr, n, true);
  if (!real_schur(h.data(), zt ? zt->data() : nullptr, wr, wi, n, true)) return false;
  for (int64_t j = 0; j < n; ++j) wr[j] = std::ldexp(wr[j], e), wi[j] = std::ldexp(wi[j], e);
  return true;
}

}  // namespace

template <class T>
bool real_schur_form(const T* a, T* t, T* z, int64_t n) {
  if (n == 0) return true;
  Buffer<T> h, zt;
  std::vector<T> wr(static_cast<size_t>(n)), wi(static_cast<size_t>(n));
  int e = 0;
  if (!scaled_schur(a, h, z ? &zt : nullptr, wr.data(), wi.data(), n, e, static_cast<Balanced<T>*>(nullptr)))
    return false;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      t[i * n + j] = j + 1 >= i ? std::ldexp(h[i * n + j], e) : T(0);
      if (z) z[i * n + j] = zt[j * n + i];
    }
  return true;
}

template <class T>
bool nonsymmetric_eigen(const T* a, T* wr, T* wi, T* vt, int64_t n, T* ut) {
  if (n == 0) return true;
  Buffer<T> h, zt;
  int e = 0;
  Balanced<T> balanced;  // as geev balances (job 'B'); schur's form is of a itself, as gees's
  // The eigenvalues alone still transform all of T: transforming only the active block rounds
  // differently, and the multishift sweeps then converge in another order — eigvals would not
  // list eig's eigenvalues (about 15% more time at 1024²).
  if (!vt && !ut) return scaled_schur(a, h, static_cast<Buffer<T>*>(nullptr), wr, wi, n, e, &balanced);
  if (!scaled_schur(a, h, &zt, wr, wi, n, e, &balanced)) return false;
  T tmax = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = std::max<int64_t>(0, i - 1); j < n; ++j) tmax = std::max(tmax, std::abs(h[i * n + j]));
  const T big = std::numeric_limits<T>::max() / (T(4) * T(n + 1) * std::max(T(1), tmax));
  const T smlnum = std::numeric_limits<T>::min() * (T(n) / std::numeric_limits<T>::epsilon());
  std::vector<int64_t> first_rows;  // each eigenvector's first row: a real eigenvalue or a pair
  for (int64_t j = 0; j < n; ++j) {
    first_rows.push_back(j);
    if (j + 1 < n && h[(j + 1) * n + j] != T(0)) ++j;
  }
  // Yᵀ (row j: the vector of the eigenvalue at row j of T), then Vᵀ = Yᵀ Zᵀ; each vector
  // `solve`d by back or forward substitution across the pool, the longest interleaved with the
  // shortest (the work is ~ki² or ~(n − ki)²).
  const int64_t count = static_cast<int64_t>(first_rows.size());
  auto vectors = [&](const T* t, T* out, bool left, auto solve) {
    Buffer<T> yt(static_cast<size_t>(n * n), T(0));
    parallel_for(count, n >= 128 ? 8 : count, [&](int64_t begin, int64_t end) {
      for (int64_t q = begin; q < end; ++q) {
        const int64_t ki = first_rows[static_cast<size_t>(q % 2 ? count - 1 - q / 2 : q / 2)];
        const bool pair = ki + 1 < n && h[(ki + 1) * n + ki] != T(0);
        // The unscaled T's eigenvalue (the substitutions run on the scaled h).
        const T lr = h[ki * n + ki], li = pair ? std::ldexp(wi[ki], -e) : T(0);
        solve(t, n, ki, lr, li, yt.data() + ki * n, pair ? yt.data() + (ki + 1) * n : nullptr, smlnum, big);
      }
    });
    Buffer<T> v(static_cast<size_t>(n * n));
    gemm(yt.data(), n, false, zt.data(), n, false, v.data(), n, n, n, n);
    unbalance(v.data(), n, balanced.ilo, balanced.ihi, balanced.scale, left);
    std::copy(v.begin(), v.end(), out);
  };
  if (vt) vectors(h.data(), vt, false, back_substitute<T>);
  if (ut) {
    Buffer<T> tt(static_cast<size_t>(n * n), T(0));  // Tᵀ, its rows T's columns
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = std::max<int64_t>(0, i - 1); j < n; ++j) tt[static_cast<size_t>(j * n + i)] = h[i * n + j];
    vectors(tt.data(), ut, true, forward_substitute<T>);
  }
  return true;
}

template bool real_schur<float>(float*, float*, float*, float*, int64_t, bool);
template bool real_schur<double>(double*, double*, double*, double*, int64_t, bool);
template bool real_schur_form<float>(const float*, float*, float*, int64_t);
template int64_t move_block_up<float>(float*, float*, int64_t, int64_t, int64_t);
template int64_t move_block_up<double>(double*, double*, int64_t, int64_t, int64_t);
template bool real_schur_form<double>(const double*, double*, double*, int64_t);
template bool nonsymmetric_eigen<float>(const float*, float*, float*, float*, int64_t, float*);
template bool nonsymmetric_eigen<double>(const double*, double*, double*, double*, int64_t, double*);

}  // namespace strata::kernels
