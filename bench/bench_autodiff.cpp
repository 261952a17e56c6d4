// bench/bench_autodiff.cpp — one training step of a 2-layer MLP (forward, backward, Adam):
// jit vs eager, and the compile time of the step. Run through bench/run.sh.
#include <benchmark/benchmark.h>

#include <cmath>

#include "strata/strata.h"

namespace st = strata;
using st::Array;

namespace {

struct Params {
  Array w1, b1, w2, b2;
};
STRATA_PYTREE(Params, w1, b1, w2, b2);

Array loss_fn(const Params& p, const Array& x, const Array& y) {
  Array err = st::matmul(st::tanh(st::matmul(x, p.w1) + p.b1), p.w2) + p.b2 - y;
  return st::mean(err * err);
}

// SGD with momentum 0.9 (the state is a Params of velocities).
std::tuple<Params, Params, Array> train_step(const Params& p, const Params& v, const Array& x, const Array& y) {
  auto [loss, g] = st::value_and_grad(loss_fn)(p, x, y);
  auto pl = st::tree_flatten(p), vl = st::tree_flatten(v), gl = st::tree_flatten(g);
  for (size_t i = 0; i < pl.size(); ++i) {
    vl[i] = vl[i] * 0.9f + gl[i];
    pl[i] = pl[i] - 0.01f * vl[i];
  }
  return {st::tree_unflatten(p, pl), st::tree_unflatten(v, vl), loss};
}

struct Setup {
  Params p, v;
  Array x, y;
  explicit Setup(int64_t batch, int64_t hidden) {
    auto k = [](uint64_t s) { return st::random::key(s); };
    p = {st::random::normal(k(1), {64, hidden}) * 0.1f, st::zeros({hidden}), st::random::normal(k(2), {hidden, 8}) * 0.1f,
         st::zeros({8})};
    v = st::tree_map(p, [](const Array& a) { return st::zeros_like(a); });
    x = st::random::normal(k(3), {batch, 64});
    y = st::random::normal(k(4), {batch, 8});
  }
};

void sizes(benchmark::internal::Benchmark* b) {
  b->Args({256, 256})->Args({4096, 1024})->Unit(benchmark::kMillisecond)->UseRealTime();
}

void BM_TrainStep_Eager(benchmark::State& state) {
  Setup s(state.range(0), state.range(1));
  for (auto _ : state) {
    auto r = train_step(s.p, s.v, s.x, s.y);
    std::tie(s.p, s.v, std::ignore) = r;
  }
}
BENCHMARK(BM_TrainStep_Eager)->Apply(sizes);

void BM_TrainStep_Jit(benchmark::State& state) {
  Setup s(state.range(0), state.range(1));
  auto step = st::jit(train_step);
  step(s.p, s.v, s.x, s.y);
  for (auto _ : state) {
    auto r = step(s.p, s.v, s.x, s.y);
    std::tie(s.p, s.v, std::ignore) = r;
  }
}
BENCHMARK(BM_TrainStep_Jit)->Apply(sizes);

// Trace + differentiate + lower + compile the whole step (a fresh jit object each time).
void BM_TrainStep_Compile(benchmark::State& state) {
  Setup s(256, 256);
  for (auto _ : state) {
    auto step = st::jit(train_step);
    benchmark::DoNotOptimize(step(s.p, s.v, s.x, s.y));
  }
}
BENCHMARK(BM_TrainStep_Compile)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
