// bench/bench_indexing.cpp — issue 13's indexing workloads, under jit and eagerly: gather of 1M
// rows from a 100k×128 f32 table (x[ids], i.e. take along axis 0), and the scatter-add of 1M
// such rows back into a table (table.at(ids).add(rows)). JAX's numbers for the same workloads come from
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

// f(args...) each iteration, compiled once (jit) or op by op (eager), waited for.
template <class F, class... A>
void run(benchmark::State& state, bool jit, F f, const A&... args) {
  auto compiled = st::jit(f);
  auto call = [&] { return jit ? compiled(args...) : f(args...); };
  call().block_until_ready();
  for (auto _ : state) call().block_until_ready();
}

auto gather = [](const st::Array& t, const st::Array& i) { return t[i]; };
auto scatter_add = [](const st::Array& t, const st::Array& i, const st::Array& r) { return t.at(i).add(r); };
st::Array rows() { return st::random::normal(st::random::key(3), {kIds, kCols}, st::f32); }

void BM_Gather1MRows_Jit(benchmark::State& state) {
  run(state, true, gather, table(), ids());
  state.SetBytesProcessed(state.iterations() * kIds * kCols * 4 * 2);
}
void BM_Gather1MRows_Eager(benchmark::State& state) {
  run(state, false, gather, table(), ids());
  state.SetBytesProcessed(state.iterations() * kIds * kCols * 4 * 2);
}
void BM_ScatterAdd1MRows_Jit(benchmark::State& state) {
  run(state, true, scatter_add, table(), ids(), rows());
  state.SetBytesProcessed(state.iterations() * kIds * kCols * 4 * 3);
}
void BM_ScatterAdd1MRows_Eager(benchmark::State& state) {
  run(state, false, scatter_add, table(), ids(), rows());
  state.SetBytesProcessed(state.iterations() * kIds * kCols * 4 * 3);
}
BENCHMARK(BM_Gather1MRows_Jit)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Gather1MRows_Eager)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ScatterAdd1MRows_Jit)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ScatterAdd1MRows_Eager)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
