// samples/train_rnn.cpp — a recurrent network (a tanh RNN over 50 steps, a scan) learns to
// output the running mean of a noisy sine, trained with st::optim (Adam with a warmup-cosine
// schedule and global-norm clipping, as optax) in one jitted step that prints its own loss
// every 100 steps with st::debug::print and checks it is finite with st::debug::check. Exits
// non-zero when the loss does not fall below a tenth of its start or the jitted step disagrees
// with the eager one.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "strata/strata.h"

namespace st = strata;
namespace opt = st::optim;
using st::Array;

struct Rnn {
  Array w_in, w_h, b, w_out;
};
STRATA_PYTREE(Rnn, w_in, w_h, b, w_out);

constexpr int64_t kSteps = 50, kBatch = 16, kHidden = 32;

// xs: [steps, batch, 1] → predictions [steps, batch, 1].
Array forward(const Rnn& p, const Array& xs) {
  auto [h, ys] = st::scan(
      [&](const Array& h, const Array& x) {
        Array n = st::tanh(st::matmul(x, p.w_in) + st::matmul(h, p.w_h) + p.b);
        return std::make_pair(n, st::matmul(n, p.w_out));
      },
      st::zeros({kBatch, kHidden}), xs);
  return ys;
}

Array loss_fn(const Rnn& p, const Array& xs, const Array& targets) {
  Array d = forward(p, xs) - targets;
  return st::mean(d * d);
}

int main(int argc, char** argv) {
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 600;
  // A noisy sine per sequence (random phase) and the running mean of its clean part.
  Array keys = st::random::split(st::random::key(7), 6);
  Array phase = st::random::uniform(st::random::key_at(keys, 0), {1, kBatch, 1}, st::f32, 0.0, 6.28);
  Array t = st::reshape(st::arange(0.0, static_cast<double>(kSteps), 1.0), {kSteps, 1, 1}) * 0.3f;
  Array clean = st::sin(t + phase);
  Array xs = clean + 0.1f * st::random::normal(st::random::key_at(keys, 1), {kSteps, kBatch, 1});
  Array targets = st::cumsum(clean, 0) / st::reshape(st::arange(1.0, kSteps + 1.0, 1.0), {kSteps, 1, 1});

  auto init = [&](int k, st::Shape s, double scale) { return st::random::normal(st::random::key_at(keys, k), s) * static_cast<float>(scale); };
  Rnn p{init(2, {1, kHidden}, 1.0), init(3, {kHidden, kHidden}, 1.0 / std::sqrt(kHidden)), st::zeros({kHidden}),
        init(4, {kHidden, 1}, 1.0 / std::sqrt(kHidden))};

  opt::GradientTransformation tx =
      opt::chain({opt::clip_by_global_norm(1.0), opt::adam(opt::warmup_cosine_decay_schedule(0.0, 1e-2, 50, iterations))});
  auto step = [&](const Rnn& params, const opt::OptState& state, const Array& i) {
    auto [loss, g] = st::value_and_grad(loss_fn)(params, xs, targets);
    st::debug::check(st::isfinite(loss), "the loss is not finite at iteration {}", i);
    st::cond(i % 100 == 0, [&](const Array& l) { st::debug::print("iteration {:4d}  loss {:.5f}", i, l); return l; },
             [](const Array& l) { return l; }, loss);
    auto [updates, next] = tx.update(g, state, params);
    return std::make_tuple(opt::apply_updates(params, updates), next, loss);
  };
  auto jstep = st::jit(step);

  // The jitted step against the eager one, once.
  opt::OptState s0 = tx.init(p);
  auto [pe, se, le] = step(p, s0, Array(int32_t{1}));
  auto [pj, sj, lj] = jstep(p, s0, Array(int32_t{1}));
  double diff = st::max(st::abs(pe.w_h - pj.w_h)).item<double>();
  if (std::fabs(le.item<double>() - lj.item<double>()) > 1e-5 || diff > 1e-5) {
    std::fprintf(stderr, "jit and eager disagree: loss %g vs %g, max |w_h diff| %g\n", le.item<double>(), lj.item<double>(), diff);
    return 1;
  }

  opt::OptState state = s0;
  double first = 0, last = 0;
  for (int i = 0; i < iterations; ++i) {
    Array loss;
    std::tie(p, state, loss) = jstep(p, state, Array(int32_t(i)));
    if (i == 0) first = loss.item<double>();
    last = loss.item<double>();
  }
  std::printf("loss %.5f -> %.5f after %d iterations\n", first, last, iterations);
  if (!(last < first / 10)) {
    std::fprintf(stderr, "the loss did not fall below a tenth of its start\n");
    return 1;
  }
  return 0;
}
