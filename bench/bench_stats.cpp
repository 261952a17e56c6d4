// bench/bench_stats.cpp — st::stats (jax.scipy.stats) workloads, jit and eager, f32: densities
// over 4M points (norm.logpdf is one fused pass; norm.logcdf, truncnorm.logpdf, gamma.logpdf,
// t.logpdf and poisson.logpmf run log_ndtr, lgamma and xlogy per element), the multivariate
// normal of 100k points in 16 dimensions, a 2-d gaussian_kde of 2000 points evaluated at 2000,
// and rankdata of 1M values. bench/stats_jax.py times the same in JAX (same threefry draws);
// bench/run_stats.sh runs both.
#include <benchmark/benchmark.h>

#include "strata/strata.h"

namespace st = strata;
namespace S = strata::stats;
using st::Array;

namespace {

constexpr int64_t kN = int64_t{1} << 22;

Array draws(int seed, const st::Shape& shape, double lo, double hi) {
  return st::random::uniform(st::random::key(seed), shape, st::f32, lo, hi);
}

// x in (-4, 4) and a positive parameter in (0.1, 10), one per element.
std::vector<Array> elementwise() { return {draws(1, {kN}, -4, 4), draws(2, {kN}, 0.1, 10)}; }

// Times f(in[0], in[1]): compiled once by jit (the first call outside the loop), or eagerly.
template <class F>
void Run(benchmark::State& state, F f, const std::vector<Array>& in, bool jit) {
  auto g = st::jit([f](const Array& a, const Array& b) { return f(a, b); });
  if (jit) g(in[0], in[1]).block_until_ready();
  for (auto _ : state) (jit ? g(in[0], in[1]) : f(in[0], in[1])).block_until_ready();
}

#define STRATA_STATS_BENCH(name, inputs, expr)                                                    \
  void BM_##name##_Jit(benchmark::State& s) {                                                     \
    auto in = inputs;                                                                             \
    Run(s, [](const Array& a, const Array& b) { return expr; }, in, true);                        \
  }                                                                                               \
  void BM_##name##_Eager(benchmark::State& s) {                                                   \
    auto in = inputs;                                                                             \
    Run(s, [](const Array& a, const Array& b) { return expr; }, in, false);                       \
  }                                                                                               \
  BENCHMARK(BM_##name##_Jit)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);        \
  BENCHMARK(BM_##name##_Eager)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

STRATA_STATS_BENCH(NormLogpdf4M, elementwise(), S::norm::logpdf(a, 0.5f, b))
STRATA_STATS_BENCH(NormLogcdf4M, elementwise(), S::norm::logcdf(a * b))
STRATA_STATS_BENCH(TruncnormLogpdf4M, elementwise(), S::truncnorm::logpdf(a, -1.0f, 2.0f, 0.0f, b))
STRATA_STATS_BENCH(GammaLogpdf4M, elementwise(), S::gamma::logpdf(st::abs(a), b))
STRATA_STATS_BENCH(TLogpdf4M, elementwise(), S::t::logpdf(a, b))
STRATA_STATS_BENCH(PoissonLogpmf4M, elementwise(), S::poisson::logpmf(st::floor(st::abs(a) * 4.0f), b))

// 100k points x [100000, 16] against one mean and a 16 x 16 covariance (made positive definite).
std::vector<Array> mvn_inputs() {
  Array x = draws(3, {100000, 16}, -2, 2);
  Array m = draws(4, {16, 16}, -1, 1);
  return {x, st::matmul(m, st::transpose(m)) + st::eye(16) * 16.0f};
}
STRATA_STATS_BENCH(MvnLogpdf100kx16, mvn_inputs(), S::multivariate_normal::logpdf(a, st::zeros({16}), b))

// A 2-d KDE of 2000 points, its log density at 2000 points.
std::vector<Array> kde_inputs() { return {draws(5, {2, 2000}, -3, 3), draws(6, {2, 2000}, -3, 3)}; }
STRATA_STATS_BENCH(KdeLogpdf2000x2000, kde_inputs(), S::gaussian_kde(a).logpdf(b))

// Average ranks of 1M values with ties (integers 0..99999 as floats).
std::vector<Array> rank_inputs() {
  Array v = st::floor(draws(7, {1 << 20}, 0, 100000));
  return {v, v};
}
STRATA_STATS_BENCH(Rankdata1M, rank_inputs(), S::rankdata(a))

#undef STRATA_STATS_BENCH

}  // namespace

BENCHMARK_MAIN();
