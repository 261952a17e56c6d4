// The main demo: the seed line `relu(matmul(x, w) + b)` run eagerly, traced to a jaxpr,
// differentiated, shown at each compiler stage, and jitted.
#include <algorithm>
#include <chrono>
#include <cmath>
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
    // The LLVM stages are long: strata-opt --emit=llvm-ir (or asm) prints them.
    if (stage == "jaxpr" || stage == "llvm-dialect" || stage == "llvm-ir" || stage == "asm") continue;
    std::cout << "== stage: " << stage << "\n" << lowered.as_text(stage) << "\n";
  }
  (void)gw;

  // jit: traced once, compiled through LLVM, cached; later calls go straight to native code.
  auto jitted = st::jit(layer, {.name = "layer"});
  std::vector<float> a = jitted(x, w, b).to_vector<float>(), e = y.to_vector<float>();
  float diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff = std::max(diff, std::abs(a[i] - e[i]));
  std::cout << "== jit result vs eager: max |difference| = " << diff << "\n\n";

  // Timing, side by side: eager vs jit, medians of repeated runs.
  auto median_ms = [](auto&& fn, int reps) {
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      fn();
      t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  };
  for (int64_t m : {int64_t{8}, int64_t{1024}}) {
    st::Array X = st::random::normal(st::random::key(1), {m, 1024});
    st::Array W = st::random::normal(st::random::key(2), {1024, 1024});
    st::Array B = st::random::normal(st::random::key(3), {1024});
    layer(X, W, B);
    jitted(X, W, B);  // compiles for this shape
    double eager_ms = median_ms([&] { layer(X, W, B); }, 15);
    double jit_ms = median_ms([&] { jitted(X, W, B); }, 15);
    std::cout << "== M=" << m << ", N=K=1024: eager " << eager_ms << " ms, jit " << jit_ms << " ms, speedup "
              << eager_ms / jit_ms << "x\n";
  }
  return 0;
}
