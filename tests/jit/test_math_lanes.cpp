// One value in, one value out: a transcendental function, compiled (lowering/VectorMath.h) or
// eager (tracer/primitives/elementwise.h: whole packets), gives equal inputs equal results
// wherever they sit in the array and whatever its length.
// Vectorised loops used to call libmvec's AVX2 variant, their remainders libm's scalar function
// and their vectorised epilogues the SSE variant, which differ by an ulp on some inputs: exp of
// 37 equal floats gave two values, and an argmax over them another index than eager's
// (fuzz_differential, issue 16). Eager had the same fault: Eigen's packets (pexp) and its
// element-by-element head and tail (std::exp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>
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

// exp and log keep their special lanes from libmvec (lowering/MathToLibmCalls.cpp: guardedExp,
// guardedLog), which would compute a vector holding one by a scalar call per such lane (20-40x
// slower): the results stay libm's. exp's subnormal results come from exp(x + 64 ln 2)·2^-64:
// libmvec's exp (an ulp from libm's at most) and one more rounding; the special values exact.
TEST(MathLanes, ExpAndLogOfSpecialLanesAsLibm) {
  auto ulps = [](double got, double want, double spacing) { return std::fabs(got - want) / spacing; };
  for (st::DType t : {st::f32, st::f64}) {
    const bool f32 = t == st::f32;
    // exp where the result is subnormal or 0 (and just around), 4001 points.
    const double lo = f32 ? -110 : -750, hi = f32 ? -80 : -700;
    std::vector<double> x;
    for (int i = 0; i <= 4000; ++i) x.push_back(lo + (hi - lo) * i / 4000);
    Array xs = st::astype(st::array(x, {static_cast<int64_t>(x.size())}, st::f64), t);
    std::vector<double> xv = xs.to_vector<double>(), got = st::jit([](const Array& v) { return st::exp(v); })(xs).to_vector<double>();
    const double least = f32 ? 0x1p-149 : 0x1p-1074, normal = f32 ? 0x1p-126 : 0x1p-1022;
    double worst = 0;
    for (size_t i = 0; i < xv.size(); ++i) {
      double want = f32 ? static_cast<double>(std::exp(static_cast<float>(xv[i]))) : std::exp(xv[i]);
      double spacing = want < normal ? least : std::ldexp(1.0, std::ilogb(want) - (f32 ? 23 : 52));
      worst = std::max(worst, ulps(got[i], want, spacing));
    }
    EXPECT_LE(worst, 2.0) << st::short_name(t) << ": exp's subnormal results within two ulps of libm's";
    // The special values, exactly, in an array long enough for vector lanes and a remainder.
    const double inf = INFINITY, nan = NAN;
    std::vector<double> e_in = {-inf, -1e30, f32 ? -200.0 : -2000.0, nan, 0.0, -0.0, 1.0, inf, 1e30};
    std::vector<double> l_in = {0.0, -0.0, -1.0, -inf, inf, nan, f32 ? 1e-40 : 1e-310, 1.0, 0.5};
    for (int rep = 0; rep < 2; ++rep) {  // 18 lanes each: a vector and a remainder
      e_in.insert(e_in.end(), e_in.begin(), e_in.begin() + 9);
      l_in.insert(l_in.end(), l_in.begin(), l_in.begin() + 9);
    }
    Array e = st::astype(st::array(e_in, {static_cast<int64_t>(e_in.size())}, st::f64), t);
    Array l = st::astype(st::array(l_in, {static_cast<int64_t>(l_in.size())}, st::f64), t);
    std::vector<double> eg = st::jit([](const Array& v) { return st::exp(v); })(e).to_vector<double>();
    std::vector<double> lg = st::jit([](const Array& v) { return st::log(v); })(l).to_vector<double>();
    std::vector<double> ev = e.to_vector<double>(), lv = l.to_vector<double>();
    for (size_t i = 0; i < eg.size(); ++i) {
      double want = f32 ? static_cast<double>(std::exp(static_cast<float>(ev[i]))) : std::exp(ev[i]);
      if (std::isnan(want)) EXPECT_TRUE(std::isnan(eg[i])) << "exp(" << ev[i] << ")";
      else if (want == 0 || std::isinf(want) || want == 1) EXPECT_EQ(eg[i], want) << "exp(" << ev[i] << ") " << st::short_name(t);
      else EXPECT_NEAR(eg[i], want, want * (f32 ? 2e-7 : 4e-16)) << "exp(" << ev[i] << ") " << st::short_name(t);
    }
    for (size_t i = 0; i < lg.size(); ++i) {
      double want = f32 ? static_cast<double>(std::log(static_cast<float>(lv[i]))) : std::log(lv[i]);
      if (std::isnan(want)) EXPECT_TRUE(std::isnan(lg[i])) << "log(" << lv[i] << ")";
      else if (std::isinf(want)) EXPECT_EQ(lg[i], want) << "log(" << lv[i] << ") " << st::short_name(t);
      else EXPECT_NEAR(lg[i], want, std::fabs(want) * (f32 ? 1e-7 : 1e-15)) << "log(" << lv[i] << ") " << st::short_name(t);
    }
  }
}

