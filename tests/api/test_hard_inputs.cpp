// Inputs a user can get wrong at scale: shapes whose element count overflows, allocations that
// cannot succeed, deep programs. Each is a strata::Error naming the shape or the bytes, never
// std::bad_alloc escaping or a crash.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "strata/strata.h"

namespace st = strata;
using st::Array;

namespace {

template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const st::Error& e) {
    return e.what();
  }
  return "";
}

TEST(HardInputs, ResultsWithTooManyElementsAreRefused) {
  std::string e = error_of([] { st::broadcast_to(st::zeros({1}), {int64_t{1} << 62, 8}); });
  EXPECT_NE(e.find("broadcast_in_dim"), std::string::npos) << e;
  EXPECT_NE(e.find("too many elements"), std::string::npos) << e;
  e = error_of([] { st::zeros({int64_t{1} << 40, int64_t{1} << 40}); });
  EXPECT_NE(e.find("too many elements"), std::string::npos) << e;
  // Inside a trace too, before anything is compiled.
  e = error_of([] { st::make_jaxpr([](const Array& x) { return st::broadcast_to(x, {int64_t{1} << 61, 64}); })(st::zeros({1})); });
  EXPECT_NE(e.find("too many elements"), std::string::npos) << e;
}

TEST(HardInputs, AllocationsThatCannotSucceedAreErrorsNamingTheBytes) {
  const int64_t n = int64_t{1} << 45;  // 128 TiB of f32
  std::string e = error_of([&] { st::zeros({n}); });
  EXPECT_NE(e.find(std::to_string(n * 4) + " bytes"), std::string::npos) << e;
  EXPECT_NE(e.find("f32[" + std::to_string(n) + "]"), std::string::npos) << e;
  e = error_of([] { st::jit([](const Array& x) { return st::broadcast_to(x, {int64_t{1} << 42}); })(st::zeros({1})); });
  EXPECT_NE(e.find("bytes"), std::string::npos) << e;
  // The process goes on: an ordinary array still works.
  EXPECT_EQ(st::ones({3}).to_vector<float>(), (std::vector<float>{1, 1, 1}));
}

TEST(HardInputs, DeepProgramsTraceCompileAndDifferentiate) {
  auto f = [](const Array& a) {
    Array x = a;
    for (int i = 0; i < 2000; ++i) x = st::sin(x) * 1.0001f;
    return st::sum(x);
  };
  Array want = f(st::ones({2}));
  EXPECT_NEAR(st::jit(f)(st::ones({2})).item<float>(), want.item<float>(), 1e-4);
  Array g = st::grad(f)(st::ones({2}));
  EXPECT_EQ(g.shape(), (st::Shape{2}));
}

// Integer arithmetic wraps around (two's complement) eagerly as in compiled code and XLA; the
// eager kernels used to overflow signed integers (undefined behaviour: UBSan's "signed integer
// overflow" / "negation of -2147483648" in add, sub, mul, neg, abs, reduce_prod).
TEST(HardInputs, IntegerOverflowWrapsEagerlyAndCompiled) {
  const int32_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
  Array a = st::array(std::vector<int32_t>{hi, lo, lo, 65536}, {4}, st::i32);
  Array b = st::array(std::vector<int32_t>{1, -1, lo, 65536}, {4}, st::i32);
  auto f = [](const Array& x, const Array& y) {
    return std::vector<Array>{x + y, x - y, x * y, -x, st::abs(x), st::prod(x), st::sum(x)};
  };
  const std::vector<std::vector<int32_t>> want = {
      {lo, hi, 0, 131072}, {hi - 1, lo + 1, 0, 0}, {hi, lo, 0, 0}, {lo + 1, lo, lo, -65536}, {hi, lo, lo, 65536},
      {0},  // hi * lo * lo * 65536 mod 2^32
      {lo + 65535}};  // hi + lo + lo + 65536 mod 2^32
  std::vector<Array> eager = f(a, b), jitted = st::jit(f)(a, b);
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(eager[i].to_vector<int32_t>(), want[i]) << "eager output " << i;
    EXPECT_EQ(jitted[i].to_vector<int32_t>(), want[i]) << "jit output " << i;
  }
  const int64_t lo64 = std::numeric_limits<int64_t>::min();
  Array c = st::array(std::vector<int64_t>{lo64, 3}, {2}, st::i64);
  EXPECT_EQ((-c).to_vector<int64_t>(), (std::vector<int64_t>{lo64, -3}));
  EXPECT_EQ(st::abs(c).to_vector<int64_t>(), (std::vector<int64_t>{lo64, 3}));
  EXPECT_EQ((c * c).to_vector<int64_t>(), (std::vector<int64_t>{0, 9}));
  EXPECT_EQ((c - c - c).to_vector<int64_t>(), (std::vector<int64_t>{lo64, -3}));
  // A matmul's products and sums wrap too (UBSan: "signed integer overflow" in the eager GEMM,
  // found by fuzz.differential_corpus under ASan+UBSan).
  Array m = st::array(std::vector<int32_t>{hi, 65536, lo, 2}, {2, 2}, st::i32);
  auto mm = [](const Array& x) { return st::matmul(x, x); };
  // [[hi*hi + 65536*lo, hi*65536 + 65536*2], [lo*hi + 2*lo, lo*65536 + 4]] mod 2^32
  const std::vector<int32_t> want_mm = {1, 65536, lo, 4};
  EXPECT_EQ(mm(m).to_vector<int32_t>(), want_mm);
  EXPECT_EQ(st::jit(mm)(m).to_vector<int32_t>(), want_mm);
}

}  // namespace
