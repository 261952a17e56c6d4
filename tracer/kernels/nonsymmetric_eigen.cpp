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

#include "hessenberg.h"
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

}  // namespace

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
        // Ahues and Tisseur's conservative test (LAPACK Working Note 122).
        if (std::abs(H(k, k - 1)) <= ulp * tst) {
          const T ab = std::max(std::abs(H(k, k - 1)), std::abs(H(k - 1, k)));
          const T ba = std::min(std::abs(H(k, k - 1)), std::abs(H(k - 1, k)));
          const T aa = std::max(std::abs(H(k, k)), std::abs(H(k - 1, k - 1) - H(k, k)));
          const T bb = std::min(std::abs(H(k, k)), std::abs(H(k - 1, k - 1) - H(k, k)));
          const T s = aa + ab;
          if (ba * (ab / s) <= std::max(smlnum, ulp * (bb * (aa / s)))) break;
        }
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
      if (kdefl % kexsh != 0 && i - l + 1 >= kMultishiftRows) multishift_shifts(i, bulges);
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
        if (w0 > i1) {  // h[i1, w0) × [w0, w1] ← · U
          const int64_t m = w0 - i1;
          tmp.resize(static_cast<size_t>(m * w));
          gemm(&H(i1, w0), n, false, ut.data(), w, true, tmp.data(), w, m, w, w);
          for (int64_t r = 0; r < m; ++r) std::copy_n(tmp.data() + r * w, w, &H(i1 + r, w0));
        }
        if (w1 < i2) {  // h[w0, w1] × (w1, i2] ← Uᵀ ·
          const int64_t c = i2 - w1;
          tmp.resize(static_cast<size_t>(w * c));
          gemm(ut.data(), w, false, &H(w0, w1 + 1), n, false, tmp.data(), c, w, c, w);
          for (int64_t r = 0; r < w; ++r) std::copy_n(tmp.data() + r * c, c, &H(w0 + r, w1 + 1));
        }
        if (zt) {  // Zᵀ rows [w0, w1] ← Uᵀ ·
          tmp.resize(static_cast<size_t>(w * n));
          gemm(ut.data(), w, false, zt + w0 * n, n, false, tmp.data(), n, w, n, w);
          std::copy_n(tmp.data(), w * n, zt + w0 * n);
        }
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

