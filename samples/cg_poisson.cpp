// samples/cg_poisson.cpp — conjugate gradient on the 2-D Poisson equation -Δu = f (5-point
// stencil, zero Dirichlet boundary) with st::while_loop until the residual is below a
// tolerance; the whole solve is one jitted function. Prints the iterations, the residual and
// the compiled-vs-eager speedup; exits non-zero if it does not converge or if the compiled
// solution disagrees with the eager one.
//   cg_poisson [N]   (grid N×N, default 64)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "strata/strata.h"
#include "poisson.h"

namespace st = strata;
using st::Array;

constexpr int kMaxIterations = 2000;

// Solves A x = b until |r| <= tol |b|.
CgState solve(const Array& b, float tol) {
  Array rs0 = st::sum(b * b);
  Array limit = rs0 * (tol * tol);
  CgState s0{st::zeros_like(b), b, b, rs0, st::full({}, 0, st::i32)};
  return st::while_loop([&](const CgState& s) { return (s.rs > limit) & (s.k < kMaxIterations); },
                        [](const CgState& s) {
                          Array ap = laplacian(s.p);
                          Array alpha = s.rs / st::sum(s.p * ap);
                          Array x = s.x + alpha * s.p;
                          Array r = s.r - alpha * ap;
                          Array rs = st::sum(r * r);
                          Array p = r + (rs / s.rs) * s.p;
                          return CgState{x, r, p, rs, s.k + 1};
                        },
                        s0);
}

template <class F>
double seconds(F&& f, int reps) {
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
}

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 64;
  const float tol = 1e-4f;
  // f: 1 everywhere plus a bump off centre, scaled by h² so that the discrete system is
  // A u = h² f.
  Array i = st::astype(st::arange(n), st::f32);
  Array coord = (i + 1.0f) / static_cast<float>(n + 1);
  Array bump = st::exp((coord - 0.3f) * (coord - 0.3f) * -50.0f);
  Array b = (st::reshape(bump, {n, 1}) * st::reshape(coord, {1, n}) * 10.0f + 1.0f) *
            (1.0f / static_cast<float>((n + 1) * (n + 1)));

  auto jsolve = st::jit([tol](const Array& rhs) { return solve(rhs, tol); });
  CgState eager = solve(b, tol);
  CgState compiled = jsolve(b);
  double t_eager = seconds([&] { solve(b, tol).x.block_until_ready(); }, 1);
  double t_jit = seconds([&] { jsolve(b).x.block_until_ready(); }, 5);

  int iters = compiled.k.item<int>();
  double rel = std::sqrt(st::sum((b - laplacian(compiled.x)) * (b - laplacian(compiled.x))).item<double>() / st::sum(b * b).item<double>());
  double diff = st::max(st::abs(compiled.x - eager.x)).item<double>() / st::max(st::abs(eager.x)).item<double>();
  std::printf("CG on a %dx%d Poisson grid: %d iterations (eager %d), relative residual %.2e\n", n, n, iters,
              eager.k.item<int>(), rel);
  std::printf("max |x_jit - x_eager| / max |x| = %.2e\n", diff);
  std::printf("eager %.3f ms, jit %.3f ms: speedup %.1fx\n", t_eager * 1e3, t_jit * 1e3, t_eager / t_jit);
  // The recurrence stops at |r| <= tol |b|; in f32 the true residual drifts a little above it.
  if (iters >= kMaxIterations || rel > 5 * tol) {
    std::printf("FAILED: CG did not converge\n");
    return 1;
  }
  if (diff > 1e-3) {
    std::printf("FAILED: the compiled solution disagrees with eager mode\n");
    return 1;
  }
  return 0;
}
