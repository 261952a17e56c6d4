// tracer/kernels/bidiagonal_svd.cpp — see bidiagonal_svd.h. The recursion runs on L = [Bᵀ; 0],
// (n+1)×n lower bidiagonal (L[i][i] = d_i, L[i+1][i] = e_i, e_{n-1} = 0), as Gu and Eisenstat
// state it: a block of columns [c0, c0+N) and rows [c0, c0+N] splits at its middle column into
// two blocks of the same (rows = columns + 1) shape, L1 = U1 [D1; 0] W1ᵀ and L2 likewise, whose
// last left vectors (the "null" vectors, orthogonal to the block's range) make the join a
// rank-one problem: in the bases U1 ⊕ U2 and (middle column, W1, W2) the block is the n×n
// arrow M = [z | diag(0, D1, D2)] plus a zero row, whose singular values solve
// 1 + Σ z_j² / (d_j² - σ²) = 0.
#include "bidiagonal_svd.h"

#include <Eigen/Dense>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "householder.h"
#include "parallel.h"
#include "secular.h"

namespace strata::kernels {
namespace {

// Blocks of at most this many columns are solved by Eigen's JacobiSVD (LAPACK's smlsiz, 25).
constexpr int64_t kLeaf = 24;

template <class R>
struct DivideConquer {
  int64_t n;
  std::vector<double> alpha, beta;  // L's diagonal and subdiagonal (beta[n-1] = 0)
  std::vector<double> sv;           // a solved block's singular values, ascending
  std::vector<R> u, w;              // (n+1)×(n+1) and n×n, row-major, block diagonal as it goes
  bool ok = true;

  R& U(int64_t i, int64_t j) { return u[i * (n + 1) + j]; }
  R& W(int64_t i, int64_t j) { return w[i * n + j]; }

  // A solved block [c0, c0+N): U's rows and columns [c0, c0+N] hold its left vectors (column
  // c0+N the null vector), W's rows and columns [c0, c0+N) its right ones, sv[c0, c0+N) the
  // values, ascending.
  struct Merge {
    int64_t c0, N, mid;
  };
  std::vector<std::pair<int64_t, int64_t>> leaves;
  std::vector<Merge> merges;
  void split(int64_t c0, int64_t N) {
    if (N <= kLeaf) return leaves.push_back({c0, N});
    const int64_t n1 = N / 2, mid = c0 + n1;
    split(c0, n1);
    split(mid + 1, N - n1 - 1);
    merges.push_back({c0, N, mid});
  }

  void solve() {
    split(0, n);
    std::vector<char> failed(leaves.size());
    parallel_for(static_cast<int64_t>(leaves.size()), 1, [&](int64_t i0, int64_t i1) {
      for (int64_t i = i0; i < i1; ++i) failed[i] = !leaf(leaves[i].first, leaves[i].second);
    });
    ok = std::find(failed.begin(), failed.end(), 1) == failed.end();
    if (ok)
      for (const Merge& g : merges) merge(g.c0, g.N, g.mid);
  }

  // The (N+1)×N block by one-sided Jacobi. A block whose last row is zero (the last block's,
  // e_{n-1} = 0, or where B splits) is solved square and its null vector set to e_last
  // exactly: so U's row n stays zero but for its own null vector through every merge, and
  // U's leading n×n block is B's right vectors.
  bool leaf(int64_t c0, int64_t N) {
    const bool square = beta[c0 + N - 1] == 0;
    const int64_t rows = square ? N : N + 1;
    Eigen::MatrixXd b = Eigen::MatrixXd::Zero(rows, N);
    for (int64_t i = 0; i < N; ++i) {
      b(i, i) = alpha[c0 + i];
      if (i + 1 < rows) b(i + 1, i) = beta[c0 + i];
    }
    Eigen::JacobiSVD<Eigen::MatrixXd> f(b, Eigen::ComputeFullU | Eigen::ComputeFullV);
    if (f.info() != Eigen::Success) return false;
    for (int64_t r = 0; r <= N; ++r)
      for (int64_t c = 0; c <= N; ++c) {
        double v;
        if (c < N) v = r < rows ? f.matrixU()(r, N - 1 - c) : 0.0;  // ascending
        else v = square ? (r == N ? 1.0 : 0.0) : f.matrixU()(r, N);
        U(c0 + r, c0 + c) = static_cast<R>(v);
      }
    for (int64_t r = 0; r < N; ++r)
      for (int64_t c = 0; c < N; ++c) W(c0 + r, c0 + c) = static_cast<R>(f.matrixV()(r, N - 1 - c));
    for (int64_t c = 0; c < N; ++c) sv[c0 + c] = f.singularValues()(N - 1 - c);
    return true;
  }

