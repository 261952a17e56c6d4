// st::jit: results equal eager; the cache (hits, recompiles and why, LRU, threads); Compiled;
// pytrees and static arguments; composition with grad and make_jaxpr; the disk cache.
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::error_message;

namespace mlp {
struct Params {
  Array w1, b1, w2, b2;
};
STRATA_PYTREE(Params, w1, b1, w2, b2);
}  // namespace mlp

namespace {

Array relu_layer(const Array& x, const Array& w, const Array& b) { return st::relu(st::matmul(x, w) + b); }

Array rnd(std::vector<int64_t> shape, uint64_t seed, st::DType t = st::f32) {
  return st::random::normal(st::random::key(seed), shape, t);
}

void expect_close(const Array& got, const Array& want, double ulps = 8, double atol = 1e-5) {
  ASSERT_EQ(got.shape(), want.shape());
  ASSERT_EQ(got.dtype(), want.dtype());
  std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
  for (size_t i = 0; i < g.size(); ++i)
    ASSERT_TRUE(st::testing::close(g[i], w[i], got.dtype(), ulps, atol)) << "element " << i << ": " << g[i] << " vs " << w[i];
}

TEST(Jit, SeedLineMatchesEager) {
  Array x = rnd({8, 64}, 1), w = rnd({64, 32}, 2), b = rnd({32}, 3);
  auto f = st::jit(relu_layer);
  expect_close(f(x, w, b), relu_layer(x, w, b));
  EXPECT_EQ(f.cache_size(), 1u);
}

TEST(Jit, SameSignatureDoesNotRecompile) {
  auto f = st::jit(relu_layer, {.name = "relu_layer"});
  Array x = rnd({8, 64}, 1), w = rnd({64, 32}, 2), b = rnd({32}, 3);
  for (int i = 0; i < 5; ++i) f(x * static_cast<float>(i), w, b);
  EXPECT_EQ(f.stats().compiles, 1u);
  EXPECT_EQ(f.stats().hits, 4u);
  EXPECT_EQ(f.stats().misses, 1u);  // one compile is one miss (not two lookups)
  EXPECT_EQ(f.cache_size(), 1u);
}

TEST(Jit, ChangedShapeDtypeOrStaticValueRecompilesAndTheLogSaysWhy) {
  auto f = st::jit([](const Array& x, int power) { return st::sum(st::power(x, static_cast<float>(power))); },
                   {.name = "powsum", .log = true});
  testing::internal::CaptureStderr();
  f(st::ones({8, 4}), 2);
  f(st::ones({16, 4}), 2);
  f(st::ones({16, 4}, st::f64), 2);
  f(st::ones({16, 4}, st::f64), 3);
  f(st::ones({16, 4}, st::f64), 3);
  std::string log = testing::internal::GetCapturedStderr();
  EXPECT_EQ(f.stats().compiles, 4u);
  EXPECT_NE(log.find("compiled powsum for (f32[8,4], 2)"), std::string::npos) << log;
  EXPECT_NE(log.find("recompiling powsum: argument 0 f32[8,4] → f32[16,4]"), std::string::npos) << log;
  EXPECT_NE(log.find("recompiling powsum: argument 0 f32[16,4] → f64[16,4]"), std::string::npos) << log;
  EXPECT_NE(log.find("recompiling powsum: argument 1 (static) 2 → 3"), std::string::npos) << log;
  EXPECT_NE(log.find("trace"), std::string::npos) << log;
  EXPECT_EQ(f(st::ones({2}), 3).item<float>(), 2.0f);
}

TEST(Jit, WeakTypeIsPartOfTheKey) {
  auto f = st::jit([](const Array& x, const Array& y) { return x * y; });
  Array h = st::ones({3}, st::f16);
  EXPECT_EQ(f(h, Array(2.0f)).dtype(), st::f16);  // weak scalar: stays f16
  EXPECT_EQ(f(h, st::astype(Array(2.0f), st::f32)).dtype(), st::f32);  // strong: promotes
  EXPECT_EQ(f.stats().compiles, 2u);
}

TEST(Jit, LruCapacity) {
  auto f = st::jit([](const Array& x) { return x + 1.0f; }, {.cache_capacity = 2});
  f(st::ones({1}));
  f(st::ones({2}));
  f(st::ones({1}));  // touch {1}: {2} is now the least recently used
  f(st::ones({3}));
  EXPECT_EQ(f.cache_size(), 2u);
  f(st::ones({1}));  // still cached
  EXPECT_EQ(f.stats().compiles, 3u);
  f(st::ones({2}));  // evicted: compiles again
  EXPECT_EQ(f.stats().compiles, 4u);
}

TEST(Jit, EightThreadsCompileOnce) {
  auto f = st::jit(relu_layer);
  Array x = rnd({32, 64}, 1), w = rnd({64, 48}, 2), b = rnd({48}, 3);
  Array want = relu_layer(x, w, b);
  // Each thread's every result against the first compiled result, itself checked against eager.
  Array first = f(x, w, b);
  expect_close(first, want);
  const std::vector<float> expected = first.to_vector<float>();
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  auto g = st::jit(relu_layer);  // a fresh cache: the eight threads race to compile it
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i)
        if (g(x, w, b).to_vector<float>() != expected) ++wrong;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(g.stats().compiles, 1u);
  EXPECT_EQ(g.stats().hits + g.stats().misses, 160u);
}

