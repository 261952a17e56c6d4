// One value in, one value out: a transcendental function, compiled (lowering/VectorMath.h) or
// eager (tracer/primitives/elementwise.h: whole packets), gives equal inputs equal results
// wherever they sit in the array and whatever its length.
// Vectorised loops used to call libmvec's AVX2 variant, their remainders libm's scalar function
// and their vectorised epilogues the SSE variant, which differ by an ulp on some inputs: exp of
// 37 equal floats gave two values, and an argmax over them another index than eager's
// (fuzz_differential, issue 16). Eager had the same fault: Eigen's packets (pexp) and its
// element-by-element head and tail (std::exp).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "strata/strata.h"

namespace st = strata;
using st::Array;

namespace {

struct MathFunction {
  const char* name;
  Array (*fn)(const Array&);
  double lo, hi;  // inputs inside the domain
};

// Every function lowering/VectorMath.cpp gives a vector variant: LLVM's libmvec table and the
// libm calls of LibmCalls.def (tanh: f64, f32 is a rational function inlined), two-argument
// ones against a fixed second operand.
const MathFunction kFunctions[] = {
    {"exp", [](const Array& x) { return st::exp(x); }, -20, 20},
    {"log", [](const Array& x) { return st::log(x); }, 1e-3, 1e3},
    {"sin", [](const Array& x) { return st::sin(x); }, -100, 100},
    {"cos", [](const Array& x) { return st::cos(x); }, -100, 100},
    {"tan", [](const Array& x) { return st::tan(x); }, -1.5, 1.5},
    {"pow", [](const Array& x) { return st::power(x, x * 0.5 + 0.25); }, 0.1, 10},
    {"log1p", [](const Array& x) { return st::log1p(x); }, -0.9, 10},
    {"expm1", [](const Array& x) { return st::expm1(x); }, -5, 5},
    {"tanh", [](const Array& x) { return st::tanh(x); }, -5, 5},
    {"erf", [](const Array& x) { return st::erf(x); }, -3, 3},
    {"erfc", [](const Array& x) { return st::erfc(x); }, -3, 3},
    {"atan", [](const Array& x) { return st::atan(x); }, -10, 10},
    {"asin", [](const Array& x) { return st::asin(x); }, -1, 1},
    {"acos", [](const Array& x) { return st::acos(x); }, -1, 1},
    {"sinh", [](const Array& x) { return st::sinh(x); }, -5, 5},
    {"cosh", [](const Array& x) { return st::cosh(x); }, -5, 5},
    {"asinh", [](const Array& x) { return st::asinh(x); }, -10, 10},
    {"acosh", [](const Array& x) { return st::acosh(x); }, 1, 10},
    {"atanh", [](const Array& x) { return st::atanh(x); }, -0.99, 0.99},
    {"cbrt", [](const Array& x) { return st::cbrt(x); }, -10, 10},
    {"atan2", [](const Array& x) { return st::atan2(x, x * 0.5 - 1.0); }, -10, 10},
};

// The bits of each element, as 64-bit words.
std::vector<uint64_t> bits(const Array& a) {
  std::vector<double> v = a.to_vector<double>();
  std::vector<uint64_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) std::memcpy(&out[i], &v[i], sizeof(double));
  return out;
}

}  // namespace

TEST(MathLanes, EqualInputsGiveEqualResultsAtEveryPositionAndLength) {
  // 5: shorter than a vector; 37: 32 in the vector loop, 5 left over; 1037: the long loop, its
  // epilogue and remainder; 70001 (the first values only): eager's two threads cut it at an
  // unaligned element.
  std::mt19937 rng(7);
  for (const MathFunction& m : kFunctions) {
    for (st::DType t : {st::f32, st::f64}) {
      SCOPED_TRACE(std::string(m.name) + " " + std::string(st::short_name(t)));
      auto compiled = st::jit(m.fn);
      std::uniform_real_distribution<double> pick(m.lo, m.hi);
      int unequal[2] = {0, 0};
      for (int k = 0; k < 24; ++k) {
        const double v = pick(rng);
        for (bool jit : {true, false}) {
          std::vector<uint64_t> all;
          for (int64_t n : {5, 37, 1037, 70001}) {
            if (n == 70001 && k >= 3) continue;
            Array x = st::full({n}, v, t);
            std::vector<uint64_t> b = bits(jit ? compiled(x) : m.fn(x));
            all.insert(all.end(), b.begin(), b.end());
          }
          size_t differ = 0;
          for (uint64_t b : all) differ += b != all[0];
          if (differ && ++unequal[jit] <= 3)
            ADD_FAILURE() << (jit ? "jit " : "eager ") << m.name << "(" << v << "): " << differ << " of "
                          << all.size() << " results differ from the first";
        }
      }
    }
  }
}

TEST(MathLanes, ArgmaxOfATieIsTheFirstIndexAsInEager) {
  // The fuzzer's finding, reduced: exp of equal values, then argmax over them.
  auto f = [](const Array& x) { return st::argmax(st::exp(x * 3.0f), 0); };
  for (float v : {0.1f, 0.7f, 1.3f, 2.9f, -4.2f, 5.5f}) {
    Array x = st::full({37}, v, st::f32);
    EXPECT_EQ(st::jit(f)(x).item<int64_t>(), f(x).item<int64_t>()) << v;
  }
}
