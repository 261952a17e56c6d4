// samples/per_example_grads.cpp — per-example gradient norms with st::vmap(st::grad(loss)) for
// a small recurrent model whose loss runs st::scan over each example's sequence. Checks each
// norm against grad run on that example alone, and the compiled result against eager mode;
// prints the compiled-vs-eager speedup; exits non-zero on a disagreement.
#include <chrono>
#include <cmath>
#include <cstdio>

#include "strata/strata.h"

namespace st = strata;
using st::Array;

struct Model {
  Array w_in, w_h, w_out;
};
STRATA_PYTREE(Model, w_in, w_h, w_out);

// h_t = tanh(x_t W_in + h_{t-1} W_h); loss = (h_T · w_out - y)².
Array loss(const Model& m, const Array& xs, const Array& y) {
  int64_t hidden = m.w_h.shape(0);
  auto [h, nothing] = st::scan([&](const Array& h, const Array& x) {
    Array next = st::tanh(st::matmul(st::reshape(x, {1, -1}), m.w_in) + st::matmul(st::reshape(h, {1, -1}), m.w_h));
    return std::make_pair(st::reshape(next, {hidden}), std::tuple<>{});
  }, st::zeros({hidden}), xs);
  Array e = st::sum(h * m.w_out) - y;
  return e * e;
}

template <class F>
double seconds(F&& f, int reps) {
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
}

int main() {
  const int batch = 32, steps = 20, features = 8, hidden = 16;
  Array keys = st::random::split(st::random::key(0), 5);
  Model m{st::random::normal(st::random::key_at(keys, 0), {features, hidden}) * 0.3f,
          st::random::normal(st::random::key_at(keys, 1), {hidden, hidden}) * 0.2f,
          st::random::normal(st::random::key_at(keys, 2), {hidden})};
  Array xs = st::random::normal(st::random::key_at(keys, 3), {batch, steps, features});
  Array ys = st::random::normal(st::random::key_at(keys, 4), {batch});

  auto per_example = [](const Model& model, const Array& x, const Array& y) {
    Model g = st::vmap(st::grad(loss), {std::nullopt, 0, 0})(model, x, y);
    // Each leaf is [batch, ...]: reduce all but the batch axis (leaves are 2-d or 1-d).
    Array s = st::zeros({x.shape(0)});
    for (const Array& leaf : st::tree_flatten(g)) {
      std::vector<int> axes;
      for (int a = 1; a < leaf.ndim(); ++a) axes.push_back(a);
      s = s + st::sum(leaf * leaf, axes);
    }
    return st::sqrt(s);
  };
  auto jit_per_example = st::jit(per_example);
  Array eager = per_example(m, xs, ys);
  Array compiled = jit_per_example(m, xs, ys);
  double t_eager = seconds([&] { per_example(m, xs, ys).block_until_ready(); }, 1);
  double t_jit = seconds([&] { jit_per_example(m, xs, ys).block_until_ready(); }, 10);

  // Reference: grad on each example alone.
  std::vector<float> got = compiled.to_vector<float>(), want_eager = eager.to_vector<float>();
  double worst = 0, worst_jit = 0;
  for (int b = 0; b < batch; ++b) {
    Array x = st::reshape(st::slice(xs, {b, 0, 0}, {b + 1, steps, features}), {steps, features});
    Array y = st::reshape(st::slice(ys, {b}, {b + 1}), {});
    Model g = st::grad(loss)(m, x, y);
    double s = 0;
    for (const Array& leaf : st::tree_flatten(g)) s += st::sum(leaf * leaf).item<double>();
    double ref = std::sqrt(s);
    worst = std::max(worst, std::fabs(want_eager[static_cast<size_t>(b)] - ref) / std::max(1e-3, ref));
    worst_jit = std::max(worst_jit, std::fabs(got[static_cast<size_t>(b)] - ref) / std::max(1e-3, ref));
  }
  std::printf("per-example gradient norms of a %d-step RNN, batch %d: first %.5f %.5f %.5f\n", steps, batch, got[0], got[1],
              got[2]);
  std::printf("max relative error vs per-example grad: eager vmap %.2e, jit vmap %.2e\n", worst, worst_jit);
  std::printf("eager %.3f ms, jit %.3f ms: speedup %.1fx\n", t_eager * 1e3, t_jit * 1e3, t_eager / t_jit);
  if (worst > 1e-4 || worst_jit > 1e-4) {
    std::printf("FAILED: per-example gradient norms disagree\n");
    return 1;
  }
  return 0;
}
