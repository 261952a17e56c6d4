// tracer/kernels/fft_row_tiles.h — the FFT's block gather and scatter for a full block of rows
// (kBlock lines: 16 rows of complex floats, 8 of complex doubles) with AVX-512: a tile of each
// row loaded, split into real and imaginary parts, and the 16 × 16 (8 × 8) tile transposed in
// registers, so that the block (element j of line b at j·lines + b) is written and read in
// whole vectors. The scalar loops store one element per line at a 64-byte stride, about half of
// a batched transform's time. Without AVX-512 these do nothing (return 0) and the caller's
// scalar loops do every column.
#pragma once

#include <cstdint>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace strata::kernels::fft_row_tiles {

#if defined(__AVX512F__)
// r[i] becomes column i of the 16 × 16 matrix whose rows were r[0..15].
inline void transpose16(__m512 r[16]) {
  __m512 t[16];
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  for (int i = 0; i < 4; ++i) {
    __m512d a = _mm512_castps_pd(t[4 * i]), b = _mm512_castps_pd(t[4 * i + 1]);
    __m512d c = _mm512_castps_pd(t[4 * i + 2]), d = _mm512_castps_pd(t[4 * i + 3]);
    r[4 * i] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, c));
    r[4 * i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, c));
    r[4 * i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(b, d));
    r[4 * i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(b, d));
  }
  // 128-bit lane L of r[4i + k] now holds column 4L + k of rows 4i..4i+3.
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) {
      t[8 * i + k] = _mm512_shuffle_f32x4(r[8 * i + k], r[8 * i + 4 + k], 0x88);
      t[8 * i + 4 + k] = _mm512_shuffle_f32x4(r[8 * i + k], r[8 * i + 4 + k], 0xdd);
    }
  for (int k = 0; k < 8; ++k) {
    r[k] = _mm512_shuffle_f32x4(t[k], t[8 + k], 0x88);
    r[8 + k] = _mm512_shuffle_f32x4(t[k], t[8 + k], 0xdd);
  }
}
#endif

// Rows b < 16 of n complex floats at rows + 2·b·n into re/im[j·16 + b], for j in whole tiles
// of 16; returns the first j not written.
inline int64_t gather(const float* rows, int64_t n, float* re, float* im) {
#if defined(__AVX512F__)
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  int64_t j0 = 0;
  for (; j0 + 16 <= n; j0 += 16) {
    __m512 r[16], i[16];
    for (int b = 0; b < 16; ++b) {
      const float* at = rows + 2 * (b * n + j0);
      __m512 lo = _mm512_loadu_ps(at), hi = _mm512_loadu_ps(at + 16);
      r[b] = _mm512_permutex2var_ps(lo, even, hi);
      i[b] = _mm512_permutex2var_ps(lo, odd, hi);
    }
    transpose16(r);
    transpose16(i);
    for (int t = 0; t < 16; ++t) {
      _mm512_storeu_ps(re + (j0 + t) * 16, r[t]);
      _mm512_storeu_ps(im + (j0 + t) * 16, i[t]);
    }
  }
  return j0;
#else
  (void)rows, (void)n, (void)re, (void)im;
  return 0;
#endif
}

// The inverse, each element times `scale`: re/im[j·16 + b] to row b, whole tiles of 16;
// returns the first j not written.
inline int64_t scatter(float* rows, int64_t n, const float* re, const float* im, float scale) {
#if defined(__AVX512F__)
  const __m512i lo_idx = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const __m512i hi_idx = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const __m512 s = _mm512_set1_ps(scale);
  int64_t j0 = 0;
  for (; j0 + 16 <= n; j0 += 16) {
    __m512 r[16], i[16];
    for (int t = 0; t < 16; ++t) {
      r[t] = _mm512_mul_ps(_mm512_loadu_ps(re + (j0 + t) * 16), s);
      i[t] = _mm512_mul_ps(_mm512_loadu_ps(im + (j0 + t) * 16), s);
    }
    transpose16(r);
    transpose16(i);
    for (int b = 0; b < 16; ++b) {
      float* at = rows + 2 * (b * n + j0);
      _mm512_storeu_ps(at, _mm512_permutex2var_ps(r[b], lo_idx, i[b]));
      _mm512_storeu_ps(at + 16, _mm512_permutex2var_ps(r[b], hi_idx, i[b]));
    }
  }
  return j0;
#else
  (void)rows, (void)n, (void)re, (void)im, (void)scale;
  return 0;
#endif
}

