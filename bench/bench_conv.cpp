// Convolution (issue 13): a 3×3, 64→64 channel layer on 32×32 images at batch 64, forward and
// forward+backward (the gradients of both operands), strata jit; and pooling: max_pool and
// avg_pool 2×2 stride 2 on 64×32×32×64 NHWC, forward and forward+backward (reduce_window;
// select_and_scatter_add for max). bench/conv_jax.py times the same workloads in JAX.
// Run: bench/run_conv.sh (strata and JAX alternately, medians side by side), or
// bench/run.sh bench_conv && /work/venv-jax/bin/python bench/conv_jax.py
#include <benchmark/benchmark.h>

#include "strata/strata.h"

namespace st = strata;

namespace {

struct Layer {
  st::Shape x, w;
  st::ConvDimensionNumbers dn;
};
Layer layer(bool nhwc) {
  if (nhwc) return {{64, 32, 32, 64}, {3, 3, 64, 64}, {"NHWC", "HWIO", "NHWC"}};
  return {{64, 64, 32, 32}, {64, 64, 3, 3}, {"NCHW", "OIHW", "NCHW"}};
}

void Forward(benchmark::State& state) {
  Layer l = layer(state.range(0) == 1);
  st::Array x = st::random::normal(st::random::key(1), l.x), w = st::random::normal(st::random::key(2), l.w);
  auto f = st::jit([dn = l.dn](const st::Array& a, const st::Array& b) {
    return st::conv_general_dilated(a, b, {1, 1}, "SAME", {}, {}, dn);
  });
  f(x, w).block_until_ready();
  for (auto _ : state) f(x, w).block_until_ready();
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * 64 * 32 * 32 * 64 * 64 * 9 * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

// Where the forward's time goes: eager mode (the same kernel as jit: tracer/kernels/conv.cpp)
// and, for scale, the plain GEMM of the [64·32·32, 9·64] patch matrix by the [9·64, 64] kernel
// (what im2col + GEMM would multiply; the conv kernel never materialises that matrix).
void ForwardEager(benchmark::State& state) {
  Layer l = layer(true);
  st::Array x = st::random::normal(st::random::key(1), l.x), w = st::random::normal(st::random::key(2), l.w);
  for (auto _ : state) st::conv_general_dilated(x, w, {1, 1}, "SAME", {}, {}, l.dn).block_until_ready();
}
void PatchGemm(benchmark::State& state) {
  st::Array a = st::random::normal(st::random::key(1), {64 * 32 * 32, 9 * 64});
  st::Array b = st::random::normal(st::random::key(2), {9 * 64, 64});
  auto f = st::jit([](const st::Array& p, const st::Array& q) { return st::matmul(p, q); });
  f(a, b).block_until_ready();
  for (auto _ : state) f(a, b).block_until_ready();
}

void ForwardBackward(benchmark::State& state) {
  Layer l = layer(state.range(0) == 1);
  st::Array x = st::random::normal(st::random::key(1), l.x), w = st::random::normal(st::random::key(2), l.w);
  st::Array probe = st::random::normal(st::random::key(3), l.x);  // SAME, stride 1: output shape = input shape
  auto loss = [dn = l.dn](const st::Array& a, const st::Array& b, const st::Array& p) {
    return st::sum(st::conv_general_dilated(a, b, {1, 1}, "SAME", {}, {}, dn) * p);
  };
  auto g = st::jit(st::grad(loss, st::argnums<0, 1>));
  auto warm = g(x, w, probe);
  std::get<1>(warm).block_until_ready();
  for (auto _ : state) {
    auto r = g(x, w, probe);
    std::get<0>(r).block_until_ready();
    std::get<1>(r).block_until_ready();
  }
  state.counters["GFLOP/s"] = benchmark::Counter(3 * 2.0 * 64 * 32 * 32 * 64 * 64 * 9 * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

// Other layer shapes, forward, NHWC, batch 64, 32×32, SAME: arg 0 the first layer (3×3,
// 3→64), 1 depthwise (3×3, 64 channels, feature_group_count 64), 2 pointwise (1×1, 64→256).
void ForwardShapes(benchmark::State& state) {
  const int64_t which = state.range(0);
  const int64_t cin = which == 0 ? 3 : 64, k = which == 2 ? 1 : 3, cout = which == 0 ? 64 : which == 1 ? 64 : 256;
  const int64_t groups = which == 1 ? 64 : 1;
  st::Array x = st::random::normal(st::random::key(1), {64, 32, 32, cin});
  st::Array w = st::random::normal(st::random::key(2), {k, k, cin / groups, cout});
  auto f = st::jit([groups](const st::Array& a, const st::Array& b) {
    return st::conv_general_dilated(a, b, {1, 1}, "SAME", {}, {}, {"NHWC", "HWIO", "NHWC"}, groups);
  });
  f(x, w).block_until_ready();
  for (auto _ : state) f(x, w).block_until_ready();
}

// Pooling: arg 1 max_pool, 0 avg_pool.
st::Array pool(bool max, const st::Array& a) {
  return max ? st::nn::max_pool(a, {2, 2}, {2, 2}) : st::nn::avg_pool(a, {2, 2}, {2, 2});
}
void PoolForward(benchmark::State& state) {
  bool max = state.range(0) == 1;
  st::Array x = st::random::normal(st::random::key(1), {64, 32, 32, 64});
  auto f = st::jit([max](const st::Array& a) { return pool(max, a); });
  f(x).block_until_ready();
  for (auto _ : state) f(x).block_until_ready();
  state.counters["GB/s"] = benchmark::Counter(64.0 * 32 * 32 * 64 * 4 * 1.25 * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}
void PoolForwardBackward(benchmark::State& state) {
  bool max = state.range(0) == 1;
  st::Array x = st::random::normal(st::random::key(1), {64, 32, 32, 64});
  st::Array probe = st::random::normal(st::random::key(3), {64, 16, 16, 64});
  auto g = st::jit(st::grad([max](const st::Array& a, const st::Array& p) { return st::sum(pool(max, a) * p); }));
  g(x, probe).block_until_ready();
  for (auto _ : state) g(x, probe).block_until_ready();
}

}  // namespace

BENCHMARK(Forward)->Arg(1)->Arg(0)->ArgName("nhwc")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(ForwardEager)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(PatchGemm)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(ForwardBackward)->Arg(1)->Arg(0)->ArgName("nhwc")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(ForwardShapes)->Arg(0)->Arg(1)->Arg(2)->ArgName("shape")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(PoolForward)->Arg(1)->Arg(0)->ArgName("max")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(PoolForwardBackward)->Arg(1)->Arg(0)->ArgName("max")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
