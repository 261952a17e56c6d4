// samples/train_mlp.cpp — train a 2-layer MLP on a synthetic regression task with
// jit(value_and_grad(loss)) and Adam written with strata ops; prints the loss curve and the
// time per step eagerly and jitted.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "strata/strata.h"
#include "mlp.h"

namespace st = strata;
using st::Array;

// f applied leaf by leaf to two (or three) trees of the same structure.
template <class F>
Params zip(const Params& a, const Params& b, F f) {
  auto la = st::tree_flatten(a), lb = st::tree_flatten(b);
  for (size_t i = 0; i < la.size(); ++i) la[i] = f(la[i], lb[i]);
  return st::tree_unflatten(a, la);
}

// One Adam step (lr 1e-2, betas 0.9/0.999): returns the new parameters, state and the loss.
std::tuple<Params, AdamState, Array> train_step(const Params& p, const AdamState& s, const Array& x, const Array& y) {
  auto [loss, g] = st::value_and_grad(loss_fn)(p, x, y);
  Array t = s.step + 1.0f;
  Params m = zip(s.m, g, [](const Array& m, const Array& g) { return m * 0.9f + g * 0.1f; });
  Params v = zip(s.v, g, [](const Array& v, const Array& g) { return v * 0.999f + g * g * 0.001f; });
  Array c1 = 1.0f - st::power(Array(0.9f), t), c2 = 1.0f - st::power(Array(0.999f), t);
  auto leaves = st::tree_flatten(p), ml = st::tree_flatten(m), vl = st::tree_flatten(v);
  for (size_t i = 0; i < leaves.size(); ++i)
    leaves[i] = leaves[i] - 0.01f * (ml[i] / c1) / (st::sqrt(vl[i] / c2) + 1e-8f);
  return {st::tree_unflatten(p, leaves), AdamState{m, v, t}, loss};
}

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 600;
  // y = sin(3 x0) cos(2 x1) + 0.5 x0 x1 on [-1, 1]^2, 1024 samples.
  Array keys = st::random::split(st::random::key(42), 2);
  Array x = st::random::uniform(st::random::key_at(keys, 0), {1024, 2}, st::f32, -1.0, 1.0);
  Array x0 = st::slice(x, {0, 0}, {1024, 1}), x1 = st::slice(x, {0, 1}, {1024, 2});
  Array y = st::sin(x0 * 3.0f) * st::cos(x1 * 2.0f) + 0.5f * x0 * x1;

  Params p0 = init(st::random::key_at(keys, 1), 2, 64, 1);
  AdamState s0 = adam_init(p0);

  using Clock = std::chrono::steady_clock;
  auto ms_since = [](Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); };

  // Eager: a few steps, for the time per step.
  {
    Params p = p0;
    AdamState s = s0;
    train_step(p, s, x, y);  // warm up
    auto t0 = Clock::now();
    const int n = 20;
    for (int i = 0; i < n; ++i) std::tie(p, s, std::ignore) = train_step(p, s, x, y);
    std::printf("eager: %.3f ms per step\n", ms_since(t0) / n);
  }

  // Jitted: the whole step (forward, backward, Adam) is one compiled program.
  auto step = st::jit(train_step, {.name = "train_step"});
  Params p = p0;
  AdamState s = s0;
  auto t_compile = Clock::now();
  Array loss;
  std::tie(p, s, loss) = step(p, s, x, y);
  std::printf("jit: first call (trace + compile + run) %.1f ms\n", ms_since(t_compile));
  std::printf("step %4d  loss %.5f\n", 1, loss.item<float>());
  auto t0 = Clock::now();
  for (int i = 2; i <= steps; ++i) {
    std::tie(p, s, loss) = step(p, s, x, y);
    if (i % 100 == 0) std::printf("step %4d  loss %.5f\n", i, loss.item<float>());
  }
  double per_step = ms_since(t0) / (steps - 1);
  std::printf("jit: %.3f ms per step\n", per_step);
  float final_loss = loss_fn(p, x, y).item<float>();
  std::printf("final loss %.5f (target < 0.005)\n", final_loss);
  return final_loss < 0.005f ? 0 : 1;
}
