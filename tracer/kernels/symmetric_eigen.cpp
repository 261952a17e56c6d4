// tracer/kernels/symmetric_eigen.cpp — see symmetric_eigen.h. The divide and conquer follows
// LAPACK's dlaed0-dlaed4 (Cuppen 1981; Gu and Eisenstat 1995; Li's "middle way" for the secular
// equation), written anew for row-major blocks and strata's GEMM.
#include "symmetric_eigen.h"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "householder.h"
#include "parallel.h"
#include "secular.h"

namespace strata::kernels {
namespace {

// Blocks of at most this many rows are solved by Eigen's tridiagonal QR (LAPACK's smlsiz, 25).
constexpr int64_t kLeaf = 32;

template <class R>
using RowMat = Eigen::Matrix<R, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The recursion over one tridiagonal matrix. q (n×n, row-major) is block diagonal as it goes:
// the rows and columns [lo, hi) of a solved block hold its eigenvectors, d[lo, hi) its
// eigenvalues, ascending.
template <class R>
struct DivideConquer {
  int64_t n;
  std::vector<double> d, e;
  R* q;
  bool ok = true;

  R& at(int64_t i, int64_t j) { return q[i * n + j]; }

  // Split at m, T = diag(T1, T2) + |β| u uᵀ, u = e_{m-1} + sign(β) e_m: the halves' touching
  // diagonal entries lose |β|.
  void solve() {
    ok = divide_and_conquer(
        n, kLeaf, 0,
        [&](int64_t, int64_t m, int64_t) {
          d[m - 1] -= std::abs(e[m - 1]);
          d[m] -= std::abs(e[m - 1]);
        },
        [&](int64_t lo, int64_t hi) { return leaf(lo, hi); },
        [&](int64_t lo, int64_t m, int64_t hi) { merge(lo, m, hi, e[m - 1]); });
  }

  bool leaf(int64_t lo, int64_t hi) {
    const int64_t s = hi - lo;
    Eigen::VectorXd dd = Eigen::Map<Eigen::VectorXd>(d.data() + lo, s), ee(std::max<int64_t>(s - 1, 0));
    for (int64_t i = 0; i + 1 < s; ++i) ee[i] = e[lo + i];
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es;
    es.computeFromTridiagonal(dd, ee, Eigen::ComputeEigenvectors);
    if (es.info() != Eigen::Success) return false;
    for (int64_t i = 0; i < s; ++i) {
      d[lo + i] = es.eigenvalues()[i];
      for (int64_t j = 0; j < s; ++j) at(lo + i, lo + j) = static_cast<R>(es.eigenvectors()(i, j));
    }
    return true;
  }

  // The eigenproblem of D + ρ z zᵀ (dlaed1-3): z from the halves' vectors' touching rows;
  // deflation of the components too small to matter and of eigenvalues too close to tell apart
  // (a rotation of the two vectors), the secular equation for the rest, their vectors from the
  // recomputed weights, and one product with the halves' vectors.
  void merge(int64_t lo, int64_t m, int64_t hi, double beta) {
    const int64_t s = hi - lo, n1 = m - lo;
    std::vector<double> z(s);
    for (int64_t j = 0; j < n1; ++j) z[j] = at(m - 1, lo + j);
    for (int64_t j = n1; j < s; ++j) z[j] = (beta < 0 ? -1.0 : 1.0) * at(m, lo + j);
    double norm = 0;
    for (double v : z) norm += v * v;
    norm = std::sqrt(norm);
    for (double& v : z) v /= norm;
    const double rho = std::abs(beta) * norm * norm;

    double* dd = d.data() + lo;
    std::vector<int64_t> order(s);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return dd[a] < dd[b]; });
    double dmax = 0;
    for (int64_t j = 0; j < s; ++j) dmax = std::max(dmax, std::abs(dd[j]));
    const double tol = 8 * std::numeric_limits<R>::epsilon() * std::max(dmax, rho);

    // Where each column of the block's vectors is nonzero: 1 the upper half's rows only, 3 the
    // lower's, 2 both (a deflation rotated an upper column with a lower one). The product
    // skips the zero quarters (LAPACK's dlaed2 column types).
    std::vector<int> type(s);
    for (int64_t j = 0; j < s; ++j) type[j] = j < n1 ? 1 : 3;
    std::vector<int64_t> kept, deflated;
    int64_t pj = -1;
    for (int64_t nj : order) {
      if (rho * std::abs(z[nj]) <= tol) {
        deflated.push_back(nj);
        continue;
      }
      if (pj < 0) {
        pj = nj;
        continue;
      }
      // A rotation in the plane of pj and nj zeroes z[pj]; it leaves D diagonal but for an
      // off-diagonal (d_nj - d_pj) c s, neglected when below tol.
      double c = z[nj], sn = z[pj];
      const double tau = std::hypot(c, sn);
      c /= tau;
      sn = -sn / tau;
      if (std::abs((dd[nj] - dd[pj]) * c * sn) <= tol) {
        z[nj] = tau;
        z[pj] = 0;
        rotate_columns(q, n, lo, hi, lo + pj, lo + nj, c, sn);
        if (type[pj] != type[nj]) type[pj] = type[nj] = 2;
        const double dp = dd[pj], dn = dd[nj];
        dd[pj] = dp * c * c + dn * sn * sn;
        dd[nj] = dp * sn * sn + dn * c * c;
        deflated.push_back(pj);
      } else {
        kept.push_back(pj);
      }
      pj = nj;
    }
    if (pj >= 0) kept.push_back(pj);

