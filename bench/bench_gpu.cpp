// bench/bench_gpu.cpp — strata_gpu_bench: the GPU benchmark of issue 11, one JSON line per
// measurement, next to direct CUDA baselines (cuBLASLt with a bias+relu epilogue for the seed
// line's GEMMs, cuMemcpyDtoDAsync for the copy ceiling, a bare cuLaunchKernel for host cost).
// bench/run_gpu.sh runs it with bench/gpu_peers.py (JAX, torch, torch.compile: the same
// workloads, the same timing) and prints the table.
//
//   strata_gpu_bench            # on a machine with a GPU; without one prints {"skipped": ...}
//   strata_gpu_bench --cpu      # the strata workloads on the CPU at small sizes (a smoke test)
//   strata_gpu_bench --first-call [--cache-dir D] [--cpu]   # internal: one first call, in a
//                                                           # fresh process (run by the bench)
//
// Timing (the same in gpu_peers.py): after warm-up, each repetition launches `batch` calls
// back to back and waits once (block_until_ready / cuStreamSynchronize); the per-call time is
// the repetition's wall time / batch; the figure is the median over the repetitions.
//
// The CUDA driver and cuBLASLt are opened at run time (dlopen), not linked, so the binary
// starts on a machine without a driver (and says it skipped). The baselines use their own
// context (the primary context, shared with strata's) and their own CUstream.
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <cublasLt.h>
#include <cuda.h>

#ifndef STRATA_GPU_BENCH_BASELINES_ONLY
#include "strata/strata.h"
namespace st = strata;
using st::Array;
#endif

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#ifndef STRATA_GPU_BENCH_BASELINES_ONLY
// ---- The workloads (the same definitions are in gpu_peers.py) ----

// The 8-op elementwise chain: one f32 input, one f32 output, 8 elementwise ops (counted).
//   jnp.maximum(jnp.exp(jnp.tanh((x * 1.5 + 0.5) * x - 0.25)) * 0.5, 0.25)
Array chain8(const Array& x) {
  Array t = x * 1.5f;           // 1
  t = t + 0.5f;                 // 2
  t = t * x;                    // 3
  t = t - 0.25f;                // 4
  t = st::tanh(t);              // 5
  t = st::exp(t);               // 6
  t = t * 0.5f;                 // 7
  return st::maximum(t, 0.25f); // 8
}

// The seed line relu(x @ w + b) (bf16 in and out, f32 accumulation on the GPU).
Array seed_line(const Array& x, const Array& w, const Array& b) { return st::relu(st::matmul(x, w) + b); }

// Softmax over the last axis (rows).
Array softmax_rows(const Array& x) { return st::softmax(x, -1); }

// The small 3-op program of the host-cost measurement, on kSmallN floats: relu(x * 2 + 1).
constexpr int64_t kSmallN = 1024;
Array small3(const Array& x) { return st::maximum(x * 2.0f + 1.0f, 0.0f); }

#endif  // STRATA_GPU_BENCH_BASELINES_ONLY

// Uniform values in [-1, 1) from a fixed seed (cheap at 256M elements, unlike random::normal).
std::vector<float> host_uniform(int64_t n, uint64_t seed) {
  std::vector<float> v(static_cast<size_t>(n));
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (auto& e : v) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    e = static_cast<float>(static_cast<int64_t>(s >> 40) - (1 << 23)) / static_cast<float>(1 << 23);
  }
  return v;
}
#ifndef STRATA_GPU_BENCH_BASELINES_ONLY
Array rnd(const st::Shape& shape, uint64_t seed, st::DType dtype, st::Device dev) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<float> v = host_uniform(n, seed);
  Array a = st::from_buffer(v.data(), shape, st::f32);
  if (dtype != st::f32) a = st::astype(a, dtype);
  return st::device_put(a, dev);
}
#endif

// ---- JSON lines ----
std::string g_device = "cuda";

