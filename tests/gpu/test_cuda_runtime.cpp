// The CUDA runtime layer (backends/cuda): the driver loaded at run time, the caching allocator
// and its registration with the core, CUDA graph capture, cuBLASLt GEMMs against host
// references. Without a GPU: device_count() == 0, every entry point fails cleanly, and the
// device tests skip with the driver's reason.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "array_impl.h"
#include "backends/cuda/Allocator.h"
#include "backends/cuda/CublasLt.h"
#include "backends/cuda/CudaExecutable.h"
#include "backends/cuda/Driver.h"
#include "strata/errors.h"

namespace cu = strata::backends::cuda;

namespace {

#define REQUIRE_GPU()                                                                      \
  do {                                                                                     \
    if (cu::driver().device_count() == 0) GTEST_SKIP() << cu::driver().why_unavailable(); \
  } while (0)

// --- Without a GPU (also true with one: the checks hold either way) ---

TEST(CudaDriver, ReportsWhyWhenUnavailable) {
  cu::Driver& d = cu::driver();
  if (d.available()) {
    EXPECT_GT(d.device_count(), 0);
    EXPECT_TRUE(d.why_unavailable().empty());
    return;
  }
  EXPECT_EQ(d.device_count(), 0);
  EXPECT_FALSE(d.why_unavailable().empty());
  absl::Status s = d.use_device(0);
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(s.message().find(d.why_unavailable()), std::string::npos) << s;
  EXPECT_EQ(d.stream(0), nullptr);
  EXPECT_FALSE(d.mem_alloc(0, 16).ok());
  EXPECT_FALSE(d.synchronize(0).ok());
  EXPECT_FALSE(d.capture(0, [](CUstream) { return absl::OkStatus(); }).ok());
  EXPECT_FALSE(d.device_info(0).ok());
  EXPECT_FALSE(d.get_function(nullptr, "k").ok());
}

TEST(CudaDriver, RejectsAnIndexOutOfRange) {
  absl::Status s = cu::driver().use_device(cu::driver().device_count() + 3);
  EXPECT_FALSE(s.ok());
  absl::Status neg = cu::driver().use_device(-1);
  EXPECT_FALSE(neg.ok());
}

TEST(CudaAllocator, FailsCleanlyWithoutTheDevice) {
  int missing = cu::driver().device_count();  // one past the last: never exists
  absl::StatusOr<void*> p = cu::allocate(missing, 64);
  EXPECT_FALSE(p.ok());
  cu::deallocate(missing, nullptr);  // ignored
  EXPECT_EQ(cu::memory_stats(missing).in_use, 0u);
}

TEST(CudaAllocator, CoreBufferCarriesTheReason) {
  cu::register_cuda_memory();
  int missing = cu::driver().device_count();
  strata::Device dev{strata::DeviceKind::cuda, missing};
  try {
    strata::detail::Buffer b(64, dev);
    FAIL() << "allocating on a missing device succeeded";
  } catch (const strata::Error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("cannot allocate 64 bytes on cuda:"), std::string::npos) << what;
    EXPECT_NE(what.find("CUDA device"), std::string::npos) << what;  // the driver's reason follows
  }
}

TEST(CublasLt, GemmFailsCleanlyWithoutTheDevice) {
  if (!cu::cublaslt_available()) EXPECT_FALSE(cu::cublaslt_why_unavailable().empty());
  cu::GemmArgs g;
  g.device = cu::driver().device_count();
  g.m = g.n = g.k = 4;
  float dummy[16] = {};
  g.a = g.b = dummy;
  g.d = dummy;
  EXPECT_FALSE(cu::gemm(g).ok());
  g.k = 0;
  EXPECT_EQ(cu::gemm(g).code(), cu::cublaslt_available() ? absl::StatusCode::kInvalidArgument
                                                         : absl::StatusCode::kUnavailable);
}

// --- With a GPU ---

