// Randomised differential testing: seeded random chains of ops, run eagerly and under jit,
// must agree. A few hundred programs over shapes with broadcasting, reductions, shape ops,
// dtypes f32/f64/bf16/f16/i32.
#include <gtest/gtest.h>

#include <random>

#include "strata/strata.h"
#include "pass_variants.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

// One random program: a list of steps applied to a pool of values, built from a seed. The same
// seed builds the same program, so eager and jit run identical code.
struct Program {
  uint64_t seed;
  int steps;

  std::vector<Array> run(std::vector<Array> pool) const {
    std::mt19937_64 rng(seed);
    auto pick = [&] { return pool[rng() % pool.size()]; };
    auto pick_float = [&] {
      for (int tries = 0; tries < 8; ++tries) {
        Array a = pick();
        if (st::is_floating(a.dtype())) return a;
      }
      return st::astype(pick(), st::f32);
    };
    for (int s = 0; s < steps; ++s) {
      Array a = pick(), b = pick();
      Array r;
      switch (rng() % 22) {
        case 0: r = a + b; break;
        case 1: r = a - b; break;
        case 2: r = a * b; break;
        case 3: r = st::maximum(a, b); break;
        case 4: r = st::minimum(a, b); break;
        case 5: r = st::where(a > b, a, b); break;
        case 6: r = st::exp(st::tanh(pick_float())); break;
        case 7: r = st::log1p(st::abs(pick_float())); break;
        case 8: r = st::sin(pick_float()) + st::cos(pick_float()); break;
        case 9: r = st::sqrt(st::abs(pick_float())); break;
        case 10: r = st::logistic(pick_float()); break;
        case 11: r = -a; break;
        case 12: r = a.ndim() ? st::sum(a, static_cast<int>(rng() % a.ndim()), rng() % 2 == 0) : a; break;
        case 13: r = a.ndim() ? st::max(a, -1, true) : a; break;
        case 14: r = st::mean(pick_float()); break;
        case 15: r = a.ndim() >= 2 ? st::transpose(a) : a; break;
        case 16: r = st::reshape(a, {-1}); break;
        case 17: r = a.ndim() && a.shape(0) > 1 ? st::slice(a, {1}, {a.shape(0)}) : a; break;
        case 18: r = st::astype(a, std::array{st::f32, st::f64, st::bf16, st::f16, st::i32}[rng() % 5]); break;
        case 19: r = a * 0.5f + 1.0f; break;
        case 20: r = st::softmax(pick_float()); break;
        case 21: {
          Array x = pick_float();
          r = x.ndim() == 2 ? st::matmul(x, st::transpose(x)) : x;
          break;
        }
      }
      pool.push_back(r);
    }
    // Return the last few values.
    return std::vector<Array>(pool.end() - std::min<size_t>(3, pool.size()), pool.end());
  }
};

bool agree(const Array& got, const Array& want) {
  if (got.shape() != want.shape() || got.dtype() != want.dtype()) return false;
  std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
  st::DType t = got.dtype();
  for (size_t i = 0; i < g.size(); ++i) {
    if (st::is_floating(t)) {
      // Chains of ops round differently when fused; allow a relative error of the dtype.
      // f64 results often pass through f32 intermediates, so they get f32's tolerance.
      double tol = (t == st::f64 || t == st::f32) ? 1e-4 : t == st::f16 ? 2e-2 : 6e-2;
      if (std::isnan(w[i]) ? !std::isnan(g[i]) : (std::isinf(w[i]) ? g[i] != w[i] : std::fabs(g[i] - w[i]) > tol * std::max(1.0, std::fabs(w[i]))))
        return false;
    } else if (g[i] != w[i]) {
      return false;
    }
  }
  return true;
}

// 300 random programs under jit with `options`, their inputs on `device`, against eager
// evaluation on the CPU.
void expect_random_programs_agree(const st::JitOptions& options, st::Device device) {
  const int kPrograms = 300;
  int failures = 0;
  for (int p = 0; p < kPrograms; ++p) {
    std::mt19937_64 rng(1000 + p);
    std::vector<Array> inputs{
        st::random::normal(st::random::key(p), {4, 6}),
        st::random::normal(st::random::key(p + 1), {6}),
        st::random::normal(st::random::key(p + 2), {4, 1}, st::f64),
        st::array({1, -2, 3, 4, -5, 6}, {6}),
    };
    Program prog{1000u + static_cast<uint64_t>(p), 3 + static_cast<int>(rng() % 6)};
    std::vector<Array> want;
    try {
      want = prog.run(inputs);
    } catch (const st::Error&) {
      continue;  // an invalid random program (shape mismatch): eager and jit both reject it
    }
    for (Array& a : inputs) a = st::device_put(a, device);
    auto f = st::jit([prog](const std::vector<Array>& in) { return prog.run(in); }, options);
    std::vector<Array> got;
    try {
      got = f(inputs);
    } catch (const st::Error& e) {
      ++failures;
      ADD_FAILURE() << "program " << p << " failed under jit on " << device.str() << ": " << e.what() << "\n"
                    << st::make_jaxpr([prog](const std::vector<Array>& in) { return prog.run(in); })(inputs);
      continue;
    }
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
      if (!agree(got[i], want[i])) {
        ++failures;
        ADD_FAILURE() << "program " << p << " output " << i << " on " << device.str() << "\njit:   " << got[i]
                      << "\neager: " << want[i] << "\n"
                      << st::make_jaxpr([prog](const std::vector<Array>& in) { return prog.run(in); })(inputs);
        break;
      }
    if (failures > 5) break;
  }
}

// With all of the compiler's passes, and with each pass that can be switched off switched off.
class Differential : public ::testing::TestWithParam<st::testing::PassVariant> {};

TEST_P(Differential, RandomProgramsJitEqualsEager) {
  expect_random_programs_agree(GetParam().apply<st::JitOptions>(), st::cpu());
}

// The same programs compiled for and run on the GPU (jit runs where its inputs live).
TEST(DifferentialGpu, RandomProgramsJitOnGpuEqualsCpuEager) {
  bool gpu = false;
  for (const st::Device& d : st::devices()) gpu = gpu || d.kind == st::DeviceKind::cuda;
  if (!gpu) GTEST_SKIP() << "no CUDA device in this process";
  expect_random_programs_agree({}, st::gpu(0));
}

INSTANTIATE_TEST_SUITE_P(Passes, Differential, ::testing::ValuesIn(st::testing::kPassVariants),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