    const int64_t K = static_cast<int64_t>(kept.size());
    std::vector<double> lambda(K);
    std::vector<R> qv(s * K);
    if (K > 0) {
      std::vector<double> dl(K), w(K), w2(K), delta(K * K);  // delta[k K + j] = dl[j] - λ_k
      for (int64_t i = 0; i < K; ++i) {
        dl[i] = dd[kept[i]];
        w[i] = z[kept[i]];
        w2[i] = w[i] * w[i];
      }
      if (K == 1) {
        lambda[0] = dl[0] + rho * w2[0];
        delta[0] = -rho * w2[0];
      } else {
        parallel_for(K, 16, [&](int64_t k0, int64_t k1) {
          std::vector<double> off(K);
          auto offsets = [&](int64_t o, double* out) {
            for (int64_t j = 0; j < K; ++j) out[j] = dl[j] - dl[o];
          };
          for (int64_t k = k0; k < k1; ++k) {
            int64_t o;
            const double tau = secular_root(k, K, offsets, w2.data(), rho, &delta[k * K], off.data(), o);
            lambda[k] = dl[o] + tau;
          }
        });
      }
      // Gu and Eisenstat: the weights for which the computed λ are exact eigenvalues, so the
      // vectors w_j / (d_j - λ_k) are orthogonal to working precision however close λ_k is to
      // a pole. w_j² = ∏_k (λ_k - d_j) / ∏_{k≠j} (d_k - d_j) (up to a common factor).
      std::vector<double> what(K);
      parallel_for(K, 64, [&](int64_t j0, int64_t j1) {  // k outside, so each step is a row of delta
        double* p = what.data();
        for (int64_t j = j0; j < j1; ++j) p[j] = -delta[j * K + j];
        for (int64_t k = 0; k < K; ++k) {
          const double* dk = &delta[k * K];
          const double lk = dl[k];
          for (int64_t j = j0; j < std::min(k, j1); ++j) p[j] *= -dk[j] / (lk - dl[j]);
          for (int64_t j = std::max(k + 1, j0); j < j1; ++j) p[j] *= -dk[j] / (lk - dl[j]);
        }
        for (int64_t j = j0; j < j1; ++j) p[j] = std::copysign(std::sqrt(p[j]), w[j]);
      });
      // The kept columns grouped by type (upper only, both, lower only): slot[i] is kept
      // column i's place in that order.
      std::vector<int64_t> slot(K), count(4, 0);
      for (int64_t i = 0; i < K; ++i) ++count[type[kept[i]]];
      const int64_t k1 = count[1], k12 = count[1] + count[2];
      {
        int64_t next[4] = {0, 0, k1, k12};
        for (int64_t i = 0; i < K; ++i) slot[i] = next[type[kept[i]]]++;
      }
      // vt's row k: vector k, w_j / (d_j - λ_k) normalized, component j at slot[j].
      std::vector<R> vt(K * K);
      parallel_for(K, 16, [&](int64_t k0, int64_t k1) {
        for (int64_t k = k0; k < k1; ++k) {
          double* dk = &delta[k * K];
          for (int64_t j = 0; j < K; ++j) dk[j] = what[j] / dk[j];
          Eigen::Map<Eigen::VectorXd> col(dk, K);
          col /= col.norm();
          for (int64_t j = 0; j < K; ++j) vt[k * K + slot[j]] = static_cast<R>(dk[j]);
        }
      });
      // Upper rows: their columns of types 1 and 2 times those components; lower rows: 2 and 3.
      const int64_t n2 = s - n1, ku = k12, kl = K - k1;
      std::vector<R> qu(n1 * ku), ql(n2 * kl);
      for (int64_t i = 0; i < K; ++i) {
        const int64_t c = lo + kept[i];
        if (slot[i] < k12)
          for (int64_t r = 0; r < n1; ++r) qu[r * ku + slot[i]] = at(lo + r, c);
        if (slot[i] >= k1)
          for (int64_t r = 0; r < n2; ++r) ql[r * kl + slot[i] - k1] = at(m + r, c);
      }
      gemm(qu.data(), ku, false, vt.data(), K, true, qv.data(), K, n1, K, ku);
      gemm(ql.data(), kl, false, vt.data() + k1, K, true, qv.data() + n1 * K, K, n2, K, kl);
    }

