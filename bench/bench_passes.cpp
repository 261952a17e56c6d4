// bench/bench_passes.cpp — the measured effect of the compiler's passes, each program
// compiled with the pass on and off and measured in the same run (bench/run.sh bench_passes):
//   - relu(x·w + b): eager vs jit without fusion vs jit with the bias add and relu as the
//     GEMM's epilogue; `ew_bytes` = memory traffic of the elementwise part beyond the GEMM's
//     own output (each elementwise op reading its operands and writing its result; the fused
//     epilogue reads and writes each output block in cache right after the GEMM, so 0);
//   - an 8-op elementwise chain, softmax, layer norm, an MLP forward: fusion off vs on, with
//     `kernels` = the fused stage's fusion regions and lone ops, `loop_nests` = what they run
//     as (loop nests and runtime calls);
//   - an MLP forward and backward (jit(grad(loss))): buffer assignment off vs on, with
//     `scratch_bytes` (the arena) and `temporaries_bytes` (all temporaries, unshared).
#include <benchmark/benchmark.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "programs.h"
#include "strata/strata.h"

namespace st = strata;
using st::Array;
using bench::chain8;
using bench::kChainN;
using bench::rnd;
using bench::seed_line;

namespace {

// ---- What a program compiles to ----

// The top-level lines of @main in one stage's text, each without its indentation.
std::vector<std::string> main_ops(const st::Lowered& lowered, const std::string& stage) {
  std::istringstream in(lowered.as_text(stage));
  std::vector<std::string> ops;
  std::string line;
  bool inMain = false;
  while (std::getline(in, line)) {
    if (line.rfind("  func.func", 0) == 0) inMain = line.find("@main(") != std::string::npos;
    if (inMain && line.size() > 4 && line.rfind("    ", 0) == 0 && line[4] != ' ') ops.push_back(line.substr(4));
  }
  return ops;
}

// Kernels as XLA counts them: the fused stage's top-level computations (each strata.fusion
// region, and each op left on its own), not counting constants and reshapes (views).
int kernels(const st::Lowered& lowered) {
  int n = 0;
  for (const std::string& op : main_ops(lowered, "fused")) {
    size_t at = op.find("= strata.");
    if (at == std::string::npos) continue;
    std::string name = op.substr(at + 9, op.find_first_of(" (", at + 9) - at - 9);
    if (name != "constant" && name != "reshape") ++n;
  }
  return n;
}

// What those kernels run as: the top-level loop nests and runtime calls of the `loops` stage
// (an input fusion is up to three: its accumulators' fill, the reduction, the epilogue on the
// reduced values).
int loop_nests(const st::Lowered& lowered) {
  int n = 0;
  for (const std::string& op : main_ops(lowered, "loops"))
    if (op.rfind("scf.parallel", 0) == 0 || op.rfind("scf.for", 0) == 0 || op.rfind("call @", 0) == 0) ++n;
  return n;
}

struct Report {
  int kernels = 0, loop_nests = 0;
  st::MemoryStats memory;
};

// f lowered and compiled with `options` for `args`.
template <class F, class... A>
Report compiled(F f, const st::JitOptions& options, const A&... args) {
  auto lowered = st::jit(f, options).lower(args...);
  return {kernels(lowered), loop_nests(lowered), lowered.compile().memory_analysis()};
}

void set_counters(benchmark::State& state, const Report& r) {
  state.counters["kernels"] = r.kernels;
  state.counters["loop_nests"] = r.loop_nests;
  state.counters["scratch_bytes"] = static_cast<double>(r.memory.scratch_bytes);
  state.counters["temporaries_bytes"] = static_cast<double>(r.memory.temporaries_bytes);
}

// The bytes of a value of type "f32[4096,64]" (as a jaxpr prints it).
double type_bytes(const std::string& type) {
  size_t open = type.find('[');
  st::DType dtype;
  if (open == std::string::npos || !st::parse_dtype(type.substr(0, open), &dtype)) return 0;
  double n = 1;
  std::istringstream dims(type.substr(open + 1, type.size() - open - 2));
  for (std::string d; std::getline(dims, d, ',');) n *= std::stod(d);
  return n * static_cast<double>(st::itemsize(dtype));
}

// Memory traffic of the elementwise ops after the dot (each reads its operands and writes its
// result, as eagerly or unfused), in bytes, read from the jaxpr's text: each equation is a line
// "c:f32[8,16] = prim[params] a 2.0:f32[]" whose binders give each variable's type.
double elementwise_bytes(const st::Jaxpr& j) {
  std::istringstream lines(j.to_string());
  std::map<std::string, double> bytes_of;  // variable name -> its bytes
  auto declare = [&](const std::string& binder) {
    size_t colon = binder.find(':');
    bytes_of[binder.substr(0, colon)] = type_bytes(binder.substr(colon + 1));
  };
  double bytes = 0;
  bool after = false;
  for (std::string line; std::getline(lines, line);) {
    size_t eq = line.find(" = ");
    if (eq == std::string::npos) {
      // The header: "{ lambda consts ; inputs. let".
      std::istringstream words(line);
      for (std::string w; words >> w;)
        if (w.find(':') != std::string::npos) declare(w.back() == '.' ? w.substr(0, w.size() - 1) : w);
      continue;
    }
    std::istringstream outs(line.substr(0, eq));
    std::vector<std::string> binders;
    for (std::string b; outs >> b;) binders.push_back(b);
    // The primitive's name, then its params in brackets (which may hold spaces), then operands.
    std::string rest = line.substr(eq + 3);
    size_t end = rest.find_first_of("[ ");
    std::string prim = rest.substr(0, end);
    if (end != std::string::npos && rest[end] == '[') {
      int depth = 0;
      for (; end < rest.size(); ++end) {
        depth += rest[end] == '[' ? 1 : rest[end] == ']' ? -1 : 0;
        if (depth == 0) break;
      }
      ++end;
    }
    for (const std::string& b : binders) declare(b);
    if (prim == "dot_general") {
      after = true;
      continue;
    }
    if (!after) continue;
    std::istringstream operands(end < rest.size() ? rest.substr(end) : "");
    for (std::string a; operands >> a;)
      bytes += a.find(':') != std::string::npos ? type_bytes(a.substr(a.find(':') + 1)) : bytes_of[a];
    for (const std::string& b : binders) bytes += bytes_of[b.substr(0, b.find(':'))];
  }
  return bytes;
}

// ---- relu(x·w + b) ----

// M, N, K: the issue's two sizes, where the GEMM dominates, and a shallow one (K = 64) where the
// elementwise part is most of the work.
void seed_args(benchmark::internal::Benchmark* b) {
  b->Args({4096, 4096, 4096})->Args({8, 4096, 4096})->Args({4096, 4096, 64});
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

struct SeedInputs {
  Array x, w, b;
  explicit SeedInputs(const benchmark::State& s)
      : x(rnd({s.range(0), s.range(2)}, 1)), w(rnd({s.range(2), s.range(1)}, 2)), b(rnd({s.range(1)}, 3)) {}
};

void seed_counters(benchmark::State& state, const SeedInputs& in, const st::JitOptions* o) {
  st::Jaxpr j = st::make_jaxpr(seed_line)(in.x, in.w, in.b);
  double mn = static_cast<double>(state.range(0) * state.range(1));
  state.counters["ew_bytes"] = o && o->fuse ? 0.0 : elementwise_bytes(j);
  state.counters["nominal_4MNs"] = 4 * mn * 4;
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * state.range(0) * state.range(1) * state.range(2),
                                                 benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
  if (o) set_counters(state, compiled(seed_line, {.fuse = o->fuse}, in.x, in.w, in.b));
}

void BM_SeedPasses_Eager(benchmark::State& state) {
  SeedInputs in(state);
  for (auto _ : state) benchmark::DoNotOptimize(seed_line(in.x, in.w, in.b));
  seed_counters(state, in, nullptr);
}
BENCHMARK(BM_SeedPasses_Eager)->Apply(seed_args);

void seed_jit(benchmark::State& state, st::JitOptions o) {
  SeedInputs in(state);
  auto f = st::jit(seed_line, o);
  f(in.x, in.w, in.b);
  for (auto _ : state) benchmark::DoNotOptimize(f(in.x, in.w, in.b));
  seed_counters(state, in, &o);
}
void BM_SeedPasses_Unfused(benchmark::State& state) { seed_jit(state, {.fuse = false}); }
BENCHMARK(BM_SeedPasses_Unfused)->Apply(seed_args);
void BM_SeedPasses_Fused(benchmark::State& state) { seed_jit(state, {}); }
BENCHMARK(BM_SeedPasses_Fused)->Apply(seed_args);

// ---- Fusion off vs on ----


Array softmax(const Array& x) { return st::softmax(x); }

Array layer_norm(const Array& x, const Array& g, const Array& b) {
  Array d = x - st::mean(x, -1, true);
  Array v = st::mean(d * d, -1, true);
  return d * st::rsqrt(v + 1e-5f) * g + b;
}

Array mlp(const Array& x, const Array& w1, const Array& b1, const Array& w2, const Array& b2) {
  return st::matmul(st::gelu(st::matmul(x, w1) + b1), w2) + b2;
}

// Runs jit(f, options) on `args`, reporting the compiled program's kernels and memory.
template <class F, class... A>
void run_jit(benchmark::State& state, F f, st::JitOptions o, const A&... args) {
  auto g = st::jit(f, o);
  g(args...);
  for (auto _ : state) benchmark::DoNotOptimize(g(args...));
  set_counters(state, compiled(f, {.fuse = o.fuse, .assign_buffers = o.assign_buffers}, args...));
}

template <class F, class... A>
void run_eager(benchmark::State& state, F f, const A&... args) {
  for (auto _ : state) benchmark::DoNotOptimize(f(args...));
}

struct Chain {
  Array x = rnd({kChainN}, 1), y = rnd({kChainN}, 2);
};
void BM_Chain8Passes_Eager(benchmark::State& s) { Chain c; run_eager(s, chain8, c.x, c.y); }
void BM_Chain8Passes_Unfused(benchmark::State& s) { Chain c; run_jit(s, chain8, {.fuse = false}, c.x, c.y); }
void BM_Chain8Passes_Fused(benchmark::State& s) { Chain c; run_jit(s, chain8, {}, c.x, c.y); }
BENCHMARK(BM_Chain8Passes_Eager)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Chain8Passes_Unfused)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Chain8Passes_Fused)->Unit(benchmark::kMillisecond)->UseRealTime();

