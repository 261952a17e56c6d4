// tracer/kernels/householder.cpp — see householder.h.
#include "householder.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <complex>
#include <type_traits>
#include <vector>

#include "packed_gemm.h"

namespace strata::kernels {
namespace {

template <class T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using Vec = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>;

// Columns per block of reflectors (LAPACK's nb for geqrf is 32).
constexpr int64_t kQrBlock = 32;

// x·y for complex values written out: std::complex's operator* recovers NaN products through
// a library call per product, which finite operands never need.
template <class T>
std::complex<T> product(std::complex<T> x, std::complex<T> y) {
  return {x.real() * y.real() - x.imag() * y.imag(), x.real() * y.imag() + x.imag() * y.real()};
}

}  // namespace

template <class T>
void larfg(T* x, int64_t len, T& beta, T& tau) {
  const T alpha = x[0], sigma = len > 1 ? lane_dot(x + 1, x + 1, len - 1) : T(0);
  if (sigma == 0) {
    beta = alpha;
    tau = 0;
    return;
  }
  beta = -std::copysign(std::sqrt(alpha * alpha + sigma), alpha);
  tau = (beta - alpha) / beta;
  Vec<T>(x + 1, len - 1) *= 1 / (alpha - beta);
}

template <class T>
void gather_reflectors(const T* w, int64_t ld, int64_t row0, int64_t rows, int64_t col0, int64_t nb, std::vector<T>& v) {
  v.assign(rows * nb, T(0));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < nb && c <= r; ++c) v[r * nb + c] = r == c ? T(1) : w[(row0 + r) * ld + col0 + c];
}

template <class T>
void gemm(const T* a, int64_t lda, bool a_trans, const T* b, int64_t ldb, bool b_trans, T* c, int64_t ldc, int64_t M,
          int64_t N, int64_t K, bool subtract) {
  if (M == 0 || N == 0) return;
  if constexpr (std::is_floating_point_v<T>) {  // (the packed GEMM is real)
    if (K > 0 && packed_gemm_suits(M, N, a_trans)) {
      GemmOperands<T> g{a, lda, a_trans, b, ldb, b_trans, c, ldc};
      g.subtract = subtract;
      return packed_gemm(g, M, N, K, true);
    }
  } else {
    // Complex: four real packed GEMMs on the parts held apart, Re C = Ar Br − Ai Bi and
    // Im C = Ai Br − Ar (−Bi) (Eigen's complex GEMM runs on one core: a third of the time of
    // eig's vectors at 512²).
    using R = typename T::value_type;
    if (K > 0 && packed_gemm_suits(M, N, a_trans)) {
      const int64_t ar = a_trans ? K : M, ac = a_trans ? M : K, br = b_trans ? N : K, bc = b_trans ? K : N;
      std::vector<R> are(static_cast<size_t>(ar * ac)), aim(are.size()), bre(static_cast<size_t>(br * bc)), bim(bre.size()),
          bneg(bre.size()), cre(static_cast<size_t>(M * N)), cim(cre.size());
      for (int64_t i = 0; i < ar; ++i)
        for (int64_t j = 0; j < ac; ++j) are[size_t(i * ac + j)] = a[i * lda + j].real(), aim[size_t(i * ac + j)] = a[i * lda + j].imag();
      for (int64_t i = 0; i < br; ++i)
        for (int64_t j = 0; j < bc; ++j) {
          const T x = b[i * ldb + j];
          bre[size_t(i * bc + j)] = x.real(), bim[size_t(i * bc + j)] = x.imag(), bneg[size_t(i * bc + j)] = -x.imag();
        }
      auto part = [&](const std::vector<R>& x, const std::vector<R>& y, std::vector<R>& out, bool sub) {
        GemmOperands<R> g{x.data(), ac, a_trans, y.data(), bc, b_trans, out.data(), N};
        g.subtract = sub;
        packed_gemm(g, M, N, K, true);
      };
      part(are, bre, cre, false), part(aim, bim, cre, true);
      part(aim, bre, cim, false), part(are, bneg, cim, true);
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
          const T x(cre[size_t(i * N + j)], cim[size_t(i * N + j)]);
          c[i * ldc + j] = subtract ? c[i * ldc + j] - x : x;
        }
      return;
    }
  }
  using Stride = Eigen::OuterStride<>;
  Eigen::Map<RowMat<T>, 0, Stride> C(c, M, N, Stride(ldc));
  if (K == 0) {
    if (!subtract) C.setZero();
    return;
  }
  // Eigen takes a product of one row or column to its matrix-vector kernel, and one with
  // M + N + K < 20 coefficient by coefficient; both round by where the operands lie (its
  // coefficient-wise path computes the entries before an aligned address as tree sums, the rest
  // as running sums), so jit and eager differed in the last bit. Those products here in one
  // order; the rest go to its GEMM, which packs the operands first.
  if (M == 1 || N == 1 || M + N + K < 20) {
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        T sum = 0;
        for (int64_t p = 0; p < K; ++p) {
          const T x = a_trans ? a[p * lda + i] : a[i * lda + p], y = b_trans ? b[j * ldb + p] : b[p * ldb + j];
          if constexpr (std::is_floating_point_v<T>) {
            sum += x * y;
          } else {
            sum += product(x, y);
          }
        }
        c[i * ldc + j] = subtract ? c[i * ldc + j] - sum : sum;
      }
    return;
  }
  Eigen::Map<const RowMat<T>, 0, Stride> A(a, a_trans ? K : M, a_trans ? M : K, Stride(lda));
  Eigen::Map<const RowMat<T>, 0, Stride> B(b, b_trans ? N : K, b_trans ? K : N, Stride(ldb));
  auto assign = [&](const auto& product) { subtract ? C.noalias() -= product : C.noalias() = product; };
  if (a_trans && b_trans)
    assign(A.transpose() * B.transpose());
  else if (a_trans)
    assign(A.transpose() * B);
  else if (b_trans)
    assign(A * B.transpose());
  else
    assign(A * B);
}