// A device block freed when the test ends.
struct DeviceBuffer {
  void* p = nullptr;
  explicit DeviceBuffer(std::size_t bytes) {
    absl::StatusOr<void*> r = cu::allocate(0, bytes);
    EXPECT_TRUE(r.ok()) << r.status();
    if (r.ok()) p = *r;
  }
  ~DeviceBuffer() { cu::deallocate(0, p); }
  CUdeviceptr ptr() const { return reinterpret_cast<CUdeviceptr>(p); }
};

template <typename T>
void upload(const DeviceBuffer& d, const std::vector<T>& host) {
  ASSERT_TRUE(cu::driver().copy_to_device(0, d.ptr(), host.data(), host.size() * sizeof(T)).ok());
  ASSERT_TRUE(cu::driver().synchronize(0).ok());
}

template <typename T>
std::vector<T> download(const DeviceBuffer& d, std::size_t n) {
  std::vector<T> host(n);
  EXPECT_TRUE(cu::driver().copy_to_host(0, host.data(), d.ptr(), n * sizeof(T)).ok());
  EXPECT_TRUE(cu::driver().synchronize(0).ok());
  return host;
}

TEST(CudaDriver, DescribesTheDevice) {
  REQUIRE_GPU();
  absl::StatusOr<cu::DeviceInfo> info = cu::driver().device_info(0);
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_FALSE(info->name.empty());
  EXPECT_GE(info->cc_major, 5);
  EXPECT_GT(info->sm_count, 0);
  std::size_t free_bytes = 0, total = 0;
  ASSERT_TRUE(cu::driver().mem_info(0, &free_bytes, &total).ok());
  EXPECT_GT(total, 0u);
  EXPECT_LE(free_bytes, total);
  EXPECT_NE(cu::driver().stream(0), nullptr);
  std::printf("device 0: %s, sm_%d%d, %d SMs, %zu of %zu bytes free\n", info->name.c_str(), info->cc_major,
              info->cc_minor, info->sm_count, free_bytes, total);
}

TEST(CudaAllocator, RoundsCachesAndReuses) {
  REQUIRE_GPU();
  ASSERT_TRUE(cu::release_cached(0).ok());
  cu::MemoryStats before = cu::memory_stats(0);
  absl::StatusOr<void*> a = cu::allocate(0, 1000);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(reinterpret_cast<uintptr_t>(*a) % 256, 0u);
  EXPECT_EQ(cu::memory_stats(0).in_use, before.in_use + 1024);  // 1000 → 2 × 512
  cu::deallocate(0, *a);
  EXPECT_EQ(cu::memory_stats(0).in_use, before.in_use);
  EXPECT_EQ(cu::memory_stats(0).cached, before.cached + 1024);
  absl::StatusOr<void*> b = cu::allocate(0, 600);  // same class: the cached block again
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, *a);
  EXPECT_EQ(cu::memory_stats(0).cached, before.cached);
  absl::StatusOr<void*> big = cu::allocate(0, (3u << 20) + 1);  // → 4 MiB
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(cu::memory_stats(0).in_use, before.in_use + 1024 + (4u << 20));
  absl::StatusOr<void*> empty = cu::allocate(0, 0);
  ASSERT_TRUE(empty.ok());
  EXPECT_NE(*empty, nullptr);
  cu::deallocate(0, *b);
  cu::deallocate(0, *big);
  cu::deallocate(0, *empty);
  EXPECT_EQ(cu::memory_stats(0).in_use, before.in_use);
  ASSERT_TRUE(cu::release_cached(0).ok());
  EXPECT_EQ(cu::memory_stats(0).cached, 0u);
}

TEST(CudaAllocator, OutOfMemoryNamesTheBytes) {
  REQUIRE_GPU();
  ASSERT_TRUE(cu::release_cached(0).ok());
  DeviceBuffer keep(1 << 20);  // → one 2 MiB block
  cu::deallocate(0, keep.p);   // cached, released by the retry
  keep.p = nullptr;
  const std::string cached = std::to_string(cu::memory_stats(0).cached);
  EXPECT_EQ(cached, "2097152");
  const std::size_t ten_tb = 10'000'000'000'000ull;
  absl::StatusOr<void*> p = cu::allocate(0, ten_tb);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kResourceExhausted);
  std::string msg(p.status().message());
  EXPECT_NE(msg.find("out of memory allocating 10000000000000 bytes"), std::string::npos) << msg;
  EXPECT_NE(msg.find("bytes free of"), std::string::npos) << msg;
  EXPECT_NE(msg.find("had " + cached + " bytes cached"), std::string::npos) << msg;
  EXPECT_EQ(cu::memory_stats(0).cached, 0u);
  std::printf("%s\n", msg.c_str());
}

