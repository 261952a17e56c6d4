// tracer/kernels/fft.h — the fast Fourier transforms of jax.lax.fft on contiguous row-major
// buffers. Shared by the eager kernel (tracer/primitives/fft.cpp) and the compiled code's
// runtime (backends/cpu, strata_rt_fft), so both give the same bits.
//
// Any length: a self-sorting (Stockham) mixed-radix transform with radix-4, 2, 3 and 5 butterflies
// and a plain DFT butterfly for other primes up to 23; lengths with a larger prime factor go
// through Bluestein's chirp-z transform (three power-of-two transforms). Twiddles are computed in
// double. Real transforms of even length pack the n reals into n/2 complex numbers (half the
// work). Blocks of lines are transformed side by side with their real and imaginary parts
// apart (the butterflies vectorize across lines); lines and batches split across the thread pool.
#pragma once

#include <cstdint>

#include "fft_rules.h"

namespace strata::kernels {

struct FftCall {
  fft_rules::Type type;
  bool f64 = false;             // c128 (f64 for the real side), else c64 (f32)
  int64_t batch = 1;            // the product of the dimensions before the transformed ones
  shape_rules::IntList lengths;  // fft_lengths: 1 to 3
};

// Fills `out` (the shape of fft_rules::shape) from `in`. Never throws on any values.
void fft(const FftCall& call, const void* in, void* out);

}  // namespace strata::kernels