  // Joins the solved blocks [c0, mid) and [mid+1, c0+N) through the middle column (dlasd1-3).
  void merge(int64_t c0, int64_t N, int64_t mid) {
    const int64_t n1 = mid - c0, n2 = N - n1 - 1, r1 = mid + 1;  // r1: block 2's first row/column
    const double a = alpha[mid], b = beta[mid];
    // The two null vectors' weights in the middle column, rotated into one (the arrow's first
    // row) and a zero (the joined block's null vector).
    const double a1 = a * double(U(mid, c0 + n1)), a2 = b * double(U(r1, r1 + n2)), r0 = std::hypot(a1, a2);
    const double c = r0 > 0 ? a1 / r0 : 1.0, s = r0 > 0 ? a2 / r0 : 0.0;

    // The arrow's bases, dense over the block: column i of ut (N+1 rows) and wt (N rows) for
    // index i of M: 0 the rotated null vectors and the middle column, then block 1's vectors,
    // then block 2's.
    const int64_t ru = N + 1;
    std::vector<R> ut(ru * N, R(0)), wt(N * N, R(0)), null(ru, R(0));
    std::vector<double> z(N), dd(N);
    for (int64_t r = 0; r <= n1; ++r) {
      const R* row = &U(c0 + r, c0);
      ut[r * N] = static_cast<R>(c * double(row[n1]));
      null[r] = static_cast<R>(-s * double(row[n1]));
      std::copy(row, row + n1, &ut[r * N + 1]);
    }
    for (int64_t r = 0; r <= n2; ++r) {
      const R* row = &U(r1 + r, r1);
      ut[(n1 + 1 + r) * N] = static_cast<R>(s * double(row[n2]));
      null[n1 + 1 + r] = static_cast<R>(c * double(row[n2]));
      std::copy(row, row + n2, &ut[(n1 + 1 + r) * N + n1 + 1]);
    }
    wt[n1 * N] = 1;  // the middle column
    for (int64_t r = 0; r < n1; ++r) std::copy(&W(c0 + r, c0), &W(c0 + r, c0) + n1, &wt[r * N + 1]);
    for (int64_t r = 0; r < n2; ++r) std::copy(&W(r1 + r, r1), &W(r1 + r, r1) + n2, &wt[(n1 + 1 + r) * N + n1 + 1]);
    z[0] = r0;
    dd[0] = 0;
    for (int64_t j = 0; j < n1; ++j) z[1 + j] = a * double(U(mid, c0 + j)), dd[1 + j] = sv[c0 + j];
    for (int64_t j = 0; j < n2; ++j) z[n1 + 1 + j] = b * double(U(r1, r1 + j)), dd[n1 + 1 + j] = sv[r1 + j];

    // Deflation (dlasd2): a negligible z_j leaves d_j a singular value with its basis vectors;
    // two values closer than tol are rotated (both bases) so that one's z is zero.
    double dmax = std::max(std::abs(a), std::abs(b));
    for (double v : dd) dmax = std::max(dmax, v);
    const double tol = 8 * std::numeric_limits<R>::epsilon() * dmax;
    std::vector<int64_t> order(N - 1);
    std::iota(order.begin(), order.end(), 1);
    std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return dd[x] < dd[y]; });
    std::vector<int64_t> kept = {0}, deflated;
    int64_t prev = -1;
    auto rotate = [&](std::vector<R>& m, int64_t rows, int64_t p, int64_t q, double cr, double sr) {
      for (int64_t r = 0; r < rows; ++r) {
        const double x = double(m[r * N + p]), y = double(m[r * N + q]);
        m[r * N + p] = static_cast<R>(cr * x + sr * y);
        m[r * N + q] = static_cast<R>(cr * y - sr * x);
      }
    };
    for (int64_t j : order) {
      if (std::abs(z[j]) <= tol) {
        deflated.push_back(j);
        continue;
      }
      if (prev >= 0 && dd[j] - dd[prev] <= tol) {
        const double tau = std::hypot(z[j], z[prev]), cr = z[j] / tau, sr = -z[prev] / tau;
        z[j] = tau;
        z[prev] = 0;
        rotate(ut, ru, prev, j, cr, sr);
        rotate(wt, N, prev, j, cr, sr);
        deflated.push_back(prev);
      } else if (prev >= 0) {
        kept.push_back(prev);
      }
      prev = j;
    }
    if (prev >= 0) kept.push_back(prev);

