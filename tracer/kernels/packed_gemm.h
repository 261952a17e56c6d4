// tracer/kernels/packed_gemm.h — strata's own f32/f64 GEMM: BLIS's loop nest (operands packed
// into cache-sized panels) around an AVX-512 register-tile micro-kernel. Eigen 3.4's GEMM reaches
// 55-65% of an AVX-512 core's peak on the training step's shapes; this one is the faster path
// where the host has AVX-512 (packed_gemm_available()), Eigen stays the fallback.
#pragma once

#include <cstdint>
#include <functional>

namespace strata::kernels {

// C (M×N, row-major, leading dimension ldc) = op(A) · op(B), or, with `subtract`, C -= op(A) ·
// op(B) (the blocked factorizations' trailing updates; A's values are negated as they are
// packed). A is M×K row-major (lda), or, when a_trans, stored K×M (lda); B is K×N row-major
// (ldb), or, when b_trans, stored N×K. Without `subtract` C is written, never read (beta = 0).
template <class T>
struct GemmOperands {
  const T* a;
  int64_t lda;
  bool a_trans;
  const T* b;
  int64_t ldb;
  bool b_trans;
  T* c;
  int64_t ldc;
  bool subtract = false;

  // Contiguous operands of an M×N×K product (the leading dimensions follow from the layouts).
  static GemmOperands contiguous(const T* a, bool a_trans, const T* b, bool b_trans, T* c, int64_t M, int64_t N,
                                 int64_t K) {
    return {a, a_trans ? M : K, a_trans, b, b_trans ? K : N, b_trans, c, N};
  }
};

// Called on a block [m0, m1) × [n0, n1) of C once its values are final (while in cache).
using GemmBlockFn = std::function<void(int64_t m0, int64_t m1, int64_t n0, int64_t n1)>;

// Whether this build has the micro-kernel (compiled for AVX-512) and STRATA_EIGEN_GEMM is unset.
bool packed_gemm_available();

// Whether packed_gemm is the faster path for an M×N result (measured against Eigen on this
// kind of host): not for a few rows (Eigen's GEMV-like path streams B once, without packing it
// into panels), nor for a narrow C whose A is row-major (packing A then costs as much as the
// product; Eigen's narrow kernel is twice as fast there).
inline bool packed_gemm_suits(int64_t M, int64_t N, bool a_trans) {
  return packed_gemm_available() && M >= 16 && (N > 16 || a_trans);
}

// The whole product; `parallel` splits C's rows or columns across the pool (whichever split
// packs less twice). Each element's sum runs over k in the same order however C is split, so
// the result does not depend on the thread count. `epilogue`, if any, sees every block of C
// exactly once. Requires packed_gemm_available().
template <class T>
void packed_gemm(const GemmOperands<T>& g, int64_t M, int64_t N, int64_t K, bool parallel,
                 const GemmBlockFn* epilogue = nullptr);

}  // namespace strata::kernels
