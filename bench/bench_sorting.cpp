// bench/bench_sorting.cpp — issue 13's sorting-group benchmarks: cumsum and sort of 16M f32,
// jit and eager, argsort of 16M f32 and sort along the rows of a 4096x4096 matrix
// and the set operations unique_counts, isin (1M labels), setdiff1d (100k)
// (bench/sorting_jax.py times the same in JAX: run `bench/run.sh bench_sorting` and
// `/work/venv-jax/bin/python bench/sorting_jax.py` one after the other).
#include <benchmark/benchmark.h>

#include "strata/strata.h"

namespace st = strata;
using st::Array;

namespace {

constexpr int64_t kN = int64_t{1} << 24;

Array data() { return st::random::uniform(st::random::key(1), {kN}); }

void BM_Cumsum16M_Jit(benchmark::State& state) {
  Array x = data();
  auto f = st::jit([](const Array& a) { return st::cumsum(a); });
  f(x).block_until_ready();
  for (auto _ : state) f(x).block_until_ready();
  state.SetBytesProcessed(state.iterations() * kN * 8);
}
BENCHMARK(BM_Cumsum16M_Jit)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

void BM_Cumsum16M_Eager(benchmark::State& state) {
  Array x = data();
  for (auto _ : state) st::cumsum(x).block_until_ready();
  state.SetBytesProcessed(state.iterations() * kN * 8);
}
BENCHMARK(BM_Cumsum16M_Eager)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

// A 2-d case: cumsum along the rows of a 4096×4096 matrix (the loop runs along contiguous rows).
void BM_Cumsum4096x4096Axis0_Jit(benchmark::State& state) {
  Array x = st::random::uniform(st::random::key(2), {4096, 4096});
  auto f = st::jit([](const Array& a) { return st::cumsum(a, 0); });
  f(x).block_until_ready();
  for (auto _ : state) f(x).block_until_ready();
}
BENCHMARK(BM_Cumsum4096x4096Axis0_Jit)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

// Sort (issue 13): the runtime's radix sort of (key, value) pairs for one operand.
void BM_Sort16M_Jit(benchmark::State& state) {
  Array x = data();
  auto f = st::jit([](const Array& a) { return st::sort(a); });
  f(x).block_until_ready();
  for (auto _ : state) f(x).block_until_ready();
  state.SetItemsProcessed(state.iterations() * kN);
}
BENCHMARK(BM_Sort16M_Jit)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

void BM_Sort16M_Eager(benchmark::State& state) {
  Array x = data();
  for (auto _ : state) st::sort(x).block_until_ready();
  state.SetItemsProcessed(state.iterations() * kN);
}
BENCHMARK(BM_Sort16M_Eager)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

// Two operands (the values and an i32 iota): (key, index) pairs, then a permutation.
void BM_Argsort16M_Jit(benchmark::State& state) {
  Array x = data();
  auto f = st::jit([](const Array& a) { return st::argsort(a); });
  f(x).block_until_ready();
  for (auto _ : state) f(x).block_until_ready();
  state.SetItemsProcessed(state.iterations() * kN);
}
BENCHMARK(BM_Argsort16M_Jit)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

// 4096 lines of 4096, split across the thread pool.
void BM_Sort4096x4096Rows_Jit(benchmark::State& state) {
  Array x = st::random::uniform(st::random::key(2), {4096, 4096});
  auto f = st::jit([](const Array& a) { return st::sort(a, 1); });
  f(x).block_until_ready();
  for (auto _ : state) f(x).block_until_ready();
}
BENCHMARK(BM_Sort4096x4096Rows_Jit)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

// Set operations (strata/set_ops.h) on 1M i32 labels in [0, 100000): unique with its counts
// (size = 100000, traceable), isin against 100k test values (the sorted binary-search path),
// setdiff1d of 100k labels minus 10k (size = 100000).
constexpr int64_t kLabels = int64_t{1} << 20;
Array labels(int seed, int64_t n) { return st::random::randint(st::random::key(seed), {n}, Array(0), Array(100000)); }

void BM_UniqueCounts1M_Jit(benchmark::State& state) {
  Array x = labels(3, kLabels);
  auto f = st::jit([](const Array& a) { return st::unique_counts(a, 100000, Array(-1)); });
  f(x).first.block_until_ready();
  for (auto _ : state) f(x).second.block_until_ready();
  state.SetItemsProcessed(state.iterations() * kLabels);
}
BENCHMARK(BM_UniqueCounts1M_Jit)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

void BM_Isin1Mx100k_Jit(benchmark::State& state) {
  Array x = labels(4, kLabels), t = labels(5, 100000);
  auto f = st::jit([](const Array& a, const Array& b) { return st::isin(a, b); });
  f(x, t).block_until_ready();
  for (auto _ : state) f(x, t).block_until_ready();
  state.SetItemsProcessed(state.iterations() * kLabels);
}
BENCHMARK(BM_Isin1Mx100k_Jit)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

// 100k labels minus 10k (JAX's setdiff1d compares all pairs: 1e9 of them here).
void BM_Setdiff100kx10k_Jit(benchmark::State& state) {
  Array x = labels(6, 100000), t = labels(7, 10000);
  auto f = st::jit([](const Array& a, const Array& b) { return st::setdiff1d(a, b, false, 100000); });
  f(x, t).block_until_ready();
  for (auto _ : state) f(x, t).block_until_ready();
  state.SetItemsProcessed(state.iterations() * 100000);
}
BENCHMARK(BM_Setdiff100kx10k_Jit)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