void emit(const std::string& workload, const std::string& impl, double ms, const char* rate_key, double rate,
          int reps, int batch, const std::string& extra = "") {
  std::printf("{\"workload\": \"%s\", \"impl\": \"%s\", \"median_ms\": %.6g", workload.c_str(), impl.c_str(), ms);
  if (rate_key) std::printf(", \"%s\": %.6g", rate_key, rate);
  std::printf(", \"reps\": %d, \"batch\": %d, \"device\": \"%s\"%s}\n", reps, batch, g_device.c_str(), extra.c_str());
  std::fflush(stdout);
}
void emit_skip(const std::string& workload, const std::string& impl, const std::string& why) {
  std::string w = why;
  for (char& c : w)
    if (c == '"' || c == '\\' || c == '\n') c = '\'';
  std::printf("{\"workload\": \"%s\", \"impl\": \"%s\", \"skipped\": \"%s\"}\n", workload.c_str(), impl.c_str(), w.c_str());
  std::fflush(stdout);
}

// The problem size as an extra JSON field (the workload names carry the GPU sizes).
std::string size_field(const std::string& size) { return ", \"size\": \"" + size + "\""; }
std::string mnk(int64_t m, int64_t n, int64_t k) {
  return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

// Median per-call ms of `run_batch(batch)` (which launches `batch` calls and waits once).
struct Timing {
  double ms;
  int reps, batch;
};
// A slow workload (an unoptimised kernel) is measured with fewer calls: one probe call sets
// batch and reps so that the whole measurement takes about kBudgetMs.
constexpr double kBudgetMs = 1500;
Timing time_batches(const std::function<void(int)>& run_batch, int batch, int reps, int warmup = 3) {
  auto p0 = Clock::now();
  run_batch(1);
  double probe = ms_since(p0);
  if (probe * batch * (reps + warmup) > kBudgetMs) {
    batch = std::max(1, static_cast<int>(kBudgetMs / (probe * (reps + warmup))));
    if (probe * batch * (reps + warmup) > kBudgetMs) {
      reps = std::max(3, static_cast<int>(kBudgetMs / probe) - 1);
      warmup = 1;
    }
  }
  for (int i = 0; i < warmup; ++i) run_batch(batch);
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    run_batch(batch);
    t.push_back(ms_since(t0) / batch);
  }
  return {median(t), reps, batch};
}

// ---- The CUDA driver and cuBLASLt, opened at run time ----
#define STR2(x) #x
#define STR(x) STR2(x)
#define CU_FNS(X)                                                                                                      \
  X(cuInit) X(cuDeviceGet) X(cuDeviceGetCount) X(cuDevicePrimaryCtxRetain) X(cuCtxSetCurrent) X(cuMemAlloc)        \
  X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyDtoDAsync) X(cuStreamCreate) X(cuStreamSynchronize) X(cuStreamDestroy)    \
  X(cuModuleLoadData) X(cuModuleGetFunction) X(cuLaunchKernel) X(cuGetErrorString) X(cuDeviceGetName)
#define LT_FNS(X)                                                                                                      \
  X(cublasLtCreate) X(cublasLtDestroy) X(cublasLtMatmulDescCreate) X(cublasLtMatmulDescDestroy)                    \
  X(cublasLtMatmulDescSetAttribute) X(cublasLtMatrixLayoutCreate) X(cublasLtMatrixLayoutDestroy)                   \
  X(cublasLtMatmulPreferenceCreate) X(cublasLtMatmulPreferenceDestroy) X(cublasLtMatmulPreferenceSetAttribute)     \
  X(cublasLtMatmulAlgoGetHeuristic) X(cublasLtMatmul) X(cublasLtGetVersion)
#define DECL(f) decltype(&f) p_##f = nullptr;
struct Cuda {
  CU_FNS(DECL)
  LT_FNS(DECL)
  void* libcuda = nullptr;
  void* liblt = nullptr;
};
#undef DECL
Cuda cu;

void* open_first(std::initializer_list<const char*> names, std::string& tried) {
  for (const char* n : names) {
    if (void* h = dlopen(n, RTLD_NOW | RTLD_GLOBAL)) return h;
    tried += std::string(tried.empty() ? "" : "; ") + dlerror();
  }
  return nullptr;
}