struct Rows {
  Array x = rnd({4096, 4096}, 1), g = rnd({4096}, 2), b = rnd({4096}, 3);
};
void BM_SoftmaxPasses_Eager(benchmark::State& s) { Rows r; run_eager(s, softmax, r.x); }
void BM_SoftmaxPasses_Unfused(benchmark::State& s) { Rows r; run_jit(s, softmax, {.fuse = false}, r.x); }
void BM_SoftmaxPasses_Fused(benchmark::State& s) { Rows r; run_jit(s, softmax, {}, r.x); }
BENCHMARK(BM_SoftmaxPasses_Eager)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SoftmaxPasses_Unfused)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SoftmaxPasses_Fused)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_LayerNormPasses_Eager(benchmark::State& s) { Rows r; run_eager(s, layer_norm, r.x, r.g, r.b); }
void BM_LayerNormPasses_Unfused(benchmark::State& s) { Rows r; run_jit(s, layer_norm, {.fuse = false}, r.x, r.g, r.b); }
void BM_LayerNormPasses_Fused(benchmark::State& s) { Rows r; run_jit(s, layer_norm, {}, r.x, r.g, r.b); }
BENCHMARK(BM_LayerNormPasses_Eager)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LayerNormPasses_Unfused)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LayerNormPasses_Fused)->Unit(benchmark::kMillisecond)->UseRealTime();

