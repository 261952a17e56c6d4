// The main demo: the seed line `relu(matmul(x, w) + b)` run eagerly, traced to a jaxpr,
// differentiated, shown at each compiler stage, and jitted.
#include <chrono>
#include <iostream>

#include "strata/strata.h"

namespace st = strata;

st::Array layer(const st::Array& x, const st::Array& w, const st::Array& b) {
  return st::relu(st::matmul(x, w) + b);
}

int main() {
  st::Array keys = st::random::split(st::random::key(0), 3);
  st::Array x = st::random::normal(st::random::key_at(keys, 0), {4, 8});
  st::Array w = st::random::normal(st::random::key_at(keys, 1), {8, 16});
  st::Array b = st::random::normal(st::random::key_at(keys, 2), {16});

  std::cout << "== eager: relu(matmul(x, w) + b) on x:f32[4,8] w:f32[8,16] b:f32[16]\n";
  st::Array y = layer(x, w, b);
  std::cout << st::slice(y, {0, 0}, {2, 6}) << "   (first 2 rows, 6 columns)\n\n";

  std::cout << "== jaxpr\n" << st::make_jaxpr(layer)(x, w, b) << "\n\n";

  // Gradients of a scalar loss with respect to w and b, and the program that computes them.
  auto loss = [](const st::Array& x, const st::Array& w, const st::Array& b) { return st::sum(layer(x, w, b)); };
  auto [gw, gb] = st::grad(loss, st::argnums<1, 2>)(x, w, b);
  std::cout << "== grad of sum(layer) with respect to b\n" << gb << "\n\n";
  std::cout << "== jaxpr of the gradient (forward, then backward)\n"
            << st::make_jaxpr(st::grad(loss, st::argnums<1, 2>))(x, w, b) << "\n\n";

  // The program at each stage of the compiler.
  st::Lowered lowered = st::jit(layer).lower(x, w, b);
  for (const std::string& stage : lowered.stages()) {
    if (stage == "jaxpr" || stage == "llvm-ir" || stage == "asm") continue;  // long; see strata-opt
    std::cout << "== stage: " << stage << "\n" << lowered.as_text(stage) << "\n";
  }
  (void)gw;

  // Eager timing at a larger size: the baseline jit is measured against.
  st::Array X = st::random::normal(st::random::key(1), {1024, 1024});
  st::Array W = st::random::normal(st::random::key(2), {1024, 1024});
  st::Array B = st::random::normal(st::random::key(3), {1024});
  layer(X, W, B);  // warm up
  auto t0 = std::chrono::steady_clock::now();
  const int reps = 10;
  for (int i = 0; i < reps; ++i) layer(X, W, B);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / reps;
  std::cout << "== eager timing at M=N=K=1024: " << ms << " ms per call ("
            << 2.0 * 1024 * 1024 * 1024 / (ms * 1e6) << " GFLOP/s)\n";
  return 0;
}
