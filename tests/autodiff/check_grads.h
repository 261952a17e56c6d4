// tests/autodiff/check_grads.h — JAX's check_grads for strata: JVP against central finite
// differences in a random direction, and VJP against JVP by the inner-product identity
// <c, J t> = <J^T c, t>, all in f64 (or c128: complex inputs and outputs pair by Re(a·b),
// JAX's convention, so the identity reads Re Σ c·Jt = Re Σ g·t).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "strata/strata.h"

namespace strata::testing {

using VecFn = std::function<Array(const std::vector<Array>&)>;

// Re Σ a·b (no conjugation).
inline double pairing(const Array& a, const Array& b) {
  Array s = sum(multiply(a, b));
  return is_complex(s.dtype()) ? real(s).item<double>() : s.item<double>();
}

inline double dot_all(const std::vector<Array>& a, const std::vector<Array>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += pairing(a[i], b[i]);
  return s;
}

// Standard normal values of x's shape and dtype (complex: independent real and imaginary parts).
inline Array random_normal_like(const Array& x, uint64_t seed) {
  Array re = random::normal(random::key(seed), x.shape(), f64);
  if (!is_complex(x.dtype())) return re;
  return complex(re, random::normal(random::key(seed + 7919), x.shape(), f64));
}

inline std::vector<Array> random_like(const std::vector<Array>& xs, uint64_t seed) {
  std::vector<Array> r;
  for (size_t i = 0; i < xs.size(); ++i) r.push_back(random_normal_like(xs[i], seed * 131 + i));
  return r;
}

// A real or complex array's values as doubles (complex: re, im interleaved).
inline std::vector<double> flat_parts(const Array& a) {
  if (!is_complex(a.dtype())) return a.to_vector<double>();
  std::vector<double> re = real(a).to_vector<double>(), im = imag(a).to_vector<double>(), r;
  for (size_t i = 0; i < re.size(); ++i) {
    r.push_back(re[i]);
    r.push_back(im[i]);
  }
  return r;
}

// Checks f's derivatives at xs (f64 arrays). `rtol` scales with the size of the values.
inline void check_grads(const VecFn& f, const std::vector<Array>& xs, const std::string& what,
                        double rtol = 1e-6, uint64_t seed = 7) {
  SCOPED_TRACE(what);
  std::vector<Array> t = random_like(xs, seed);
  // Forward mode against central differences.
  auto [y, jt] = jvp(f, std::tuple<std::vector<Array>>(xs), std::tuple<std::vector<Array>>(t));
  const double eps = 1e-5;
  std::vector<Array> xp, xm;
  for (size_t i = 0; i < xs.size(); ++i) {
    xp.push_back(xs[i] + t[i] * eps);
    xm.push_back(xs[i] - t[i] * eps);
  }
  Array fd = (f(xp) - f(xm)) / (2 * eps);
  std::vector<double> a = flat_parts(jt), b = flat_parts(fd), yv = flat_parts(y);
  ASSERT_EQ(a.size(), b.size());
  double scale = 1.0;
  for (double v : b) scale = std::max(scale, std::fabs(v));
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_NEAR(a[i], b[i], rtol * 100 * scale) << "jvp vs finite differences, element " << i;
  // The primal output of jvp is f(x): to the last few ulps, as one side may run compiled and
  // the other eager (control flow compiles its branches), and compiled transcendentals are
  // libmvec's, eager's libm's or Eigen's (each accurate to a few ulps).
  std::vector<double> direct = flat_parts(f(xs));
  for (size_t i = 0; i < yv.size(); ++i) EXPECT_NEAR(yv[i], direct[i], 1e-14 * std::max(1.0, std::fabs(direct[i])));
  // Reverse mode against forward mode: <c, J t> = <J^T c, t>.
  Array c = random_normal_like(y, seed + 1000);
  auto [y2, f_vjp] = vjp(f, xs);
  std::vector<Array> g = std::get<0>(f_vjp(c));
  ASSERT_EQ(g.size(), xs.size());
  for (size_t i = 0; i < g.size(); ++i) {
    EXPECT_EQ(g[i].shape(), xs[i].shape());
    EXPECT_EQ(g[i].dtype(), xs[i].dtype());
  }
  double lhs = pairing(c, jt), rhs = dot_all(g, t);
  EXPECT_NEAR(lhs, rhs, std::max(1e-9, rtol * 1e-3) * std::max({1.0, std::fabs(lhs), std::fabs(rhs)})) << "vjp vs jvp";
}

}  // namespace strata::testing
