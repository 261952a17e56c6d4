// Narrow column reductions whose accumulators the row loop carries
// (lowering/CarryColumnAccumulators.cpp): the places unrolled, order-free combiners (max, min,
// integer sums) interleaving four rows, the rest of the rows one at a time. Compiled results
// against eager mode: exact for every order-free combiner (NaN included), within reassociation
// error for float sums, over row counts that leave 0-3 rows after the groups of four, split
// and serial loops, fused outputs, and a shape left to LLVM (too few bytes of places).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

using st::testing::wave;

template <class F, class... A>
bool carried(F f, const A&... args) {
  return st::jit(f).lower(args...).as_text("loops").find("loop_vectorize<disable = true>") != std::string::npos;
}

void expect_same(const Array& got, const Array& want, const std::string& what) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
  for (size_t i = 0; i < g.size(); ++i) {
    if (std::isnan(w[i])) ASSERT_TRUE(std::isnan(g[i])) << what << " [" << i << "]";
    else ASSERT_EQ(g[i], w[i]) << what << " [" << i << "]";
  }
}

// Within `rtol` of the sum of the terms' magnitudes (`mag`).
void expect_close(const Array& got, const Array& want, double rtol, double mag, const std::string& what) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
  for (size_t i = 0; i < g.size(); ++i) ASSERT_NEAR(g[i], w[i], rtol * mag) << what << " [" << i << "]";
}

Array max0(const Array& a) { return st::max(a, 0); }
Array min0(const Array& a) { return st::min(a, 0); }
Array sum0(const Array& a) { return st::sum(a, 0); }

}  // namespace

TEST(CarriedColumns, OrderFreeCombinersAreExactForEveryRemainder) {
  // Serial loops (fewer than 2^15 elements) and split ones (5 chunks of 157287 rows, 64 of
  // 12288); 0..3 rows after the groups of 4.
  for (int64_t rows : {1024, 1025, 1026, 1027, 2047, 786435, 786432}) {
    Array x = wave({rows, 16});
    std::string at = std::to_string(rows) + " rows";
    ASSERT_TRUE(carried(max0, x)) << at << "\n" << st::jit(max0).lower(x).as_text("loops");
    expect_same(st::jit(max0)(x), max0(x), "max, " + at);
    expect_same(st::jit(min0)(x), min0(x), "min, " + at);
    Array xi = st::astype(wave({rows, 16}, st::f32, 1000.0), st::i32);
    expect_same(st::jit(max0)(xi), max0(xi), "int max, " + at);
    expect_same(st::jit(sum0)(xi), sum0(xi), "int sum, " + at);
  }
}

TEST(CarriedColumns, NanReachesItsColumnFromAnyRowOfAGroup) {
  // A NaN in each of the last rows (the rest, one at a time) and in each row of a group of four.
  for (int64_t nan_row : {0, 1, 2, 3, 1024, 1025, 1026}) {
    Array x = wave({1027, 16});
    Array mask = st::reshape(st::arange(int64_t{1027 * 16}, st::i64) == nan_row * 16 + 7, {1027, 16});
    Array y = st::where(mask, st::full({}, NAN), x);
    std::vector<double> m = st::jit(max0)(y).to_vector<double>(), n = st::jit(min0)(y).to_vector<double>();
    for (int j = 0; j < 16; ++j) {
      EXPECT_EQ(std::isnan(m[j]), j == 7) << "max, NaN in row " << nan_row << ", column " << j;
      EXPECT_EQ(std::isnan(n[j]), j == 7) << "min, NaN in row " << nan_row << ", column " << j;
    }
  }
}

TEST(CarriedColumns, IntegerSumsWrapAsEagerDoes) {
  // i32 sums overflow: the carried sets wrap like the eager loop, whatever their order.
  Array x = st::full({2047, 16}, 1 << 20, st::i32) + st::astype(wave({2047, 16}, st::f32, 100.0), st::i32);
  ASSERT_TRUE(carried(sum0, x));
  expect_same(st::jit(sum0)(x), sum0(x), "wrapping i32 sums");
  Array l = st::astype(wave({786435, 16}, st::f32, 1e6), st::i64);
  expect_same(st::jit(sum0)(l), sum0(l), "i64 sums");
}