// Opens the driver; returns "" when a GPU is usable, else why not.
std::string open_driver() {
  std::string tried;
  cu.libcuda = open_first({"libcuda.so.1", "/usr/local/nvidia/lib64/libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1"}, tried);
  if (!cu.libcuda) return "no CUDA driver (" + tried + ")";
#define LOAD(f)                                                                  \
  cu.p_##f = reinterpret_cast<decltype(&f)>(dlsym(cu.libcuda, STR(f)));          \
  if (!cu.p_##f) return std::string("libcuda.so.1 lacks ") + STR(f);
  CU_FNS(LOAD)
#undef LOAD
  if (CUresult r = cu.p_cuInit(0); r != CUDA_SUCCESS) return "cuInit failed (" + std::to_string(r) + ")";
  int n = 0;
  cu.p_cuDeviceGetCount(&n);
  if (n == 0) return "the CUDA driver sees no device";
  return "";
}
std::string open_cublaslt() {
  std::string tried;
  cu.liblt = open_first({"libcublasLt.so.13", "/usr/local/cuda/lib64/libcublasLt.so.13", "/usr/local/cuda/lib64/libcublasLt.so"}, tried);
  if (!cu.liblt) return "no cuBLASLt (" + tried + ")";
#define LOAD(f)                                                              \
  cu.p_##f = reinterpret_cast<decltype(&f)>(dlsym(cu.liblt, STR(f)));        \
  if (!cu.p_##f) return std::string("libcublasLt lacks ") + STR(f);
  LT_FNS(LOAD)
#undef LOAD
  return "";
}

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
void ck(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* s = nullptr;
  if (cu.p_cuGetErrorString) cu.p_cuGetErrorString(r, &s);
  throw CudaError(std::string(what) + ": " + (s ? s : std::to_string(r)));
}
void ck(cublasStatus_t r, const char* what) {
  if (r != CUBLAS_STATUS_SUCCESS) throw CudaError(std::string(what) + ": cublas status " + std::to_string(r));
}

struct DeviceBuffer {
  CUdeviceptr p = 0;
  explicit DeviceBuffer(size_t bytes) { ck(cu.p_cuMemAlloc(&p, bytes), "cuMemAlloc"); }
  ~DeviceBuffer() {
    if (p) cu.p_cuMemFree(p);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  void* ptr() const { return reinterpret_cast<void*>(p); }
};

uint16_t to_bf16(float f) {  // round to nearest even
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<uint16_t>((u + 0x7FFF + ((u >> 16) & 1)) >> 16);
}
void upload_bf16(const DeviceBuffer& b, int64_t n, uint64_t seed) {
  std::vector<float> f = host_uniform(n, seed);
  std::vector<uint16_t> h(f.size());
  for (size_t i = 0; i < f.size(); ++i) h[i] = to_bf16(f[i]);
  ck(cu.p_cuMemcpyHtoD(b.p, h.data(), h.size() * 2), "cuMemcpyHtoD");
}

// The baselines, on their own stream.
struct Baselines {
  CUstream stream = nullptr;
  Baselines() {
    CUdevice d;
    CUcontext ctx;
    ck(cu.p_cuDeviceGet(&d, 0), "cuDeviceGet");
    ck(cu.p_cuDevicePrimaryCtxRetain(&ctx, d), "cuDevicePrimaryCtxRetain");
    ck(cu.p_cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
    ck(cu.p_cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  }
  ~Baselines() { cu.p_cuStreamDestroy(stream); }
  void sync() { ck(cu.p_cuStreamSynchronize(stream), "cuStreamSynchronize"); }

  // Device-to-device copy of `bytes`: the bandwidth ceiling (read + write counted).
  void copy(const std::string& workload, size_t bytes, int batch, int reps) {
    DeviceBuffer a(bytes), b(bytes);
    ck(cu.p_cuMemcpyDtoDAsync(b.p, a.p, bytes, stream), "cuMemcpyDtoDAsync");  // touch both
    Timing t = time_batches([&](int n) {
      for (int i = 0; i < n; ++i) ck(cu.p_cuMemcpyDtoDAsync(b.p, a.p, bytes, stream), "cuMemcpyDtoDAsync");
      sync();
    }, batch, reps);
    emit(workload, "cuda_memcpy", t.ms, "gbps", 2.0 * bytes / (t.ms * 1e6), t.reps, t.batch,
         size_field(std::to_string(bytes) + " bytes"));
  }

  // relu(x @ w + b), row-major bf16 x[M,K], w[K,N], b[N] -> y[M,N] bf16, f32 compute, as one
  // cublasLtMatmul with the RELU_BIAS epilogue. Row-major y = x w is column-major
  // y^T[N,M] = w^T[N,K] x^T[K,M], and a row-major buffer is its transpose column-major, so
  // Lt's A is w's buffer (N x K, ld N), B is x's (K x M, ld K), D is y's (N x M, ld N); the
  // bias runs along D's rows (length N), as the epilogue wants.
  void seed_gemm(const std::string& workload, int64_t M, int64_t N, int64_t K, int batch, int reps) {
    DeviceBuffer x(M * K * 2), w(K * N * 2), b(N * 2), y(M * N * 2);
    upload_bf16(x, M * K, 1);
    upload_bf16(w, K * N, 2);
    upload_bf16(b, N, 3);
    const size_t ws_bytes = 32u << 20;
    DeviceBuffer ws(ws_bytes);
    cublasLtHandle_t lt;
    ck(cu.p_cublasLtCreate(&lt), "cublasLtCreate");
    cublasLtMatmulDesc_t op;
    ck(cu.p_cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
    cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
    ck(cu.p_cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi), "epilogue");
    void* bias = b.ptr();
    ck(cu.p_cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias), "bias pointer");
    cudaDataType_t bias_type = CUDA_R_16BF;
    ck(cu.p_cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bias_type, sizeof bias_type), "bias type");
    cublasLtMatrixLayout_t la, lb, ld;
    ck(cu.p_cublasLtMatrixLayoutCreate(&la, CUDA_R_16BF, N, K, N), "layout A");
    ck(cu.p_cublasLtMatrixLayoutCreate(&lb, CUDA_R_16BF, K, M, K), "layout B");
    ck(cu.p_cublasLtMatrixLayoutCreate(&ld, CUDA_R_16BF, N, M, N), "layout D");
    cublasLtMatmulPreference_t pref;
    ck(cu.p_cublasLtMatmulPreferenceCreate(&pref), "preference");
    uint64_t ws_pref = ws_bytes;
    ck(cu.p_cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_pref, sizeof ws_pref), "workspace");
    cublasLtMatmulHeuristicResult_t heur{};
    int found = 0;
    ck(cu.p_cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, ld, ld, pref, 1, &heur, &found), "heuristic");
    if (found == 0) throw CudaError("cublasLtMatmulAlgoGetHeuristic found no algorithm");
    float alpha = 1.0f, beta = 0.0f;
    auto call = [&] {
      ck(cu.p_cublasLtMatmul(lt, op, &alpha, w.ptr(), la, x.ptr(), lb, &beta, y.ptr(), ld, y.ptr(), ld, &heur.algo,
                             ws.ptr(), ws_bytes, reinterpret_cast<cudaStream_t>(stream)),
         "cublasLtMatmul");
    };
    Timing t = time_batches([&](int n) {
      for (int i = 0; i < n; ++i) call();
      sync();
    }, batch, reps);
    emit(workload, "cublaslt", t.ms, "tflops", 2.0 * M * N * K / (t.ms * 1e9), t.reps, t.batch,
         size_field(mnk(M, N, K)) + ", \"cublaslt_version\": " + std::to_string(cu.p_cublasLtGetVersion()));
    cu.p_cublasLtMatmulPreferenceDestroy(pref);
    cu.p_cublasLtMatrixLayoutDestroy(la);
    cu.p_cublasLtMatrixLayoutDestroy(lb);
    cu.p_cublasLtMatrixLayoutDestroy(ld);
    cu.p_cublasLtMatmulDescDestroy(op);
    cu.p_cublasLtDestroy(lt);
  }

  // Host cost of a bare cuLaunchKernel of an empty kernel: `calls` launches then one wait
  // (per call), and the latency of one launch plus its wait.
  void launch(int calls, int reps) {
    static const char kPtx[] =
        ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry strata_bench_noop()\n{\n  ret;\n}\n";
    CUmodule m;
    CUfunction f;
    ck(cu.p_cuModuleLoadData(&m, kPtx), "cuModuleLoadData");
    ck(cu.p_cuModuleGetFunction(&f, m, "strata_bench_noop"), "cuModuleGetFunction");
    auto one = [&] { ck(cu.p_cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, stream, nullptr, nullptr), "cuLaunchKernel"); };
    Timing t = time_batches([&](int n) {
      for (int i = 0; i < n; ++i) one();
      sync();
    }, calls, reps);
    emit("host_per_call_small", "cuLaunchKernel", t.ms, "us_per_call", t.ms * 1e3, t.reps, t.batch);
    Timing l = time_batches([&](int n) {
      for (int i = 0; i < n; ++i) {
        one();
        sync();
      }
    }, 1, calls);
    emit("latency_small", "cuLaunchKernel", l.ms, "us_per_call", l.ms * 1e3, l.reps, l.batch);
  }
};

