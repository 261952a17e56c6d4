// bench/bench_indexing.cpp — issue 13's indexing workloads under jit: gather of 1M rows from a
// 100k×128 f32 table (x[ids], i.e. take along axis 0), and the scatter-add of 1M such rows back
// into a table (table.at(ids).add(rows)). JAX's numbers for the same workloads come from
// bench/indexing_jax.py; run both with bench/run_indexing.sh.
#include <benchmark/benchmark.h>

#include "strata/strata.h"

namespace st = strata;

namespace {

constexpr int64_t kRows = 100000, kCols = 128, kIds = 1000000;

st::Array table() { return st::random::normal(st::random::key(1), {kRows, kCols}, st::f32); }
st::Array ids() {
  return st::astype(st::floor(st::random::uniform(st::random::key(2), {kIds}, st::f32, 0.0, static_cast<double>(kRows))), st::i32);
}

void BM_Gather1MRows(benchmark::State& state) {
  st::Array t = table(), i = ids();
  auto f = st::jit([](const st::Array& t, const st::Array& i) { return t[i]; });
  f(t, i).block_until_ready();
  for (auto _ : state) f(t, i).block_until_ready();
  state.SetBytesProcessed(state.iterations() * kIds * kCols * 4 * 2);
}
BENCHMARK(BM_Gather1MRows)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ScatterAdd1MRows(benchmark::State& state) {
  st::Array t = table(), i = ids();
  st::Array rows = st::random::normal(st::random::key(3), {kIds, kCols}, st::f32);
  auto f = st::jit([](const st::Array& t, const st::Array& i, const st::Array& r) { return t.at(i).add(r); });
  f(t, i, rows).block_until_ready();
  for (auto _ : state) f(t, i, rows).block_until_ready();
  state.SetBytesProcessed(state.iterations() * kIds * kCols * 4 * 3);
}
BENCHMARK(BM_ScatterAdd1MRows)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
