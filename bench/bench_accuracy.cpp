// bench/bench_accuracy.cpp — accuracy of the elementwise functions, eager and jit, in ulps of
// the result type against long double (glibc's functions in 80-bit precision): real f32/f64
// over magnitudes 1e-30 ... 1e38 (f64: 1e300) of both signs and [-10, 10]; complex c64/c128
// part by part (each part's own relative error, so a small part is no rounding of a large one),
// parts of magnitudes 1e-8 ... 200, on the axes and in [-4, 4]². Prints the worst error per
// function and where; parts below the least normal value count as 0. Not a test (no bound is
// asserted): the sweep that found the cancelling complex formulas (atanh 1e9 ulps, log 4e3) and
// lgamma's 1e5 ulps near 1 and 2. Build: ninja bench_accuracy; run: bench/bench_accuracy.
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

#include "strata/strata.h"

namespace st = strata;
using LD = long double;
using CL = std::complex<LD>;

namespace {

template <class F>
void real_sweep() {
  std::mt19937 rng(11);
  std::vector<F> xs;
  auto mag = [&](double lo, double hi) {
    double m = std::pow(10.0, std::uniform_real_distribution<double>(lo, hi)(rng));
    return (rng() & 1) ? -m : m;
  };
  for (int i = 0; i < 20000; ++i) xs.push_back(static_cast<F>(mag(-30, sizeof(F) == 4 ? 38 : 300)));
  for (int i = 0; i < 20000; ++i) xs.push_back(static_cast<F>(mag(-8, 3)));
  for (int i = 0; i < 10000; ++i) xs.push_back(static_cast<F>(std::uniform_real_distribution<double>(-10, 10)(rng)));
  const st::Array x = st::array(xs, {static_cast<int64_t>(xs.size())});
  struct Op {
    const char* name;
    std::function<st::Array(const st::Array&)> f;
    std::function<LD(LD)> r;
  };
  const std::vector<Op> ops{
      {"exp", [](auto& v) { return st::exp(v); }, [](LD v) { return std::exp(v); }},
      {"exp2", [](auto& v) { return st::exp2(v); }, [](LD v) { return std::exp2(v); }},
      {"log", [](auto& v) { return st::log(v); }, [](LD v) { return std::log(v); }},
      {"log1p", [](auto& v) { return st::log1p(v); }, [](LD v) { return std::log1p(v); }},
      {"expm1", [](auto& v) { return st::expm1(v); }, [](LD v) { return std::expm1(v); }},
      {"sin", [](auto& v) { return st::sin(v); }, [](LD v) { return std::sin(v); }},
      {"cos", [](auto& v) { return st::cos(v); }, [](LD v) { return std::cos(v); }},
      {"tan", [](auto& v) { return st::tan(v); }, [](LD v) { return std::tan(v); }},
      {"sinh", [](auto& v) { return st::sinh(v); }, [](LD v) { return std::sinh(v); }},
      {"cosh", [](auto& v) { return st::cosh(v); }, [](LD v) { return std::cosh(v); }},
      {"tanh", [](auto& v) { return st::tanh(v); }, [](LD v) { return std::tanh(v); }},
      {"asin", [](auto& v) { return st::asin(v); }, [](LD v) { return std::asin(v); }},
      {"acos", [](auto& v) { return st::acos(v); }, [](LD v) { return std::acos(v); }},
      {"atan", [](auto& v) { return st::atan(v); }, [](LD v) { return std::atan(v); }},
      {"asinh", [](auto& v) { return st::asinh(v); }, [](LD v) { return std::asinh(v); }},
      {"acosh", [](auto& v) { return st::acosh(v); }, [](LD v) { return std::acosh(v); }},
      {"atanh", [](auto& v) { return st::atanh(v); }, [](LD v) { return std::atanh(v); }},
      {"erf", [](auto& v) { return st::erf(v); }, [](LD v) { return std::erf(v); }},
      {"erfc", [](auto& v) { return st::erfc(v); }, [](LD v) { return std::erfc(v); }},
      {"lgamma", [](auto& v) { return st::lgamma(v); }, [](LD v) { return std::lgamma(v); }},
      {"sqrt", [](auto& v) { return st::sqrt(v); }, [](LD v) { return std::sqrt(v); }},
      {"rsqrt", [](auto& v) { return st::rsqrt(v); }, [](LD v) { return 1 / std::sqrt(v); }},
      {"cbrt", [](auto& v) { return st::cbrt(v); }, [](LD v) { return std::cbrt(v); }},
      {"logistic", [](auto& v) { return st::logistic(v); }, [](LD v) { return 1 / (1 + std::exp(-v)); }},
  };
  const LD eps = std::numeric_limits<F>::epsilon(), tiny = std::numeric_limits<F>::min();
  for (const Op& op : ops) {
    const std::vector<F> e = op.f(x).template to_vector<F>(), j = st::jit(op.f)(x).template to_vector<F>();
    double worst_e = 0, worst_j = 0;
    size_t at_e = 0, at_j = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      const LD w = op.r(static_cast<LD>(xs[i]));
      if (std::isnan(w) || std::fabs(w) > std::numeric_limits<F>::max()) continue;
      auto err = [&](F g) {
        return std::isnan(g) ? INFINITY : static_cast<double>(std::fabs(static_cast<LD>(g) - w) / std::max(std::fabs(w), tiny) / eps);
      };
      if (err(e[i]) > worst_e) worst_e = err(e[i]), at_e = i;
      if (err(j[i]) > worst_j) worst_j = err(j[i]), at_j = i;
    }
    std::printf("%-9s %s  eager %9.3g ulps (at %-13.6g)  jit %9.3g ulps (at %.6g)\n", op.name, sizeof(F) == 4 ? "f32 " : "f64 ",
                worst_e, static_cast<double>(xs[at_e]), worst_j, static_cast<double>(xs[at_j]));
  }
}

