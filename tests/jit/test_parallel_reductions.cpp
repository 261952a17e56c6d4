// Reductions to a few values split across the thread pool (lowering/SplitReductionLoops.cpp):
// each chunk of the outer loop accumulates a partial of its own, then the partials are
// combined. Compiled results against a plain-loop reference (exact for integers, within
// reassociation error for floats) and against eager mode, over sizes whose trip counts split
// into many, few or no chunks, every combiner, fused elementwise outputs and while loops.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

using st::testing::wave;

// Whether the program has a loop outlined for the pool (the split reduction's chunks).
template <class F, class... A>
bool parallel(F f, const A&... args) {
  return st::jit(f).lower(args...).as_text("loops").find("_parallel_") != std::string::npos;
}

// Element i of the row-major iota of shape s equal to `at`: a mask with one true element.
Array one_hot_mask(st::Shape s, int64_t at) {
  return st::reshape(st::arange(static_cast<int64_t>(s[0] * s[1]), st::i64) == at, s);
}

void expect_close(const Array& got, const Array& want, double rtol, double atol, const std::string& what) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
  for (size_t i = 0; i < g.size(); ++i)
    ASSERT_NEAR(g[i], w[i], atol + rtol * std::abs(w[i])) << what << " [" << i << "]";
}

void expect_near_sum(const Array& got, const std::vector<double>& xs, double want, const std::string& what) {
  double mag = 0;
  for (double x : xs) mag += std::abs(x);
  // Reassociated f32 sums: a few ulps of the sum of magnitudes.
  EXPECT_NEAR(got.item<double>(), want, 1e-6 * mag + 1e-6) << what;
}

}  // namespace

TEST(ParallelReductions, FullSumsOfManyShapes) {
  // 512² (64 chunks), 1000² (50), 3 × 65536 (the outer loop has 3 trips), 65537 (prime: 64
  // chunks of 1024 and one element after them).
  for (st::Shape s : {st::Shape{512, 512}, st::Shape{1000, 1000}, st::Shape{3, 65536}, st::Shape{65537}}) {
    Array x = wave(s);
    std::vector<double> xs = x.to_vector<double>();
    double want = 0;
    for (double v : xs) want += v;
    auto f = [](const Array& a) { return st::sum(a); };
    std::string what = "sum of " + std::to_string(xs.size());
    expect_near_sum(st::jit(f)(x), xs, want, what);
    expect_near_sum(f(x), xs, want, what + " (eager)");
  }
  EXPECT_TRUE(parallel([](const Array& a) { return st::sum(a); }, wave({512, 512})));
  EXPECT_TRUE(parallel([](const Array& a) { return st::sum(a); }, wave({65537})));
  st::JitOptions serial;
  serial.parallel = false;
  Array x = wave({512, 512});
  EXPECT_NEAR(st::jit([](const Array& a) { return st::sum(a); }, serial)(x).item<double>(),
              st::jit([](const Array& a) { return st::sum(a); })(x).item<double>(), 1e-2);
}

