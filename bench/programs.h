// bench/programs.h — the programs more than one benchmark measures, defined once.
#pragma once

#include <cstdint>

#include "strata/strata.h"

namespace bench {

inline strata::Array rnd(const strata::Shape& shape, uint64_t seed) {
  return strata::random::normal(strata::random::key(seed), shape);
}

// The seed line: relu(x·w + b).
inline strata::Array seed_line(const strata::Array& x, const strata::Array& w, const strata::Array& b) {
  return strata::relu(strata::matmul(x, w) + b);
}

// A chain of 8 elementwise ops (the comments count them), run on kChainN floats.
inline constexpr int64_t kChainN = 16 << 20;
inline strata::Array chain8(const strata::Array& x, const strata::Array& y) {
  strata::Array a = x * 1.5f + y;              // 2
  strata::Array b = strata::maximum(a, 0.0f);  // 3
  strata::Array c = b * b - y;                 // 5
  strata::Array d = c / 3.0f;                  // 6
  strata::Array e = d + x;                     // 7
  return strata::minimum(e, 10.0f);            // 8
}

// A 50-op program (five blocks of the ten ops counted below) on f32[256,256]: elementwise,
// transcendental, a row reduction and a matmul per block, so it compiles to several kernels.
// bench/compile_jax.py writes the same program in JAX.
inline strata::Array ops50(const strata::Array& x, const strata::Array& y) {
  strata::Array a = x;
  for (int block = 0; block < 5; ++block) {
    a = strata::sin(a) * y + 0.5f;                  // 3: sin, mul, add
    a = strata::exp(-(a * a));                      // 6: mul, neg, exp
    a = a - strata::max(a, {1}, /*keepdims=*/true);  // 8: reduce_max, sub
    a = strata::matmul(strata::tanh(a), y);         // 10: tanh, dot
  }
  return a;
}

// The MLP training step of issue 17: 784→1024→10, tanh, MSE, jit(value_and_grad) and SGD.
struct Mlp {
  strata::Array w1, b1, w2, b2;
};
STRATA_PYTREE(Mlp, w1, b1, w2, b2);
inline strata::Array mlp_loss(const Mlp& p, const strata::Array& x, const strata::Array& y) {
  strata::Array err = strata::matmul(strata::tanh(strata::matmul(x, p.w1) + p.b1), p.w2) + p.b2 - y;
  return strata::mean(err * err);
}
inline std::tuple<Mlp, strata::Array> mlp_sgd_step(const Mlp& p, const strata::Array& x, const strata::Array& y) {
  auto [loss, g] = strata::value_and_grad(mlp_loss)(p, x, y);
  Mlp q{p.w1 - 0.01f * g.w1, p.b1 - 0.01f * g.b1, p.w2 - 0.01f * g.w2, p.b2 - 0.01f * g.b2};
  return {q, loss};
}
inline Mlp mlp_params(int64_t in, int64_t hidden, int64_t out) {
  return {rnd({in, hidden}, 11) * 0.05f, strata::zeros({hidden}), rnd({hidden, out}, 12) * 0.05f, strata::zeros({out})};
}

}  // namespace bench