    // The block's eigenpairs, ascending: the secular roots' (qv's columns) and the deflated ones
    // (their columns of q as they are).
    struct Pair {
      double lambda;
      bool deflated;
      int64_t col;
    };
    std::vector<Pair> pairs;
    pairs.reserve(s);
    for (int64_t k = 0; k < K; ++k) pairs.push_back({lambda[k], false, k});
    for (int64_t c : deflated) pairs.push_back({dd[c], true, c});
    std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.lambda < b.lambda; });
    std::vector<R> row(s);
    for (int64_t r = 0; r < s; ++r) {
      R* qr = &at(lo + r, lo);
      const R* vr = qv.data() + r * K;  // qv is empty when every eigenvalue deflated
      for (int64_t p = 0; p < s; ++p) row[p] = pairs[p].deflated ? qr[pairs[p].col] : vr[pairs[p].col];
      std::copy(row.begin(), row.end(), qr);
    }
    for (int64_t p = 0; p < s; ++p) dd[p] = pairs[p].lambda;
  }
};

// Householder tridiagonalization of the symmetric h (n×n, row-major, both triangles), in place
// (LAPACK's sytd2 with its two passes over the trailing matrix fused into one): step k's
// reflector H_k = I - tau[k] v vᵀ, v = (1, h[k+2][k], ..., h[n-1][k]) on rows k+1 and below,
// makes row and column k tridiagonal; its rank-2 update of the trailing matrix is applied to
// each row in the same pass that multiplies the row by the next step's v, rows split across
// the pool. d (n) and e (n-1) the tridiagonal matrix. Both triangles are updated (twice the
// flops of one, but each row a contiguous vector loop that one thread owns).
template <class T>
void tridiagonalize(T* h, int64_t n, double* d, double* e, T* tau) {
  std::vector<T> v(n), y(n), pv(n), pw(n);  // pv, pw: the last step's update, h -= pv pwᵀ + pw pvᵀ
  bool pending = false;
  for (int64_t k = 0; k + 1 < n; ++k) {
    T* rk = h + k * n;
    if (pending)
      for (int64_t j = k; j < n; ++j) rk[j] -= pv[k] * pw[j] + pw[k] * pv[j];
    d[k] = static_cast<double>(rk[k]);
    // The reflector of x = row k right of the diagonal (row k is not read again).
    T t, beta;
    larfg(rk + k + 1, n - k - 1, beta, t);
    v[k + 1] = 1;
    std::copy(rk + k + 2, rk + n, v.begin() + k + 2);
    e[k] = static_cast<double>(beta);
    if (k + 2 < n) tau[k] = t;
    const bool reflect = t != 0, update = pending;
    const int64_t rows = n - k - 1;
    // Eigen's vector loops: a plain sum loop does not vectorize (its order is fixed).
    using Vec = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>;
    const Vec vs(v.data() + k + 1, rows), pvs(pv.data() + k + 1, rows), pws(pw.data() + k + 1, rows);
    parallel_for(rows, std::max<int64_t>(1, kElementwiseGrain / (2 * rows)), [&](int64_t r0, int64_t r1) {
      for (int64_t i = k + 1 + r0; i < k + 1 + r1; ++i) {
        T* ri = h + i * n;
        Vec row(ri + k + 1, rows);
        if (update) row -= pv[i] * pws + pw[i] * pvs;
        if (i >= k + 2) ri[k] = reflect ? v[i] : T(0);
        if (reflect) y[i] = row.dot(vs);
      }
    });
    pending = reflect;
    if (reflect) {  // w = tau y - (tau² / 2)(yᵀv) v
      T yv = 0;
      for (int64_t i = k + 1; i < n; ++i) yv += y[i] * v[i];
      for (int64_t i = k + 1; i < n; ++i) {
        pw[i] = t * y[i] - (t * t / 2) * yv * v[i];
        pv[i] = v[i];
      }
    }
  }
  T last = h[n * n - 1];
  if (pending) last -= 2 * pv[n - 1] * pw[n - 1];
  d[n - 1] = static_cast<double>(last);
}