template <class T>
void reflector_block_factor(const T* v, int64_t m, int64_t nb, const T* tau, T* t) {
  // T[i][i] = tau_i, T[0:i, i] = -tau_i T[0:i, 0:i] (V[:, 0:i]ᵀ v_i).
  std::vector<T> gram(nb * nb);
  gemm(v, nb, true, v, nb, false, gram.data(), nb, nb, nb, m);
  std::fill(t, t + nb * nb, T(0));
  for (int64_t i = 0; i < nb; ++i) {
    for (int64_t c = 0; c < i; ++c) {
      T sum = 0;
      for (int64_t l = c; l < i; ++l) sum += t[c * nb + l] * gram[l * nb + i];
      t[c * nb + i] = -tau[i] * sum;
    }
    t[i * nb + i] = tau[i];
  }
}

template <class T>
void apply_reflector_block(const T* v, const T* t, int64_t m, int64_t nb, T* c, int64_t ldc, int64_t cols,
                           bool transpose) {
  if (cols == 0 || nb == 0) return;
  std::vector<T> w1(nb * cols), w2(nb * cols);
  gemm(v, nb, true, c, ldc, false, w1.data(), cols, nb, cols, m);                // Vᵀ c
  gemm(t, nb, transpose, w1.data(), cols, false, w2.data(), cols, nb, cols, nb);  // op(T) Vᵀ c
  gemm(v, nb, false, w2.data(), cols, false, c, ldc, m, cols, nb, true);          // c -= V op(T) Vᵀ c
}

// Measured against Eigen's HouseholderQR (+ its q) on one matrix: even at 192², ahead from 256²
// and for tall ones from 1000 × 64; behind for wide ones up to 256 rows (their thin trailing
// GEMMs), ahead at 512 × 4096.
bool householder_qr_suits(int64_t m, int64_t n) {
  if (!packed_gemm_available()) return false;
  return m >= n ? n >= 2 * kQrBlock && m * n >= 64000 : m >= 384;
}