#if defined(__AVX512F__)
// r[i] becomes column i of the 8 × 8 matrix whose rows were r[0..7].
inline void transpose8(__m512d r[8]) {
  __m512d t[8], v[8];
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = _mm512_unpacklo_pd(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_pd(r[2 * i], r[2 * i + 1]);
  }
  // 128-bit lane L of t[2i] (t[2i + 1]) holds column 2L (2L + 1) of rows 2i, 2i + 1.
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 2; ++k) {
      v[4 * i + k] = _mm512_shuffle_f64x2(t[4 * i + k], t[4 * i + 2 + k], 0x88);
      v[4 * i + 2 + k] = _mm512_shuffle_f64x2(t[4 * i + k], t[4 * i + 2 + k], 0xdd);
    }
  for (int k = 0; k < 2; ++k) {
    r[k] = _mm512_shuffle_f64x2(v[k], v[4 + k], 0x88);
    r[4 + k] = _mm512_shuffle_f64x2(v[k], v[4 + k], 0xdd);
    r[2 + k] = _mm512_shuffle_f64x2(v[2 + k], v[6 + k], 0x88);
    r[6 + k] = _mm512_shuffle_f64x2(v[2 + k], v[6 + k], 0xdd);
  }
}
#endif

// Rows b < 8 of n complex doubles into re/im[j·8 + b], whole tiles of 8; returns the first j
// not written.
inline int64_t gather(const double* rows, int64_t n, double* re, double* im) {
#if defined(__AVX512F__)
  const __m512i even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), odd = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
  int64_t j0 = 0;
  for (; j0 + 8 <= n; j0 += 8) {
    __m512d r[8], i[8];
    for (int b = 0; b < 8; ++b) {
      const double* at = rows + 2 * (b * n + j0);
      __m512d lo = _mm512_loadu_pd(at), hi = _mm512_loadu_pd(at + 8);
      r[b] = _mm512_permutex2var_pd(lo, even, hi);
      i[b] = _mm512_permutex2var_pd(lo, odd, hi);
    }
    transpose8(r);
    transpose8(i);
    for (int t = 0; t < 8; ++t) {
      _mm512_storeu_pd(re + (j0 + t) * 8, r[t]);
      _mm512_storeu_pd(im + (j0 + t) * 8, i[t]);
    }
  }
  return j0;
#else
  (void)rows, (void)n, (void)re, (void)im;
  return 0;
#endif
}

// The inverse for 8 rows of complex doubles, each element times `scale`.
inline int64_t scatter(double* rows, int64_t n, const double* re, const double* im, double scale) {
#if defined(__AVX512F__)
  const __m512i lo_idx = _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11), hi_idx = _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15);
  const __m512d s = _mm512_set1_pd(scale);
  int64_t j0 = 0;
  for (; j0 + 8 <= n; j0 += 8) {
    __m512d r[8], i[8];
    for (int t = 0; t < 8; ++t) {
      r[t] = _mm512_mul_pd(_mm512_loadu_pd(re + (j0 + t) * 8), s);
      i[t] = _mm512_mul_pd(_mm512_loadu_pd(im + (j0 + t) * 8), s);
    }
    transpose8(r);
    transpose8(i);
    for (int b = 0; b < 8; ++b) {
      double* at = rows + 2 * (b * n + j0);
      _mm512_storeu_pd(at, _mm512_permutex2var_pd(r[b], lo_idx, i[b]));
      _mm512_storeu_pd(at + 8, _mm512_permutex2var_pd(r[b], hi_idx, i[b]));
    }
  }
  return j0;
#else
  (void)rows, (void)n, (void)re, (void)im, (void)scale;
  return 0;
#endif
}

}  // namespace strata::kernels::fft_row_tiles
