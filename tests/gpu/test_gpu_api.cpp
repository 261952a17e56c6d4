// The public API on a GPU: device_put and devices, jit running where its arguments live,
// eager ops and grad on GPU arrays, fused programs (softmax, layer norm, an MLP step) against
// CPU eager, asynchronous results, and the errors a user can cause. Skips without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "backends/cuda/CudaExecutable.h"
#include "strata/strata.h"

namespace st = strata;
namespace cu = strata::backends::cuda;
using st::Array;

namespace {

bool have_gpu() {
  for (const st::Device& d : st::devices())
    if (d.kind == st::DeviceKind::cuda) return true;
  return false;
}

#define REQUIRE_GPU() \
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device in this process"

void expect_close(const Array& got, const Array& want, double rtol = 2e-5, double atol = 2e-6) {
  ASSERT_EQ(got.shape(), want.shape());
  std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
  for (size_t i = 0; i < g.size(); ++i)
    ASSERT_LE(std::fabs(g[i] - w[i]), atol + rtol * std::fabs(w[i])) << "element " << i << ": gpu " << g[i] << ", cpu " << w[i];
}

Array randn(const st::Shape& shape, uint64_t seed) {
  return st::random::normal(st::random::key(seed), shape);
}

TEST(GpuApi, DevicesWithoutAGpuRefuseGpu) {
  if (have_gpu()) GTEST_SKIP() << "a GPU is present";
  EXPECT_THROW(st::gpu(0), st::ValueError);
}

TEST(GpuApi, DevicePutRoundTrips) {
  REQUIRE_GPU();
  Array x = randn({3, 5}, 1);
  Array g = st::device_put(x, st::gpu(0));
  EXPECT_EQ(g.device(), st::gpu(0));
  Array back = st::device_put(g, st::cpu());
  EXPECT_EQ(back.to_vector<float>(), x.to_vector<float>());
  EXPECT_EQ(g.to_vector<float>(), x.to_vector<float>());  // to_vector reads a GPU array too
}

TEST(GpuApi, JitRunsWhereItsArgumentsLive) {
  REQUIRE_GPU();
  auto f = st::jit([](const Array& x, const Array& y) { return st::tanh(x * y + 1.0f) - st::exp(-x); });
  Array x = randn({64, 33}, 2), y = randn({64, 33}, 3);
  Array want = f(x, y);
  Array got = f(st::device_put(x, st::gpu(0)), st::device_put(y, st::gpu(0)));
  EXPECT_EQ(want.device(), st::cpu());
  EXPECT_EQ(got.device(), st::gpu(0));
  expect_close(got, want);
  EXPECT_EQ(f.cache_size(), 2u);  // one signature per device
}

TEST(GpuApi, MixedDevicesAreAClearError) {
  REQUIRE_GPU();
  auto f = st::jit([](const Array& x, const Array& y) { return x + y; });
  Array x = randn({4}, 1);
  try {
    f(x, st::device_put(x, st::gpu(0)));
    FAIL() << "expected a ValueError";
  } catch (const st::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("cuda:0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cpu"), std::string::npos) << e.what();
  }
}

// With a GPU as the default device, eager ops and jit on host arrays run there; host and GPU
// arrays mix; setting the CPU back compiles for the CPU again.
TEST(GpuApi, TheDefaultDevicePlacesHostWork) {
  REQUIRE_GPU();
  struct Restore {
    st::Device was = st::default_device();
    ~Restore() { st::set_default_device(was); }
  } restore;
  st::set_default_device(st::gpu(0));
  Array x = randn({64}, 3);  // a host key: the random bits are computed on the GPU
  EXPECT_EQ(x.device(), st::gpu(0));
  Array h = st::arange(int64_t{64}, st::f32);  // host values stay on the host
  EXPECT_EQ(h.device(), st::cpu());
  Array e = st::exp(h);
  EXPECT_EQ(e.device(), st::gpu(0));
  auto f = st::jit([](const Array& a, const Array& b) { return a * b + 1.0f; });
  Array y = f(h, x);  // host and GPU arguments together
  EXPECT_EQ(y.device(), st::gpu(0));
  // lower() shows the stages of the device the call runs on: the GPU's.
  std::vector<std::string> stages = f.lower(h, h).stages();
  EXPECT_NE(std::find(stages.begin(), stages.end(), "ptx"), stages.end());
  st::set_default_device(st::cpu());
  Array hx = st::device_put(x, st::cpu());
  Array z = f(h, hx);
  EXPECT_EQ(z.device(), st::cpu());
  expect_close(y, z, 1e-6, 1e-6);
  expect_close(e, st::exp(h), 1e-6, 1e-6);
}

TEST(GpuApi, EagerOpsRunOnGpuArrays) {
  REQUIRE_GPU();
  Array x = randn({17, 9}, 4);
  Array g = st::device_put(x, st::gpu(0));
  Array got = st::sum(st::exp(g) * 2.0f + g, 1);
  EXPECT_EQ(got.device(), st::gpu(0));
  expect_close(got, st::sum(st::exp(x) * 2.0f + x, 1), 2e-5, 1e-4);
}

