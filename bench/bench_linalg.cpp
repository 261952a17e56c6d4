// bench/bench_linalg.cpp — issue 14's linear-algebra benchmarks (f32): Cholesky, solve and inverse
// of a 2048×2048 matrix, SVD of 512² and 1024² (u, s, vt reduced), singular values alone of 512² and
// 1024², inverse of a batch of 64 128×128
// matrices, eig (eigenvalues and right vectors) of 256² and 1024² normal matrices and of 256²
// and 512² complex (c64) ones, and a complex 512×512 matmul, each under jit and eagerly (bench/run.sh prints
// jit's speed vs eager).
// bench/linalg_jax.py times the same in JAX; bench/run_linalg.sh runs both.
#include <benchmark/benchmark.h>

#include <vector>

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

// f(args...) each iteration, compiled once (jit) or op by op (eager), waited for.
template <class F, class... A>
void run(benchmark::State& state, bool jit, F f, const A&... args) {
  auto compiled = st::jit(f);
  auto call = [&] { return st::tree_flatten(jit ? compiled(args...) : f(args...)); };
  for (const Array& x : call()) x.block_until_ready();
  for (auto _ : state)
    for (const Array& x : call()) x.block_until_ready();
}

auto cholesky = [](const Array& x) { return la::cholesky(x); };
auto solve = [](const Array& x, const Array& y) { return la::solve(x, y); };
auto svd = [](const Array& x) {
  la::SvdResult r = la::svd(x, false);
  return std::vector<Array>{r.u, r.s, r.vt};
};
auto svdvals = [](const Array& x) { return la::svdvals(x); };
auto inv = [](const Array& x) { return la::inv(x); };
auto eigh = [](const Array& x) {
  la::EighResult r = la::eigh(x);
  return std::vector<Array>{r.eigenvalues, r.eigenvectors};
};

auto eig = [](const Array& x) {
  la::EigResult r = la::eig(x);
  return std::vector<Array>{r.eigenvalues, r.eigenvectors};
};
auto hessenberg = [](const Array& x) {
  la::HessenbergResult r = la::hessenberg(x);
  return std::vector<Array>{r.h, r.q};
};
auto qr = [](const Array& x) {
  la::QrResult r = la::qr(x);
  return std::vector<Array>{r.q, r.r};
};
Array qr_input(int64_t m, int64_t n) { return st::random::normal(st::random::key(8), {m, n}); }
Array solve_rhs() { return st::random::normal(st::random::key(2), {2048}); }
Array svd_input() { return st::random::normal(st::random::key(3), {512, 512}); }
Array sym_input(int64_t n) {
  Array x = st::random::normal(st::random::key(6), {n, n});
  return x + st::transpose(x);
}
Array inv_input() { return st::random::normal(st::random::key(4), {64, 128, 128}) + st::eye(128) * 8.0f; }

Array complex_input(uint64_t seed, int64_t n = 512) {
  return st::complex(st::random::normal(st::random::key(seed), {n, n}), st::random::normal(st::random::key(seed + 1), {n, n}));
}
auto cmatmul = [](const Array& x, const Array& y) { return st::matmul(x, y); };
void BM_ComplexMatmul512_Jit(benchmark::State& s) { run(s, true, cmatmul, complex_input(5), complex_input(7)); }
void BM_ComplexMatmul512_Eager(benchmark::State& s) { run(s, false, cmatmul, complex_input(5), complex_input(7)); }