TEST(CudaAllocator, HonoursTheLimit) {
  REQUIRE_GPU();
  ASSERT_TRUE(cu::release_cached(0).ok());
  cu::MemoryStats before = cu::memory_stats(0);
  cu::set_memory_limit(0, before.in_use + (8u << 20));
  absl::StatusOr<void*> ok = cu::allocate(0, 4u << 20);
  ASSERT_TRUE(ok.ok()) << ok.status();
  absl::StatusOr<void*> over = cu::allocate(0, 6u << 20);
  EXPECT_FALSE(over.ok());
  EXPECT_NE(over.status().message().find("limit"), std::string::npos) << over.status();
  cu::deallocate(0, *ok);
  cu::set_memory_limit(0, before.limit);
}

TEST(CudaMemory, RoundTripsThroughTheCore) {
  REQUIRE_GPU();
  cu::register_cuda_memory();
  const strata::detail::DeviceMemory* m = strata::detail::device_memory(strata::DeviceKind::cuda);
  ASSERT_NE(m, nullptr);
  std::vector<float> host(1000), back(1000);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = 0.5f * static_cast<float>(i) - 7.0f;
  strata::detail::Buffer buf(host.size() * sizeof(float), {strata::DeviceKind::cuda, 0});
  m->from_host(0, buf.data, host.data(), buf.nbytes);
  EXPECT_EQ(m->last_error(), nullptr);
  m->to_host(0, back.data(), buf.data, buf.nbytes);
  EXPECT_EQ(m->last_error(), nullptr);
  EXPECT_EQ(back, host);
}

TEST(CudaDriver, CopiesDeviceToDevice) {
  REQUIRE_GPU();
  std::vector<int32_t> host(4099);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int32_t>(i * 7 - 3);
  DeviceBuffer a(host.size() * 4), b(host.size() * 4);
  upload(a, host);
  ASSERT_TRUE(cu::driver().copy_device(0, b.ptr(), a.ptr(), host.size() * 4).ok());
  EXPECT_EQ(download<int32_t>(b, host.size()), host);
}

TEST(CudaDriver, CapturesAndReplaysAGraph) {
  REQUIRE_GPU();
  cu::Driver& d = cu::driver();
  const std::size_t n = 1 << 16;
  std::vector<float> src(n), zeros(n, 0.0f);
  for (std::size_t i = 0; i < n; ++i) src[i] = static_cast<float>(i) * 0.25f;
  DeviceBuffer a(n * 4), b(n * 4);
  upload(a, src);
  upload(b, zeros);
  absl::StatusOr<CUgraph> graph =
      d.capture(0, [&](CUstream s) { return d.copy_device(0, b.ptr(), a.ptr(), n * 4, s); });
  ASSERT_TRUE(graph.ok()) << graph.status();
  EXPECT_EQ(download<float>(b, n), zeros);  // captured, not run
  absl::StatusOr<CUgraphExec> exec = d.instantiate(0, *graph);
  ASSERT_TRUE(exec.ok()) << exec.status();
  ASSERT_TRUE(d.graph_launch(0, *exec).ok());
  EXPECT_EQ(download<float>(b, n), src);
  upload(b, zeros);
  ASSERT_TRUE(d.graph_launch(0, *exec).ok());  // replays
  EXPECT_EQ(download<float>(b, n), src);
  EXPECT_TRUE(d.destroy_graph_exec(*exec).ok());
  EXPECT_TRUE(d.destroy_graph(*graph).ok());
}

