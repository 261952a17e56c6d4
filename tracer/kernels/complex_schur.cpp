// tracer/kernels/complex_schur.cpp — complex_schur (complex_eigen.h): the QR iteration of a
// complex upper Hessenberg matrix as LAPACK's zlaqr0 runs it. Active blocks below
// kMultishiftRows take zlahqr's single-shift sweeps; larger ones aggressive early deflation
// (zlaqr3) and sweeps of many bulges at once whose reflections are gathered into GEMMs (zlaqr5),
// the scheme of the real iteration (nonsymmetric_eigen.cpp) with complex shifts, so a bulge
// needs no conjugate partner and a Schur block is always 1×1.
//
// Row-major; the matrix is held as two real ones (Split) so that every row operation is plain
// real arithmetic the compiler vectorizes (interleaved complex values left it scalar: most of
// the time at 256²), and a complex GEMM is four real ones. h's columns are never walked down
// during a sweep: the rows above a single-shift bulge take its reflections from the right at the
// sweep's end, each row along itself; a multishift slab's reach the rest of h through GEMMs.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "complex_eigen.h"
#include "householder.h"
#include "parallel.h"
#include "schur_common.h"

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

// LAPACK's zlarfg on x[0, len): H = I − tau·v·vᴴ with Hᴴ x = (beta, 0, …), beta real,
// v = (1, x[1:] on return); x[0] becomes beta. tau = 0 (H = I) when x[1:] = 0 and x[0] is real.
// The norm from a sum of squares (hypot and a complex division took a tenth of the iteration's
// time); where that could underflow or overflow, x is first scaled by a power of two to a
// largest |re| or |im| in [1/2, 1) (exact; LAPACK's zlarfg rescales by its safe minimum).
// Entries whose squares still underflow then are below the rounding errors of the rest.
template <class T>
C<T> larfg(C<T>* x, int64_t len) {
  auto sums = [&](T& tail) {
    tail = 0;
    for (int64_t j = 1; j < len; ++j) tail += x[j].real() * x[j].real() + x[j].imag() * x[j].imag();
    return x[0].real() * x[0].real() + x[0].imag() * x[0].imag() + tail;
  };
  constexpr T kSafe = std::numeric_limits<T>::min() / std::numeric_limits<T>::epsilon();
  constexpr T kBig = std::numeric_limits<T>::max() / 4;
  T tail;
  T total = sums(tail);
  int e = 0;
  if (!(total >= kSafe && total <= kBig)) {
    T largest = 0;
    for (int64_t j = 0; j < len; ++j) largest = std::max({largest, std::abs(x[j].real()), std::abs(x[j].imag())});
    if (largest == T(0)) return C<T>(0);
    e = std::ilogb(largest) + 1;
    for (int64_t j = 0; j < len; ++j) x[j] = C<T>(std::ldexp(x[j].real(), -e), std::ldexp(x[j].imag(), -e));
    total = sums(tail);
  }
  const T ar = x[0].real(), ai = x[0].imag();
  if (tail == T(0) && ai == T(0)) {
    for (int64_t j = 0; j < len; ++j) x[j] = C<T>(std::ldexp(x[j].real(), e), std::ldexp(x[j].imag(), e));
    return C<T>(0);
  }
  const T beta = -std::copysign(std::sqrt(total), ar);
  const T dr = ar - beta, d = dr * dr + ai * ai;  // |x[0] − beta|² in [total, 4·total]
  const C<T> scale(dr / d, -ai / d);             // 1 / (x[0] − beta)
  for (int64_t j = 1; j < len; ++j) x[j] = mul(x[j], scale);
  x[0] = C<T>(std::ldexp(beta, e));
  return C<T>((beta - ar) / beta, -ai / beta);
}

// LAPACK's zlartg: [cs sn; −conj(sn) cs] (f, g) = (r, 0), cs real.
template <class T>
void lartg(C<T> f, C<T> g, T& cs, C<T>& sn) {
  if (g == C<T>(0)) {
    cs = T(1), sn = C<T>(0);
  } else if (f == C<T>(0)) {
    cs = T(0), sn = std::conj(g) / std::abs(g);
  } else {
    const T f1 = std::abs(f), d = std::hypot(f1, std::abs(g));
    cs = f1 / d;
    sn = (f / f1) * std::conj(g) / d;
  }
}