// Host callbacks from several threads at once: each run calls back on its own thread (a thread
// whose callback fails gets its own exception; the others are untouched), and a callback that
// calls another jitted function runs it on that thread's nested buffers.
TEST(Jit, HostCallbacksFromManyThreads) {
  auto inner = st::jit([](const Array& v) { return st::tanh(v) + 1.0f; });
  auto f = st::jit([&](const Array& x) {
    Array t = st::exp(x);
    Array y = st::pure_callback(
        [&](const Array& v) {
          if (v.to_vector<float>()[0] < 0) throw st::ValueError("negative");
          return inner(v) * 2.0f;
        },
        st::ShapeDtypeStruct(x), t - 1.0f);
    return y + t;
  });
  Array x = rnd({16, 8}, 4);
  Array base = st::abs(x);
  const std::vector<float> expected = f(base).to_vector<float>();
  Array bad = -st::abs(x) - 1.0f;
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0}, thrown{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        if (t % 2 == 1 && i % 5 == 0) {
          try {
            f(bad);
          } catch (const st::ValueError&) {
            ++thrown;
          }
        } else if (f(base).to_vector<float>() != expected) {
          ++wrong;
        }
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(thrown.load(), 16);
}

TEST(Jit, PytreesAndStaticArguments) {
  mlp::Params p{rnd({4, 8}, 1), rnd({8}, 2), rnd({8, 3}, 3), rnd({3}, 4)};
  auto forward = [](const mlp::Params& q, const Array& x, bool use_relu) {
    Array h = st::matmul(x, q.w1) + q.b1;
    h = use_relu ? st::relu(h) : st::tanh(h);
    return std::make_pair(st::matmul(h, q.w2) + q.b2, st::sum(h));
  };
  auto f = st::jit(forward);
  Array x = rnd({5, 4}, 5);
  for (bool r : {true, false}) {
    auto [out, s] = f(p, x, r);
    auto [want_out, want_s] = forward(p, x, r);
    expect_close(out, want_out);
    expect_close(s, want_s, 64, 1e-4);
  }
  EXPECT_EQ(f.stats().compiles, 2u);
}

TEST(Jit, CompiledRefusesAnotherSignature) {
  auto f = st::jit(relu_layer, {.name = "relu_layer"});
  Array x = rnd({8, 16}, 1), w = rnd({16, 4}, 2), b = rnd({4}, 3);
  auto lowered = f.lower(x, w, b);
  EXPECT_NE(lowered.as_text("strata").find("strata.dot_general"), std::string::npos);
  auto compiled = lowered.compile();
  expect_close(compiled(x, w, b), relu_layer(x, w, b));
  std::string m = error_message<st::ValueError>([&] { compiled(rnd({9, 16}, 4), w, b); });
  EXPECT_NE(m.find("Compiled relu_layer"), std::string::npos) << m;
  EXPECT_NE(m.find("argument 0 f32[8,16] → f32[9,16]"), std::string::npos) << m;
  EXPECT_NE(m.find("never recompiles"), std::string::npos) << m;
  EXPECT_FALSE(compiled.as_text().empty());
  st::MemoryStats mem = compiled.memory_analysis();
  EXPECT_EQ(mem.argument_bytes, (8 * 16 + 16 * 4 + 4) * 4);
  EXPECT_EQ(mem.output_bytes, 8 * 4 * 4);
  st::CostStats cost = compiled.cost_analysis();
  EXPECT_GE(cost.flops, 2.0 * 8 * 16 * 4);
  EXPECT_GT(cost.bytes_accessed, 0);
}

TEST(Jit, InsideATraceJitIsTransparent) {
  auto f = st::jit([](const Array& x) { return st::exp(x) * 2.0f; });
  st::Jaxpr j = st::make_jaxpr([&](const Array& x) { return f(x) + 1.0f; })(st::ones({3}));
  EXPECT_EQ(j.primitive_names(), (std::vector<std::string>{"exp", "mul", "add"}));
  EXPECT_EQ(f.stats().compiles, 0u);
}

TEST(Jit, ComposesWithGrad) {
  auto loss = [](const Array& w, const Array& x) { return st::sum(st::tanh(st::matmul(x, w))); };
  Array w = rnd({6, 3}, 1), x = rnd({4, 6}, 2);
  Array want = st::grad(loss)(w, x);
  expect_close(st::jit(st::grad(loss))(w, x), want, 16, 1e-5);       // jit(grad(f))
  expect_close(st::grad(st::jit(loss))(w, x), want, 16, 1e-5);       // grad(jit(f))
  auto [v, g] = st::jit(st::value_and_grad(loss))(w, x);              // jit(value_and_grad(f))
  expect_close(g, want, 16, 1e-5);
  expect_close(v, loss(w, x), 16, 1e-5);
  auto g2 = st::jit(st::grad([&](const Array& u) { return st::sum(st::grad(loss)(u, x)); }));  // jit(grad(grad))
  expect_close(g2(w), st::grad([&](const Array& u) { return st::sum(st::grad(loss)(u, x)); })(w), 16, 1e-5);
}

