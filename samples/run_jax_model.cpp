// run_jax_model: a program written in JAX, exported as StableHLO, run from C++ with no Python.
//
//   run_jax_model [MODEL.mlir] [--reps N] [--jax PYTHON]
//
// Loads MODEL.mlir (default: transformer_block.mlir of ../shared/conformance/jax, exported
// with jax.jit(f).lower(*args).as_text()), runs @main on MODEL.in<i>.npy and prints the
// largest difference from JAX's outputs MODEL.out<i>.npy and the time per call. For the
// transformer block it also runs the same block written with strata's ops, eagerly and under
// jit, and with --jax PYTHON (a Python with jax) JAX's own time for it
// (samples/run_jax_model_jax.py), all in this one run. Exit status 1 when the outputs differ
// from JAX's by more than 1e-4 (relative to their scale).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "strata/strata.h"

namespace st = strata;
namespace fs = std::filesystem;

namespace {

// Median seconds per call of f over `reps` calls (after one warm-up).
double median_seconds(const std::function<void()>& f, int reps) {
  f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// max |a - b| / max(1, max |b|)
double scaled_difference(const st::Array& a, const st::Array& b) {
  std::vector<double> x = a.to_vector<double>(), y = b.to_vector<double>();
  double diff = 0, scale = 1;
  for (size_t i = 0; i < x.size(); ++i) {
    diff = std::max(diff, std::fabs(x[i] - y[i]));
    scale = std::max(scale, std::fabs(y[i]));
  }
  return diff / scale;
}

std::vector<st::Array> load_numbered(const std::string& prefix, const std::string& kind) {
  std::vector<st::Array> out;
  for (int i = 0; fs::exists(prefix + "." + kind + std::to_string(i) + ".npy"); ++i)
    out.push_back(st::load_npy(prefix + "." + kind + std::to_string(i) + ".npy"));
  return out;
}

// The transformer block of transformer_block.mlir, written with strata's ops: layer norm
// (st::layer_norm: last axis, eps 1e-5), causal self-attention, a tanh-GELU MLP, residuals.

st::Array block(const st::Array& x, const st::Array& wq, const st::Array& wk, const st::Array& wv,
                const st::Array& wo, const st::Array& w1, const st::Array& w2) {
  st::Array h = st::layer_norm(x);
  st::Array q = st::matmul(h, wq), k = st::matmul(h, wk), v = st::matmul(h, wv);
  int64_t t = x.shape()[1];
  st::Array scores = st::matmul(q, st::transpose(k, {0, 2, 1})) / std::sqrt(static_cast<float>(x.shape()[2]));
  st::Array row = st::reshape(st::arange(t), {t, 1}), col = st::reshape(st::arange(t), {1, t});
  st::Array p = st::softmax(st::where(row >= col, scores, st::full({}, -1e9, st::f32)), -1);
  st::Array x1 = x + st::matmul(st::matmul(p, v), wo);
  st::Array u = st::matmul(st::layer_norm(x1), w1);
  st::Array g = 0.5f * u * (1.f + st::tanh(0.7978845608f * (u + 0.044715f * u * u * u)));
  return x1 + st::matmul(g, w2);
}

}  // namespace

int main(int argc, char** argv) {
  std::string model = (fs::path(STRATA_SOURCE_DIR) / ".." / "shared" / "conformance" / "jax" / "transformer_block.mlir").string();
  std::string python;
  int reps = 50;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) reps = std::stoi(argv[++i]);
    else if (a == "--jax" && i + 1 < argc) python = argv[++i];
    else model = a;
  }
  if (!fs::exists(model)) {
    std::cout << "run_jax_model: no model at " << model << " (the conformance corpus is not here); skipped\n";
    return 0;
  }
  std::string prefix = model.substr(0, model.size() - 5);
  std::vector<st::Array> args = load_numbered(prefix, "in"), want = load_numbered(prefix, "out");

  st::Module m = st::load_stablehlo(model);
  std::vector<st::Array> got = m("main")(args);
  double worst = 0;
  for (size_t i = 0; i < want.size() && i < got.size(); ++i) worst = std::max(worst, scaled_difference(got[i], want[i]));
  std::printf("%s: %zu inputs, %zu outputs; max difference from JAX's outputs %.3g (scaled)\n",
              fs::path(model).filename().c_str(), args.size(), got.size(), worst);
  std::printf("  %-34s %10.1f us/call\n", "strata, the StableHLO module",
              1e6 * median_seconds([&] { m("main")(args); }, reps));

  bool ok = got.size() == want.size() && worst <= 1e-4;
  if (fs::path(model).filename() == "transformer_block.mlir" && args.size() == 7) {
    auto call = [&](auto&& f) { return f(args[0], args[1], args[2], args[3], args[4], args[5], args[6]); };
    st::Array eager = call(block);
    auto jitted = st::jit(block);
    st::Array compiled = call(jitted);
    double de = scaled_difference(eager, want[0]), dj = scaled_difference(compiled, want[0]);
    std::printf("  %-34s %10.1f us/call  (difference %.3g)\n", "strata, the block in C++, eager",
                1e6 * median_seconds([&] { call(block).block_until_ready(); }, reps), de);
    std::printf("  %-34s %10.1f us/call  (difference %.3g)\n", "strata, the block in C++, jit",
                1e6 * median_seconds([&] { call(jitted).block_until_ready(); }, reps), dj);
    ok = ok && de <= 1e-4 && dj <= 1e-4;
    if (!python.empty()) {
      std::string script = (fs::path(STRATA_SOURCE_DIR) / "samples" / "run_jax_model_jax.py").string();
      std::string cmd = python + " " + script + " " + prefix + " " + std::to_string(reps);
      std::fflush(stdout);
      if (std::system(cmd.c_str()) != 0) std::cout << "  (the JAX run failed)\n";
    }
  }
  if (!ok) std::cout << "FAILED: outputs differ from JAX's by more than 1e-4\n";
  return ok ? 0 : 1;
}
