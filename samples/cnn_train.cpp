// samples/cnn_train.cpp — a small CNN (two convolutions, max and average pooling, a dense head)
// trained with st::jit(st::value_and_grad(loss)) on a synthetic task it generates: which
// quadrant of a noisy 16×16 image holds a bright blob. Exits non-zero unless the accuracy on
// held-out images reaches 95%.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "strata/strata.h"

namespace st = strata;
using st::Array;

constexpr int kSize = 16, kClasses = 4;

struct Cnn {
  Array w1, b1, w2, b2, w3, b3;
};
STRATA_PYTREE(Cnn, w1, b1, w2, b2, w3, b3);

// NHWC images, HWIO kernels: conv 3×3 1→8, relu, max-pool 2×2; conv 3×3 8→16, relu, avg-pool
// 2×2; dense 256→4.
Array logits(const Cnn& p, const Array& x) {
  const st::ConvDimensionNumbers dn("NHWC", "HWIO", "NHWC");
  Array h = st::relu(st::conv_general_dilated(x, p.w1, {1, 1}, "SAME", {}, {}, dn) + p.b1);
  h = st::nn::max_pool(h, {2, 2}, {2, 2});
  h = st::relu(st::conv_general_dilated(h, p.w2, {1, 1}, "SAME", {}, {}, dn) + p.b2);
  h = st::nn::avg_pool(h, {2, 2}, {2, 2});
  return st::matmul(st::reshape(h, {x.shape(0), -1}), p.w3) + p.b3;
}

// Mean softmax cross-entropy against one-hot labels.
Array loss(const Cnn& p, const Array& x, const Array& onehot) {
  Array z = logits(p, x);
  return st::mean(st::logsumexp(z, 1) - st::sum(z * onehot, 1));
}

// `n` images with a Gaussian blob centred well inside one quadrant, plus noise; labels 0..3
// (top-left, top-right, bottom-left, bottom-right).
struct Data {
  Array x, onehot;
  std::vector<int> labels;
};
Data make_data(int n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pos(2, 5), quadrant(0, kClasses - 1);
  std::normal_distribution<float> noise(0.0f, 0.3f);
  std::vector<float> x(static_cast<size_t>(n) * kSize * kSize), oh(static_cast<size_t>(n) * kClasses, 0.0f);
  Data d;
  for (int i = 0; i < n; ++i) {
    int q = quadrant(rng);
    int cy = pos(rng) + (q / 2) * 8, cx = pos(rng) + (q % 2) * 8;
    for (int r = 0; r < kSize; ++r)
      for (int c = 0; c < kSize; ++c)
        x[(static_cast<size_t>(i) * kSize + r) * kSize + c] =
            std::exp(-((r - cy) * (r - cy) + (c - cx) * (c - cx)) / 3.0f) + noise(rng);
    oh[static_cast<size_t>(i) * kClasses + q] = 1.0f;
    d.labels.push_back(q);
  }
  d.x = st::array(x, {n, kSize, kSize, 1});
  d.onehot = st::array(oh, {n, kClasses});
  return d;
}

double accuracy(const Cnn& p, const Data& d) {
  std::vector<int64_t> pred = st::argmax(logits(p, d.x), 1).to_vector<int64_t>();
  int right = 0;
  for (size_t i = 0; i < pred.size(); ++i) right += pred[i] == d.labels[i];
  return static_cast<double>(right) / static_cast<double>(pred.size());
}

int main() {
  const int batch = 64, steps = 150;
  const float lr = 0.05f;
  Array k = st::random::split(st::random::key(0), 3);
  Cnn p{st::random::normal(st::random::key_at(k, 0), {3, 3, 1, 8}) * 0.5f, st::zeros({8}),
        st::random::normal(st::random::key_at(k, 1), {3, 3, 8, 16}) * 0.15f, st::zeros({16}),
        st::random::normal(st::random::key_at(k, 2), {256, kClasses}) * 0.1f, st::zeros({kClasses})};
  Data train = make_data(batch * 16, 1), test = make_data(512, 2);
  auto step = st::jit(st::value_and_grad(loss));
  auto t0 = std::chrono::steady_clock::now();
  float last = 0;
  for (int s = 0; s < steps; ++s) {
    int64_t b = (s % 16) * batch;
    Array x = st::slice(train.x, {b, 0, 0, 0}, {b + batch, kSize, kSize, 1});
    Array y = st::slice(train.onehot, {b, 0}, {b + batch, kClasses});
    auto [l, g] = step(p, x, y);
    std::vector<Array> pl = st::tree_flatten(p), gl = st::tree_flatten(g);
    for (size_t i = 0; i < pl.size(); ++i) pl[i] = pl[i] - gl[i] * lr;
    p = st::tree_unflatten(p, pl);
    last = l.item<float>();
    if (s % 50 == 0) std::printf("step %3d loss %.4f\n", s, last);
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double acc = accuracy(p, test);
  std::printf("after %d steps (%.2f s): loss %.4f, held-out accuracy %.1f%%\n", steps, secs, last, acc * 100);
  if (acc < 0.95) {
    std::printf("FAILED: accuracy below 95%%\n");
    return 1;
  }
  return 0;
}