TEST(CudaDriver, AFailedCaptureEndsAndSaysWhy) {
  REQUIRE_GPU();
  cu::Driver& d = cu::driver();
  absl::StatusOr<CUgraph> graph = d.capture(0, [](CUstream) { return absl::InternalError("step 3 failed"); });
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().message(), "step 3 failed");
  // The capture ended: the next one records.
  DeviceBuffer a(64), b(64);
  graph = d.capture(0, [&](CUstream s) { return d.copy_device(0, b.ptr(), a.ptr(), 64, s); });
  ASSERT_TRUE(graph.ok()) << graph.status();
  EXPECT_TRUE(d.destroy_graph(*graph).ok());
}

// An executable of three copy steps through its scratch arena (no kernels, so it runs on the
// fake driver too): plain launches the first time it sees a set of buffers, a graph recorded
// the second time and replayed from then on, following what the inputs hold at each call.
TEST(CudaGraphs, RepeatedBuffersReplayOneGraph) {
  REQUIRE_GPU();
  const int64_t n = 1000, bytes = n * 4;
  using Ref = cu::BufferRef;
  auto copy = [&](Ref dst, Ref src) {
    cu::Step s;
    s.kind = cu::Step::Kind::copy;
    s.dst = dst;
    s.src = src;
    s.bytes = bytes;
    return s;
  };
  cu::HostProgram host;
  host.steps = {copy({Ref::Base::output, 0, 0}, {Ref::Base::input, 0, 0}),
                copy({Ref::Base::scratch, 0, 64}, {Ref::Base::input, 1, 0}),
                copy({Ref::Base::output, 1, 0}, {Ref::Base::scratch, 0, 64})};
  strata::backends::Program program;
  strata::AbstractValue v{{n}, strata::DType::f32};
  program.inputs = program.outputs = {v, v};
  program.memory.scratch_bytes = 64 + bytes;
  absl::StatusOr<std::shared_ptr<const strata::Executable>> exe =
      cu::make_executable(host, "", "", program, 0);
  ASSERT_TRUE(exe.ok()) << exe.status();

  DeviceBuffer in0(bytes), in1(bytes), a0(bytes), a1(bytes), b0(bytes), b1(bytes);
  int call = 0;
  // One call with fresh input values; the outputs must hold them.
  auto run = [&](const DeviceBuffer& o0, const DeviceBuffer& o1) {
    ++call;
    std::vector<float> x(n), y(n);
    for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(call * 10000 + i), y[i] = -x[i];
    upload(in0, x);
    upload(in1, y);
    const void* ins[] = {in0.p, in1.p};
    void* outs[] = {o0.p, o1.p};
    absl::Status s = (*exe)->execute(ins, outs, nullptr);
    ASSERT_TRUE(s.ok()) << s;
    EXPECT_EQ(download<float>(o0, n), x) << "call " << call;
    EXPECT_EQ(download<float>(o1, n), y) << "call " << call;
  };
  cu::set_graphs_enabled(true);
  const cu::GraphStats before = cu::graph_stats();
  auto since = [&] {
    cu::GraphStats now = cu::graph_stats();
    return std::pair<uint64_t, uint64_t>{now.captures - before.captures, now.replays - before.replays};
  };
  run(a0, a1);  // first sight of these buffers: plain launches
  EXPECT_EQ(since(), std::make_pair(uint64_t{0}, uint64_t{0}));
  run(a0, a1);  // second: recorded and launched as a graph
  EXPECT_EQ(since(), std::make_pair(uint64_t{1}, uint64_t{1}));
  run(a0, a1);  // replayed
  EXPECT_EQ(since(), std::make_pair(uint64_t{1}, uint64_t{2}));
  run(b0, b1);  // other outputs: plain, then a second graph
  run(b0, b1);
  EXPECT_EQ(since(), std::make_pair(uint64_t{2}, uint64_t{3}));
  run(a0, a1);  // the first graph is still there
  EXPECT_EQ(since(), std::make_pair(uint64_t{2}, uint64_t{4}));
  cu::set_graphs_enabled(false);
  run(a0, a1);
  EXPECT_EQ(since(), std::make_pair(uint64_t{2}, uint64_t{4}));
  cu::set_graphs_enabled(true);
  EXPECT_EQ(cu::graph_stats().failures, before.failures);
}

// --- cuBLASLt against a host reference (in double, from the values the device sees) ---

