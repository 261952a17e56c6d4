// tracer/kernels/householder.h — blocks of Householder reflections applied as I - V T Vᵀ
// (LAPACK's larft and larfb: two GEMMs in strata's packed GEMM across the pool, where Eigen's
// HouseholderSequence runs one core at about half the GEMM's speed), and the QR factorization
// built on them (LAPACK's geqrf and orgqr). Row-major, real f32/f64; symmetric_eigen.cpp's
// back-transformation uses the same blocks.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace strata::kernels {

// x · 2^e, exact, in two factors so neither overflows where the result does not (e up to
// about twice the exponent range: scaling subnormal inputs up to 1 and back).
template <class T>
T scale_by_power_of_two(T x, int e) {
  using R = decltype(std::abs(x));  // complex x: its real type
  return x * std::ldexp(R(1), e / 2) * std::ldexp(R(1), e - e / 2);
}

// The power of two to scale a matrix whose largest |entry| is `largest` by before a
// factorization that sums squares of its entries: 0 (none) while those squares and their sums
// stay far from overflow and underflow, else -ilogb(largest).
template <class T>
int scaling_exponent(T largest) {
  if (!(largest > 0)) return 0;
  const int e = std::ilogb(largest);
  return e > 50 || e < -50 ? -e : 0;
}

// w (m×n, or n×m holding aᵀ with `transpose`) ← a (m×n, row-major) times the power of two
// scaling_exponent picks for a's largest |entry| (exact); returns that exponent (0: a copy).
template <class T>
int scaled_copy(const T* a, int64_t m, int64_t n, T* w, bool transpose = false) {
  T largest = 0;
  for (int64_t i = 0; i < m * n; ++i) largest = std::max(largest, std::abs(a[i]));
  const int exponent = scaling_exponent(largest);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const T x = exponent != 0 ? scale_by_power_of_two(a[i * n + j], exponent) : a[i * n + j];
      (transpose ? w[j * m + i] : w[i * n + j]) = x;
    }
  return exponent;
}

// Σ a[j]·b[j] in kDotLanes lanes (lane l sums j ≡ l mod 8 up to the last full 8), then
// lane_total's fixed tree plus the tail: the same bits wherever the vectors lie (Eigen's dot of
// a Map peels to an aligned address first, so its rounding follows the heap: jit and eager
// differed in the last bit), and it vectorizes, where a plain sum's fixed order does not.
inline constexpr int kDotLanes = 8;
template <class T>
T lane_total(const T (&acc)[kDotLanes], T tail) {
  return ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail;
}
template <class T>
T lane_dot(const T* a, const T* b, int64_t len) {
  T acc[kDotLanes] = {};
  int64_t j = 0;
#if defined(__GNUC__)
  // The lanes as one vector (the compiler's own vectorization of the loop below shuffled
  // halves of it, at half the speed); the same operations, so the same bits.
  typedef T Lanes __attribute__((vector_size(kDotLanes * sizeof(T))));
  Lanes sum = {};
  for (; j + kDotLanes <= len; j += kDotLanes) {
    Lanes x, y;
    std::memcpy(&x, a + j, sizeof(Lanes));
    std::memcpy(&y, b + j, sizeof(Lanes));
    sum += x * y;
  }
  std::memcpy(acc, &sum, sizeof(Lanes));
#else
  for (; j + kDotLanes <= len; j += kDotLanes)
    for (int l = 0; l < kDotLanes; ++l) acc[l] += a[j + l] * b[j + l];
#endif
  T tail = 0;
  for (; j < len; ++j) tail += a[j] * b[j];
  return lane_total(acc, tail);
}

// out[r] = lane_dot(a + r·lda, x, len) for kDotRows rows at once, each row's sum in lane_dot's
// order (the same bits): one row's chain of FMAs waits on their latency, kDotRows interleaved
// chains keep the FMA units busy (the panel's matrix-vector products ran at a quarter speed).
inline constexpr int kDotRows = 8;
template <class T>
void lane_dots(const T* a, int64_t lda, const T* x, int64_t len, T* out) {
  T acc[kDotRows][kDotLanes] = {};
  int64_t j = 0;
  for (; j + kDotLanes <= len; j += kDotLanes)
    for (int r = 0; r < kDotRows; ++r)
      for (int l = 0; l < kDotLanes; ++l) acc[r][l] += a[r * lda + j + l] * x[j + l];
  for (int r = 0; r < kDotRows; ++r) {
    T tail = 0;
    for (int64_t k = j; k < len; ++k) tail += a[r * lda + k] * x[k];
    out[r] = lane_total(acc[r], tail);
  }
}

// C (M×N, rows ldc apart) = op(A) · op(B), or C -= with `subtract`: A M×K (lda), or stored K×M
// when a_trans; B K×N (ldb), or stored N×K when b_trans. strata's packed GEMM where its tiles
// suit the shape (across the pool), Eigen's otherwise. Also for complex<float/double> (Eigen's).
template <class T>
void gemm(const T* a, int64_t lda, bool a_trans, const T* b, int64_t ldb, bool b_trans, T* c, int64_t ldc, int64_t M,
          int64_t N, int64_t K, bool subtract = false);

// LAPACK's larfg on x[0, len): H = I - tau v vᵀ with H x = (beta, 0, ..., 0), v = (1, x[1:]
// on return). tau = 0 (H = I) when x[1:] is zero. The caller scales x so |x|² cannot overflow.
// |x[1:]|² by lane_dot, so the reflection does not depend on where x lies.
template <class T>
void larfg(T* x, int64_t len, T& beta, T& tau);

// nb reflectors stored below a diagonal of w (row-major, rows ld apart; reflector c's vector
// (1, w[row0 + c + 1][col0 + c], ...) starting at row row0 + c) as the contiguous unit lower
// trapezoidal rows×nb matrix below (its zeros and ones stored).
template <class T>
void gather_reflectors(const T* w, int64_t ld, int64_t row0, int64_t rows, int64_t col0, int64_t nb, std::vector<T>& v);

// v (m×nb, row-major, contiguous): nb reflectors H_i = I - tau[i] v_i v_iᵀ as columns, unit
// lower trapezoidal (v[i][i] = 1 and zeros above it, both read as such whatever is stored).
// t (nb×nb) gets the upper-triangular T with H_0 H_1 ⋯ H_{nb-1} = I - V T Vᵀ (LAPACK's larft,
// forward, columnwise; VᵀV from one GEMM).
template <class T>
void reflector_block_factor(const T* v, int64_t m, int64_t nb, const T* tau, T* t);

// c (m×cols, rows ldc apart) ← (I - V T Vᵀ) c, or (I - V Tᵀ Vᵀ) c (the block's transpose,
// Hᵀ) when `transpose`. v as above, unit lower trapezoidal with its zeros and ones stored.
template <class T>
void apply_reflector_block(const T* v, const T* t, int64_t m, int64_t nb, T* c, int64_t ldc, int64_t cols,
                           bool transpose);

// Whether an m×n QR goes through householder_qr (large enough for the blocks to pay: about
// 250² for square and tall matrices, 384 rows for wide ones; and the packed GEMM built).
bool householder_qr_suits(int64_t m, int64_t n);

// a (m×n, row-major) = q r: q m×qc with orthonormal columns, r qc×n upper triangular (zeros
// below), qc = full ? m : min(m, n). LAPACK's signs (r's diagonal may be negative, as JAX's).
// q may be null when m ≥ n: r alone.
template <class T>
void householder_qr(const T* a, T* q, T* r, int64_t m, int64_t n, bool full);

}  // namespace strata::kernels
