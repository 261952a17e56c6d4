// Inputs a user can get wrong at scale: shapes whose element count overflows, allocations that
// cannot succeed, deep programs. Each is a strata::Error naming the shape or the bytes, never
// std::bad_alloc escaping or a crash.
#include <gtest/gtest.h>

#include <string>

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

}  // namespace
