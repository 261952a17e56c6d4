// bench/bench_special.cpp — issue 14's special-function benchmarks: erf, lgamma, digamma,
// bessel_i0e, bessel_i1e, and of two or three operands igamma, igammac, zeta, betainc (and
// tanh, log1p, erfc, exp for reference; exp, log and lgamma on inputs libmvec calls special;
// random bits from rng_bit_generator and random::bits, /1 jit and /0 eager)
// over 16M f32, jit and eager; abs is the memory-bound
// floor (one read and one write of 64 MiB each) that cheap functions such as tanh sit on. bench/special_jax.py times the
// same in JAX; bench/run_special.sh runs both, one after the other.
#include <benchmark/benchmark.h>

#include "strata/strata.h"

namespace st = strata;
using st::Array;

namespace {

constexpr int64_t kN = int64_t{1} << 24;

// Inputs in (0.1, 10.1): inside every function's domain, away from lgamma's poles.
Array data() { return st::random::uniform(st::random::key(1), {kN}, st::f32, 0.1, 10.1); }

template <Array (*F)(const Array&, st::SourceLocation)>
void Jit(benchmark::State& state) {
  Array x = data();
  auto f = st::jit([](const Array& a) { return F(a, st::SourceLocation::current()); });
  f(x).block_until_ready();
  for (auto _ : state) f(x).block_until_ready();
  state.SetItemsProcessed(state.iterations() * kN);
}

template <Array (*F)(const Array&, st::SourceLocation)>
void Eager(benchmark::State& state) {
  Array x = data();
  for (auto _ : state) F(x, st::SourceLocation::current()).block_until_ready();
  state.SetItemsProcessed(state.iterations() * kN);
}

// Inputs libmvec calls special lanes (lowering/MathToLibmCalls.cpp keeps them from it): exp of
// a half masked to -inf (a masked softmax), log of floor(x) (-inf below 1, as in entropies of
// counts), lgamma at integers (poisson.logpmf's lgamma(k + 1): log|sin(pi k)| is log 0), erfc
// beyond its underflow.
Array exp_masked(const Array& x, st::SourceLocation loc) { return st::exp(st::where(x < 5.1f, x - 10.0f, -INFINITY), loc); }
Array log_floor(const Array& x, st::SourceLocation loc) { return st::log(st::floor(x), loc); }
Array lgamma_int(const Array& x, st::SourceLocation loc) { return st::lgamma(st::floor(x) + 1.0f, loc); }
// erfc over (0.2, 20.2): half the lanes beyond its underflow to 0 (from 10.054), where libmvec
// calls the scalar erfcf (MathToLibmCalls.cpp's guardedErfc keeps them from it).
Array erfc_wide(const Array& x, st::SourceLocation loc) { return st::erfc(x * 2.0f, loc); }
#define STRATA_BENCH_SPECIAL(fn)                                                                         \
  BENCHMARK(Jit<st::fn>)->Name("BM_" #fn "16M_Jit")->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0); \
  BENCHMARK(Eager<st::fn>)->Name("BM_" #fn "16M_Eager")->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
STRATA_BENCH_SPECIAL(erf)
STRATA_BENCH_SPECIAL(lgamma)
STRATA_BENCH_SPECIAL(digamma)
STRATA_BENCH_SPECIAL(erfc)
STRATA_BENCH_SPECIAL(tanh)
STRATA_BENCH_SPECIAL(log1p)
STRATA_BENCH_SPECIAL(abs)
STRATA_BENCH_SPECIAL(exp)
STRATA_BENCH_SPECIAL(bessel_i0e)
STRATA_BENCH_SPECIAL(bessel_i1e)
#undef STRATA_BENCH_SPECIAL
#define STRATA_BENCH_LANES(fn)                                                                           \
  BENCHMARK(Jit<fn>)->Name("BM_" #fn "16M_Jit")->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0); \
  BENCHMARK(Eager<fn>)->Name("BM_" #fn "16M_Eager")->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
STRATA_BENCH_LANES(exp_masked)
STRATA_BENCH_LANES(log_floor)
STRATA_BENCH_LANES(lgamma_int)
STRATA_BENCH_LANES(erfc_wide)
#undef STRATA_BENCH_LANES

// Functions of several operands: a, b in (0.1, 10.1), u in (0, 1) (the same draws as JAX's).
struct Igamma {
  static Array f(const Array& a, const Array& b, const Array&) { return st::igamma(a, b); }
};
struct Igammac {
  static Array f(const Array& a, const Array& b, const Array&) { return st::igammac(a, b); }
};
struct Zeta {
  static Array f(const Array& a, const Array& b, const Array&) { return st::zeta(a + 1.0f, b); }
};
struct Betainc {
  static Array f(const Array& a, const Array& b, const Array& u) { return st::betainc(a, b, u); }
};
struct Operands {
  Array a = data(), b = st::random::uniform(st::random::key(2), {kN}, st::f32, 0.1, 10.1),
        u = st::random::uniform(st::random::key(3), {kN}, st::f32, 0.0, 1.0);
};

template <class F>
void JitN(benchmark::State& state) {
  Operands in;
  auto f = st::jit([](const Array& a, const Array& b, const Array& u) { return F::f(a, b, u); });
  f(in.a, in.b, in.u).block_until_ready();
  for (auto _ : state) f(in.a, in.b, in.u).block_until_ready();
  state.SetItemsProcessed(state.iterations() * kN);
}

template <class F>
void EagerN(benchmark::State& state) {
  Operands in;
  for (auto _ : state) F::f(in.a, in.b, in.u).block_until_ready();
  state.SetItemsProcessed(state.iterations() * kN);
}

#define STRATA_BENCH_SPECIAL_N(fn, F)                                                                     \
  BENCHMARK(JitN<F>)->Name("BM_" #fn "16M_Jit")->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0); \
  BENCHMARK(EagerN<F>)->Name("BM_" #fn "16M_Eager")->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
STRATA_BENCH_SPECIAL_N(igamma, Igamma)
STRATA_BENCH_SPECIAL_N(igammac, Igammac)
STRATA_BENCH_SPECIAL_N(zeta, Zeta)
STRATA_BENCH_SPECIAL_N(betainc, Betainc)
#undef STRATA_BENCH_SPECIAL_N

// Random bits for reference: 16M u32 from jax.lax.rng_bit_generator's two algorithms (one
// fused loop nest compiled; C++ loops eagerly) and from jax.random.bits (threefry2x32).
template <int Algorithm>
void RngBits(benchmark::State& state) {
  Array key = st::array(std::vector<uint32_t>{1, 2, 3, 4}, {4});
  auto draw = [](const Array& k) {
    if constexpr (Algorithm < 0) return st::random::bits(st::random::key(1), {kN}, st::u32);
    else return st::rng_bit_generator(k, {kN}, st::u32, static_cast<st::RngAlgorithm>(Algorithm)).second;
  };
  const bool compiled = state.range(0) == 1;
  auto f = st::jit(draw);
  (compiled ? f(key) : draw(key)).block_until_ready();
  for (auto _ : state) (compiled ? f(key) : draw(key)).block_until_ready();
  state.SetItemsProcessed(state.iterations() * kN);
}
BENCHMARK(RngBits<2>)->Name("BM_rng_philox16M")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(RngBits<1>)->Name("BM_rng_three_fry16M")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(RngBits<-1>)->Name("BM_random_bits16M")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

}  // namespace

BENCHMARK_MAIN();
