// bench/bench_control_flow.cpp — control flow (issue 12): conjugate gradient on a 512×512
// Poisson grid (a while_loop, compiled whole) jit vs eager, and the per-step overhead of a
// scan whose body does almost nothing (goal: < 50 ns a step beyond the body's work), and the
// cost of a host callback from compiled code.
// Run through bench/run.sh bench_control_flow (medians and Jit/Eager ratios).
#include <benchmark/benchmark.h>

#include "strata/strata.h"
#include "../samples/poisson.h"

namespace st = strata;
using st::Array;

namespace {

constexpr int kCgIterations = 50;

// Exactly kCgIterations CG steps (the tolerance is 0), so that jit and eager do the same work.
CgState cg(const Array& b) {
  CgState s0{st::zeros_like(b), b, b, st::sum(b * b), st::full({}, 0, st::i32)};
  return st::while_loop([](const CgState& s) { return (s.rs > 0.0f) & (s.k < kCgIterations); },
                        [](const CgState& s) {
                          Array ap = laplacian(s.p);
                          Array alpha = s.rs / st::sum(s.p * ap);
                          Array r = s.r - alpha * ap;
                          Array rs = st::sum(r * r);
                          return CgState{s.x + alpha * s.p, r, r + (rs / s.rs) * s.p, rs, s.k + 1};
                        },
                        s0);
}

Array rhs(int n) { return st::random::uniform(st::random::key(1), {n, n}); }

void BM_CG512_Eager(benchmark::State& state) {
  Array b = rhs(512);
  for (auto _ : state) cg(b).x.block_until_ready();
  state.counters["cg_steps"] = kCgIterations;
}
BENCHMARK(BM_CG512_Eager)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);

void BM_CG512_Jit(benchmark::State& state) {
  Array b = rhs(512);
  auto f = st::jit(cg);
  f(b).x.block_until_ready();
  for (auto _ : state) f(b).x.block_until_ready();
  state.counters["cg_steps"] = kCgIterations;
}
BENCHMARK(BM_CG512_Jit)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- Scan overhead: carry c (0-d f32), body c + x[i]; the ys are the running carries. ----
constexpr int64_t kSteps = 1 << 20;

std::pair<Array, Array> running_sum(const Array& xs) {
  return st::scan([](const Array& c, const Array& x) { return std::make_pair(c + x, c); }, st::zeros({}), xs);
}

void per_step(benchmark::State& state) {
  state.counters["ns_per_step"] =
      benchmark::Counter(static_cast<double>(kSteps) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_ScanTiny_Jit(benchmark::State& state) {
  Array xs = st::random::uniform(st::random::key(2), {kSteps});
  auto f = st::jit(running_sum);
  f(xs).first.block_until_ready();
  for (auto _ : state) f(xs).first.block_until_ready();
  per_step(state);
}
BENCHMARK(BM_ScanTiny_Jit)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same work as one compiled program without a loop (a cumulative sum is not a primitive:
// the body's own cost is bounded by this plain C++ loop, which is what the scan adds to).
void BM_ScanTiny_Cpp(benchmark::State& state) {
  Array xs = st::random::uniform(st::random::key(2), {kSteps});
  std::vector<float> x = xs.to_vector<float>(), ys(kSteps);
  for (auto _ : state) {
    float c = 0;
    for (int64_t i = 0; i < kSteps; ++i) {
      ys[static_cast<size_t>(i)] = c;
      c += x[static_cast<size_t>(i)];
    }
    benchmark::DoNotOptimize(c);
    benchmark::DoNotOptimize(ys.data());
  }
  per_step(state);
}
BENCHMARK(BM_ScanTiny_Cpp)->Unit(benchmark::kMillisecond)->UseRealTime();

// An RNN's training step: value_and_grad of a tanh recurrence (batch 32, hidden 256, 100 steps,
// a scan) under jit. Reverse mode runs the forward scan once (it keeps the residuals and gives
// the outputs), then the backward scan. JAX: bench/control_flow_jax.py.
constexpr int64_t kRnnSteps = 100, kRnnBatch = 32, kRnnHidden = 256;

Array rnn_loss(const Array& w, const Array& u, const Array& xs) {
  auto [h, hs] = st::scan(
      [&](const Array& h, const Array& x) {
        Array n = st::tanh(st::matmul(h, w) + st::matmul(x, u));
        return std::make_pair(n, st::sum(n * n));
      },
      st::zeros({kRnnBatch, kRnnHidden}), xs);
  return st::sum(hs) + st::sum(h);
}

void BM_RnnValueAndGrad_Jit(benchmark::State& state) {
  auto k = st::random::split(st::random::key(3), 3);
  Array w = st::random::normal(k[0], {kRnnHidden, kRnnHidden}) * 0.05f;
  Array u = st::random::normal(k[1], {kRnnHidden, kRnnHidden}) * 0.05f;
  Array xs = st::random::normal(k[2], {kRnnSteps, kRnnBatch, kRnnHidden});
  auto f = st::jit(st::value_and_grad(rnn_loss, st::argnums<0, 1>));
  f(w, u, xs).first.block_until_ready();
  for (auto _ : state) f(w, u, xs).first.block_until_ready();
}
BENCHMARK(BM_RnnValueAndGrad_Jit)->Unit(benchmark::kMillisecond)->UseRealTime();

// Host callbacks: one jitted call of a small function holding one pure_callback (the call, the
// runtime's copy in and out, the C++ function), and a scan of kCallbackSteps steps each calling
// an io_callback (the per-call cost inside compiled code). JAX: bench/control_flow_jax.py.
constexpr int64_t kCallbackSteps = 10000;

Array add_one(const Array& v) { return v + 1.0f; }

void BM_Callback_Jit(benchmark::State& state) {
  auto f = st::jit([](const Array& x) { return st::pure_callback(add_one, st::ShapeDtypeStruct(x), x * 2.0f) + 1.0f; });
  Array x = st::ones({16});
  f(x).block_until_ready();
  for (auto _ : state) f(x).block_until_ready();
}
BENCHMARK(BM_Callback_Jit)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_CallbackScan_Jit(benchmark::State& state) {
  auto f = st::jit([](const Array& c0) {
    return st::fori_loop(0, kCallbackSteps, [](const Array&, const Array& c) {
      return st::io_callback(add_one, st::ShapeDtypeStruct(c), c);
    }, c0);
  });
  Array c0 = st::zeros({});
  f(c0).block_until_ready();
  for (auto _ : state) f(c0).block_until_ready();
  state.counters["ns_per_call"] = benchmark::Counter(static_cast<double>(kCallbackSteps) * 1e-9,
                                                     benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_CallbackScan_Jit)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