TEST(ParallelReductions, EveryCombinerAndDtype) {
  Array x = wave({256, 1024});
  std::vector<double> xs = x.to_vector<double>();
  double mx = -INFINITY, mn = INFINITY;
  for (double v : xs) mx = std::max(mx, v), mn = std::min(mn, v);
  EXPECT_EQ(st::jit([](const Array& a) { return st::max(a); })(x).item<double>(), mx);
  EXPECT_EQ(st::jit([](const Array& a) { return st::min(a); })(x).item<double>(), mn);
  // A product of values near 1 (no overflow): the logs add up.
  Array near1 = x * 1e-4f + 1.0f;
  double logp = 0;
  for (double v : near1.to_vector<double>()) logp += std::log(v);
  // (262144 f32 roundings drift ~0.1% from the exact product, whatever the order: the serial
  // loop and eager mode too.)
  st::JitOptions serial;
  serial.parallel = false;
  double split = std::log(st::jit([](const Array& a) { return st::prod(a); })(near1).item<double>());
  EXPECT_NEAR(split, logp, 3e-3);
  EXPECT_NEAR(split, std::log(st::jit([](const Array& a) { return st::prod(a); }, serial)(near1).item<double>()), 3e-4);
  // Integers: exact, whatever the order.
  for (st::DType t : {st::i32, st::i64, st::u32}) {
    Array xi = st::astype(wave({256, 1024}, st::f32, 1000.0), t);
    std::vector<double> v = xi.to_vector<double>();
    double s = 0, hi = -INFINITY, lo = INFINITY;
    for (double e : v) s += e, hi = std::max(hi, e), lo = std::min(lo, e);
    std::string name(st::short_name(t));
    if (t == st::u32) {
      s = 0;  // wraps modulo 2^32
      uint32_t w = 0;
      for (double e : v) w += static_cast<uint32_t>(e);
      s = w;
    }
    EXPECT_EQ(st::jit([](const Array& a) { return st::sum(a); })(xi).item<double>(), s) << name;
    EXPECT_EQ(st::jit([](const Array& a) { return st::max(a); })(xi).item<double>(), hi) << name;
    EXPECT_EQ(st::jit([](const Array& a) { return st::min(a); })(xi).item<double>(), lo) << name;
    EXPECT_TRUE(parallel([](const Array& a) { return st::max(a); }, xi)) << name;
  }
  // Booleans: all/any, with one odd element in the last chunk.
  Array ones = st::ones({512, 512}, st::bool_);
  Array one_false = st::logical_not(one_hot_mask({512, 512}, 512 * 512 - 1));
  EXPECT_TRUE(st::jit([](const Array& a) { return st::all(a); })(ones).item<bool>());
  EXPECT_FALSE(st::jit([](const Array& a) { return st::all(a); })(one_false).item<bool>());
  EXPECT_TRUE(st::jit([](const Array& a) { return st::any(st::logical_not(a)); })(one_false).item<bool>());
  EXPECT_FALSE(st::jit([](const Array& a) { return st::any(st::logical_not(a)); })(ones).item<bool>());
  // f64 and bf16 sums against eager.
  for (st::DType t : {st::f64, st::bf16}) {
    Array xt = wave({512, 512}, t);
    double e = st::sum(xt).item<double>(), j = st::jit([](const Array& a) { return st::sum(a); })(xt).item<double>();
    EXPECT_NEAR(j, e, t == st::f64 ? 1e-9 : 0.05 * std::abs(e) + 1.0) << st::short_name(t);
  }
}

TEST(ParallelReductions, NanPropagatesThroughPartials) {
  Array x = st::where(one_hot_mask({512, 512}, 300 * 512 + 7), st::full({}, NAN), wave({512, 512}));
  EXPECT_TRUE(std::isnan(st::jit([](const Array& a) { return st::max(a); })(x).item<double>()));
  EXPECT_TRUE(std::isnan(st::jit([](const Array& a) { return st::sum(a); })(x).item<double>()));
}

TEST(ParallelReductions, FusedOutputsAndInit) {
  // One fused nest: the sum of squares and the squares themselves (an elementwise output each
  // chunk writes); max and min of one operand.
  auto f = [](const Array& a) {
    Array sq = a * a;
    return std::vector<Array>{st::sum(sq), sq * 2.0f, st::max(a) + st::min(a)};
  };
  Array x = wave({512, 512});
  std::vector<Array> got = st::jit(f)(x), want = f(x);
  EXPECT_NEAR(got[0].item<double>(), want[0].item<double>(), 1e-5 * want[0].item<double>());
  expect_close(got[1], want[1], 0, 0, "squares");
  EXPECT_EQ(got[2].item<double>(), want[2].item<double>());
  EXPECT_TRUE(parallel(f, x));
}