// ---- strata ----
#ifndef STRATA_GPU_BENCH_BASELINES_ONLY
struct Sizes {
  int64_t chain_small, chain_large;
  int64_t seed_mnk, seed_nk;
  int64_t sm_small, sm_large;
  int64_t row_len;  // row_sum: 8 rows of this many f32
  int reps;
};

// Batch of `n` async calls of f(args...), then one wait.
template <class F, class... A>
std::function<void(int)> batch_of(const F& f, const A&... args) {
  return [&f, &args...](int n) {
    Array y;
    for (int i = 0; i < n; ++i) y = f(args...);
    y.block_until_ready();
  };
}

void strata_workloads(st::Device dev, const Sizes& s, const std::string& self, bool cpu) {
  const st::JitOptions opts{.device = dev};
  auto run = [&](const std::string& workload, auto&& body) {
    try {
      body();
    } catch (const std::exception& e) {
      emit_skip(workload, "strata", std::string("error: ") + e.what());
    }
  };
  const std::string sfx = cpu ? "_cpu_smoke" : "";

  // First call of the seed line (bf16, the 4096^3 shapes): each in a fresh process so nothing
  // of this one is warm: without a disk cache, then twice with one (the first fills it, the
  // second is measured).
  {
    namespace fs = std::filesystem;
    std::string dir = (fs::temp_directory_path() / ("strata_gpu_bench_cache_" + std::to_string(getpid()))).string();
    std::string base = "'" + self + "' --first-call" + (cpu ? " --cpu" : "");
    int r1 = std::system(base.c_str());
    int r2 = std::system((base + " --cache-dir '" + dir + "' --quiet").c_str());
    int r3 = std::system((base + " --cache-dir '" + dir + "' --label disk_cache").c_str());
    if (r1 || r2 || r3) emit_skip("first_call_seed" + sfx, "strata", "a first-call child process failed");
    std::error_code ec;
    fs::remove_all(dir, ec);
  }

  // The 3-op program on kSmallN floats: host time per call on a cache hit (calls back to back,
  // one wait), and the latency of a call with its wait.
  run("host_per_call_small" + sfx, [&] {
    Array x = rnd({kSmallN}, 7, st::f32, dev);
    auto f = st::jit(small3, opts);
    f(x).block_until_ready();
    Timing t = time_batches(batch_of(f, x), 2000, s.reps);
    emit("host_per_call_small" + sfx, "strata", t.ms, "us_per_call", t.ms * 1e3, t.reps, t.batch, size_field(std::to_string(kSmallN)));
    Timing l = time_batches(batch_of(f, x), 1, 200);
    emit("latency_small" + sfx, "strata", l.ms, "us_per_call", l.ms * 1e3, l.reps, l.batch, size_field(std::to_string(kSmallN)));
  });

  // A program of several kernels (softmax 4 times over: a row-reduction kernel and an
  // elementwise one each, as fusion leaves them) on 8x64 floats: host time per call on a cache
  // hit, which CUDA-graph replay makes one graph launch (STRATA_CUDA_GRAPHS=0 in the
  // environment measures plain launches instead; compare the bare cuLaunchKernel row).
  run("host_per_call_softmax4" + sfx, [&] {
    Array x = rnd({8, 64}, 9, st::f32, dev);
    auto f = st::jit([](const Array& a) { return st::softmax(st::softmax(st::softmax(st::softmax(a, -1), -1), -1), -1); },
                     opts);
    for (int i = 0; i < 4; ++i) f(x).block_until_ready();  // compiled, then both output buffers seen twice
    Timing t = time_batches(batch_of(f, x), 2000, s.reps);
    emit("host_per_call_softmax4" + sfx, "strata", t.ms, "us_per_call", t.ms * 1e3, t.reps, t.batch, size_field("8x64"));
  });

  for (auto [n, name, batch] : {std::tuple{s.chain_small, std::string("chain8_16M_f32"), 50},
                                std::tuple{s.chain_large, std::string("chain8_256M_f32"), 10}}) {
    run(name + sfx, [&] {
      Array x = rnd({n}, 1, st::f32, dev);
      auto f = st::jit(chain8, opts);
      Timing t = time_batches(batch_of(f, x), batch, s.reps);
      emit(name + sfx, "strata", t.ms, "gbps", 2.0 * n * 4 / (t.ms * 1e6), t.reps, t.batch, size_field(std::to_string(n)));
    });
  }

  for (auto [m, n, k, name, batch] :
       {std::tuple{s.seed_mnk, s.seed_mnk, s.seed_mnk, std::string("seed_bf16_4096x4096x4096"), 20},
        std::tuple{int64_t{8}, s.seed_nk, s.seed_nk, std::string("seed_bf16_M8_N4096_K4096"), 50}}) {
    run(name + sfx, [&] {
      Array x = rnd({m, k}, 1, st::bf16, dev), w = rnd({k, n}, 2, st::bf16, dev), b = rnd({n}, 3, st::bf16, dev);
      auto f = st::jit(seed_line, opts);
      Timing t = time_batches(batch_of(f, x, w, b), batch, s.reps);
      emit(name + sfx, "strata", t.ms, "tflops", 2.0 * m * n * k / (t.ms * 1e9), t.reps, t.batch, size_field(mnk(m, n, k)));
    });
  }

  for (auto [n, name, batch] : {std::tuple{s.sm_small, std::string("softmax_4096x4096_f32"), 50},
                                std::tuple{s.sm_large, std::string("softmax_8192x8192_f32"), 20}}) {
    run(name + sfx, [&] {
      Array x = rnd({n, n}, 1, st::f32, dev);
      auto f = st::jit(softmax_rows, opts);
      Timing t = time_batches(batch_of(f, x), batch, s.reps);
      emit(name + sfx, "strata", t.ms, "gbps", 2.0 * n * n * 4 / (t.ms * 1e6), t.reps, t.batch,
           size_field(std::to_string(n) + "x" + std::to_string(n)));
    });
  }

  // A sum along 8 long rows: each row's chunks reduced by blocks of their own, then combined
  // (GB/s counts the bytes read).
  run("row_sum_8x4M_f32" + sfx, [&] {
    Array x = rnd({8, s.row_len}, 1, st::f32, dev);
    auto f = st::jit([](const Array& v) { return st::sum(v, 1); }, opts);
    Timing t = time_batches(batch_of(f, x), 50, s.reps);
    emit("row_sum_8x4M_f32" + sfx, "strata", t.ms, "gbps", 8.0 * s.row_len * 4 / (t.ms * 1e6), t.reps, t.batch,
         size_field("8x" + std::to_string(s.row_len)));
  });
}