template <class C>
auto magnitude(const C& x) {
  return std::abs(std::real(x)) + std::abs(std::imag(x));
}

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
      if (!xi) {
        T r = -lane_dot(t + k * n + k + 1, x + k + 1, len), d = at(k, k) - wr;
        if (std::abs(d) < smin) d = smin;
        if (std::abs(r) > big * std::abs(d)) {
          const T s = big * std::abs(d) / std::abs(r);
          scale(k + 1, s), r *= s;
        }
        x[k] = r / d;
      } else {
        C r(-lane_dot(t + k * n + k + 1, x + k + 1, len), -lane_dot(t + k * n + k + 1, xi + k + 1, len));
        C d = at(k, k) - lambda;
        if (magnitude(d) < smin) d = C(smin);
        if (magnitude(r) > big * magnitude(d)) {
          const T s = big * magnitude(d) / magnitude(r);
          scale(k + 1, s), r *= s;
        }
        const C y = r / d;
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


// LAPACK's dgebal with job 'B' on h (n×n, row-major), in place: h ← D⁻¹ Pᵀ h P D. P moves
// rows and columns that isolate an eigenvalue (all zero off the diagonal within the rest) to
// the bottom and the top, leaving rows and columns [ilo, ihi] to the iteration; D, powers of two
// (exact), then makes each row's and column's 2-norms within [ilo, ihi] comparable (Osborne's
// iteration, until no scaling reduces c + r by 5%). Without it, a matrix whose entries span
// orders of magnitude (a companion matrix, D A D⁻¹) loses its small eigenvalues to the large
// entries' rounding. scale[i] is D's entry for i in [ilo, ihi], else the index row i was swapped
// with, as LAPACK's SCALE.
template <class T>
void balance(T* h, int64_t n, int64_t& ilo, int64_t& ihi, std::vector<T>& scale) {
  auto at = [&](int64_t i, int64_t j) -> T& { return h[i * n + j]; };
  auto swap = [&](int64_t i, int64_t j) {  // P's transposition of i and j: rows and columns
    for (int64_t r = 0; r < n; ++r) std::swap(at(r, i), at(r, j));
    for (int64_t c = 0; c < n; ++c) std::swap(at(i, c), at(j, c));
  };
  scale.assign(static_cast<size_t>(n), T(1));
  int64_t k = 0, l = n - 1;
  // Rows zero off the diagonal within columns [0, l] isolate an eigenvalue: to the bottom.
  for (bool moved = true; moved;) {
    moved = false;
    for (int64_t i = l; i >= 0; --i) {
      bool isolated = true;
      for (int64_t j = 0; j <= l && isolated; ++j) isolated = i == j || at(i, j) == T(0);
      if (!isolated) continue;
      scale[l] = T(i);
      if (i != l) swap(i, l);
      moved = true;
      if (l == 0) {
        ilo = ihi = 0;
        return;
      }
      --l;
    }
  }
  // Columns zero off the diagonal within rows [k, l]: to the left.
  for (bool moved = true; moved;) {
    moved = false;
    for (int64_t j = k, last = l; j <= last; ++j) {
      bool isolated = true;
      for (int64_t i = k; i <= l && isolated; ++i) isolated = i == j || at(i, j) == T(0);
      if (!isolated) continue;
      scale[k] = T(j);
      if (j != k) swap(j, k);
      moved = true;
      ++k;
    }
  }
  ilo = k, ihi = l;
  for (int64_t i = k; i <= l; ++i) scale[i] = T(1);
  const T sfmin1 = std::numeric_limits<T>::min() / std::numeric_limits<T>::epsilon(), sfmax1 = T(1) / sfmin1;
  const T sfmin2 = sfmin1 * 2, sfmax2 = T(1) / sfmin2;
  auto norm2 = [](auto value, int64_t len) {  // scaled by the largest entry: no under/overflow
    T big = 0, sum = 0;
    for (int64_t q = 0; q < len; ++q) big = std::max(big, std::abs(value(q)));
    if (big == T(0)) return T(0);
    for (int64_t q = 0; q < len; ++q) sum += (value(q) / big) * (value(q) / big);
    return big * std::sqrt(sum);
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (int64_t i = ilo; i <= ihi; ++i) {
      T c = norm2([&](int64_t q) { return at(ilo + q, i); }, ihi - ilo + 1);
      T r = norm2([&](int64_t q) { return at(i, ilo + q); }, ihi - ilo + 1);
      T ca = 0, ra = 0;
      for (int64_t q = 0; q <= ihi; ++q) ca = std::max(ca, std::abs(at(q, i)));
      for (int64_t q = ilo; q < n; ++q) ra = std::max(ra, std::abs(at(i, q)));
      if (c == T(0) || r == T(0)) continue;
      T g = r / 2, f = 1;
      const T s = c + r;
      while (c < g && std::max({f, c, ca}) < sfmax2 && std::min({r, g, ra}) > sfmin2) {
        f *= 2, c *= 2, ca *= 2, r /= 2, g /= 2, ra /= 2;
      }
      g = c / 2;
      while (g >= r && std::max(r, ra) < sfmax2 && std::min({f, c, g, ca}) > sfmin2) {
        f /= 2, c /= 2, g /= 2, ca /= 2, r *= 2, ra *= 2;
      }
      if (c + r >= T(0.95) * s) continue;
      if (f < T(1) && scale[i] < T(1) && f * scale[i] <= sfmin1) continue;
      if (f > T(1) && scale[i] > T(1) && scale[i] >= sfmax1 / f) continue;
      scale[i] *= f;
      changed = true;
      for (int64_t q = ilo; q < n; ++q) at(i, q) /= f;
      for (int64_t q = 0; q <= ihi; ++q) at(q, i) *= f;
    }
  }
}

// LAPACK's dgebak for right eigenvectors: the eigenvectors of D⁻¹ Pᵀ a P D (row j of vt: vector
// j) to those of a, P D v.
template <class T>
void unbalance(T* vt, int64_t n, int64_t ilo, int64_t ihi, const std::vector<T>& scale) {
  if (ilo < ihi)  // (ilo = ihi: every row was permuted, scale[ilo] holds an index)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = ilo; i <= ihi; ++i) vt[j * n + i] *= scale[i];
  for (int64_t q = 0; q < n; ++q) {  // the swaps undone in reverse: ilo - 1 down to 0, then ihi + 1 up
    const int64_t i = q < ilo ? ilo - 1 - q : q;
    if (i >= ilo && i <= ihi) continue;
    const int64_t k = static_cast<int64_t>(scale[i]);
    if (k != i)
      for (int64_t j = 0; j < n; ++j) std::swap(vt[j * n + i], vt[j * n + k]);
  }
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
bool nonsymmetric_eigen(const T* a, T* wr, T* wi, T* vt, int64_t n) {
  if (n == 0) return true;
  Buffer<T> h, zt;
  int e = 0;
  Balanced<T> balanced;  // as geev balances (job 'B'); schur's form is of a itself, as gees's
  // The eigenvalues alone still transform all of T: transforming only the active block rounds
  // differently, and the multishift sweeps then converge in another order — eigvals would not
  // list eig's eigenvalues (about 15% more time at 1024²).
  if (!vt) return scaled_schur(a, h, static_cast<Buffer<T>*>(nullptr), wr, wi, n, e, &balanced);
  if (!scaled_schur(a, h, &zt, wr, wi, n, e, &balanced)) return false;
  // Yᵀ (row j: the vector of the eigenvalue at row j of T, lower triangular), then Vᵀ = Yᵀ Zᵀ.
  T tmax = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = std::max<int64_t>(0, i - 1); j < n; ++j) tmax = std::max(tmax, std::abs(h[i * n + j]));
  const T big = std::numeric_limits<T>::max() / (T(4) * T(n + 1) * std::max(T(1), tmax));
  const T smlnum = std::numeric_limits<T>::min() * (T(n) / std::numeric_limits<T>::epsilon());
  Buffer<T> yt(static_cast<size_t>(n * n), T(0));
  std::vector<int64_t> first_rows;  // each eigenvector's first row: a real eigenvalue or a pair
  for (int64_t j = 0; j < n; ++j) {
    first_rows.push_back(j);
    if (j + 1 < n && h[(j + 1) * n + j] != T(0)) ++j;
  }
  // Across the pool, the longest vectors interleaved with the shortest (the work is ~ki²).
  const int64_t count = static_cast<int64_t>(first_rows.size());
  parallel_for(count, n >= 128 ? 8 : count, [&](int64_t begin, int64_t end) {
    for (int64_t q = begin; q < end; ++q) {
      const int64_t ki = first_rows[static_cast<size_t>(q % 2 ? count - 1 - q / 2 : q / 2)];
      const bool pair = ki + 1 < n && h[(ki + 1) * n + ki] != T(0);
      // The unscaled T's eigenvalue (the back substitution runs on the scaled h).
      const T lr = h[ki * n + ki], li = pair ? std::ldexp(wi[ki], -e) : T(0);
      back_substitute(h.data(), n, ki, lr, li, yt.data() + ki * n, pair ? yt.data() + (ki + 1) * n : nullptr, smlnum,
                      big);
    }
  });
  Buffer<T> v(static_cast<size_t>(n * n));
  gemm(yt.data(), n, false, zt.data(), n, false, v.data(), n, n, n, n);
  unbalance(v.data(), n, balanced.ilo, balanced.ihi, balanced.scale);
  std::copy(v.begin(), v.end(), vt);
  return true;
}

template bool real_schur<float>(float*, float*, float*, float*, int64_t, bool);
template bool real_schur<double>(double*, double*, double*, double*, int64_t, bool);
template bool real_schur_form<float>(const float*, float*, float*, int64_t);
template bool real_schur_form<double>(const double*, double*, double*, int64_t);
template bool nonsymmetric_eigen<float>(const float*, float*, float*, float*, int64_t);
template bool nonsymmetric_eigen<double>(const double*, double*, double*, double*, int64_t);

}  // namespace strata::kernels
