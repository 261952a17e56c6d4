// bench/bench_compile.cpp — first-call latency (trace → compile → run) of issue 17's programs,
// per stage, and how much code each stage holds. Every repetition calls a fresh jit object
// (an empty cache, no disk cache); the programs alternate within each round, so a noisy
// neighbour widens every program's spread alike instead of favouring one. Prints, per program,
//   first_call <name> <median ms> (min <ms> max <ms>, n=<reps>)
//   stages <name> trace <ms>, strata <ms>, … (medians)
//   sizes <name> <stage> <lines> … (the loops, llvm-dialect and llvm-ir stages; with --sizes)
// bench/run_compile.sh runs it beside bench/compile_jax.py (JAX CPU, the same programs).
//   run <name> jit <ms> eager <ms> (with --run N: steady-state calls, medians of N)
// Usage: bench_compile [REPS=15] [--sizes] [--only NAME] [--opt LEVEL] [--print STAGE] [--run N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "programs.h"
#include "strata/strata.h"

namespace st = strata;
using st::Array;

namespace {

struct Program {
  std::string name;
  // One first call on a fresh jit object; returns the stage times of its compilation.
  std::function<std::vector<std::pair<std::string, double>>(double& ms)> first_call;
  // The program after a stage (for --sizes and --print).
  std::function<std::string(const std::string& stage)> texts;
  // --run: the median ms of a call once compiled, and of the same program run eagerly.
  std::function<std::pair<double, double>(int reps)> steady;
};

double now_ms() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

int opt_level = 3;  // --opt N: JitOptions::opt_level

template <class F, class... Args>
Program make(std::string name, F f, Args... args) {
  Program p;
  p.name = name;
  p.first_call = [=](double& ms) {
    auto j = st::jit(f, {.name = name, .opt_level = opt_level});
    double t0 = now_ms();
    auto out = j(args...);
    for (const Array& a : st::tree_flatten(out)) a.block_until_ready();
    ms = now_ms() - t0;
    return j.stats().last_compile_ms;
  };
  p.steady = [=](int reps) {
    auto j = st::jit(f, {.name = name, .opt_level = opt_level});
    auto time = [&](auto&& call) {
      std::vector<double> v;
      for (int r = 0; r < reps + 1; ++r) {
        double t0 = now_ms();
        auto out = call();
        for (const Array& a : st::tree_flatten(out)) a.block_until_ready();
        if (r > 0) v.push_back(now_ms() - t0);  // the first call compiles (jit) or warms up
      }
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    double jit_ms = time([&] { return j(args...); });
    double eager_ms = time([&] { return f(args...); });
    return std::make_pair(jit_ms, eager_ms);
  };
  p.texts = [=](const std::string& stage) {
    return st::jit(f, {.name = name, .opt_level = opt_level}).lower(args...).as_text(stage);
  };
  return p;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 15;
  bool sizes = false;
  int run = 0;
  std::string only, print;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--sizes")) sizes = true;
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!std::strcmp(argv[i], "--opt") && i + 1 < argc) opt_level = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--print") && i + 1 < argc) print = argv[++i];
    else if (!std::strcmp(argv[i], "--run") && i + 1 < argc) run = std::atoi(argv[++i]);
    else reps = std::atoi(argv[i]);
  }
  Array sx = bench::rnd({8, 256}, 1), sw = bench::rnd({256, 256}, 2), sb = bench::rnd({256}, 3);
  bench::Mlp mp = bench::mlp_params(784, 1024, 10);
  Array mx = bench::rnd({256, 784}, 4), my = bench::rnd({256, 10}, 5);
  Array smx = bench::rnd({256, 1024}, 6);
  Array ox = bench::rnd({256, 256}, 7), oy = bench::rnd({256, 256}, 8) * 0.05f;
  std::vector<Program> programs = {
      make("seed_line", bench::seed_line, sx, sw, sb),
      make("mlp_step", bench::mlp_sgd_step, mp, mx, my),
      make("softmax", [](const Array& x) { return st::softmax(x); }, smx),
      make("ops50", bench::ops50, ox, oy),
  };
  if (!only.empty())
    programs.erase(std::remove_if(programs.begin(), programs.end(), [&](const Program& p) { return p.name != only; }),
                   programs.end());

  if (run > 0) {  // --run N: steady-state calls instead of first calls
    for (Program& p : programs) {
      auto [jit_ms, eager_ms] = p.steady(run);
      std::printf("run %s jit %.3f eager %.3f (ms, medians of %d)\n", p.name.c_str(), jit_ms, eager_ms, run);
    }
    return 0;
  }
  if (!print.empty()) {  // --print STAGE: the stage's text of each program (of --only NAME), nothing timed
    for (Program& p : programs) std::printf("%s", p.texts(print).c_str());
    return 0;
  }
  std::vector<std::vector<double>> totals(programs.size());
  std::vector<std::map<std::string, std::vector<double>>> stages(programs.size());
  std::vector<std::vector<std::string>> order(programs.size());
  for (Program& p : programs) {  // a first round that warms the process (thread pool, LLVM's statics)
    double ms;
    p.first_call(ms);
  }
  for (int r = 0; r < reps; ++r)
    for (size_t i = 0; i < programs.size(); ++i) {
      double ms = 0;
      auto times = programs[i].first_call(ms);
      totals[i].push_back(ms);
      if (order[i].empty())
        for (const auto& [s, t] : times) order[i].push_back(s);
      for (const auto& [s, t] : times) stages[i][s].push_back(t);
    }
  for (size_t i = 0; i < programs.size(); ++i) {
    const auto& v = totals[i];
    std::printf("first_call %s %.1f (min %.1f max %.1f, n=%d)\n", programs[i].name.c_str(), median(v),
                *std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()), reps);
    std::printf("stages %s", programs[i].name.c_str());
    for (size_t k = 0; k < order[i].size(); ++k)
      std::printf("%s %s %.1f", k ? "," : "", order[i][k].c_str(), median(stages[i][order[i][k]]));
    std::printf("\n");
    if (sizes) {
      std::printf("sizes %s", programs[i].name.c_str());
      for (const char* stage : {"loops", "llvm-dialect", "llvm-ir"}) {
        std::string text = programs[i].texts(stage);
        std::printf(" %s %ld", stage, static_cast<long>(std::count(text.begin(), text.end(), '\n')));
      }
      std::printf(" (lines)\n");
    }
  }
  return 0;
}