TEST(Jit, PersistentDiskCacheSkipsCodegen) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("strata-jit-cache-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  Array x = rnd({4, 8}, 1), w = rnd({8, 2}, 2), b = rnd({2}, 3);
  testing::internal::CaptureStderr();
  {
    auto f = st::jit(relu_layer, {.name = "first", .cache_dir = dir.string(), .log = true});
    expect_close(f(x, w, b), relu_layer(x, w, b));
  }
  {
    // A new jitted object (as after a restart) finds the code on disk.
    auto f = st::jit(relu_layer, {.name = "second", .cache_dir = dir.string(), .log = true});
    expect_close(f(x, w, b), relu_layer(x, w, b));
  }
  std::string log = testing::internal::GetCapturedStderr();
  EXPECT_EQ(log.find("compiled first for (f32[4,8], f32[8,2], f32[2]) in") != std::string::npos, true) << log;
  EXPECT_NE(log.find("(from the disk cache)"), std::string::npos) << log;
  EXPECT_EQ(log.find("compiled first") < log.find("(from the disk cache)"), true) << log;
  std::filesystem::remove_all(dir);
}

TEST(Jit, ConstantsAndPassthroughOutputs) {
  Array c = st::array({1.0f, 2.0f, 3.0f}, {3});
  auto f = st::jit([&](const Array& x) { return std::make_tuple(x + c, x, c, st::full({2}, 7.0)); });
  Array x = st::array({10.0f, 20.0f, 30.0f}, {3});
  auto [a, same, cc, seven] = f(x);
  EXPECT_EQ(a.to_vector<float>(), (std::vector<float>{11, 22, 33}));
  EXPECT_EQ(same.to_vector<float>(), x.to_vector<float>());
  EXPECT_EQ(cc.to_vector<float>(), c.to_vector<float>());
  EXPECT_EQ(seven.to_vector<float>(), (std::vector<float>{7, 7}));
}

TEST(Jit, InputsAreNeverModified) {
  auto f = st::jit([](const Array& x) { return x * 2.0f + 1.0f; });
  Array x = st::array({1.0f, 2.0f}, {2});
  f(x);
  f(x);
  EXPECT_EQ(x.to_vector<float>(), (std::vector<float>{1, 2}));
}

// More buffers than the executable's old fixed argument array (64): 40 inputs and 40 outputs.
TEST(Jit, ManyInputsAndOutputs) {
  std::vector<Array> xs;
  for (int i = 0; i < 40; ++i) xs.push_back(rnd({3}, static_cast<uint64_t>(i)));
  auto f = [](const std::vector<Array>& v) {
    std::vector<Array> out;
    for (const Array& a : v) out.push_back(a * 2.0f + 1.0f);
    return out;
  };
  std::vector<Array> got = st::jit(f)(xs), want = f(xs);
  ASSERT_EQ(got.size(), 40u);
  for (size_t i = 0; i < got.size(); ++i) expect_close(got[i], want[i]);
}

TEST(Jit, DevicesAndPlacement) {
  std::vector<st::Device> ds = st::devices();
  ASSERT_FALSE(ds.empty());
  EXPECT_EQ(ds[0], st::cpu());
  EXPECT_EQ(st::cpu().str(), "cpu");
  Array x = rnd({4}, 1);
  EXPECT_EQ(x.device(), st::cpu());
  EXPECT_EQ(st::device_put(x, st::cpu()).data(), x.data());  // already there: no copy
  auto f = st::jit([](const Array& v) { return v + 1.0f; }, {.device = st::cpu()});
  EXPECT_EQ(f(x).device(), st::cpu());
  bool has_gpu = ds.size() > 1;
  if (!has_gpu) {
    std::string m = error_message<st::ValueError>([] { (void)st::gpu(0); });
    EXPECT_NE(m.find("no device cuda:0"), std::string::npos) << m;
    EXPECT_NE(m.find("devices: cpu"), std::string::npos) << m;
    m = error_message<st::ValueError>([&] { (void)st::device_put(x, st::Device{st::DeviceKind::cuda, 0}); });
    EXPECT_NE(m.find("device_put"), std::string::npos) << m;
    m = error_message<st::Error>([&] {
      st::jit([](const Array& v) { return v; }, {.device = st::Device{st::DeviceKind::cuda, 0}})(x);
    });
    EXPECT_NE(m.find("cuda"), std::string::npos) << m;
  }
}

TEST(Jit, TraceErrorsSurfaceAsStrataErrors) {
  auto f = st::jit([](const Array& x) {
    if (st::sum(x) > 0.0f) return x;
    return -x;
  });
  std::string m = error_message<st::ConcretizationError>([&] { f(st::ones({3})); });
  EXPECT_NE(m.find("st::cond"), std::string::npos) << m;
  EXPECT_EQ(f.cache_size(), 0u);
}

}  // namespace