template <class T>
void householder_qr(const T* a, T* q, T* r, int64_t m, int64_t n, bool full) {
  const int64_t k = std::min(m, n), qc = full ? m : k, rr = qc;
  // Scaled by a power of two (exact) where |x|² of a column could overflow or underflow in
  // larfg. r is scaled back; q does not change.
  std::vector<T> w(m * n), tau(k), panel, v, t(kQrBlock * kQrBlock);
  const int exponent = scaled_copy(a, m, n, w.data());

  for (int64_t j0 = 0; j0 < k; j0 += kQrBlock) {
    const int64_t nb = std::min(kQrBlock, k - j0), rows = m - j0;
    // The panel's columns as rows (contiguous), factored by nb reflectors (LAPACK's geqr2).
    panel.resize(nb * rows);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t c = 0; c < nb; ++c) panel[c * rows + i] = w[(j0 + i) * n + j0 + c];
    for (int64_t c = 0; c < nb; ++c) {
      T* x = &panel[c * rows + c];
      const int64_t len = rows - c;
      T beta;
      larfg(x, len, beta, tau[j0 + c]);
      x[0] = 1;
      if (tau[j0 + c] != 0)
        for (int64_t c2 = c + 1; c2 < nb; ++c2) {
          T* y = &panel[c2 * rows + c];
          const T s = tau[j0 + c] * Vec<T>(x, len).dot(Vec<T>(y, len));
          Vec<T>(y, len) -= s * Vec<T>(x, len);
        }
      x[0] = beta;
    }
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t c = 0; c < nb; ++c) w[(j0 + i) * n + j0 + c] = panel[c * rows + i];
    // The columns to the right, up to the k-th, ← Hᵀ them (those of a wide matrix past the
    // k-th take qᵀ at the end: one GEMM rather than a thin one per panel).
    if (j0 + nb < k) {
      gather_reflectors(w.data(), n, j0, rows, j0, nb, v);
      reflector_block_factor(v.data(), rows, nb, &tau[j0], t.data());
      apply_reflector_block(v.data(), t.data(), rows, nb, &w[j0 * n + j0 + nb], n, k - j0 - nb, true);
    }
  }

  for (int64_t i = 0; i < rr; ++i)
    for (int64_t j = 0; j < k; ++j)
      r[i * n + j] = i < k && j >= i ? scale_by_power_of_two(w[i * n + j], -exponent) : T(0);
  if (!q) return;  // r alone (m ≥ n: no columns past the k-th need q)
  // q = H_0 ⋯ H_{k-1} [I; 0], the last block first (LAPACK's orgqr): block j0 changes rows and
  // columns from j0 on only, the columns left of it being zero there still.
  std::fill(q, q + m * qc, T(0));
  for (int64_t i = 0; i < qc; ++i) q[i * qc + i] = 1;
  for (int64_t j0 = (k - 1) / kQrBlock * kQrBlock; j0 >= 0 && k > 0; j0 -= kQrBlock) {
    const int64_t nb = std::min(kQrBlock, k - j0), rows = m - j0;
    gather_reflectors(w.data(), n, j0, rows, j0, nb, v);
    reflector_block_factor(v.data(), rows, nb, &tau[j0], t.data());
    apply_reflector_block(v.data(), t.data(), rows, nb, &q[j0 * qc + j0], qc, qc - j0, false);
  }
  // r's columns past the k-th: qᵀ a's (k = m there, q square); zeros below row k when full.
  if (n > k) {
    gemm(q, qc, true, &w[k], n, false, &r[k], n, k, n - k, m);
    for (int64_t i = 0; i < rr; ++i)
      for (int64_t j = k; j < n; ++j) r[i * n + j] = i < k ? scale_by_power_of_two(r[i * n + j], -exponent) : T(0);
  }
}

#define STRATA_HOUSEHOLDER(T)                                                                                    \
  template void gemm<T>(const T*, int64_t, bool, const T*, int64_t, bool, T*, int64_t, int64_t, int64_t, int64_t, \
                        bool);                                                                                   \
  template void reflector_block_factor<T>(const T*, int64_t, int64_t, const T*, T*);                             \
  template void apply_reflector_block<T>(const T*, const T*, int64_t, int64_t, T*, int64_t, int64_t, bool);      \
  template void householder_qr<T>(const T*, T*, T*, int64_t, int64_t, bool);                                     \
  template void larfg<T>(T*, int64_t, T&, T&);                                                                   \
  template void gather_reflectors<T>(const T*, int64_t, int64_t, int64_t, int64_t, int64_t, std::vector<T>&);
STRATA_HOUSEHOLDER(float)
STRATA_HOUSEHOLDER(double)
#undef STRATA_HOUSEHOLDER
template void gemm<std::complex<float>>(const std::complex<float>*, int64_t, bool, const std::complex<float>*, int64_t,
                                        bool, std::complex<float>*, int64_t, int64_t, int64_t, int64_t, bool);
template void gemm<std::complex<double>>(const std::complex<double>*, int64_t, bool, const std::complex<double>*, int64_t,
                                         bool, std::complex<double>*, int64_t, int64_t, int64_t, int64_t, bool);

}  // namespace strata::kernels