// erfc beyond its underflow to 0 and of nan (guardedErfc): libmvec's scalar call per such lane
// is kept away. The results are libm's, and around the threshold erfc correctly rounded (mpmath:
// f32 erfc(10.0541935) and erfc(10.0541945) are 0.500014 and 0.500005 of the least subnormal,
// erfc(10.0541954) 0.499995; f64 erfc(27.226017111108362) 0.5 + 4.6e-14 of it, the next double's
// 0.5 - 5.0e-14; glibc's scalar erfcf and erfc miss these), in an array with vector lanes and a
// remainder.
TEST(MathLanes, ErfcBeyondUnderflowAndOfNanAsLibm) {
  const double inf = INFINITY, nan = NAN;
  for (st::DType t : {st::f32, st::f64}) {
    const bool f32 = t == st::f32;
    const double least = f32 ? 0x1p-149 : 0x1p-1074;
    const std::vector<double> edges = f32 ? std::vector<double>{0x1.41bbf4p3, 0x1.41bbf6p3, 0x1.41bbf8p3}
                                          : std::vector<double>{std::nextafter(27.226017111108366, 0.0), 27.226017111108366, std::nextafter(27.226017111108366, 100.0)};
    const std::vector<double> at_edges = f32 ? std::vector<double>{least, least, 0} : std::vector<double>{least, 0, 0};
    std::vector<double> in = {edges[0], edges[1], edges[2], inf, -inf, nan, -nan, 1e30, -1e30,
                              f32 ? 10.5 : 27.5, f32 ? 9.5 : 26.7, 0.0, -0.0, 3.0, -12.0};
    for (int rep = 0; rep < 2; ++rep) in.insert(in.end(), in.begin(), in.begin() + 15);
    Array x = st::astype(st::array(in, {static_cast<int64_t>(in.size())}, st::f64), t);
    std::vector<double> xv = x.to_vector<double>();
    std::vector<double> got = st::jit([](const Array& v) { return st::erfc(v); })(x).to_vector<double>();
    for (size_t i = 0; i < got.size(); ++i) {
      const double want = i % 15 < 3 ? at_edges[i % 15] : f32 ? static_cast<double>(std::erfc(static_cast<float>(xv[i]))) : std::erfc(xv[i]);
      if (std::isnan(want)) EXPECT_TRUE(std::isnan(got[i])) << "erfc(" << xv[i] << ")";
      else if (i % 15 < 10 || want == 2) EXPECT_EQ(got[i], want) << "erfc(" << xv[i] << ") " << st::short_name(t);
      else EXPECT_NEAR(got[i], want, std::max(want * (f32 ? 5e-7 : 1e-15), least)) << "erfc(" << xv[i] << ") " << st::short_name(t);
    }
  }
}
