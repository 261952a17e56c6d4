// bench/bench_cpu.cpp — the CPU backend's benchmarks, side by side in one run:
// jit vs eager vs hand-written Eigen, dispatch overhead, bandwidth against STREAM triad,
// first-call latency. Run through bench/run.sh, which reports medians and ratios.
#include <benchmark/benchmark.h>

#define EIGEN_USE_THREADS
#include <Eigen/Core>
#include <unsupported/Eigen/CXX11/Tensor>

#include <thread>

#include "programs.h"
#include "strata/strata.h"

namespace st = strata;
using st::Array;
using bench::chain8;
using bench::kChainN;
using bench::rnd;
using bench::seed_line;

namespace {

// ---- Dispatch overhead: a jitted function on a 4-element array, vs its executable's entry
// (Compiled::execute_raw: the compiled code on raw buffers, below every check of the API) ----
void BM_Dispatch_Jit(benchmark::State& state) {
  auto f = st::jit([](const Array& x) { return x * 2.0f + 1.0f; });
  Array x = st::ones({4});
  f(x);
  for (auto _ : state) benchmark::DoNotOptimize(f(x));
}
BENCHMARK(BM_Dispatch_Jit);

void BM_Dispatch_Entry(benchmark::State& state) {
  Array x = st::ones({4});
  auto compiled = st::jit([](const Array& v) { return v * 2.0f + 1.0f; }).lower(x).compile();
  Array out = st::zeros({4});
  const void* in[] = {x.data()};
  void* o[] = {const_cast<void*>(out.data())};
  for (auto _ : state) {
    compiled.execute_raw(in, o);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_Dispatch_Entry);

// ---- The seed line: jit vs eager vs hand-written Eigen (2 threads, Tensor contraction) ----
void seed_args(benchmark::internal::Benchmark* b) {
  b->Args({4096, 4096, 4096})->Args({8, 4096, 4096})->Unit(benchmark::kMillisecond)->UseRealTime();
}

void BM_Seed_Eager(benchmark::State& state) {
  Array x = rnd({state.range(0), state.range(2)}, 1), w = rnd({state.range(2), state.range(1)}, 2), b = rnd({state.range(1)}, 3);
  for (auto _ : state) benchmark::DoNotOptimize(seed_line(x, w, b));
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * state.range(0) * state.range(1) * state.range(2), benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_Seed_Eager)->Apply(seed_args);

void BM_Seed_Jit(benchmark::State& state) {
  Array x = rnd({state.range(0), state.range(2)}, 1), w = rnd({state.range(2), state.range(1)}, 2), b = rnd({state.range(1)}, 3);
  auto f = st::jit(seed_line);
  f(x, w, b);
  for (auto _ : state) benchmark::DoNotOptimize(f(x, w, b));
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * state.range(0) * state.range(1) * state.range(2), benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_Seed_Jit)->Apply(seed_args);

void BM_Seed_Eigen(benchmark::State& state) {
  const Eigen::Index M = state.range(0), N = state.range(1), K = state.range(2);
  Array x = rnd({M, K}, 1), w = rnd({K, N}, 2), b = rnd({N}, 3);
  using T2 = Eigen::TensorMap<Eigen::Tensor<const float, 2, Eigen::RowMajor>>;
  T2 X(static_cast<const float*>(x.data()), M, K), W(static_cast<const float*>(w.data()), K, N);
  Eigen::TensorMap<Eigen::Tensor<const float, 1, Eigen::RowMajor>> B(static_cast<const float*>(b.data()), N);
  Eigen::Tensor<float, 2, Eigen::RowMajor> Y(M, N);
  Eigen::ThreadPool pool(static_cast<int>(std::thread::hardware_concurrency()));
  Eigen::ThreadPoolDevice dev(&pool, static_cast<int>(std::thread::hardware_concurrency()));
  Eigen::array<Eigen::IndexPair<int>, 1> dims = {Eigen::IndexPair<int>(1, 0)};
  Eigen::array<Eigen::Index, 2> bshape{1, N}, bcast{M, 1};
  for (auto _ : state) {
    Y.device(dev) = X.contract(W, dims);
    Y.device(dev) = (Y + B.reshape(bshape).broadcast(bcast)).cwiseMax(0.0f);
    benchmark::ClobberMemory();
  }
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * M * N * K, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_Seed_Eigen)->Apply(seed_args);

// ---- A chain of 8 elementwise ops on 16M floats, against the machine's STREAM triad ----
void chain_bytes(benchmark::State& state, double arrays_touched) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kChainN * 4 * arrays_touched));
}
void BM_Chain8_Eager(benchmark::State& state) {
  Array x = rnd({kChainN}, 1), y = rnd({kChainN}, 2);
  for (auto _ : state) benchmark::DoNotOptimize(chain8(x, y));
  chain_bytes(state, 3);  // the minimum traffic: read x, y, write the result
}
BENCHMARK(BM_Chain8_Eager)->Unit(benchmark::kMillisecond)->UseRealTime();
void BM_Chain8_Jit(benchmark::State& state) {
  Array x = rnd({kChainN}, 1), y = rnd({kChainN}, 2);
  auto f = st::jit(chain8);
  f(x, y);
  for (auto _ : state) benchmark::DoNotOptimize(f(x, y));
  chain_bytes(state, 3);
}
BENCHMARK(BM_Chain8_Jit)->Unit(benchmark::kMillisecond)->UseRealTime();
// The same chain in f32, bf16 and the 8-bit floats (the argument: an index into kChainTypes;
// inputs converted once, outside the timing). Narrow types compute in f32 and round on store,
// so each op of eager mode converts twice; the jit converts once per fused loop.
// bench/float8_jax.py times JAX's jit of the chain in the same types.
constexpr st::DType kChainTypes[] = {st::f32, st::bf16, st::f8_e4m3fn, st::f8_e5m2};
// Times fn(x, y) eagerly or its jit (compiled before timing), labelled with the dtype; bytes:
// two operands read and one result written.
void time_typed_chain(benchmark::State& state, Array (*fn)(const Array&, const Array&), const Array& x, const Array& y,
                      bool jit) {
  auto f = st::jit(fn);
  if (jit) f(x, y);
  for (auto _ : state) benchmark::DoNotOptimize(jit ? f(x, y) : fn(x, y));
  state.SetLabel(std::string(st::short_name(x.dtype())));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * x.size() * st::itemsize(x.dtype()) * 3));
}
void chain_typed(benchmark::State& state, bool jit) {
  st::DType t = kChainTypes[state.range(0)];
  time_typed_chain(state, chain8, st::astype(rnd({kChainN}, 1), t), st::astype(rnd({kChainN}, 2), t), jit);
}
void BM_Chain8Typed_Eager(benchmark::State& state) { chain_typed(state, false); }
void BM_Chain8Typed_Jit(benchmark::State& state) { chain_typed(state, true); }
BENCHMARK(BM_Chain8Typed_Eager)->DenseRange(0, 3)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Chain8Typed_Jit)->DenseRange(0, 3)->Unit(benchmark::kMillisecond)->UseRealTime();

