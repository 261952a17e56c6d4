// bench/bench_linalg.cpp — issue 14's linear-algebra benchmarks (f32, jit): Cholesky and solve of
// a 2048×2048 matrix, SVD of 512×512 (u, s, vt reduced), inverse of a batch of 64 128×128
// matrices. bench/linalg_jax.py times the same in JAX; bench/run_linalg.sh runs both.
#include <benchmark/benchmark.h>

#include "strata/strata.h"

namespace st = strata;
namespace la = strata::linalg;
using st::Array;

namespace {

// x xᵀ / n + I: symmetric positive definite.
Array spd(int64_t n) {
  Array x = st::random::normal(st::random::key(1), {n, n});
  return st::matmul(x, st::transpose(x)) / static_cast<float>(n) + st::eye(n);
}

void BM_Cholesky2048_Jit(benchmark::State& state) {
  Array a = spd(2048);
  auto f = st::jit([](const Array& x) { return la::cholesky(x); });
  f(a).block_until_ready();
  for (auto _ : state) f(a).block_until_ready();
}
BENCHMARK(BM_Cholesky2048_Jit)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

void BM_Solve2048_Jit(benchmark::State& state) {
  Array a = spd(2048), b = st::random::normal(st::random::key(2), {2048});
  auto f = st::jit([](const Array& x, const Array& y) { return la::solve(x, y); });
  f(a, b).block_until_ready();
  for (auto _ : state) f(a, b).block_until_ready();
}
BENCHMARK(BM_Solve2048_Jit)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

void BM_Svd512_Jit(benchmark::State& state) {
  Array a = st::random::normal(st::random::key(3), {512, 512});
  auto f = st::jit([](const Array& x) {
    la::SvdResult r = la::svd(x, false);
    return std::vector<Array>{r.u, r.s, r.vt};
  });
  f(a);
  for (auto _ : state) f(a)[1].block_until_ready();
}
BENCHMARK(BM_Svd512_Jit)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

void BM_Inv64x128_Jit(benchmark::State& state) {
  Array a = st::random::normal(st::random::key(4), {64, 128, 128}) + st::eye(128) * 8.0f;
  auto f = st::jit([](const Array& x) { return la::inv(x); });
  f(a).block_until_ready();
  for (auto _ : state) f(a).block_until_ready();
}
BENCHMARK(BM_Inv64x128_Jit)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

}  // namespace

BENCHMARK_MAIN();