TEST(ParallelReductions, InsideAWhileLoop) {
  // Power iteration on a diagonal matrix: the norm (a full sum) is taken on every trip.
  auto f = [](const Array& v0) {
    auto body = [](const std::vector<Array>& s) {
      Array w = s[0] * st::reshape(st::arange(1.0f, 513.0f, 1.0f), {512, 1}) * 1e-3f;
      Array norm = st::sqrt(st::sum(w * w));
      return std::vector<Array>{w / norm, s[1] + 1};
    };
    return st::while_loop([](const std::vector<Array>& s) { return s[1] < 20; }, body,
                          std::vector<Array>{v0, st::full({}, 0, st::i32)})[0];
  };
  Array v = wave({512, 512}) + 4.0f;
  expect_close(st::jit(f)(v), f(v), 1e-4, 1e-6, "power iteration");
  EXPECT_TRUE(parallel(f, v));
}

// Reductions along fewer rows than the pool runs at once (lowering/SplitRowReductions.cpp):
// each row splits into chunks, a task each, then each row combines its partials and finishes
// (a mean's division); rows of several loops become a parallel loop each first. Against
// eager mode and, for integers, exactly.
TEST(ParallelReductions, FewLongRowsSplitIntoChunks) {
  Array x = wave({4, 262144});
  // 4 rows of 262144: 8 chunks a row (64 / 4 = 16, at most 262144 / 32768 = 8).
  auto mean_rows = [](const Array& a) { return st::mean(a, 1); };
  expect_close(st::jit(mean_rows)(x), mean_rows(x), 1e-5, 1e-6, "mean of rows");
  EXPECT_NE(st::jit(mean_rows).lower(x).as_text("loops").find("memref<4x8xf32>"), std::string::npos)
      << st::jit(mean_rows).lower(x).as_text("loops");
  auto max_rows = [](const Array& a) { return st::max(a, 1); };
  expect_close(st::jit(max_rows)(x), max_rows(x), 0, 0, "max of rows");
  // What the reduction computes on the way (exp) and two accumulators of one row.
  auto exp_rows = [](const Array& a) { return st::sum(st::exp(a - 1.0f), 1) + st::max(a, 1) * st::min(a, 1); };
  expect_close(st::jit(exp_rows)(x), exp_rows(x), 1e-5, 1e-5, "sum of exp, max, min");
  // Rows of a 3-d array (6 rows), and rows reduced over two axes (a nest in each chunk).
  Array y = wave({2, 3, 131072});
  auto sum_last = [](const Array& a) { return st::sum(a, -1); };
  expect_close(st::jit(sum_last)(y), sum_last(y), 1e-5, 1e-3, "sum over the last axis");
  Array z = wave({3, 256, 1024});
  auto sum_two = [](const Array& a) { return st::sum(a, {1, 2}); };
  expect_close(st::jit(sum_two)(z), sum_two(z), 1e-5, 1e-3, "sum over two axes");
  // Integers: exact.
  Array xi = st::astype(wave({4, 262144}, st::f32, 1000.0), st::i32);
  auto isum = [](const Array& a) { return st::sum(a, 1); };
  std::vector<int64_t> want(4, 0);
  std::vector<double> v = xi.to_vector<double>();
  for (size_t i = 0; i < v.size(); ++i) want[i / 262144] += static_cast<int64_t>(v[i]);
  std::vector<double> got = st::jit(isum)(xi).to_vector<double>();
  for (int r = 0; r < 4; ++r) EXPECT_EQ(got[r], static_cast<double>(want[r])) << "row " << r;
  // A NaN in the last chunk of row 2 reaches that row's max and only it.
  Array nan = st::where(st::reshape(st::arange(int64_t{4 * 262144}, st::i64) == 2 * 262144 + 262000, {4, 262144}),
                        st::full({}, NAN), x);
  std::vector<double> m = st::jit(max_rows)(nan).to_vector<double>();
  for (int r = 0; r < 4; ++r) EXPECT_EQ(std::isnan(m[r]), r == 2) << "row " << r;
  // Rows of several loops, each using the ones before (softmax: a max, a sum of exponentials
  // that also writes them, the division; layer norm: a mean, a variance, the output): with
  // more threads than rows (ctest parallel_reductions.sixteen_threads runs this test with
  // STRATA_NUM_THREADS=16) one parallel loop a loop, each in chunks; else one task a row.
  auto softmax = [](const Array& a) { return st::softmax(a, 1); };
  expect_close(st::jit(softmax)(x), softmax(x), 1e-4, 1e-9, "softmax of rows");
  auto layer_norm = [](const Array& a) {
    Array mu = st::mean(a, -1, true);
    Array var = st::mean((a - mu) * (a - mu), -1, true);
    return (a - mu) * st::rsqrt(var + 1e-5f);
  };
  expect_close(st::jit(layer_norm)(x), layer_norm(x), 1e-4, 1e-4, "layer norm of rows");
  const char* threads = std::getenv("STRATA_NUM_THREADS");
  bool cut = threads && std::atoi(threads) > 4;
  EXPECT_EQ(st::jit(layer_norm).lower(x).as_text("loops").find("memref<4x8xf32>") != std::string::npos, cut);
  auto centre = [](const Array& a) { return a - st::mean(a, 1, true); };
  expect_close(st::jit(centre)(x), centre(x), 1e-5, 1e-5, "centred rows");
  // Many rows are parallel already: left as they are.
  Array many = wave({64, 65536});
  EXPECT_EQ(st::jit(mean_rows).lower(many).as_text("loops").find("memref.view"), std::string::npos);  // no partials
  expect_close(st::jit(mean_rows)(many), mean_rows(many), 1e-5, 1e-6, "mean of 64 rows");
}