// An integer chain of 7 ops on 16M elements in i32, i8 and the 4-bit integers (wrapping
// arithmetic, xor, max, a logical shift). Eager mode computes i4/u4 in 8 bits and wraps on
// store; compiled code computes them as LLVM's i4, stored a byte each.
// bench/subbyte_jax.py times JAX's jit of the same chain.
constexpr st::DType kIntChainTypes[] = {st::i32, st::i8, st::i4, st::u4};
Array int_chain(const Array& x, const Array& y) {
  Array a = x * y + x;
  Array b = a ^ y;
  Array c = st::maximum(b, x) - y;
  return st::shift_right_logical(c, st::full({}, 1, x.dtype())) + 3;
}
void int_chain_typed(benchmark::State& state, bool jit) {
  st::DType t = kIntChainTypes[state.range(0)];
  Array x = st::random::randint(st::random::key(1), {kChainN}, -8, 8, t);
  Array y = st::random::randint(st::random::key(2), {kChainN}, -8, 8, t);
  time_typed_chain(state, int_chain, x, y, jit);
}
void BM_IntChainTyped_Eager(benchmark::State& state) { int_chain_typed(state, false); }
void BM_IntChainTyped_Jit(benchmark::State& state) { int_chain_typed(state, true); }
BENCHMARK(BM_IntChainTyped_Eager)->DenseRange(0, 3)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_IntChainTyped_Jit)->DenseRange(0, 3)->Unit(benchmark::kMillisecond)->UseRealTime();