TEST(CarriedColumns, FloatSumsAndFusedOutputs) {
  // Float sums keep each column's order (no interleaving): close to eager's pairwise blocks.
  for (int64_t rows : {1027, 65536, 786432}) {
    Array x = wave({rows, 16});
    std::string at = std::to_string(rows) + " rows";
    ASSERT_TRUE(carried(sum0, x)) << at;
    double mag = 3.0 * rows;
    expect_close(st::jit(sum0)(x), sum0(x), 1e-6, mag, "sum, " + at);
    Array d = st::astype(x, st::f64);
    expect_close(st::jit(sum0)(d), sum0(d), 1e-14, mag, "f64 sum, " + at);
  }
  // A sum and a max of one nest (the sum's set threads through each group's rows in order), with
  // the squares written by the same loop; 8 columns of f32 (32 bytes) and 32 columns.
  auto stats = [](const Array& a) { return std::vector<Array>{st::sum(a * a, 0), st::max(a, 0), a * a}; };
  for (int64_t cols : {8, 32}) {
    int64_t rows = 32767 / cols;
    Array x = wave({rows, cols});
    std::string at = std::to_string(cols) + " columns";
    ASSERT_TRUE(carried(stats, x)) << at;
    std::vector<Array> got = st::jit(stats)(x), want = stats(x);
    expect_close(got[0], want[0], 1e-6, 9.0 * rows, "sum of squares, " + at);
    expect_same(got[1], want[1], "max, " + at);
    expect_same(got[2], want[2], "squares, " + at);
  }
  // Places of two dimensions (reduced over the leading axis of a 3-d array).
  Array y = wave({2051, 4, 4});
  ASSERT_TRUE(carried(max0, y));
  expect_same(st::jit(max0)(y), max0(y), "max over the leading axis, 4 x 4 places");
  expect_close(st::jit(sum0)(y), sum0(y), 1e-6, 3.0 * 2051, "sum over the leading axis, 4 x 4 places");
}

TEST(CarriedColumns, FewBytesOfPlacesStayLlvmsToVectorise) {
  // 3 columns of f32 (12 bytes): LLVM vectorises the rows, interleaving their loads.
  Array x = wave({100000, 3});
  EXPECT_FALSE(carried(max0, x)) << st::jit(max0).lower(x).as_text("loops");
  expect_same(st::jit(max0)(x), max0(x), "max of 3 columns");
  // More places than values carried (256 columns): the loop keeps its accumulators in memory.
  Array w = wave({4096, 256});
  EXPECT_FALSE(carried(max0, w));
  expect_same(st::jit(max0)(w), max0(w), "max of 256 columns");
}

TEST(CarriedColumns, BatchedColumnsRunBatchByBatch) {
  // Reductions over a middle axis (--strata-batch-column-reductions: parallel batches { for
  // rows { parallel columns } }): against eager, exact for max/min and integers.
  auto sum1 = [](const Array& a) { return st::sum(a, 1); };
  auto max1 = [](const Array& a) { return st::max(a, 1); };
  auto min1 = [](const Array& a) { return st::min(a, 1); };
  auto mean1 = [](const Array& a) { return st::mean(a, 1); };
  // Narrow columns (carried), wide ones (768: not), few batches (2: split by rows instead).
  for (st::Shape s : {st::Shape{64, 4096, 16}, st::Shape{32, 128, 768}, st::Shape{2, 65536, 16}, st::Shape{64, 33, 16}}) {
    Array x = wave(s);
    std::string at = std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]);
    expect_close(st::jit(sum1)(x), sum1(x), 1e-6, 3.0 * static_cast<double>(s[1]), "sum, " + at);
    expect_close(st::jit(mean1)(x), mean1(x), 1e-6, 3.0, "mean, " + at);
    expect_same(st::jit(max1)(x), max1(x), "max, " + at);
    expect_same(st::jit(min1)(x), min1(x), "min, " + at);
    Array xi = st::astype(wave(s, st::f32, 1000.0), st::i32);
    expect_same(st::jit(sum1)(xi), sum1(xi), "int sum, " + at);
  }
  // Two batch dimensions in front of the rows (a sum over axis 2 of a 4-d array), and a
  // softmax over the middle axis (a max, a sum of exponentials, the division).
  Array y = wave({8, 4, 1000, 16});
  auto sum2 = [](const Array& a) { return st::sum(a, 2); };
  expect_close(st::jit(sum2)(y), sum2(y), 1e-6, 3000.0, "sum over axis 2 of 8x4x1000x16");
  expect_same(st::jit([](const Array& a) { return st::max(a, 2); })(y), st::max(y, 2), "max over axis 2");
  Array z = wave({64, 512, 16});
  auto softmax1 = [](const Array& a) { return st::softmax(a, 1); };
  expect_close(st::jit(softmax1)(z), softmax1(z), 1e-6, 1.0, "softmax over the middle axis");
  // A NaN in one batch's column reaches that batch and column only.
  Array nan = st::where(st::reshape(st::arange(int64_t{64 * 4096 * 16}, st::i64) == (5 * 4096 + 4000) * 16 + 3,
                                    {64, 4096, 16}),
                        st::full({}, NAN), wave({64, 4096, 16}));
  std::vector<double> m = st::jit(max1)(nan).to_vector<double>();
  for (int b = 0; b < 64; ++b)
    for (int c = 0; c < 16; ++c) ASSERT_EQ(std::isnan(m[b * 16 + c]), b == 5 && c == 3) << b << ", " << c;
}
