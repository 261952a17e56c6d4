// BLIS's five loops (Van Zee & van de Geijn, "BLIS: A Framework for Rapidly Instantiating BLAS
// Functionality", 2015): for each NC-wide column panel of C, for each KC-deep slice of the
// contraction, B's slice is packed into NR-wide micro-panels (kept in L1 by the micro-kernel);
// for each MC-tall row block, A's slice is packed into MR-tall micro-panels (kept in L2); the
// micro-kernel then multiplies one MR×kc by one kc×NR panel into an MR×NR tile of C held in
// registers. C is row-major, so the tile's vectors run along N and A's values are broadcast.
// Packing zero-pads partial panels; the tile's stores are masked at the edges of C.
#include "packed_gemm.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "env_flag.h"
#include "parallel.h"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace strata::kernels {

#if defined(__AVX512F__)
namespace {

template <class T>
struct Vec;
template <>
struct Vec<float> {
  using V = __m512;
  using Mask = __mmask16;
  static constexpr int kWidth = 16;
  static V zero() { return _mm512_setzero_ps(); }
  static V load(const float* p) { return _mm512_load_ps(p); }
  static V set1(float x) { return _mm512_set1_ps(x); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V add(V a, V b) { return _mm512_add_ps(a, b); }
  static V load_masked(Mask m, const float* p) { return _mm512_maskz_loadu_ps(m, p); }
  static void store_masked(float* p, Mask m, V v) { _mm512_mask_storeu_ps(p, m, v); }
};
template <>
struct Vec<double> {
  using V = __m512d;
  using Mask = __mmask8;
  static constexpr int kWidth = 8;
  static V zero() { return _mm512_setzero_pd(); }
  static V load(const double* p) { return _mm512_load_pd(p); }
  static V set1(double x) { return _mm512_set1_pd(x); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
  static V add(V a, V b) { return _mm512_add_pd(a, b); }
  static V load_masked(Mask m, const double* p) { return _mm512_maskz_loadu_pd(m, p); }
  static void store_masked(double* p, Mask m, V v) { _mm512_mask_storeu_pd(p, m, v); }
};

// Cache blocking (in elements of T): a kc×NR micro-panel of B stays in L1 (48 KiB), the mc×kc
// block of A in L2 (2 MiB), the kc×nc panel of B in L2/L3.
template <class T>
struct Blocking {
  static constexpr int64_t kKc = 1536 / sizeof(T);  // 384 f32, 192 f64
  static constexpr int64_t kMc = 144;
  static constexpr int64_t kNc = 2048;
};

// The MR×(NV·width) tile of C at `c` (mr valid rows, nr valid columns) = (accumulate ? C : 0)
// + a (kc×MR, packed) · b (kc×NR, packed).
template <class T, int MR, int NV>
void micro_kernel(int64_t kc, const T* __restrict a, const T* __restrict b, T* c, int64_t ldc,
                  int mr, int nr, bool accumulate) {
  using X = Vec<T>;
  constexpr int W = X::kWidth, NR = NV * W;
  typename X::V acc[MR][NV];
#pragma GCC unroll 32
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) acc[i][j] = X::zero();
  // The tile's rows of C are ldc apart (4 KiB for N = 1024: one L1 set): ask for them now, so
  // their misses overlap the k loop instead of stalling the final loads and stores.
  for (int i = 0; i < mr; ++i)
    for (int j = 0; j * W < nr; ++j) _mm_prefetch(reinterpret_cast<const char*>(c + i * ldc + j * W), _MM_HINT_T0);
  for (int64_t k = 0; k < kc; ++k) {
    typename X::V bv[NV];
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) bv[j] = X::load(b + k * NR + j * W);
#pragma GCC unroll 32
    for (int i = 0; i < MR; ++i) {
      typename X::V av = X::set1(a[k * MR + i]);
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) acc[i][j] = X::fma(av, bv[j], acc[i][j]);
    }
  }
  using Mask = typename X::Mask;
  Mask masks[NV];
  for (int j = 0; j < NV; ++j) {
    int rem = std::clamp(nr - j * W, 0, W);
    masks[j] = static_cast<Mask>(rem == W ? ~0u : (1u << rem) - 1u);
  }
#pragma GCC unroll 32
  for (int i = 0; i < MR; ++i) {
    if (i >= mr) break;
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      T* p = c + i * ldc + j * W;
      typename X::V v = acc[i][j];
      if (accumulate) v = X::add(X::load_masked(masks[j], p), v);
      X::store_masked(p, masks[j], v);
    }
  }
}

template <class T>
T a_at(const GemmOperands<T>& g, int64_t m, int64_t k) {
  return g.a_trans ? g.a[k * g.lda + m] : g.a[m * g.lda + k];
}