// A 1024³ matmul in the same types (the runtime GEMM: narrow operands widened to f32).
void BM_MatmulTyped_Jit(benchmark::State& state) {
  st::DType t = kChainTypes[state.range(0)];
  Array a = st::astype(rnd({1024, 1024}, 3), t), b = st::astype(rnd({1024, 1024}, 4), t);
  auto f = st::jit([](const Array& p, const Array& q) { return st::matmul(p, q); });
  f(a, b);
  for (auto _ : state) benchmark::DoNotOptimize(f(a, b));
  state.SetLabel(std::string(st::short_name(t)));
}
BENCHMARK(BM_MatmulTyped_Jit)->DenseRange(0, 3)->Unit(benchmark::kMillisecond)->UseRealTime();

// STREAM triad a = b + s*c on the same size, on every thread of the pool (as the jit's loops use).
void BM_StreamTriad(benchmark::State& state) {
  std::vector<float> a(kChainN), b(kChainN, 1.0f), c(kChainN, 2.0f);
  int threads = static_cast<int>(std::thread::hardware_concurrency());
  for (auto _ : state) {
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t)
      ts.emplace_back([&, t] {
        int64_t lo = kChainN * t / threads, hi = kChainN * (t + 1) / threads;
        for (int64_t i = lo; i < hi; ++i) a[i] = b[i] + 3.0f * c[i];
      });
    for (auto& t : ts) t.join();
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kChainN * 4 * 3));
}
BENCHMARK(BM_StreamTriad)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- Softmax over rows of 4096 x 4096 ----
void BM_Softmax_Eager(benchmark::State& state) {
  Array x = rnd({4096, 4096}, 1);
  for (auto _ : state) benchmark::DoNotOptimize(st::softmax(x));
}
BENCHMARK(BM_Softmax_Eager)->Unit(benchmark::kMillisecond)->UseRealTime();
void BM_Softmax_Jit(benchmark::State& state) {
  Array x = rnd({4096, 4096}, 1);
  auto f = st::jit([](const Array& v) { return st::softmax(v); });
  f(x);
  for (auto _ : state) benchmark::DoNotOptimize(f(x));
}
BENCHMARK(BM_Softmax_Jit)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- Row sums: 3 long rows (each splits into chunks across the pool: SplitRowReductions)
// and 64 rows (parallel as they are) of the same 48 MiB ----
void row_args(benchmark::internal::Benchmark* b) {
  b->Args({3, 4194304})->Args({64, 196608})->Unit(benchmark::kMillisecond)->UseRealTime();
}
void row_bytes(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * state.range(0) * state.range(1) * 4));
}
void BM_RowSum_Eager(benchmark::State& state) {
  Array x = rnd({state.range(0), state.range(1)}, 1);
  for (auto _ : state) benchmark::DoNotOptimize(st::sum(x, 1));
  row_bytes(state);
}
BENCHMARK(BM_RowSum_Eager)->Apply(row_args);
void BM_RowSum_Jit(benchmark::State& state) {
  Array x = rnd({state.range(0), state.range(1)}, 1);
  auto f = st::jit([](const Array& v) { return st::sum(v, 1); });
  f(x);
  for (auto _ : state) benchmark::DoNotOptimize(f(x));
  row_bytes(state);
}
BENCHMARK(BM_RowSum_Jit)->Apply(row_args);
void BM_RowSum_Eigen(benchmark::State& state) {
  const Eigen::Index R = state.range(0), N = state.range(1);
  Array x = rnd({R, N}, 1);
  Eigen::TensorMap<Eigen::Tensor<const float, 2, Eigen::RowMajor>> X(static_cast<const float*>(x.data()), R, N);
  Eigen::Tensor<float, 1, Eigen::RowMajor> Y(R);
  Eigen::ThreadPool pool(static_cast<int>(std::thread::hardware_concurrency()));
  Eigen::ThreadPoolDevice dev(&pool, static_cast<int>(std::thread::hardware_concurrency()));
  Eigen::array<Eigen::Index, 1> along{1};
  for (auto _ : state) {
    Y.device(dev) = X.sum(along);
    benchmark::ClobberMemory();
  }
  row_bytes(state);
}
BENCHMARK(BM_RowSum_Eigen)->Apply(row_args);