// z (n×n, row-major) ← H_0 ⋯ H_{n-3} z with tridiagonalize's reflectors: blocks of kPanel
// reflectors, the last block first, each applied as I - V T Vᵀ (householder.h).
constexpr int64_t kPanel = 64;
template <class T>
void apply_reflectors(const T* h, const T* tau, int64_t n, T* z) {
  const int64_t count = n - 2;
  std::vector<T> vb, tm(kPanel * kPanel);
  for (int64_t j1 = count; j1 > 0; j1 -= kPanel) {
    const int64_t j0 = std::max<int64_t>(0, j1 - kPanel), nb = j1 - j0, m = n - j0 - 1;
    gather_reflectors(h, n, j0 + 1, m, j0, nb, vb);  // rows j0+1 .. n-1
    reflector_block_factor(vb.data(), m, nb, tau + j0, tm.data());
    apply_reflector_block(vb.data(), tm.data(), m, nb, z + (j0 + 1) * n, n, n, false);
  }
}

}  // namespace

bool symmetric_eigen_suits(int64_t n) { return n > 2 * kLeaf; }

template <class R>
bool tridiagonal_eigen(int64_t n, const double* d, const double* e, double* w, R* z) {
  if (n == 0) return true;
  // Scaled to a largest entry of 1, as LAPACK's stedc does: the tolerances are absolute.
  double scale = 0;
  for (int64_t i = 0; i < n; ++i) scale = std::max(scale, std::abs(d[i]));
  for (int64_t i = 0; i + 1 < n; ++i) scale = std::max(scale, std::abs(e[i]));
  if (!(scale > 0) || !std::isfinite(scale)) scale = 1;
  std::fill(z, z + n * n, R(0));  // the blocks' vectors are read as rows of the whole block
  DivideConquer<R> dc;
  dc.n = n;
  dc.q = z;
  for (int64_t i = 0; i < n; ++i) dc.d.push_back(d[i] / scale);
  for (int64_t i = 0; i + 1 < n; ++i) dc.e.push_back(e[i] / scale);
  dc.solve();
  for (int64_t i = 0; i < n; ++i) w[i] = dc.d[i] * scale;
  return dc.ok;
}

template <class T, class W>
bool symmetric_eigen(const T* a, T* v, W* w, int64_t n) {
  std::vector<double> d(n), e(std::max<int64_t>(n - 1, 0)), wd(n);
  // Scaled by a power of two (exact) where the reflections' squared norms could overflow or
  // underflow, as Eigen's solver and LAPACK's syevd scale.
  W largest = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j <= i; ++j) largest = std::max<W>(largest, std::abs(a[i * n + j]));
  const int exponent = scaling_exponent(largest);
  if constexpr (std::is_same_v<T, W>) {
    std::vector<T> h(n * n), tau(std::max<int64_t>(n - 2, 0));
    for (int64_t i = 0; i < n; ++i)  // both triangles from the lower one
      for (int64_t j = 0; j <= i; ++j) h[i * n + j] = h[j * n + i] = scale_by_power_of_two(a[i * n + j], exponent);
    tridiagonalize(h.data(), n, d.data(), e.data(), tau.data());
    if (!tridiagonal_eigen<T>(n, d.data(), e.data(), wd.data(), v)) return false;
    apply_reflectors(h.data(), tau.data(), n, v);
  } else {  // Hermitian: Eigen's tridiagonalization (its T is real), the reflections applied by Eigen
    using Col = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
    Col scaled = Eigen::Map<const RowMat<T>>(a, n, n);
    if (exponent != 0) scaled = scaled.unaryExpr([&](T x) { return scale_by_power_of_two(x, exponent); });
    Eigen::Tridiagonalization<Col> tri(scaled);
    for (int64_t i = 0; i < n; ++i) d[i] = static_cast<double>(tri.diagonal()[i]);
    for (int64_t i = 0; i + 1 < n; ++i) e[i] = static_cast<double>(tri.subDiagonal()[i]);
    RowMat<W> z(n, n);
    if (!tridiagonal_eigen<W>(n, d.data(), e.data(), wd.data(), z.data())) return false;
    Col vc = z.template cast<T>();
    tri.matrixQ().applyThisOnTheLeft(vc);
    Eigen::Map<RowMat<T>>(v, n, n) = vc;
  }
  for (int64_t i = 0; i < n; ++i) w[i] = scale_by_power_of_two(static_cast<W>(wd[i]), -exponent);
  return true;
}

template bool tridiagonal_eigen<float>(int64_t, const double*, const double*, double*, float*);
template bool tridiagonal_eigen<double>(int64_t, const double*, const double*, double*, double*);
template bool symmetric_eigen<float, float>(const float*, float*, float*, int64_t);
template bool symmetric_eigen<double, double>(const double*, double*, double*, int64_t);
template bool symmetric_eigen<std::complex<float>, float>(const std::complex<float>*, std::complex<float>*, float*,
                                                          int64_t);
template bool symmetric_eigen<std::complex<double>, double>(const std::complex<double>*, std::complex<double>*,
                                                            double*, int64_t);

}  // namespace strata::kernels
