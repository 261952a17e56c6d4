// The main demo: the seed line `relu(matmul(x, w) + b)`, run eagerly and traced to a jaxpr.
#include <chrono>
#include <iostream>

#include "strata/strata.h"

namespace st = strata;

st::Array layer(const st::Array& x, const st::Array& w, const st::Array& b) {
  return st::relu(st::matmul(x, w) + b);
}

int main() {
  st::Array key = st::random::key(0);
  st::Array keys = st::random::split(key, 3);
  st::Array x = st::random::normal(st::random::key_at(keys, 0), {4, 8});
  st::Array w = st::random::normal(st::random::key_at(keys, 1), {8, 16});
  st::Array b = st::random::normal(st::random::key_at(keys, 2), {16});

  std::cout << "== eager: relu(matmul(x, w) + b) on x:f32[4,8] w:f32[8,16] b:f32[16]\n";
  st::Array y = layer(x, w, b);
  std::cout << st::slice(y, {0, 0}, {2, 6}) << "   (first 2 rows, 6 columns)\n\n";

  std::cout << "== jaxpr\n" << st::make_jaxpr(layer)(x, w, b) << "\n\n";

  // Eager timing at a larger size: the baseline later issues (jit, fusion) are measured against.
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