TEST(ParallelReductions, NarrowColumnsSplitTheirRows) {
  // 65536 rows of 16 columns: split by columns each thread would stream every row; with at most
  // 16 places per thread of the pool the rows split into 64 chunks with a slab of partials
  // each (memref<64x16xf32>), then each column combines its chunks'.
  Array x = wave({65536, 16});
  auto mean_cols = [](const Array& a) { return st::mean(a, 0); };
  expect_close(st::jit(mean_cols)(x), mean_cols(x), 1e-5, 1e-6, "mean of columns");
  EXPECT_NE(st::jit(mean_cols).lower(x).as_text("loops").find("memref<64x16xf32>"), std::string::npos)
      << st::jit(mean_cols).lower(x).as_text("loops");
  // Every combiner at once, with an elementwise output of the same nest (the squares).
  auto stats = [](const Array& a) {
    return std::vector<Array>{st::max(a, 0), st::min(a, 0), st::sum(a * a, 0), a * a};
  };
  std::vector<Array> got = st::jit(stats)(x), want = stats(x);
  expect_close(got[0], want[0], 0, 0, "max of columns");
  expect_close(got[1], want[1], 0, 0, "min of columns");
  expect_close(got[2], want[2], 1e-5, 1e-4, "sum of squares of columns");
  expect_close(got[3], want[3], 0, 0, "squares");
  // Columns of a 3-d array reduced over the two leading axes (places 8 × 2).
  Array y = wave({256, 256, 8, 2});
  auto sum_lead = [](const Array& a) { return st::sum(a, {0, 1}); };
  expect_close(st::jit(sum_lead)(y), sum_lead(y), 1e-5, 1e-3, "sum over two leading axes");
  // Integers: exact, and a NaN in one column reaches that column's sum only.
  Array xi = st::astype(wave({65536, 16}, st::f32, 1000.0), st::i32);
  std::vector<double> v = xi.to_vector<double>(), gi = st::jit([](const Array& a) { return st::sum(a, 0); })(xi).to_vector<double>();
  for (int j = 0; j < 16; ++j) {
    int64_t w = 0;
    for (int64_t i = 0; i < 65536; ++i) w += static_cast<int64_t>(v[i * 16 + j]);
    EXPECT_EQ(gi[j], static_cast<double>(w)) << "column " << j;
  }
  Array nan = st::where(one_hot_mask({65536, 16}, 40000 * 16 + 5), st::full({}, NAN), x);
  std::vector<double> s = st::jit([](const Array& a) { return st::sum(a, 0); })(nan).to_vector<double>();
  for (int j = 0; j < 16; ++j) EXPECT_EQ(std::isnan(s[j]), j == 5) << "column " << j;
  // Wide columns split by columns (4096 places): no slab of partials.
  Array wide = wave({256, 4096});
  EXPECT_EQ(st::jit(mean_cols).lower(wide).as_text("loops").find("memref<64x4096xf32>"), std::string::npos);
  expect_close(st::jit(mean_cols)(wide), mean_cols(wide), 1e-5, 1e-6, "mean of 4096 columns");
}

