// tracer/kernels/bidiagonal_svd.cpp — see bidiagonal_svd.h. The recursion runs on L = [Bᵀ; 0],
// (n+1)×n lower bidiagonal (L[i][i] = d_i, L[i+1][i] = e_i, e_{n-1} = 0), as Gu and Eisenstat
// state it: a block of columns [c0, c0+N) and rows [c0, c0+N] splits at its middle column into
// two blocks of the same (rows = columns + 1) shape, L1 = U1 [D1; 0] W1ᵀ and L2 likewise, whose
// last left vectors (the "null" vectors, orthogonal to the block's range) make the join a
// rank-one problem: in the bases U1 ⊕ U2 and (middle column, W1, W2) the block is the N×N
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
  // values, ascending. Halves [c0, mid) and [mid + 1, c0+N), mid the middle column.
  void solve() {
    ok = divide_and_conquer(
        n, kLeaf, 1, [](int64_t, int64_t, int64_t) {}, [&](int64_t lo, int64_t hi) { return leaf(lo, hi - lo); },
        [&](int64_t lo, int64_t mid, int64_t hi) { merge(lo, hi - lo, mid); });
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

  // Scratch reused across merges (fresh vectors each merge were a tenth of the time in page
  // faults).
  std::vector<R> gathered, weights, product, rowbuf;

  // rows (rows of m, ld apart, from row r0) × the listed columns, times the listed rows of
  // vecs (K columns): into product (rows × K).
  void product_of(const R* m, int64_t ld, int64_t r0, int64_t rows, const std::vector<int64_t>& cols,
                  const std::vector<int64_t>& picks, const std::vector<R>& vecs, int64_t K) {
    const int64_t c = static_cast<int64_t>(cols.size());
    product.resize(rows * K);
    if (c == 0) return std::fill(product.begin(), product.begin() + rows * K, R(0));
    gathered.resize(rows * c);
    weights.resize(c * K);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t p = 0; p < c; ++p) gathered[r * c + p] = m[(r0 + r) * ld + cols[p]];
    for (int64_t p = 0; p < c; ++p) std::copy(&vecs[picks[p] * K], &vecs[picks[p] * K] + K, &weights[p * K]);
    gemm(gathered.data(), c, false, weights.data(), K, false, product.data(), K, rows, K, c);
  }

  // Joins the solved blocks [c0, mid) and [mid+1, c0+N) through the middle column (dlasd1-3),
  // in place: M's index 0 is U's and W's column mid (the rotated null vectors, the middle
  // column), indices 1 .. n1 block 1's columns, the rest block 2's.
  void merge(int64_t c0, int64_t N, int64_t mid) {
    const int64_t n1 = mid - c0, r1 = mid + 1, last = c0 + N;  // last: the null vectors' column
    auto col = [&](int64_t i) { return i == 0 ? mid : i <= n1 ? c0 + i - 1 : r1 + (i - n1 - 1); };
    const double a = alpha[mid], b = beta[mid];
    // The two null vectors' weights in the middle column, rotated into one (the arrow's first
    // row) and a zero (the joined block's null vector). Each is zero off its own block's rows.
    const double a1 = a * double(U(mid, mid)), a2 = b * double(U(r1, last)), r0 = std::hypot(a1, a2);
    const double c = r0 > 0 ? a1 / r0 : 1.0, s = r0 > 0 ? a2 / r0 : 0.0;
    rotate_columns(u.data(), n + 1, c0, last + 1, mid, last, c, s);
    W(mid, mid) = 1;
    std::vector<double> z(N), dd(N);
    std::vector<int> type(N);  // which block's rows of U column col(i) may be nonzero: 1, 3, or 2 both
    z[0] = r0, dd[0] = 0, type[0] = 2;
    for (int64_t i = 1; i < N; ++i) {
      const bool first = i <= n1;
      z[i] = first ? a * double(U(mid, col(i))) : b * double(U(r1, col(i)));
      dd[i] = sv[col(i)];
      type[i] = first ? 1 : 3;
    }

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
    for (int64_t j : order) {
      if (std::abs(z[j]) <= tol) {
        deflated.push_back(j);
        continue;
      }
      if (prev >= 0 && dd[j] - dd[prev] <= tol) {
        const double tau = std::hypot(z[j], z[prev]), cr = z[j] / tau, sr = -z[prev] / tau;
        z[j] = tau;
        z[prev] = 0;
        const int64_t p = col(prev), q = col(j);
        rotate_columns(u.data(), n + 1, c0, last + 1, p, q, cr, sr);
        rotate_columns(w.data(), n, c0, last, p, q, cr, sr);
        if (type[prev] != type[j]) type[prev] = type[j] = 2;
        deflated.push_back(prev);
      } else if (prev >= 0) {
        kept.push_back(prev);
      }
      prev = j;
    }
    if (prev >= 0) kept.push_back(prev);
    if (dmax == 0) kept.clear(), deflated.push_back(0);  // a zero block: every value zero

    // The secular equation of the K kept entries: poles dsig² (dsig_0 = 0, the others apart by
    // more than tol; the smallest at least tol/2 from zero), weights z² (z_0 at least tol); all
    // scaled by a power of two to about 1 (dlasd1's scaling), so that the squares and the
    // products of differences neither overflow nor underflow.
    const int64_t K = static_cast<int64_t>(kept.size());
    const double scale = dmax > 0 ? std::ldexp(1.0, -std::ilogb(dmax)) : 1.0, stol = tol * scale;
    std::vector<double> dsig(K), zk(K), w2(K), sigma(K), delta(K * K);  // delta[i K + j] = dsig_j² - σ_i²
    for (int64_t i = 0; i < K; ++i) dsig[i] = dd[kept[i]] * scale, zk[i] = z[kept[i]] * scale;
    if (K > 0 && std::abs(zk[0]) <= stol) zk[0] = stol;
    if (K > 1 && dsig[1] <= stol / 2) dsig[1] = stol / 2;
    for (int64_t i = 0; i < K; ++i) w2[i] = zk[i] * zk[i];
    auto offsets = [&](int64_t o, double* out) {  // dsig_j² - dsig_o², accurate near the pole
      for (int64_t j = 0; j < K; ++j) out[j] = (dsig[j] - dsig[o]) * (dsig[j] + dsig[o]);
    };
    if (K == 1) {  // σ = |z_0| exactly, its vectors the bases' first columns (dlasd3)
      sigma[0] = std::abs(zk[0]);
      delta[0] = -sigma[0] * sigma[0];
    } else {
      parallel_for(K, 16, [&](int64_t i0, int64_t i1) {
        std::vector<double> off(K);
        for (int64_t i = i0; i < i1; ++i) {
          int64_t o;
          const double tau = secular_root(i, K, offsets, w2.data(), 1.0, &delta[i * K], off.data(), o);
          sigma[i] = std::sqrt(dsig[o] * dsig[o] + tau);
        }
      });
    }
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
    // dsig_j ẑ_j / (dsig_j² - σ_i²)); as columns of um and vm (K×K, row j for kept[j]).
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

    // The block's singular triplets, ascending: the secular roots' and the deflated ones.
    struct Triplet {
      double sigma;
      bool deflated;
      int64_t at;  // the root, or the deflated index's column
    };
    std::vector<Triplet> all;
    all.reserve(N);
    for (int64_t i = 0; i < K; ++i) all.push_back({sigma[i] / scale, false, i});
    for (int64_t j : deflated) all.push_back({dd[j], true, col(j)});
    std::stable_sort(all.begin(), all.end(), [](const Triplet& x, const Triplet& y) { return x.sigma < y.sigma; });
    for (int64_t p = 0; p < N; ++p) sv[c0 + p] = all[p].sigma;

    // The new vectors: each block's rows times the kept columns that are nonzero there (LAPACK's
    // column types), the roots' vectors' matching rows; written back row by row, the deflated
    // columns as they are.
    std::vector<int64_t> cols, picks;
    auto select = [&](bool upper, bool with_first) {
      cols.clear(), picks.clear();
      for (int64_t p = 0; p < K; ++p) {
        const int t = type[kept[p]];
        if ((kept[p] == 0 && !with_first) || t == (upper ? 3 : 1)) continue;
        cols.push_back(col(kept[p]));
        picks.push_back(p);
      }
    };
    rowbuf.resize(N);
    auto write_rows = [&](R* base, int64_t ld, int64_t r0, int64_t rows, const R* from) {
      for (int64_t r = 0; r < rows; ++r) {
        R* row = base + (r0 + r) * ld + c0;
        for (int64_t p = 0; p < N; ++p) rowbuf[p] = all[p].deflated ? base[(r0 + r) * ld + all[p].at] : from[r * K + all[p].at];
        std::copy(rowbuf.begin(), rowbuf.end(), row);
      }
    };
    select(true, true);
    product_of(u.data(), n + 1, c0, n1 + 1, cols, picks, um, K);
    write_rows(u.data(), n + 1, c0, n1 + 1, product.data());
    select(false, true);
    product_of(u.data(), n + 1, r1, N - n1, cols, picks, um, K);
    write_rows(u.data(), n + 1, r1, N - n1, product.data());
    // W: the middle row is index 0's alone (W's column mid is e_mid there).
    select(true, false);
    product_of(w.data(), n, c0, n1, cols, picks, vm, K);
    write_rows(w.data(), n, c0, n1, product.data());
    write_rows(w.data(), n, mid, 1, vm.data());
    select(false, false);
    product_of(w.data(), n, r1, N - n1 - 1, cols, picks, vm, K);
    write_rows(w.data(), n, r1, N - n1 - 1, product.data());
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
  std::copy(e, e + (n - 1), dc.beta.begin());
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