// One first call of the seed line in a fresh jit object: trace, lower, compile, run, wait.
int first_call(bool cpu, const std::string& cache_dir, const std::string& label, bool quiet) {
  st::Device dev = cpu ? st::cpu() : st::gpu(0);
  int64_t n = cpu ? 256 : 4096;
  const std::string workload = std::string("first_call_seed") + (label.empty() ? "" : "_" + label) + (cpu ? "_cpu_smoke" : "");
  try {
    Array x = rnd({n, n}, 1, st::bf16, dev), w = rnd({n, n}, 2, st::bf16, dev), b = rnd({n}, 3, st::bf16, dev);
    x.block_until_ready(), w.block_until_ready(), b.block_until_ready();
    auto t0 = Clock::now();
    auto f = st::jit(seed_line, {.device = dev, .name = "seed", .cache_dir = cache_dir});
    f(x, w, b).block_until_ready();
    double ms = ms_since(t0);
    if (!quiet) emit(workload, "strata", ms, nullptr, 0, 1, 1,
                     size_field(mnk(n, n, n)) + ", \"disk_cache\": " + (cache_dir.empty() ? "false" : "true"));
  } catch (const std::exception& e) {
    if (!quiet) emit_skip(workload, "strata", std::string("error: ") + e.what());
  }
  return 0;
}