// A two-layer MLP: batch 256, 1024 → 4096 (gelu) → 1024.
struct Mlp {
  Array x = rnd({256, 1024}, 1), w1 = rnd({1024, 4096}, 2), b1 = rnd({4096}, 3);
  Array w2 = rnd({4096, 1024}, 4), b2 = rnd({1024}, 5), y = rnd({256, 1024}, 6);
};
void BM_MlpPasses_Eager(benchmark::State& s) { Mlp m; run_eager(s, mlp, m.x, m.w1, m.b1, m.w2, m.b2); }
void BM_MlpPasses_Unfused(benchmark::State& s) { Mlp m; run_jit(s, mlp, {.fuse = false}, m.x, m.w1, m.b1, m.w2, m.b2); }
void BM_MlpPasses_Fused(benchmark::State& s) { Mlp m; run_jit(s, mlp, {}, m.x, m.w1, m.b1, m.w2, m.b2); }
BENCHMARK(BM_MlpPasses_Eager)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MlpPasses_Unfused)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MlpPasses_Fused)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- Buffer assignment off vs on: the MLP forward, and forward + backward ----

Array mlp_loss(const Array& w1, const Array& b1, const Array& w2, const Array& b2, const Array& x, const Array& y) {
  Array e = mlp(x, w1, b1, w2, b2) - y;
  return st::mean(e * e);
}
auto mlp_grad = st::grad(mlp_loss, st::argnums<0, 1, 2, 3>);

void BM_MlpForwardBuffers_Unshared(benchmark::State& s) {
  Mlp m;
  run_jit(s, mlp, {.assign_buffers = false}, m.x, m.w1, m.b1, m.w2, m.b2);
}
void BM_MlpForwardBuffers_Shared(benchmark::State& s) { Mlp m; run_jit(s, mlp, {}, m.x, m.w1, m.b1, m.w2, m.b2); }
BENCHMARK(BM_MlpForwardBuffers_Unshared)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MlpForwardBuffers_Shared)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_MlpBackwardBuffers_Unshared(benchmark::State& s) {
  Mlp m;
  run_jit(s, mlp_grad, {.assign_buffers = false}, m.w1, m.b1, m.w2, m.b2, m.x, m.y);
}
void BM_MlpBackwardBuffers_Shared(benchmark::State& s) {
  Mlp m;
  run_jit(s, mlp_grad, {}, m.w1, m.b1, m.w2, m.b2, m.x, m.y);
}
BENCHMARK(BM_MlpBackwardBuffers_Unshared)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MlpBackwardBuffers_Shared)->Unit(benchmark::kMillisecond)->UseRealTime();

// Unfused, where every op's result is a temporary: the most there is to share.
void BM_MlpBackwardUnfusedBuffers_Unshared(benchmark::State& s) {
  Mlp m;
  run_jit(s, mlp_grad, {.fuse = false, .assign_buffers = false}, m.w1, m.b1, m.w2, m.b2, m.x, m.y);
}
void BM_MlpBackwardUnfusedBuffers_Shared(benchmark::State& s) {
  Mlp m;
  run_jit(s, mlp_grad, {.fuse = false}, m.w1, m.b1, m.w2, m.b2, m.x, m.y);
}
BENCHMARK(BM_MlpBackwardUnfusedBuffers_Unshared)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MlpBackwardUnfusedBuffers_Shared)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