void BM_Cholesky2048_Jit(benchmark::State& s) { run(s, true, cholesky, spd(2048)); }
void BM_Cholesky2048_Eager(benchmark::State& s) { run(s, false, cholesky, spd(2048)); }
void BM_Solve2048_Jit(benchmark::State& s) { run(s, true, solve, spd(2048), solve_rhs()); }
void BM_Solve2048_Eager(benchmark::State& s) { run(s, false, solve, spd(2048), solve_rhs()); }
void BM_Svd512_Jit(benchmark::State& s) { run(s, true, svd, svd_input()); }
void BM_Svd512_Eager(benchmark::State& s) { run(s, false, svd, svd_input()); }
void BM_Svd1024_Jit(benchmark::State& s) { run(s, true, svd, qr_input(1024, 1024)); }
void BM_Svd1024_Eager(benchmark::State& s) { run(s, false, svd, qr_input(1024, 1024)); }
void BM_Svd2048x256_Jit(benchmark::State& s) { run(s, true, svd, qr_input(2048, 256)); }
void BM_Svd2048x256_Eager(benchmark::State& s) { run(s, false, svd, qr_input(2048, 256)); }
void BM_Svdvals512_Jit(benchmark::State& s) { run(s, true, svdvals, svd_input()); }
void BM_Svdvals512_Eager(benchmark::State& s) { run(s, false, svdvals, svd_input()); }
void BM_Svdvals1024_Jit(benchmark::State& s) { run(s, true, svdvals, qr_input(1024, 1024)); }
void BM_Svdvals1024_Eager(benchmark::State& s) { run(s, false, svdvals, qr_input(1024, 1024)); }
void BM_Qr1024_Jit(benchmark::State& s) { run(s, true, qr, qr_input(1024, 1024)); }
void BM_Qr1024_Eager(benchmark::State& s) { run(s, false, qr, qr_input(1024, 1024)); }
void BM_Qr4096x256_Jit(benchmark::State& s) { run(s, true, qr, qr_input(4096, 256)); }
void BM_Qr4096x256_Eager(benchmark::State& s) { run(s, false, qr, qr_input(4096, 256)); }
void BM_Eigh1024_Jit(benchmark::State& s) { run(s, true, eigh, sym_input(1024)); }
void BM_Eigh1024_Eager(benchmark::State& s) { run(s, false, eigh, sym_input(1024)); }
void BM_Eigh256_Jit(benchmark::State& s) { run(s, true, eigh, sym_input(256)); }
void BM_Eigh256_Eager(benchmark::State& s) { run(s, false, eigh, sym_input(256)); }
void BM_Eig256_Jit(benchmark::State& s) { run(s, true, eig, qr_input(256, 256)); }
void BM_Eig256_Eager(benchmark::State& s) { run(s, false, eig, qr_input(256, 256)); }
void BM_Eig1024_Jit(benchmark::State& s) { run(s, true, eig, qr_input(1024, 1024)); }
void BM_Eig1024_Eager(benchmark::State& s) { run(s, false, eig, qr_input(1024, 1024)); }
void BM_EigC64_256_Jit(benchmark::State& s) { run(s, true, eig, complex_input(9, 256)); }
void BM_EigC64_256_Eager(benchmark::State& s) { run(s, false, eig, complex_input(9, 256)); }
void BM_EigC64_512_Jit(benchmark::State& s) { run(s, true, eig, complex_input(9, 512)); }
void BM_EigC64_512_Eager(benchmark::State& s) { run(s, false, eig, complex_input(9, 512)); }
void BM_Hessenberg1024_Jit(benchmark::State& s) { run(s, true, hessenberg, qr_input(1024, 1024)); }
void BM_Hessenberg1024_Eager(benchmark::State& s) { run(s, false, hessenberg, qr_input(1024, 1024)); }
void BM_Inv2048_Jit(benchmark::State& s) { run(s, true, inv, spd(2048)); }
void BM_Inv2048_Eager(benchmark::State& s) { run(s, false, inv, spd(2048)); }
void BM_Inv64x128_Jit(benchmark::State& s) { run(s, true, inv, inv_input()); }
void BM_Inv64x128_Eager(benchmark::State& s) { run(s, false, inv, inv_input()); }

#define LINALG_BENCH(name) BENCHMARK(name)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0)
LINALG_BENCH(BM_Cholesky2048_Jit);
LINALG_BENCH(BM_Cholesky2048_Eager);
LINALG_BENCH(BM_Solve2048_Jit);
LINALG_BENCH(BM_Solve2048_Eager);
LINALG_BENCH(BM_Inv2048_Jit);
LINALG_BENCH(BM_Inv2048_Eager);
LINALG_BENCH(BM_Svd512_Jit);
LINALG_BENCH(BM_Svd512_Eager);
LINALG_BENCH(BM_Svd1024_Jit);
LINALG_BENCH(BM_Svd1024_Eager);
LINALG_BENCH(BM_Svd2048x256_Jit);
LINALG_BENCH(BM_Svd2048x256_Eager);
LINALG_BENCH(BM_Svdvals512_Jit);
LINALG_BENCH(BM_Svdvals512_Eager);
LINALG_BENCH(BM_Svdvals1024_Jit);
LINALG_BENCH(BM_Svdvals1024_Eager);
LINALG_BENCH(BM_Qr1024_Jit);
LINALG_BENCH(BM_Qr1024_Eager);
LINALG_BENCH(BM_Qr4096x256_Jit);
LINALG_BENCH(BM_Qr4096x256_Eager);
LINALG_BENCH(BM_Eigh1024_Jit);
LINALG_BENCH(BM_Eigh1024_Eager);
LINALG_BENCH(BM_Eigh256_Jit);
LINALG_BENCH(BM_Eigh256_Eager);
LINALG_BENCH(BM_Eig256_Jit);
LINALG_BENCH(BM_Eig256_Eager);
LINALG_BENCH(BM_Eig1024_Jit);
LINALG_BENCH(BM_Eig1024_Eager);
LINALG_BENCH(BM_EigC64_256_Jit);
LINALG_BENCH(BM_EigC64_256_Eager);
LINALG_BENCH(BM_EigC64_512_Jit);
LINALG_BENCH(BM_EigC64_512_Eager);
LINALG_BENCH(BM_Hessenberg1024_Jit);
LINALG_BENCH(BM_Hessenberg1024_Eager);
LINALG_BENCH(BM_Inv64x128_Jit);
LINALG_BENCH(BM_Inv64x128_Eager);
LINALG_BENCH(BM_ComplexMatmul512_Jit);
LINALG_BENCH(BM_ComplexMatmul512_Eager);

}  // namespace

BENCHMARK_MAIN();