TEST(ParallelReductions, PrimeTripCountsSplitWithARest) {
  // No divisor of the trips up to 64 is worth taking: 1000003 elements run as 64 chunks of
  // 15625 and 3 elements after them; 786431 rows of 16 as 63 chunks of 12482 rows and 2 rows.
  Array x = wave({1000003});
  ASSERT_TRUE(parallel([](const Array& a) { return st::sum(a); }, x));
  std::vector<double> xs = x.to_vector<double>();
  double want = 0;
  for (double v : xs) want += v;
  expect_near_sum(st::jit([](const Array& a) { return st::sum(a); })(x), xs, want, "sum of 1000003");
  Array xi = st::astype(wave({1000003}, st::f32, 1000.0), st::i32);
  int64_t wi = 0;
  for (double v : xi.to_vector<double>()) wi += static_cast<int64_t>(v);
  EXPECT_EQ(st::jit([](const Array& a) { return st::sum(a); })(xi).item<double>(), static_cast<double>(wi));
  auto max_all = [](const Array& a) { return st::max(a); };
  expect_close(st::jit(max_all)(x), max_all(x), 0, 0, "max of 1000003");
  // The largest element and a NaN among the last 3 (the rest) still count.
  for (int64_t at : {int64_t{1000001}, int64_t{5}}) {
    Array big = st::where(st::arange(int64_t{1000003}, st::i64) == at, st::full({}, 100.0f), x);
    EXPECT_EQ(st::jit(max_all)(big).item<double>(), 100.0) << "largest at " << at;
    Array nan = st::where(st::arange(int64_t{1000003}, st::i64) == at, st::full({}, NAN), x);
    EXPECT_TRUE(std::isnan(st::jit(max_all)(nan).item<double>())) << "NaN at " << at;
  }
  Array cols = wave({786431, 16});
  auto stats = [](const Array& a) {
    return std::vector<Array>{st::max(a, 0), st::min(a, 0), st::sum(a * a, 0), a * a};
  };
  std::string loops = st::jit(stats).lower(cols).as_text("loops");
  EXPECT_NE(loops.find("memref<63x16xf32>"), std::string::npos) << loops;
  std::vector<Array> got = st::jit(stats)(cols), wants = stats(cols);
  expect_close(got[0], wants[0], 0, 0, "max of columns");
  expect_close(got[1], wants[1], 0, 0, "min of columns");
  expect_close(got[2], wants[2], 1e-5, 1e-3, "sum of squares of columns");
  expect_close(got[3], wants[3], 0, 0, "squares (the last rows written after the chunks)");
  Array nan = st::where(one_hot_mask({786431, 16}, 786430 * 16 + 9), st::full({}, NAN), cols);
  std::vector<double> m = st::jit([](const Array& a) { return st::max(a, 0); })(nan).to_vector<double>();
  for (int j = 0; j < 16; ++j) EXPECT_EQ(std::isnan(m[j]), j == 9) << "column " << j;
}
