// samples/mlp.h — the 2-layer MLP of train_mlp and train_data_parallel: parameters, Adam's
// state, initialisation, prediction and the mean squared error.
#pragma once

#include <cmath>

#include "strata/strata.h"

struct Params {
  strata::Array w1, b1, w2, b2;
};
STRATA_PYTREE(Params, w1, b1, w2, b2);

struct AdamState {
  Params m, v;
  strata::Array step;
};
STRATA_PYTREE(AdamState, m, v, step);

inline Params init(const strata::Array& key, int in, int hidden, int out) {
  namespace st = strata;
  st::Array k = st::random::split(key, 2);
  return {st::random::normal(st::random::key_at(k, 0), {in, hidden}) * static_cast<float>(std::sqrt(2.0 / in)),
          st::zeros({hidden}),
          st::random::normal(st::random::key_at(k, 1), {hidden, out}) * static_cast<float>(std::sqrt(1.0 / hidden)),
          st::zeros({out})};
}

// Adam's state at step 0: zero moments shaped like the parameters.
inline AdamState adam_init(const Params& p) {
  namespace st = strata;
  auto zeros = [](const st::Array& a) { return st::zeros_like(a); };
  return {st::tree_map(p, zeros), st::tree_map(p, zeros), st::zeros({})};
}

inline strata::Array predict(const Params& p, const strata::Array& x) {
  return strata::matmul(strata::tanh(strata::matmul(x, p.w1) + p.b1), p.w2) + p.b2;
}

inline strata::Array loss_fn(const Params& p, const strata::Array& x, const strata::Array& y) {
  strata::Array err = predict(p, x) - y;
  return strata::mean(err * err);
}