// A[m0 .. m0+mc) × [k0 .. k0+kc) as ceil(mc/MR) panels of kc×MR (row i of a panel at i, k at
// k·MR), rows past M zero.
template <class T, int MR>
void pack_a(const GemmOperands<T>& g, int64_t M, int64_t m0, int64_t mc, int64_t k0, int64_t kc, T* dst) {
  for (int64_t p = 0; p < mc; p += MR, dst += kc * MR) {
    int64_t rows = std::min<int64_t>(MR, std::min(mc - p, M - m0 - p));
    if (g.a_trans) {  // A stored K×M: each k's MR values are contiguous
      for (int64_t k = 0; k < kc; ++k) {
        const T* src = g.a + (k0 + k) * g.lda + m0 + p;
        T* d = dst + k * MR;
        int64_t i = 0;
        if (g.subtract)
          for (; i < rows; ++i) d[i] = -src[i];
        else
          for (; i < rows; ++i) d[i] = src[i];
        for (; i < MR; ++i) d[i] = T(0);
      }
    } else {  // A stored M×K: read each row along k
      for (int64_t i = 0; i < MR; ++i) {
        if (i < rows) {
          const T* src = g.a + (m0 + p + i) * g.lda + k0;
          if (g.subtract)
            for (int64_t k = 0; k < kc; ++k) dst[k * MR + i] = -src[k];
          else
            for (int64_t k = 0; k < kc; ++k) dst[k * MR + i] = src[k];
        } else {
          for (int64_t k = 0; k < kc; ++k) dst[k * MR + i] = T(0);
        }
      }
    }
  }
}

// B[k0 .. k0+kc) × [n0 .. n0+nc) as ceil(nc/NR) panels of kc×NR, columns past N zero.
template <class T, int NR>
void pack_b(const GemmOperands<T>& g, int64_t N, int64_t n0, int64_t nc, int64_t k0, int64_t kc, T* dst) {
  for (int64_t p = 0; p < nc; p += NR, dst += kc * NR) {
    int64_t cols = std::min<int64_t>(NR, std::min(nc - p, N - n0 - p));
    if (!g.b_trans) {  // B stored K×N: each k's NR values are contiguous
      for (int64_t k = 0; k < kc; ++k) {
        const T* src = g.b + (k0 + k) * g.ldb + n0 + p;
        T* d = dst + k * NR;
        std::memcpy(d, src, static_cast<size_t>(cols) * sizeof(T));
        for (int64_t j = cols; j < NR; ++j) d[j] = T(0);
      }
    } else {  // B stored N×K: read each column of B (a row in memory) along k
      for (int64_t j = 0; j < NR; ++j) {
        if (j < cols) {
          const T* src = g.b + (n0 + p + j) * g.ldb + k0;
          for (int64_t k = 0; k < kc; ++k) dst[k * NR + j] = src[k];
        } else {
          for (int64_t k = 0; k < kc; ++k) dst[k * NR + j] = T(0);
        }
      }
    }
  }
}

// A 64-byte aligned scratch buffer per thread and use, grown on demand.
template <class T>
T* scratch(int slot, int64_t elements) {
  struct Buffer {
    std::unique_ptr<T, decltype(&std::free)> data{nullptr, &std::free};
    int64_t size = 0;
  };
  thread_local Buffer buffers[2];
  Buffer& b = buffers[slot];
  if (b.size < elements) {
    size_t bytes = (static_cast<size_t>(elements) * sizeof(T) + 63) / 64 * 64;
    b.data.reset(static_cast<T*>(std::aligned_alloc(64, bytes)));
    if (!b.data) throw std::bad_alloc();
    b.size = elements;
  }
  return b.data.get();
}

// K in equal slices of at most kKc (784 = 3 × 262, not 384 + 384 + 16: a thin last slice
// reloads the C tiles for a few k steps). Depends on K alone, not on the thread split.
template <class T>
int64_t k_step(int64_t K) {
  const int64_t slices = (K + Blocking<T>::kKc - 1) / Blocking<T>::kKc;
  return (K + slices - 1) / slices;
}