bool has_cuda_device() {
  for (const st::Device& d : st::devices())
    if (d.kind == st::DeviceKind::cuda) return true;
  return false;
}
#endif  // STRATA_GPU_BENCH_BASELINES_ONLY

}  // namespace

int main(int argc, char** argv) {
  bool cpu = false, first = false;
  [[maybe_unused]] bool quiet = false;
  std::string cache_dir, label;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--cpu") cpu = true;
    else if (a == "--first-call") first = true;
    else if (a == "--quiet") quiet = true;
    else if (a == "--cache-dir" && i + 1 < argc) cache_dir = argv[++i];
    else if (a == "--label" && i + 1 < argc) label = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--cpu]\n", argv[0]);
      return 2;
    }
  }
  if (cpu) g_device = "cpu";
#ifdef STRATA_GPU_BENCH_BASELINES_ONLY
  if (cpu || first) return 0;
#else
  if (first) return first_call(cpu, cache_dir, label, quiet);
  std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  if (cpu) {
    // The strata workloads at small sizes on the CPU: checks the program end to end.
    strata_workloads(st::cpu(), {1 << 16, 1 << 18, 128, 128, 128, 256, 1 << 16, 5}, self, true);
    return 0;
  }

#endif
  std::string why = open_driver();
  bool strata_gpu = false;