uint16_t to_bf16(float f) {  // round to nearest even
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return static_cast<uint16_t>(u >> 16);
}
float from_bf16(uint16_t h) {
  uint32_t u = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

std::vector<float> random_values(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

// Row-major reference: a is [M,K] ([K,M] when trans_a), b is [K,N] ([N,K] when trans_b).
std::vector<double> reference(const float* a, const float* b, const float* bias, int64_t m, int64_t n, int64_t k,
                              bool ta, bool tb, cu::GemmEpilogue e) {
  std::vector<double> d(m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) s += double(ta ? a[p * m + i] : a[i * k + p]) * double(tb ? b[j * k + p] : b[p * n + j]);
      if (bias) s += bias[j];
      if (e == cu::GemmEpilogue::relu || e == cu::GemmEpilogue::relu_bias) s = s > 0 ? s : 0;
      if (e == cu::GemmEpilogue::gelu || e == cu::GemmEpilogue::gelu_bias)
        s = 0.5 * s * (1 + std::tanh(0.7978845608028654 * (s + 0.044715 * s * s * s)));
      d[i * n + j] = s;
    }
  return d;
}

struct GemmCase {
  int64_t m, n, k;
  bool ta, tb;
};

void PrintTo(const GemmCase& c, std::ostream* os) {
  *os << c.m << "x" << c.n << "x" << c.k << (c.ta ? " A^T" : "") << (c.tb ? " B^T" : "");
}

class CublasLtF32 : public ::testing::TestWithParam<GemmCase> {};

// f32 with f32 products (no TF32): within 2e-6·K absolute (inputs in [-1, 1]; f32 rounding gives
// ~1e-7·K) — TF32's 10-bit mantissa would be off by ~1e-4·sqrt(K) and fail.
TEST_P(CublasLtF32, MatchesTheHostReference) {
  REQUIRE_GPU();
  if (!cu::cublaslt_available()) GTEST_SKIP() << cu::cublaslt_why_unavailable();
  auto [m, n, k, ta, tb] = GetParam();
  std::vector<float> a = random_values(m * k, 1), b = random_values(k * n, 2);
  DeviceBuffer da(a.size() * 4), db(b.size() * 4), dd(m * n * 4), ws(4 << 20);
  upload(da, a);
  upload(db, b);
  cu::GemmArgs g;
  g.m = m, g.n = n, g.k = k, g.trans_a = ta, g.trans_b = tb;
  g.a = da.p, g.b = db.p, g.d = dd.p, g.workspace = ws.p, g.workspace_bytes = 4 << 20;
  for (int rep = 0; rep < 2; ++rep) {  // the second call takes the cached plan
    absl::Status s = cu::gemm(g);
    ASSERT_TRUE(s.ok()) << s;
    std::vector<float> got = download<float>(dd, m * n);
    std::vector<double> want = reference(a.data(), b.data(), nullptr, m, n, k, ta, tb, cu::GemmEpilogue::none);
    for (int64_t i = 0; i < m * n; ++i) ASSERT_NEAR(got[i], want[i], 2e-6 * k) << "element " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, CublasLtF32,
                         ::testing::Values(GemmCase{37, 53, 29, false, false}, GemmCase{37, 53, 29, true, false},
                                           GemmCase{37, 53, 29, false, true}, GemmCase{37, 53, 29, true, true},
                                           GemmCase{1, 1, 1, false, false}, GemmCase{128, 64, 256, false, false}),
                         [](const ::testing::TestParamInfo<GemmCase>& info) {
                           const GemmCase& c = info.param;
                           return std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k) + "_" +
                                  (c.ta ? "T" : "N") + (c.tb ? "T" : "N");
                         });

// bf16 in and out, f32 accumulation, relu(x + bias): the reference uses the bf16-rounded inputs;
// the output's own bf16 rounding is 2^-9 relative, so 1e-2 relative + 1e-2 absolute.
TEST(CublasLt, Bf16ReluBias) {
  REQUIRE_GPU();
  if (!cu::cublaslt_available()) GTEST_SKIP() << cu::cublaslt_why_unavailable();
  const int64_t m = 37, n = 53, k = 29;
  std::vector<float> a = random_values(m * k, 3), b = random_values(k * n, 4), bias = random_values(n, 5);
  std::vector<uint16_t> ha(a.size()), hb(b.size()), hbias(n);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = from_bf16(ha[i] = to_bf16(a[i]));
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = from_bf16(hb[i] = to_bf16(b[i]));
  for (int64_t i = 0; i < n; ++i) bias[i] = from_bf16(hbias[i] = to_bf16(bias[i]));
  DeviceBuffer da(ha.size() * 2), db(hb.size() * 2), dbias(n * 2), dd(m * n * 2), ws(4 << 20);
  upload(da, ha);
  upload(db, hb);
  upload(dbias, hbias);
  cu::GemmArgs g;
  g.type = cu::GemmType::bf16;
  g.m = m, g.n = n, g.k = k;
  g.a = da.p, g.b = db.p, g.d = dd.p, g.bias = dbias.p;
  g.epilogue = cu::GemmEpilogue::relu_bias;
  g.workspace = ws.p, g.workspace_bytes = 4 << 20;
  absl::Status s = cu::gemm(g);
  ASSERT_TRUE(s.ok()) << s;
  std::vector<uint16_t> got = download<uint16_t>(dd, m * n);
  std::vector<double> want = reference(a.data(), b.data(), bias.data(), m, n, k, false, false, g.epilogue);
  int zeros = 0;
  for (int64_t i = 0; i < m * n; ++i) {
    ASSERT_NEAR(from_bf16(got[i]), want[i], 1e-2 + 1e-2 * std::fabs(want[i])) << "element " << i;
    zeros += want[i] == 0;
  }
  EXPECT_GT(zeros, 0);  // the relu did something
}

// Strided batches, f32 with gelu + bias; `shared_b`: B given once for all batches (stride 0).
void batched_gelu_bias(bool shared_b) {
  const int64_t m = 37, n = 53, k = 29, batch = 3;
  const int64_t b_count = shared_b ? 1 : batch;
  std::vector<float> a = random_values(batch * m * k, 6), b = random_values(b_count * k * n, 7),
                     bias = random_values(n, 8);
  DeviceBuffer da(a.size() * 4), db(b.size() * 4), dbias(n * 4), dd(batch * m * n * 4), ws(4 << 20);
  upload(da, a);
  upload(db, b);
  upload(dbias, bias);
  cu::GemmArgs g;
  g.m = m, g.n = n, g.k = k, g.batch = batch;
  g.stride_a = m * k, g.stride_b = shared_b ? 0 : k * n, g.stride_d = m * n;
  g.a = da.p, g.b = db.p, g.d = dd.p, g.bias = dbias.p;
  g.epilogue = cu::GemmEpilogue::gelu_bias;
  g.workspace = ws.p, g.workspace_bytes = 4 << 20;
  absl::Status s = cu::gemm(g);
  ASSERT_TRUE(s.ok()) << s;
  std::vector<float> got = download<float>(dd, batch * m * n);
  for (int64_t t = 0; t < batch; ++t) {
    std::vector<double> want = reference(a.data() + t * m * k, b.data() + (shared_b ? 0 : t * k * n), bias.data(),
                                         m, n, k, false, false, g.epilogue);
    // cuBLASLt's gelu is the tanh form, evaluated in f32: 1e-4 absolute on top of the GEMM's error.
    for (int64_t i = 0; i < m * n; ++i)
      ASSERT_NEAR(got[t * m * n + i], want[i], 2e-6 * k + 1e-4) << "batch " << t << " element " << i;
  }
}

TEST(CublasLt, BatchedF32GeluBias) {
  REQUIRE_GPU();
  if (!cu::cublaslt_available()) GTEST_SKIP() << cu::cublaslt_why_unavailable();
  batched_gelu_bias(false);
}

TEST(CublasLt, BatchedWithASharedOperand) {
  REQUIRE_GPU();
  if (!cu::cublaslt_available()) GTEST_SKIP() << cu::cublaslt_why_unavailable();
  batched_gelu_bias(true);
}

}  // namespace