// C's block [m0, m1) × [n0, n1) on the calling thread, with an MR × NV-vector tile.
template <class T, int MR, int NV>
void gemm_block(const GemmOperands<T>& g, int64_t M, int64_t N, int64_t K, int64_t m0, int64_t m1,
                int64_t n0, int64_t n1, const GemmBlockFn* epilogue) {
  constexpr int64_t NR = NV * Vec<T>::kWidth;
  using B = Blocking<T>;
  constexpr int64_t kMc = (B::kMc + MR - 1) / MR * MR;
  if (m1 <= m0 || n1 <= n0) return;
  if (K == 0) {
    if (!g.subtract)
      for (int64_t m = m0; m < m1; ++m) std::fill(g.c + m * g.ldc + n0, g.c + m * g.ldc + n1, T(0));
    if (epilogue) (*epilogue)(m0, m1, n0, n1);
    return;
  }
  int64_t nc_max = std::min(B::kNc, (n1 - n0 + NR - 1) / NR * NR);
  const int64_t kstep = k_step<T>(K), kc_max = kstep;
  int64_t mc_max = std::min(kMc, (m1 - m0 + MR - 1) / MR * MR);
  T* bpack = scratch<T>(0, kc_max * nc_max);
  T* apack = scratch<T>(1, kc_max * mc_max);
  for (int64_t jc = n0; jc < n1; jc += B::kNc) {
    int64_t nc = std::min(B::kNc, n1 - jc);
    for (int64_t pc = 0; pc < K; pc += kstep) {
      int64_t kc = std::min(kstep, K - pc);
      bool last = pc + kc == K;
      pack_b<T, NR>(g, N, jc, nc, pc, kc, bpack);
      for (int64_t ic = m0; ic < m1; ic += kMc) {
        int64_t mc = std::min(kMc, m1 - ic);
        pack_a<T, MR>(g, M, ic, mc, pc, kc, apack);
        for (int64_t jr = 0; jr < nc; jr += NR)
          for (int64_t ir = 0; ir < mc; ir += MR)
            micro_kernel<T, MR, NV>(kc, apack + ir * kc, bpack + jr * kc, g.c + (ic + ir) * g.ldc + jc + jr,
                                    g.ldc, static_cast<int>(std::min<int64_t>(MR, mc - ir)),
                                    static_cast<int>(std::min<int64_t>(NR, nc - jr)), pc > 0 || g.subtract);
        if (last && epilogue) (*epilogue)(ic, ic + mc, jc, jc + nc);
      }
    }
  }
}

template <class T, int MR, int NV>
void gemm_tiled(const GemmOperands<T>& g, int64_t M, int64_t N, int64_t K, bool parallel,
                const GemmBlockFn* epilogue) {
  constexpr int64_t NR = NV * Vec<T>::kWidth;
  bool threads = parallel && num_threads() > 1 && 2.0 * M * N * K >= double(1 << 18);
  if (!threads) return gemm_block<T, MR, NV>(g, M, N, K, 0, M, 0, N, epilogue);
  // Split the side whose other operand is the smaller to pack twice: columns (each thread
  // packs all of A and its share of B) when A is the smaller, rows otherwise.
  if (M < N) {
    int64_t units = (N + NR - 1) / NR;
    parallel_for(units, 1, [&](int64_t lo, int64_t hi) {
      gemm_block<T, MR, NV>(g, M, N, K, 0, M, lo * NR, std::min(N, hi * NR), epilogue);
    });
  } else {
    int64_t units = (M + MR - 1) / MR;
    parallel_for(units, 1, [&](int64_t lo, int64_t hi) {
      gemm_block<T, MR, NV>(g, M, N, K, lo * MR, std::min(M, hi * MR), 0, N, epilogue);
    });
  }
}

}  // namespace

// STRATA_EIGEN_GEMM=1 keeps Eigen's GEMM everywhere, for side-by-side comparisons.
bool packed_gemm_available() {
  static const bool eigen = env_flag("STRATA_EIGEN_GEMM");
  return !eigen;
}

template <class T>
void packed_gemm(const GemmOperands<T>& g, int64_t M, int64_t N, int64_t K, bool parallel,
                 const GemmBlockFn* epilogue) {
  // 24 sums in registers whatever the tile. A wide C gets 6 rows × 4 vectors: per k, 4 loads of
  // B and 6 broadcasts of A feed 24 FMAs, where 12 × 2 needs 12 broadcasts (6 × 4 measured
  // 7-17% faster single-threaded on this Zen 4 host). A C of one or two vectors' width gets a
  // taller tile, so that its columns still fill the tile.
  constexpr int64_t W = Vec<T>::kWidth;
  if (N <= W) gemm_tiled<T, 24, 1>(g, M, N, K, parallel, epilogue);
  else if (N <= 2 * W) gemm_tiled<T, 12, 2>(g, M, N, K, parallel, epilogue);
  else gemm_tiled<T, 6, 4>(g, M, N, K, parallel, epilogue);
}

#else  // no AVX-512: Eigen's GEMM is used instead

bool packed_gemm_available() { return false; }

template <class T>
void packed_gemm(const GemmOperands<T>&, int64_t, int64_t, int64_t, bool, const GemmBlockFn*) {
  std::abort();  // callers check packed_gemm_available()
}

#endif

template void packed_gemm<float>(const GemmOperands<float>&, int64_t, int64_t, int64_t, bool, const GemmBlockFn*);
template void packed_gemm<double>(const GemmOperands<double>&, int64_t, int64_t, int64_t, bool, const GemmBlockFn*);

}  // namespace strata::kernels