    // The secular equation of the K kept entries: poles dsig² (dsig_0 = 0, the others apart by
    // more than tol; the smallest at least tol/2 from zero), weights z² (z_0 at least tol).
    const int64_t K = static_cast<int64_t>(kept.size());
    std::vector<double> dsig(K), zk(K), w2(K), sigma(K), delta(K * K);  // delta[i K + j] = dsig_j² - σ_i²
    for (int64_t i = 0; i < K; ++i) dsig[i] = dd[kept[i]], zk[i] = z[kept[i]];
    dsig[0] = 0;
    if (std::abs(zk[0]) <= tol) zk[0] = tol;
    if (K > 1 && dsig[1] <= tol / 2) dsig[1] = tol / 2;
    for (int64_t i = 0; i < K; ++i) w2[i] = zk[i] * zk[i];
    auto offsets = [&](int64_t o, double* out) {  // dsig_j² - dsig_o², accurate near the pole
      for (int64_t j = 0; j < K; ++j) out[j] = (dsig[j] - dsig[o]) * (dsig[j] + dsig[o]);
    };
    parallel_for(K, 16, [&](int64_t i0, int64_t i1) {
      std::vector<double> off(K);
      for (int64_t i = i0; i < i1; ++i) {
        int64_t o;
        const double tau = secular_root(i, K, offsets, w2.data(), 1.0, &delta[i * K], off.data(), o);
        sigma[i] = std::sqrt(dsig[o] * dsig[o] + tau);
      }
    });
    // Löwner: the weights for which the computed σ are exact, |ẑ_j|² = ∏_i |dsig_j² - σ_i²| /
    // ∏_{i≠j} |dsig_j² - dsig_i²|, each root's factor paired with a pole's.
    std::vector<double> zh(K);
    parallel_for(K, 64, [&](int64_t j0, int64_t j1) {
      for (int64_t j = j0; j < j1; ++j) zh[j] = std::abs(delta[j * K + j]);
      for (int64_t i = 0; i < K; ++i) {
        const double* di = &delta[i * K];
        for (int64_t j = j0; j < j1; ++j)
          if (j != i) zh[j] *= std::abs(di[j] / ((dsig[i] - dsig[j]) * (dsig[i] + dsig[j])));
      }
      for (int64_t j = j0; j < j1; ++j) zh[j] = std::copysign(std::sqrt(zh[j]), zk[j]);
    });
    // Root i's vectors in the arrow's bases: left ∝ ẑ_j / (dsig_j² - σ_i²), right ∝ (-1,
    // dsig_j ẑ_j / (dsig_j² - σ_i²)); as columns of um and vm (K×K).
    std::vector<R> um(K * K), vm(K * K);
    parallel_for(K, 16, [&](int64_t i0, int64_t i1) {
      std::vector<double> lv(K), rv(K);
      for (int64_t i = i0; i < i1; ++i) {
        const double* di = &delta[i * K];
        double ln = 0, rn = 0;
        for (int64_t j = 0; j < K; ++j) {
          lv[j] = zh[j] / di[j];
          rv[j] = j == 0 ? -1.0 : dsig[j] * lv[j];
          ln += lv[j] * lv[j];
          rn += rv[j] * rv[j];
        }
        ln = 1 / std::sqrt(ln);
        rn = 1 / std::sqrt(rn);
        for (int64_t j = 0; j < K; ++j) um[j * K + i] = static_cast<R>(lv[j] * ln), vm[j * K + i] = static_cast<R>(rv[j] * rn);
      }
    });
    // The kept basis columns times those vectors.
    std::vector<R> uk(ru * K), wk(N * K), un(ru * K), wn(N * K);
    for (int64_t r = 0; r < ru; ++r)
      for (int64_t i = 0; i < K; ++i) uk[r * K + i] = ut[r * N + kept[i]];
    for (int64_t r = 0; r < N; ++r)
      for (int64_t i = 0; i < K; ++i) wk[r * K + i] = wt[r * N + kept[i]];
    gemm(uk.data(), K, false, um.data(), K, false, un.data(), K, ru, K, K);
    gemm(wk.data(), K, false, vm.data(), K, false, wn.data(), K, N, K, K);