// One reflection of a single-shift sweep, I − t1·v·vᴴ with v = (1, v2) on columns k, k + 1;
// t2 = t1·v2.
template <class T>
struct Step {
  C<T> t1, t2, cv2;  // cv2 = conj(v2)
  int64_t k;
};

// An n×n complex matrix (row-major) as two real ones.
template <class T>
struct Split {
  int64_t n;
  std::vector<T> re, im;
  explicit Split(int64_t n) : n(n), re(static_cast<size_t>(n * n)), im(static_cast<size_t>(n * n)) {}
  Split(const C<T>* x, int64_t n) : Split(n) {
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

// Rows a and a + 1 of x over columns [c0, c1) ← (I − t1 v vᴴ)ᴴ applied from the left when
// `left` (each column (x_a, x_b) ← (x_a − s, x_b − s·v2), s = conj(t1)·x_a + conj(t2)·x_b),
// else the reflection from the right on Zᵀ's rows (s = t1·x_a + t2·x_b, x_b − s·conj(v2)).
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

// A multishift bulge's reflection I − tau·v·vᴴ, v = (1, v2, v3) (v3 = 0 for the last, of two
// rows), on rows (columns) p..p + rows − 1.
template <class T>
struct Reflection {
  C<T> tau, v2, v3;
  int64_t p;
  int rows;
};

// Rows f.p.. of x over columns [c0, c1) ← the reflection's Hᴴ from the left when `left`
// (s = conj(tau)·(x0 + conj(v2)·x1 + conj(v3)·x2), x0 − s, x1 − s·v2, x2 − s·v3), else its H
// from the right on a transposed matrix's rows (s = tau·(x0 + v2·x1 + v3·x2), x1 − s·conj(v2),
// x2 − s·conj(v3)).
template <class T>
void reflect3_rows(Split<T>& x, const Reflection<T>& f, int64_t c0, int64_t c1, bool left) {
  const C<T> p = left ? std::conj(f.tau) : f.tau;
  const C<T> a2 = left ? std::conj(f.v2) : f.v2, a3 = left ? std::conj(f.v3) : f.v3;
  const C<T> b2 = left ? f.v2 : std::conj(f.v2), b3 = left ? f.v3 : std::conj(f.v3);
  const T pr = p.real(), pi = p.imag();
  const T a2r = a2.real(), a2i = a2.imag(), a3r = a3.real(), a3i = a3.imag();
  const T b2r = b2.real(), b2i = b2.imag(), b3r = b3.real(), b3i = b3.imag();
  T* __restrict x0r = x.r(f.p);
  T* __restrict x0i = x.m(f.p);
  T* __restrict x1r = x.r(f.p + 1);
  T* __restrict x1i = x.m(f.p + 1);
  if (f.rows == 3) {
    T* __restrict x2r = x.r(f.p + 2);
    T* __restrict x2i = x.m(f.p + 2);
    for (int64_t c = c0; c < c1; ++c) {
      const T ur = x0r[c] + a2r * x1r[c] - a2i * x1i[c] + a3r * x2r[c] - a3i * x2i[c];
      const T ui = x0i[c] + a2r * x1i[c] + a2i * x1r[c] + a3r * x2i[c] + a3i * x2r[c];
      const T sr = pr * ur - pi * ui, si = pr * ui + pi * ur;
      x0r[c] -= sr, x0i[c] -= si;
      x1r[c] -= sr * b2r - si * b2i, x1i[c] -= sr * b2i + si * b2r;
      x2r[c] -= sr * b3r - si * b3i, x2i[c] -= sr * b3i + si * b3r;
    }
  } else {
    for (int64_t c = c0; c < c1; ++c) {
      const T ur = x0r[c] + a2r * x1r[c] - a2i * x1i[c];
      const T ui = x0i[c] + a2r * x1i[c] + a2i * x1r[c];
      const T sr = pr * ur - pi * ui, si = pr * ui + pi * ur;
      x0r[c] -= sr, x0i[c] -= si;
      x1r[c] -= sr * b2r - si * b2i, x1i[c] -= sr * b2i + si * b2r;
    }
  }
}

// A general reflection on part of a small matrix (aggressive early deflation's window):
// rows [r0, r0 + len) over columns [c0, c1) ← (I − coef·b·aᵀ)· (y_c = Σ_j a_j x(r0 + j, c),
// x(r0 + j, c) −= coef·b_j·y_c), or columns [c0, c0 + len) over rows [r0, r1) ← ·(I − coef·a·bᵀ).
// Hᴴ from the left: a = conj(v), b = v, coef = conj(tau); H from the right: a = v, b = conj(v),
// coef = tau; (V H)ᵀ = (I − tau·conj(v)·vᵀ)·Vᵀ: from the left with a = v, b = conj(v), coef = tau.
template <class T>
void reflect_left(Split<T>& x, int64_t r0, int64_t len, int64_t c0, int64_t c1, const C<T>* a, const C<T>* b, C<T> coef) {
  std::vector<C<T>> y(static_cast<size_t>(c1 - c0), C<T>(0));
  for (int64_t j = 0; j < len; ++j)
    for (int64_t c = c0; c < c1; ++c) y[static_cast<size_t>(c - c0)] += mul(a[j], x(r0 + j, c));
  for (int64_t j = 0; j < len; ++j) {
    const C<T> s = mul(coef, b[j]);
    for (int64_t c = c0; c < c1; ++c) x.set(r0 + j, c, x(r0 + j, c) - mul(s, y[static_cast<size_t>(c - c0)]));
  }
}
template <class T>
void reflect_right(Split<T>& x, int64_t c0, int64_t len, int64_t r0, int64_t r1, const C<T>* a, const C<T>* b, C<T> coef) {
  for (int64_t r = r0; r < r1; ++r) {
    C<T> y(0);
    for (int64_t j = 0; j < len; ++j) y += mul(x(r, c0 + j), a[j]);
    y = mul(coef, y);
    for (int64_t j = 0; j < len; ++j) x.set(r, c0 + j, x(r, c0 + j) - mul(y, b[j]));
  }
}

// The sweep's reflections from the right on rows [r_begin, i − 1) of h, deferred to its end:
// row r takes those with k > r, in order. Eight rows at a time transposed into `block` (columns
// as rows of eight lanes, real and imaginary parts apart) so that each reflection is one 8-wide
// operation on two columns; a lane whose row it skips gets t1 = t2 = 0. Across the pool; each
// row's bits the same on any number of threads.
template <class T>
void deferred_right(Split<T>& h, int64_t r_begin, int64_t m, int64_t i, const std::vector<Step<T>>& steps) {
  constexpr int64_t kLanes = 8;
  const int64_t rows = i - 1 - r_begin, blocks = (rows + kLanes - 1) / kLanes;
  parallel_for(blocks, 4, [&](int64_t b0, int64_t b1) {
    std::vector<T> re, im;
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t r0 = r_begin + b * kLanes, nr = std::min(kLanes, i - 1 - r0), c0 = std::max(r0 + 1, m);
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

// Shifts, smallest |re| + |im| first, ties in their order (insertion: at most 2·kBulges of them).
template <class T>
void sort_by_magnitude(std::vector<C<T>>& x) {
  for (size_t j = 1; j < x.size(); ++j)
    for (size_t k = j; k > 0 && magnitude(x[k]) < magnitude(x[k - 1]); --k) std::swap(x[k], x[k - 1]);
}

// Active blocks from this many rows chase up to kBulges bulges of two shifts each per sweep,
// kSlabSteps steps per slab, and first try aggressive early deflation on a window of
// kDeflationWindow rows. Measured on c64 256² and 512² eig (vectors too): the real iteration's
// 12 bulges, 48-row window and slabs of 36 (nonsymmetric_eigen.cpp) took 15-20% longer; 8 bulges
// or a 64-row window longer still; 16 to 24 bulges, windows of 32 to 48 and slabs of 36 to 64
// within a few percent of these. The window's and the shifts' own iterations stay below
// kMultishiftRows (no recursion).
constexpr int64_t kMultishiftRows = 96, kBulges = 20, kSlabSteps = 48, kDeflationWindow = 40;
static_assert(kDeflationWindow < kMultishiftRows && 2 * kBulges < kMultishiftRows);
constexpr int64_t kDirectRows = 96;

// The iteration on h (Split, n×n upper Hessenberg with zeros below), w its eigenvalues, z Zᵀ
// or null. With want_t the whole of h is transformed (the Schur form T); without it only each
// active block (the eigenvalues alone).
template <class T>
class Iteration {
 public:
  Iteration(Split<T>& h, Split<T>* z, C<T>* w, bool want_t)
      : H(h), Z(z), w(w), n(h.n), want_t(want_t), i2(n - 1), smlnum(std::numeric_limits<T>::min() * (T(n) / ulp)) {}

  bool run() {
    if (n == 1) {
      w[0] = H(0, 0);
      return true;
    }
    // A diagonal unitary similarity makes the subdiagonal real; the single-shift sweeps keep it
    // so (the first column of each bulge then has a real second entry).
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
    const int64_t itmax = 30 * std::max<int64_t>(10, n);
    std::vector<C<T>> shifts;
    for (int64_t i = n - 1; i >= 0;) {
      int64_t l = 0;
      bool split = false;
      for (int64_t its = 0; its <= itmax; ++its) {
        l = split_point(i);
        if (l > 0) H.set(l, l - 1, C<T>(0));
        if (l >= i) {  // a 1×1 block has split off
          split = true;
          break;
        }
        ++kdefl;
        if (!want_t) i1 = l, i2 = i;
        if (i - l + 1 >= kMultishiftRows) {
          shifts.clear();
          if (early_deflation(l, i, shifts) > 0) continue;  // they split off at the next test
          if (kdefl % kexsh == 0) {
            exceptional_shifts(i, shifts);
          } else if (shifts.empty()) {
            trailing_shifts(i, shifts);
          }
          if (!shifts.empty()) {
            multishift_sweep(l, i, shifts);
            continue;
          }
        }
        single_shift_sweep(l, i);
      }
      if (!split) return false;
      w[i] = H(i, i);
      kdefl = 0;
      i = l - 1;
    }
    return true;
  }

 private:
  static constexpr T ulp = std::numeric_limits<T>::epsilon();
  static constexpr int64_t kexsh = 10;

  // The lowest l ≤ i with h(l, l − 1) negligible (0 when none): the active block [l, i].
  int64_t split_point(int64_t i) const {
    int64_t k = i;
    for (; k > 0; --k) {
      if (magnitude(H(k, k - 1)) <= smlnum) break;
      T tst = magnitude(H(k - 1, k - 1)) + magnitude(H(k, k));
      if (tst == T(0)) {
        if (k - 2 >= 0) tst += magnitude(H(k - 1, k - 2));
        if (k + 1 <= n - 1) tst += magnitude(H(k + 1, k));
      }
      if (magnitude(H(k, k - 1)) <= ulp * tst &&
          negligible_subdiagonal(magnitude(H(k, k - 1)), magnitude(H(k - 1, k)), magnitude(H(k, k)),
                                 magnitude(H(k - 1, k - 1) - H(k, k)), smlnum, ulp))
        break;
    }
    return k;
  }

  // h(j, j−1) real (a diagonal unitary similarity on row and column j); h(j + 1, j) takes the
  // phase, so a caller walks j upwards.
  void make_subdiagonal_real(int64_t j) {
    const C<T> x = H(j, j - 1);
    if (x.imag() == T(0)) return;
    const T rt = std::abs(x);
    H.set(j, j - 1, C<T>(rt));
    const C<T> temp = x / rt;
    H.scale_row(j, j + 1, i2 + 1, std::conj(temp));
    H.scale_column(j, i1, j, temp);
    if (j + 1 < n) H.set(j + 1, j, mul(H(j + 1, j), temp));
    if (Z) Z->scale_row(j, 0, n, temp);
  }

  // zlahqr's sweep on the active block [l, i]: one bulge, Wilkinson's shift.
  void single_shift_sweep(int64_t l, int64_t i) {
    for (int64_t j = l + 1; j <= i; ++j) make_subdiagonal_real(j);  // after multishift sweeps
    constexpr T dat1 = T(0.75);
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
    // The sweep from m to i. Reflection k from the left runs along rows k, k + 1; from the
    // right it reaches rows k..k + 2 at once (the next reflection's column), and the rows above,
    // which no later reflection from the left touches, at the sweep's end (deferred_right); Z's
    // at the sweep's end too, by columns across the pool. A bulge started below l rescales
    // columns after its first step (zlahqr keeps h(m, m−1) real so): that rare sweep applies
    // everything at once instead, and so do matrices of at most kDirectRows rows (early
    // deflation's windows, the shifts' blocks), held in cache, where the deferral's copies and
    // the pool's tasks cost more than they save.
    const bool defer = m == l && n > kDirectRows;
    steps.clear();
    for (int64_t k = m; k <= i - 1; ++k) {
      C<T> x[2] = {k > m ? H(k, k - 1) : v0, k > m ? H(k + 1, k - 1) : C<T>(v1)};
      const C<T> t1 = larfg(x, 2);
      if (k > m) H.set(k, k - 1, x[0]), H.set(k + 1, k - 1, C<T>(0));
      const Step<T> st{t1, mul(t1, x[1]), std::conj(x[1]), k};
      reflect_rows(H, k, k, i2 + 1, st, true);
      for (int64_t j = defer ? k : i1; j <= std::min(k + 2, i); ++j) {
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
            H.scale_row(j, j + 1, i2 + 1, temp);
            H.scale_column(j, i1, j, ctemp);
            if (Z) Z->scale_row(j, 0, n, ctemp);
          }
        }
      }
    }
    if (defer) {
      deferred_right(H, i1, m, i, steps);
      if (Z)
        parallel_for(n, 64, [&](int64_t c0, int64_t c1) {
          for (const Step<T>& st : steps) reflect_rows(*Z, st.k, c0, c1, st, false);
        });
    }
    // h(i, i−1) real again.
    const C<T> last = H(i, i - 1);
    if (last.imag() != T(0)) {
      const T rt = std::abs(last);
      H.set(i, i - 1, C<T>(rt));
      const C<T> temp = last / rt;
      H.scale_row(i, i + 1, i2 + 1, std::conj(temp));
      H.scale_column(i, i1, i, temp);
      if (Z) Z->scale_row(i, 0, n, temp);
    }
  }

  // A unitary similarity U (w × w, given as Uᵀ) of h's rows and columns [w0, w0 + w) reaches
  // the rest: the rows above (h U), the columns to the right up to i2 (Uᴴ h) and Z (Uᵀ Zᵀ),
  // each a complex GEMM as four real ones. (The window's own part of h the caller has already
  // transformed.)
  void apply_window(int64_t w0, const Split<T>& ut) {
    const int64_t w = ut.n, w1 = w0 + w - 1;
    const T* ur = ut.re.data();
    const T* ui = ut.im.data();
    neg.resize(static_cast<size_t>(w * w));
    for (size_t j = 0; j < neg.size(); ++j) neg[j] = -ui[j];
    auto put = [&](int64_t rows, int64_t cols, T* dr, T* di, int64_t ld) {
      for (int64_t r = 0; r < rows; ++r) {
        std::copy_n(tr.data() + r * cols, cols, dr + r * ld);
        std::copy_n(ti.data() + r * cols, cols, di + r * ld);
      }
    };
    if (w0 > i1) {  // rows [i1, w0) ← · U: (Xr Ur − Xi Ui) + i (Xi Ur − Xr (−Ui))
      const int64_t m = w0 - i1;
      T* xr = H.r(i1) + w0;
      T* xi = H.m(i1) + w0;
      tr.resize(static_cast<size_t>(m * w)), ti.resize(static_cast<size_t>(m * w));
      gemm(xr, n, false, ur, w, true, tr.data(), w, m, w, w);
      gemm(xi, n, false, ui, w, true, tr.data(), w, m, w, w, true);
      gemm(xi, n, false, ur, w, true, ti.data(), w, m, w, w);
      gemm(xr, n, false, neg.data(), w, true, ti.data(), w, m, w, w, true);
      put(m, w, xr, xi, n);
    }
    if (w1 < i2) {  // columns (w1, i2] ← Uᴴ · = conj(Uᵀ) ·: (Ur Xr − (−Ui) Xi) + i (Ur Xi − Ui Xr)
      const int64_t c = i2 - w1;
      T* xr = H.r(w0) + w1 + 1;
      T* xi = H.m(w0) + w1 + 1;
      tr.resize(static_cast<size_t>(w * c)), ti.resize(static_cast<size_t>(w * c));
      gemm(ur, w, false, xr, n, false, tr.data(), c, w, c, w);
      gemm(neg.data(), w, false, xi, n, false, tr.data(), c, w, c, w, true);
      gemm(ur, w, false, xi, n, false, ti.data(), c, w, c, w);
      gemm(ui, w, false, xr, n, false, ti.data(), c, w, c, w, true);
      put(w, c, xr, xi, n);
    }
    if (Z) {  // Zᵀ rows [w0, w1] ← Uᵀ ·: (Ur Xr − Ui Xi) + i (Ur Xi − (−Ui) Xr)
      T* xr = Z->r(w0);
      T* xi = Z->m(w0);
      tr.resize(static_cast<size_t>(w * n)), ti.resize(static_cast<size_t>(w * n));
      gemm(ur, w, false, xr, n, false, tr.data(), n, w, n, w);
      gemm(ui, w, false, xi, n, false, tr.data(), n, w, n, w, true);
      gemm(ur, w, false, xi, n, false, ti.data(), n, w, n, w);
      gemm(neg.data(), w, false, xr, n, false, ti.data(), n, w, n, w, true);
      put(w, n, xr, xi, n);
    }
  }

  // The shifts of a multishift sweep when early deflation gave too few: the eigenvalues of the
  // active block's trailing 2·kBulges rows, smallest |λ| first. None when that iteration fails.
  void trailing_shifts(int64_t i, std::vector<C<T>>& out) {
    const int64_t ns = 2 * kBulges, f = i - ns + 1;
    Split<T> small(ns);
    for (int64_t r = 0; r < ns; ++r)
      for (int64_t c = std::max<int64_t>(0, r - 1); c < ns; ++c) small.set(r, c, H(f + r, f + c));
    out.resize(static_cast<size_t>(ns));
    if (!Iteration<T>(small, nullptr, out.data(), false).run()) {
      out.clear();
      return;
    }
    sort_by_magnitude(out);
  }

  // zlaqr0's exceptional shifts after every kexsh iterations without a deflation: from every
  // other diagonal entry of the trailing 2·kBulges rows, h(j, j) + 0.75·|h(j, j − 1)|, twice.
  void exceptional_shifts(int64_t i, std::vector<C<T>>& out) {
    out.clear();
    for (int64_t j = i; j > i - 2 * kBulges + 1; j -= 2) {
      const C<T> s = H(j, j) + T(0.75) * magnitude(H(j, j - 1));
      out.push_back(s), out.push_back(s);
    }
  }

  // zlaqr3's aggressive early deflation on the active block [l, i]: the trailing window of
  // kDeflationWindow rows brought to Schur form, W = V Tw Vᴴ, couples to the rest only through
  // the spike s·conj(V's first row) (s = h(kw, kw − 1)). Each of Tw's diagonal entries from the
  // bottom whose spike entry is negligible has converged (deflated); one that has not is moved
  // to the top by ztrexc's swaps, out of the way. With deflations, the spike is folded into its
  // first entry by a reflection, the undeflated part brought back to Hessenberg form, and V
  // reaches the rows above, the columns to the right and Z by GEMMs; the deflated rows then
  // split off at the next test. Returns how many rows deflated (−1 when the window's iteration
  // failed); the undeflated eigenvalues, smallest |λ| first, become `shifts` (2 per bulge, at
  // least 2 bulges, else none).
  int64_t early_deflation(int64_t l, int64_t i, std::vector<C<T>>& shifts) {
    const int64_t jw = std::min(kDeflationWindow, i - l + 1), kw = i - jw + 1;
    C<T> s = kw == l ? C<T>(0) : H(kw, kw - 1);
    Split<T> W(jw), V(jw);  // V as Vᵀ: row j is V's column j
    for (int64_t r = 0; r < jw; ++r) {
      for (int64_t c = std::max<int64_t>(0, r - 1); c < jw; ++c) W.set(r, c, H(kw + r, kw + c));
      V.set(r, r, C<T>(1));
    }
    std::vector<C<T>> ww(static_cast<size_t>(jw));
    if (!Iteration<T>(W, &V, ww.data(), true).run()) return -1;
    auto spike = [&](int64_t j) { return magnitude(s) * magnitude(V(j, 0)); };  // |s·conj(V(0, j))|
    // ztrexc: the diagonal entry at k + 1 swapped with the one at k by a rotation.
    auto swap_down = [&](int64_t k) {
      const C<T> t11 = W(k, k), t22 = W(k + 1, k + 1);
      T cs;
      C<T> sn;
      lartg(W(k, k + 1), t22 - t11, cs, sn);
      for (int64_t c = k + 2; c < jw; ++c) {  // rows k, k + 1
        const C<T> x = W(k, c), y = W(k + 1, c);
        W.set(k, c, cs * x + mul(sn, y)), W.set(k + 1, c, cs * y - mul(std::conj(sn), x));
      }
      const C<T> csn = std::conj(sn);
      for (int64_t r = 0; r < k; ++r) {  // columns k, k + 1
        const C<T> x = W(r, k), y = W(r, k + 1);
        W.set(r, k, cs * x + mul(csn, y)), W.set(r, k + 1, cs * y - mul(sn, x));
      }
      W.set(k, k, t22), W.set(k + 1, k + 1, t11);
      for (int64_t c = 0; c < jw; ++c) {  // V's columns k, k + 1: Vᵀ's rows
        const C<T> x = V(k, c), y = V(k + 1, c);
        V.set(k, c, cs * x + mul(csn, y)), V.set(k + 1, c, cs * y - mul(sn, x));
      }
    };
    int64_t ns = jw, ilst = 0;
    while (ilst < ns) {
      T foo = magnitude(W(ns - 1, ns - 1));
      if (foo == T(0)) foo = magnitude(s);
      if (spike(ns - 1) <= std::max(smlnum, ulp * foo)) {
        ns -= 1;
      } else {
        for (int64_t k = ns - 2; k >= ilst; --k) swap_down(k);
        ilst += 1;
      }
    }
    if (ns == 0) s = C<T>(0);
    for (int64_t j = 0; j < ns; ++j) shifts.push_back(W(j, j));
    sort_by_magnitude(shifts);
    shifts.resize(std::min<size_t>(shifts.size(), 2 * kBulges) & ~size_t(1));
    if (shifts.size() < 4) shifts.clear();
    if (ns == jw && s != C<T>(0)) return 0;  // nothing deflated: h unchanged
    if (ns > 1 && s != C<T>(0)) {
      // The reflection P with Pᴴ·(the spike over the undeflated columns) = (β, 0, …): Tw's
      // undeflated part ← Pᴴ Tw P, V ← V P; then that part back to Hessenberg form (zgehd2), V
      // taking its reflections too.
      std::vector<C<T>> v(static_cast<size_t>(ns)), cv(v.size());
      for (int64_t j = 0; j < ns; ++j) v[static_cast<size_t>(j)] = s * std::conj(V(j, 0));
      auto reflect = [&](int64_t first, int64_t len, C<T> tau) {  // v[0, len) = (1, …) at rows first..
        for (int64_t j = 0; j < len; ++j) cv[static_cast<size_t>(j)] = std::conj(v[static_cast<size_t>(j)]);
        reflect_left(W, first, len, first, jw, cv.data(), v.data(), std::conj(tau));
        reflect_right(W, first, len, 0, ns, v.data(), cv.data(), tau);
        reflect_left(V, first, len, 0, jw, v.data(), cv.data(), tau);
      };
      C<T> tau = larfg(v.data(), ns);
      v[0] = C<T>(1);
      reflect(0, ns, tau);
      for (int64_t c = 0; c + 2 < ns; ++c) {
        const int64_t len = ns - c - 1;
        for (int64_t j = 0; j < len; ++j) v[static_cast<size_t>(j)] = W(c + 1 + j, c);
        tau = larfg(v.data(), len);
        W.set(c + 1, c, v[0]);
        for (int64_t j = 1; j < len; ++j) W.set(c + 1 + j, c, C<T>(0));
        v[0] = C<T>(1);
        reflect(c + 1, len, tau);
      }
    }
    if (kw > 0) H.set(kw, kw - 1, s * std::conj(V(0, 0)));
    for (int64_t r = 0; r < jw; ++r)
      for (int64_t c = std::max<int64_t>(0, r - 1); c < jw; ++c) H.set(kw + r, kw + c, W(r, c));
    apply_window(kw, V);
    return jw - ns;
  }

  // zlaqr5's sweep on the active block [l, i]: shifts.size() / 2 bulges from l to i, bulge b
  // (shifts 2b, 2b + 1) three rows behind bulge b − 1 (a step moves each by one, the leading one
  // first), kSlabSteps steps at a time inside the window of rows and columns [w0, w1] they
  // reach; their reflections gathered into one unitary U (as Uᵀ), which then reaches the rest of
  // h and Z (apply_window). Nothing else reads those parts during the slab.
  void multishift_sweep(int64_t l, int64_t i, const std::vector<C<T>>& shifts) {
    const int64_t nb = static_cast<int64_t>(shifts.size()) / 2;
    // Bulge b's step at row p: its reflection made (from the shifts at l, zlaqr1's first column
    // of (h − s1)(h − s2), else from column p − 1, whose bulge entries it then clears), applied
    // from the left to columns p..cols and from the right to rows rows..min(p + 3, i) (all of
    // [rows, i] for the last, 2×2 one).
    auto step = [&](int64_t p, int64_t b, int64_t cols, int64_t rows) {
      const int nr = static_cast<int>(std::min<int64_t>(3, i - p + 1));
      C<T> v[3];
      if (p > l) {
        for (int r = 0; r < nr; ++r) v[r] = H(p + r, p - 1);
      } else {
        const C<T> s1 = shifts[static_cast<size_t>(2 * b)], s2 = shifts[static_cast<size_t>(2 * b + 1)];
        const C<T> h00 = H(p, p), h10 = H(p + 1, p);
        const T s = magnitude(h00 - s2) + magnitude(h10);
        if (s == T(0)) {
          v[0] = v[1] = v[2] = C<T>(0);
        } else {
          const C<T> h10s = h10 / s;
          v[0] = mul(h00 - s1, (h00 - s2) / s) + mul(H(p, p + 1), h10s);
          v[1] = mul(h10s, h00 + H(p + 1, p + 1) - s1 - s2);
          v[2] = mul(h10s, H(p + 2, p + 1));
        }
      }
      const C<T> tau = larfg(v, nr);
      if (p > l) {
        H.set(p, p - 1, v[0]);
        for (int r = 1; r < nr; ++r) H.set(p + r, p - 1, C<T>(0));
      }
      const Reflection<T> f{tau, v[1], nr == 3 ? v[2] : C<T>(0), p, nr};
      reflect3_rows(H, f, p, cols + 1, true);
      const int64_t last = nr == 3 ? std::min(p + 3, i) : i;
      const C<T> c2 = std::conj(f.v2), c3 = std::conj(f.v3);
      for (int64_t j = rows; j <= last; ++j) {
        const C<T> x0 = H(j, p), x1 = H(j, p + 1), x2 = nr == 3 ? H(j, p + 2) : C<T>(0);
        const C<T> sum = mul(tau, x0 + mul(f.v2, x1) + mul(f.v3, x2));
        H.set(j, p, x0 - sum), H.set(j, p + 1, x1 - mul(sum, c2));
        if (nr == 3) H.set(j, p + 2, x2 - mul(sum, c3));
      }
      return f;
    };
    const int64_t last_t = i - 1 - l + 3 * (nb - 1);
    for (int64_t t0 = 0; t0 <= last_t; t0 += kSlabSteps) {
      const int64_t t_end = std::min(last_t, t0 + kSlabSteps - 1);
      const int64_t w0 = std::max(l, l + t0 - 3 * (nb - 1)), w1 = std::min(i, l + t_end + 3);
      Split<T> ut(w1 - w0 + 1);
      for (int64_t d = 0; d < ut.n; ++d) ut.set(d, d, C<T>(1));
      for (int64_t t = t0; t <= t_end; ++t)
        for (int64_t b = 0; b < nb; ++b) {
          const int64_t p = l + t - 3 * b;
          if (p < l || p > i - 1) continue;
          Reflection<T> f = step(p, b, w1, w0);
          f.p -= w0;
          reflect3_rows(ut, f, 0, ut.n, false);
        }
      apply_window(w0, ut);
    }
  }

  Split<T>& H;
  Split<T>* Z;
  C<T>* w;
  const int64_t n;
  const bool want_t;
  int64_t i1 = 0, i2;  // the rows and columns the sweeps transform: all of h for T
  const T smlnum;
  int64_t kdefl = 0;  // iterations since the last deflation
  std::vector<Step<T>> steps;
  std::vector<T> tr, ti, neg;  // apply_window's products and −Im U
};

}  // namespace

template <class T>
bool complex_schur(C<T>* hc, C<T>* ztc, C<T>* w, int64_t n, bool want_t) {
  if (n == 0) return true;
  for (int64_t i = 2; i < n; ++i) std::fill(hc + i * n, hc + i * n + i - 1, C<T>(0));
  Split<T> H(hc, n);
  std::optional<Split<T>> Z;
  if (ztc) Z.emplace(ztc, n);
  if (!Iteration<T>(H, Z ? &*Z : nullptr, w, want_t).run()) return false;
  H.store(hc);
  if (Z) Z->store(ztc);
  return true;
}

template bool complex_schur<float>(C<float>*, C<float>*, C<float>*, int64_t, bool);
template bool complex_schur<double>(C<double>*, C<double>*, C<double>*, int64_t, bool);

}  // namespace strata::kernels