TEST(GpuApi, GradOfGpuArrays) {
  REQUIRE_GPU();
  auto loss = [](const Array& w, const Array& x) { return st::sum(st::tanh(st::matmul(x, w)) * 0.5f); };
  Array w = randn({8, 4}, 5), x = randn({16, 8}, 6);
  Array want = st::grad(loss)(w, x);
  Array got = st::grad(loss)(st::device_put(w, st::gpu(0)), st::device_put(x, st::gpu(0)));
  EXPECT_EQ(got.device(), st::gpu(0));
  expect_close(got, want, 1e-4, 1e-5);
  Array jitted = st::jit(st::grad(loss))(st::device_put(w, st::gpu(0)), st::device_put(x, st::gpu(0)));
  expect_close(jitted, want, 1e-4, 1e-5);
}

TEST(GpuApi, FusedProgramsMatchTheCpu) {
  REQUIRE_GPU();
  auto softmax = st::jit([](const Array& x) { return st::softmax(x, -1); });
  auto layer_norm = st::jit([](const Array& x) {
    Array mu = st::mean(x, -1, true);
    Array var = st::mean((x - mu) * (x - mu), -1, true);
    return (x - mu) * st::rsqrt(var + 1e-5f);
  });
  auto seed = st::jit([](const Array& x, const Array& w, const Array& b) { return st::relu(st::matmul(x, w) + b); });
  Array x = randn({37, 129}, 7), w = randn({129, 65}, 8), b = randn({65}, 9);
  st::Device g = st::gpu(0);
  expect_close(softmax(st::device_put(x, g)), softmax(x));
  expect_close(layer_norm(st::device_put(x, g)), layer_norm(x), 1e-4, 1e-5);
  expect_close(seed(st::device_put(x, g), st::device_put(w, g), st::device_put(b, g)), seed(x, w, b), 1e-4, 1e-4);
  // gelu after the bias: cuBLASLt's GELU_BIAS epilogue (its own tanh), against CPU eager.
  auto gelu_seed = st::jit([](const Array& x, const Array& w, const Array& b) { return st::gelu(st::matmul(x, w) + b); });
  expect_close(gelu_seed(st::device_put(x, g), st::device_put(w, g), st::device_put(b, g)), gelu_seed(x, w, b), 1e-4,
               1e-4);
  // A full reduction and a transpose.
  auto total = st::jit([](const Array& x) { return st::sum(st::transpose(x) * 2.0f); });
  expect_close(total(st::device_put(x, g)), total(x), 1e-5, 1e-3);
  // Reductions large enough to be split across blocks (a partial each, then one block).
  Array big = randn({512, 1024}, 12), flat = randn({1 << 20}, 13);
  auto squares = st::jit([](const Array& a) { return st::sum(a * a); });
  auto extremes = st::jit([](const Array& a) { return st::max(a) - st::min(a); });
  expect_close(squares(st::device_put(big, g)), squares(big), 1e-4, 1e-2);
  expect_close(squares(st::device_put(flat, g)), squares(flat), 1e-4, 1e-2);
  expect_close(extremes(st::device_put(big, g)), extremes(big), 0, 0);
  // Reductions over leading axes (column sums, a bias gradient): chunks of rows, a thread per
  // column and chunk, then the chunks combined.
  auto columns = st::jit([](const Array& a) { return st::sum(a, 0) + st::max(a, 0); });
  auto column_mean = st::jit([](const Array& a) { return st::mean(a, 0); });
  Array tall = randn({8192, 48}, 14), cube = randn({600, 7, 33}, 15);
  expect_close(columns(st::device_put(tall, g)), columns(tall), 1e-4, 1e-3);
  expect_close(columns(st::device_put(big, g)), columns(big), 1e-4, 1e-3);
  expect_close(column_mean(st::device_put(cube, g)), column_mean(cube), 1e-4, 1e-4);
  // Reductions along few long rows: each row in chunks (a block each), then each row's
  // partials combined; one with two accumulators and a division after, one over two axes.
  auto rows = st::jit([](const Array& a) { return st::mean(a, 1) + st::max(a, 1); });
  auto rows_two_axes = st::jit([](const Array& a) { return st::sum(st::exp(a * 0.1f), {1, 2}); });
  Array wide = randn({8, 1 << 20}, 19), deep = randn({3, 64, 4096}, 20);
  expect_close(rows(st::device_put(wide, g)), rows(wide), 1e-4, 1e-4);
  expect_close(rows_two_axes(st::device_put(deep, g)), rows_two_axes(deep), 1e-4, 1e-2);
  Array few = randn({4, 1 << 18}, 21);
  expect_close(softmax(st::device_put(few, g)), softmax(few), 1e-4, 1e-9);
  expect_close(layer_norm(st::device_put(few, g)), layer_norm(few), 1e-4, 1e-4);
  // Transposes through shared memory, in 32x32 tiles cut at the edges (300, 1000 and 77 are
  // not multiples of 32); a batched one.
  auto transposed = st::jit([](const Array& a, const Array& b) { return st::exp(st::transpose(a)) * b; });
  auto batched = st::jit([](const Array& a) { return st::transpose(a, {0, 2, 1}) + 1.0f; });
  Array ta = randn({1000, 300}, 16), tb = randn({300, 1000}, 17), tc = randn({5, 77, 130}, 18);
  expect_close(transposed(st::device_put(ta, g), st::device_put(tb, g)), transposed(ta, tb));
  expect_close(batched(st::device_put(tc, g)), batched(tc), 0, 0);
}