    // The block's singular triplets, ascending: the secular roots' and the deflated ones.
    struct Triplet {
      double sigma;
      bool deflated;
      int64_t col;
    };
    std::vector<Triplet> all;
    all.reserve(N);
    for (int64_t i = 0; i < K; ++i) all.push_back({sigma[i], false, i});
    for (int64_t j : deflated) all.push_back({dd[j], true, j});
    std::stable_sort(all.begin(), all.end(), [](const Triplet& x, const Triplet& y) { return x.sigma < y.sigma; });
    for (int64_t r = 0; r < ru; ++r) {
      R* row = &U(c0 + r, c0);
      for (int64_t p = 0; p < N; ++p) row[p] = all[p].deflated ? ut[r * N + all[p].col] : un[r * K + all[p].col];
      row[N] = null[r];
    }
    for (int64_t r = 0; r < N; ++r) {
      R* row = &W(c0 + r, c0);
      for (int64_t p = 0; p < N; ++p) row[p] = all[p].deflated ? wt[r * N + all[p].col] : wn[r * K + all[p].col];
    }
    for (int64_t p = 0; p < N; ++p) sv[c0 + p] = all[p].sigma;
  }
};

}  // namespace

template <class R>
bool bidiagonal_svd(int64_t n, const double* d, const double* e, double* s, R* x, R* y) {
  if (n == 0) return true;
  DivideConquer<R> dc;
  dc.n = n;
  dc.alpha.assign(d, d + n);
  dc.beta.assign(n, 0.0);
  std::copy(e, e + n - 1, dc.beta.begin());
  dc.sv.assign(n, 0.0);
  dc.u.assign((n + 1) * (n + 1), R(0));
  dc.w.assign(n * n, R(0));
  dc.solve();
  if (!dc.ok) return false;
  // Bᵀ = U[0:n, 0:n] Σ Wᵀ: B's left vectors are W's columns, its right ones U's; descending.
  for (int64_t p = 0; p < n; ++p) s[p] = dc.sv[n - 1 - p];
  for (int64_t r = 0; r < n; ++r)
    for (int64_t p = 0; p < n; ++p) {
      x[r * n + p] = dc.W(r, n - 1 - p);
      y[r * n + p] = dc.U(r, n - 1 - p);
    }
  return true;
}

template bool bidiagonal_svd<float>(int64_t, const double*, const double*, double*, float*, float*);
template bool bidiagonal_svd<double>(int64_t, const double*, const double*, double*, double*, double*);

}  // namespace strata::kernels