#ifndef STRATA_GPU_BENCH_BASELINES_ONLY
  try {
    strata_gpu = has_cuda_device();
  } catch (const std::exception& e) {
    if (why.empty()) why = std::string("st::devices() failed: ") + e.what();
  }
#endif
  if (!why.empty()) {
    std::printf("{\"skipped\": \"no GPU: %s\"}\n", why.c_str());
    return 0;
  }
  char name[256] = {};
  CUdevice d0;
  if (cu.p_cuDeviceGet(&d0, 0) == CUDA_SUCCESS) cu.p_cuDeviceGetName(name, sizeof name, d0);
  g_device = name;

  const int reps = 30;
  // The baselines first (their own stream, then freed), then strata.
  try {
    Baselines base;
    base.copy("copy_1GiB", size_t{1} << 30, 10, reps);
    base.launch(2000, reps);
    std::string lt = open_cublaslt();
    if (!lt.empty()) {
      emit_skip("seed_bf16_4096x4096x4096", "cublaslt", lt);
    } else {
      base.seed_gemm("seed_bf16_4096x4096x4096", 4096, 4096, 4096, 20, reps);
      base.seed_gemm("seed_bf16_M8_N4096_K4096", 8, 4096, 4096, 50, reps);
    }
  } catch (const std::exception& e) {
    emit_skip("baselines", "cuda", e.what());
  }

  if (!strata_gpu) {
    emit_skip("all", "strata", "st::devices() lists no cuda device (strata built without its GPU target?)");
    return 0;
  }
#ifndef STRATA_GPU_BENCH_BASELINES_ONLY
  strata_workloads(st::gpu(0), {16 << 20, 256 << 20, 4096, 4096, 4096, 8192, 4 << 20, reps}, self, false);
#endif
  return 0;
}