// bf16/f16 seed lines are one cuBLASLt call (bias and activation in f32, one rounding), eager
// rounds after each op: they agree within a few ulps of the type.
TEST(GpuApi, HalfPrecisionSeedLinesMatchTheCpu) {
  REQUIRE_GPU();
  auto seed = st::jit([](const Array& x, const Array& w, const Array& b) { return st::relu(st::matmul(x, w) + b); });
  auto gelu_seed = st::jit([](const Array& x, const Array& w, const Array& b) { return st::gelu(st::matmul(x, w) + b); });
  st::Device g = st::gpu(0);
  for (st::DType t : {st::bf16, st::f16}) {
    SCOPED_TRACE(std::string(st::short_name(t)));
    // Values of |x·w| up to ~10: an ulp of bf16 there is 1/16, of f16 1/128.
    Array x = st::astype(randn({64, 96}, 21), t), w = st::astype(randn({96, 40}, 22) * 0.3f, t),
          b = st::astype(randn({40}, 23), t);
    double rtol = t == st::bf16 ? 0x1p-6 : 0x1p-9, atol = t == st::bf16 ? 0x1p-6 : 0x1p-9;
    Array xg = st::device_put(x, g), wg = st::device_put(w, g), bg = st::device_put(b, g);
    expect_close(seed(xg, wg, bg), seed(x, w, b), rtol, atol);
    expect_close(gelu_seed(xg, wg, bg), gelu_seed(x, w, b), rtol, atol);
  }
}

TEST(GpuApi, ResultsAreAsynchronousAndReadsWait) {
  REQUIRE_GPU();
  auto step = st::jit([](const Array& x) { return x * 0.5f + 1.0f; });
  Array x = st::device_put(st::zeros({1 << 20}), st::gpu(0));
  for (int i = 0; i < 50; ++i) x = step(x);  // 50 launches queued, no wait in between
  double want = 0;
  for (int i = 0; i < 50; ++i) want = want * 0.5 + 1.0;
  std::vector<float> v = x.to_vector<float>();
  EXPECT_NEAR(v.front(), want, 1e-6);
  EXPECT_NEAR(v.back(), want, 1e-6);
  EXPECT_EQ(&x.block_until_ready(), &x);
}

// A program of several steps (a cuBLASLt GEMM, row and column reductions) called again and
// again with the same buffers runs as a replayed CUDA graph, with the bits of plain launches.
TEST(GpuApi, GraphReplayEqualsPlainLaunches) {
  REQUIRE_GPU();
  auto f = st::jit([](const Array& x, const Array& w) {
    Array h = st::softmax(st::matmul(x, w), -1);
    return st::sum(h * h, 0) + st::mean(x);
  });
  st::Device g = st::gpu(0);
  Array w = st::device_put(randn({96, 80}, 11), g);
  std::vector<Array> xs = {st::device_put(randn({70, 96}, 20), g), st::device_put(randn({70, 96}, 21), g)};
  cu::set_graphs_enabled(false);
  std::vector<std::vector<float>> plain;
  for (const Array& x : xs) plain.push_back(f(x, w).to_vector<float>());
  cu::set_graphs_enabled(true);
  const cu::GraphStats before = cu::graph_stats();
  for (int round = 0; round < 6; ++round)
    for (size_t i = 0; i < xs.size(); ++i)  // each result dropped: its buffer comes back
      EXPECT_EQ(f(xs[i], w).to_vector<float>(), plain[i]) << "round " << round << ", input " << i;
  const cu::GraphStats after = cu::graph_stats();
  EXPECT_GE(after.captures, before.captures + 1);
  EXPECT_GE(after.replays, before.replays + 4);
  EXPECT_EQ(after.failures, before.failures);
}

TEST(GpuApi, OutOfMemoryNamesTheBytes) {
  REQUIRE_GPU();
  try {
    Array huge = st::device_put(st::zeros({1}), st::gpu(0));
    auto f = st::jit([](const Array& x) { return st::broadcast_to(x, {int64_t{1} << 40}); });  // 4 TiB
    f(huge).block_until_ready();
    FAIL() << "expected an error";
  } catch (const st::Error& e) {
    EXPECT_NE(std::string(e.what()).find("bytes"), std::string::npos) << e.what();
  }
}

}  // namespace
