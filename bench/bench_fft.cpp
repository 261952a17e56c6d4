// bench/bench_fft.cpp — the FFT (c64/f32): one complex transform of 2^20 points, 1024 rows of
// 1024, 4096 rows of 1000 (radices 8 and 5), a prime length 1000003 (Bluestein), a real
// transform of 256 rows of 4096 and its inverse, one of 2^20 reals, and a 2-D 1024×1024
// complex transform, each under jit and eagerly. bench/fft_jax.py times the same in JAX;
// bench/run_fft.sh runs both.
#include <benchmark/benchmark.h>

#include "strata/strata.h"

namespace st = strata;
namespace fft = strata::fft;
using st::Array;

namespace {

template <class F>
void run(benchmark::State& state, bool jit, F f, const Array& x) {
  auto compiled = st::jit(f);
  auto call = [&] { return jit ? compiled(x) : f(x); };
  call().block_until_ready();
  for (auto _ : state) call().block_until_ready();
}

Array signal(st::Shape shape) {
  return st::complex(st::random::normal(st::random::key(1), shape), st::random::normal(st::random::key(2), shape));
}

auto f1 = [](const Array& x) { return fft::fft(x); };
auto rf = [](const Array& x) { return fft::rfft(x); };
auto f2 = [](const Array& x) { return fft::fft2(x); };
auto irf = [](const Array& x) { return fft::irfft(x, 4096); };
Array half_spectrum() { return fft::rfft(st::random::normal(st::random::key(3), {256, 4096})); }

void BM_Fft1M_Jit(benchmark::State& s) { run(s, true, f1, signal({1 << 20})); }
void BM_Fft1M_Eager(benchmark::State& s) { run(s, false, f1, signal({1 << 20})); }
void BM_Fft1024x1024_Jit(benchmark::State& s) { run(s, true, f1, signal({1024, 1024})); }
void BM_Fft1024x1024_Eager(benchmark::State& s) { run(s, false, f1, signal({1024, 1024})); }
void BM_Fft4096x1000_Jit(benchmark::State& s) { run(s, true, f1, signal({4096, 1000})); }
void BM_Fft4096x1000_Eager(benchmark::State& s) { run(s, false, f1, signal({4096, 1000})); }
void BM_FftPrime1000003_Jit(benchmark::State& s) { run(s, true, f1, signal({1000003})); }
void BM_FftPrime1000003_Eager(benchmark::State& s) { run(s, false, f1, signal({1000003})); }
void BM_Rfft256x4096_Jit(benchmark::State& s) { run(s, true, rf, st::random::normal(st::random::key(3), {256, 4096})); }
void BM_Rfft256x4096_Eager(benchmark::State& s) { run(s, false, rf, st::random::normal(st::random::key(3), {256, 4096})); }
void BM_Rfft1M_Jit(benchmark::State& s) { run(s, true, rf, st::random::normal(st::random::key(3), {1 << 20})); }
void BM_Rfft1M_Eager(benchmark::State& s) { run(s, false, rf, st::random::normal(st::random::key(3), {1 << 20})); }
void BM_Irfft256x4096_Jit(benchmark::State& s) { run(s, true, irf, half_spectrum()); }
void BM_Irfft256x4096_Eager(benchmark::State& s) { run(s, false, irf, half_spectrum()); }
void BM_Fft2d1024_Jit(benchmark::State& s) { run(s, true, f2, signal({1024, 1024})); }
void BM_Fft2d1024_Eager(benchmark::State& s) { run(s, false, f2, signal({1024, 1024})); }

}  // namespace

BENCHMARK(BM_Fft1M_Jit)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Fft1M_Eager)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Fft1024x1024_Jit)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Fft1024x1024_Eager)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Fft4096x1000_Jit)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Fft4096x1000_Eager)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FftPrime1000003_Jit)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FftPrime1000003_Eager)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Rfft256x4096_Jit)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Rfft256x4096_Eager)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Rfft1M_Jit)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Rfft1M_Eager)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Irfft256x4096_Jit)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Irfft256x4096_Eager)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Fft2d1024_Jit)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Fft2d1024_Eager)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