template <class F>
void complex_sweep() {
  using C = std::complex<F>;
  std::mt19937 rng(7);
  std::vector<C> zs;
  auto mag = [&](double lo, double hi) {
    double m = std::pow(10.0, std::uniform_real_distribution<double>(lo, hi)(rng));
    return static_cast<F>((rng() & 1) ? -m : m);
  };
  for (int i = 0; i < 20000; ++i) zs.emplace_back(mag(-8, 2.3), mag(-8, 2.3));
  for (int i = 0; i < 2000; ++i) zs.emplace_back(mag(-8, 1), F(0));
  for (int i = 0; i < 2000; ++i) zs.emplace_back(F(0), mag(-8, 1));
  std::uniform_real_distribution<double> box(-4, 4);
  for (int i = 0; i < 4000; ++i) zs.emplace_back(static_cast<F>(box(rng)), static_cast<F>(box(rng)));
  const st::Array z = st::array(zs, {static_cast<int64_t>(zs.size())});
  struct Op {
    const char* name;
    std::function<st::Array(const st::Array&)> f;
    std::function<CL(CL)> r;
  };
  // log1p's and expm1's references in long double by the formulas that do not cancel at the
  // origin (long double's own 1 + z would).
  auto log1p_ref = [](CL v) {
    const LD x = v.real(), y = v.imag(), p = x * x, q = y * y;
    const LD r = ((2 * x + p) + q) + (std::fma(x, x, -p) + std::fma(y, y, -q));
    return CL(std::fabs(r) < 0.5L ? std::log1p(r) / 2 : std::log(std::hypot(1 + x, y)), std::atan2(y, 1 + x));
  };
  auto expm1_ref = [](CL v) {
    const LD x = v.real(), y = v.imag(), s = std::sin(y / 2);
    return CL(std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y));
  };
  const std::vector<Op> ops{
      {"exp", [](auto& v) { return st::exp(v); }, [](CL v) { return std::exp(v); }},
      {"log", [](auto& v) { return st::log(v); }, [](CL v) { return std::log(v); }},
      {"log1p", [](auto& v) { return st::log1p(v); }, log1p_ref},
      {"expm1", [](auto& v) { return st::expm1(v); }, expm1_ref},
      {"sqrt", [](auto& v) { return st::sqrt(v); }, [](CL v) { return std::sqrt(v); }},
      {"rsqrt", [](auto& v) { return st::rsqrt(v); }, [](CL v) { return LD(1) / std::sqrt(v); }},
      {"sin", [](auto& v) { return st::sin(v); }, [](CL v) { return std::sin(v); }},
      {"cos", [](auto& v) { return st::cos(v); }, [](CL v) { return std::cos(v); }},
      {"tan", [](auto& v) { return st::tan(v); }, [](CL v) { return std::tan(v); }},
      {"sinh", [](auto& v) { return st::sinh(v); }, [](CL v) { return std::sinh(v); }},
      {"cosh", [](auto& v) { return st::cosh(v); }, [](CL v) { return std::cosh(v); }},
      {"tanh", [](auto& v) { return st::tanh(v); }, [](CL v) { return std::tanh(v); }},
      {"asin", [](auto& v) { return st::asin(v); }, [](CL v) { return std::asin(v); }},
      {"acos", [](auto& v) { return st::acos(v); }, [](CL v) { return std::acos(v); }},
      {"atan", [](auto& v) { return st::atan(v); }, [](CL v) { return std::atan(v); }},
      {"asinh", [](auto& v) { return st::asinh(v); }, [](CL v) { return std::asinh(v); }},
      {"acosh", [](auto& v) { return st::acosh(v); }, [](CL v) { return std::acosh(v); }},
      {"atanh", [](auto& v) { return st::atanh(v); }, [](CL v) { return std::atanh(v); }},
      {"logistic", [](auto& v) { return st::logistic(v); }, [](CL v) { return LD(1) / (LD(1) + std::exp(-v)); }},
      {"sign", [](auto& v) { return st::sign(v); }, [](CL v) { return v / std::abs(v); }},
  };
  const LD eps = std::numeric_limits<F>::epsilon(), tiny = std::numeric_limits<F>::min() / eps;
  for (const Op& op : ops) {
    const std::vector<C> e = op.f(z).template to_vector<C>(), j = st::jit(op.f)(z).template to_vector<C>();
    double worst_e = 0, worst_j = 0;
    size_t at_j = 0;
    for (size_t i = 0; i < zs.size(); ++i) {
      const CL w = op.r(CL(zs[i].real(), zs[i].imag()));
      const LD big = std::numeric_limits<F>::max();
      if (!std::isfinite(w.real()) || !std::isfinite(w.imag()) || std::fabs(w.real()) > big || std::fabs(w.imag()) > big) continue;
      auto err = [&](C g) {
        const LD a = std::fabs(static_cast<LD>(g.real()) - w.real()) / std::max(std::fabs(w.real()), tiny);
        const LD b = std::fabs(static_cast<LD>(g.imag()) - w.imag()) / std::max(std::fabs(w.imag()), tiny);
        return std::isnan(a + b) ? INFINITY : static_cast<double>(std::max(a, b) / eps);
      };
      worst_e = std::max(worst_e, err(e[i]));
      if (err(j[i]) > worst_j) worst_j = err(j[i]), at_j = i;
    }
    std::printf("%-9s %s  eager %9.3g ulps  jit %9.3g ulps (at %g%+gi)\n", op.name, sizeof(F) == 4 ? "c64 " : "c128",
                worst_e, worst_j, static_cast<double>(zs[at_j].real()), static_cast<double>(zs[at_j].imag()));
  }
}

}  // namespace

int main() {
  real_sweep<float>();
  real_sweep<double>();
  complex_sweep<float>();
  complex_sweep<double>();
  return 0;
}
