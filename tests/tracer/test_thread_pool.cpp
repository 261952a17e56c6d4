// The eager kernels' thread pool (tracer/kernels/parallel.h): every index once, callers on many
// threads at once, nested calls, and eager kernels big enough to split run from several threads.
// tools/sanitize.sh tsan runs these under ThreadSanitizer.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "kernels/parallel.h"
#include "strata/strata.h"

namespace st = strata;
namespace k = strata::kernels;

namespace {

// Runs parallel_for over n indices and checks each was visited exactly once, in chunks that
// tile [0, n).
void expect_each_index_once(int64_t n, int64_t grain) {
  std::vector<std::atomic<int>> visits(static_cast<size_t>(n));
  std::atomic<int64_t> covered{0};
  k::parallel_for(n, grain, [&](int64_t lo, int64_t hi) {
    ASSERT_LE(0, lo);
    ASSERT_LE(lo, hi);
    ASSERT_LE(hi, n);
    for (int64_t i = lo; i < hi; ++i) visits[static_cast<size_t>(i)].fetch_add(1, std::memory_order_relaxed);
    covered += hi - lo;
  });
  EXPECT_EQ(covered.load(), n);
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(visits[static_cast<size_t>(i)].load(), 1) << "index " << i;
}

}  // namespace

TEST(ThreadPool, EveryIndexRunsOnce) {
  EXPECT_GE(k::num_threads(), 1);
  for (int64_t n : {0, 1, 7, 1000, 100003}) expect_each_index_once(n, 1);
  expect_each_index_once(100000, 1 << 15);
}

TEST(ThreadPool, BelowTheGrainTheCallerRunsEverything) {
  const std::thread::id caller = std::this_thread::get_id();
  int calls = 0;
  k::parallel_for(100, 1000, [&](int64_t lo, int64_t hi) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    EXPECT_EQ(lo, 0);
    EXPECT_EQ(hi, 100);
    ++calls;
  });
  EXPECT_EQ(calls, 1);
}

TEST(ThreadPool, NestedCallsRunSeriallyInsideTheOuterChunk) {
  const int64_t n = 64, m = 1000;
  std::vector<int64_t> sums(n, 0);  // each outer index owns its slot
  k::parallel_for(n, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      const std::thread::id outer = std::this_thread::get_id();
      k::parallel_for(m, 1, [&](int64_t a, int64_t b) {
        EXPECT_EQ(std::this_thread::get_id(), outer);
        for (int64_t j = a; j < b; ++j) sums[static_cast<size_t>(i)] += j;
      });
    }
  });
  for (int64_t i = 0; i < n; ++i) EXPECT_EQ(sums[static_cast<size_t>(i)], m * (m - 1) / 2) << "index " << i;
}

TEST(ThreadPool, ManyCallersAtOnce) {
  // Eight threads share the one pool (calls are serialised inside it); each writes its own
  // buffer, which must hold exactly its values afterwards.
  const int64_t n = 50000;
  std::vector<std::vector<int64_t>> out(8, std::vector<int64_t>(n, -1));
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int rep = 0; rep < 10; ++rep)
        k::parallel_for(n, 1000, [&](int64_t lo, int64_t hi) {
          for (int64_t i = lo; i < hi; ++i) out[t][static_cast<size_t>(i)] = i * (t + 1) + rep;
        });
    });
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < 8; ++t)
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out[t][static_cast<size_t>(i)], i * (t + 1) + 9) << "thread " << t;
}

TEST(ThreadPool, EagerKernelsFromManyThreadsMatchALoop) {
  // Arrays above kElementwiseGrain, so each elementwise kernel splits across the pool; four
  // threads also share the input arrays (reference counts, read-only buffers).
  const int64_t n = 3 * k::kElementwiseGrain + 5;
  std::vector<float> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 97) * 0.5f;
    b[i] = static_cast<float>(i % 13) - 6.0f;
  }
  st::Array x = st::array(a, {n}), y = st::array(b, {n});
  std::atomic<int> wrong{0};
  std::vector<std::string> errors(4);  // an op that throws fails the test, not the process
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      try {
        for (int rep = 0; rep < 3; ++rep) {
          float s = static_cast<float>(t + rep);
          std::vector<float> got = (x * y + s).to_vector<float>();
          for (int64_t i = 0; i < n; ++i)
            if (got[i] != a[i] * b[i] + s) {
              ++wrong;
              break;
            }
        }
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
  for (int t = 0; t < 4; ++t) EXPECT_EQ(errors[t], "") << "thread " << t;
}