// ---- Column sums of the same 48 MiB: 16 columns (few places: the rows split across the
// pool, SplitReductionLoops' column-places) and 3072 (the columns split) ----
void column_args(benchmark::internal::Benchmark* b) {
  b->Args({786432, 16})->Args({4096, 3072})->Unit(benchmark::kMillisecond)->UseRealTime();
}
void BM_ColumnSum_Eager(benchmark::State& state) {
  Array x = rnd({state.range(0), state.range(1)}, 1);
  for (auto _ : state) benchmark::DoNotOptimize(st::sum(x, 0));
  row_bytes(state);
}
BENCHMARK(BM_ColumnSum_Eager)->Apply(column_args);
void BM_ColumnSum_Jit(benchmark::State& state) {
  Array x = rnd({state.range(0), state.range(1)}, 1);
  auto f = st::jit([](const Array& v) { return st::sum(v, 0); });
  f(x);
  for (auto _ : state) benchmark::DoNotOptimize(f(x));
  row_bytes(state);
}
BENCHMARK(BM_ColumnSum_Jit)->Apply(column_args);
void BM_ColumnSum_Eigen(benchmark::State& state) {
  const Eigen::Index R = state.range(0), N = state.range(1);
  Array x = rnd({R, N}, 1);
  Eigen::TensorMap<Eigen::Tensor<const float, 2, Eigen::RowMajor>> X(static_cast<const float*>(x.data()), R, N);
  Eigen::Tensor<float, 1, Eigen::RowMajor> Y(N);
  Eigen::ThreadPool pool(static_cast<int>(std::thread::hardware_concurrency()));
  Eigen::ThreadPoolDevice dev(&pool, static_cast<int>(std::thread::hardware_concurrency()));
  Eigen::array<Eigen::Index, 1> along{0};
  for (auto _ : state) {
    Y.device(dev) = X.sum(along);
    benchmark::ClobberMemory();
  }
  row_bytes(state);
}
BENCHMARK(BM_ColumnSum_Eigen)->Apply(column_args);

// ---- First-call latency: trace + lower + compile ----
void BM_FirstCall_Seed(benchmark::State& state) {
  Array x = rnd({8, 256}, 1), w = rnd({256, 256}, 2), b = rnd({256}, 3);
  for (auto _ : state) {
    auto f = st::jit(seed_line);  // a fresh cache each time
    benchmark::DoNotOptimize(f(x, w, b));
  }
}
BENCHMARK(BM_FirstCall_Seed)->Unit(benchmark::kMillisecond)->UseRealTime();
void BM_FirstCall_Mlp(benchmark::State& state) {
  Array x = rnd({8, 256}, 1), w1 = rnd({256, 512}, 2), b1 = rnd({512}, 3), w2 = rnd({512, 10}, 4), b2 = rnd({10}, 5);
  auto mlp = [](const Array& x, const Array& w1, const Array& b1, const Array& w2, const Array& b2) {
    return st::softmax(st::matmul(st::gelu(st::matmul(x, w1) + b1), w2) + b2);
  };
  for (auto _ : state) {
    auto f = st::jit(mlp);
    benchmark::DoNotOptimize(f(x, w1, b1, w2, b2));
  }
}
BENCHMARK(BM_FirstCall_Mlp)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
