// tracer/kernels/complex_math.h — complex functions <complex> lacks, for the eager kernels:
// the formulas XLA and MLIR's complex-to-standard lowering use, accurate near 0.
#pragma once

#include <cmath>
#include <complex>
#include <limits>

#include "ieee_minmax.h"

namespace strata::kernels {

// a·b as LAPACK and FFT libraries multiply: std::complex's operator* recovers infs from nan
// products (C99 Annex G), a library call per product. Reals: a·b.
template <class T>
inline T plain_mul(T a, T b) {
  return a * b;
}
template <class T>
inline std::complex<T> plain_mul(std::complex<T> a, std::complex<T> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// e^z - 1: real part expm1(x)·cos(y) - 2·sin²(y/2) (no cancellation for small z), imaginary
// part e^x·sin(y).
template <class T>
std::complex<T> complex_expm1(std::complex<T> z) {
  T x = z.real(), y = z.imag();
  T s = std::sin(y / 2);
  return {std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y)};
}

// a + x² + y² for an exact a (-1, 2x), its roundings compensated: the squares' errors by fma,
// the sums' by two-sum, added last. Where the terms cancel (|z| or |1 + z| near 1) a rounded
// sum kept only the difference of their roundings: log1p(-0.115 + 0.467i) was 47 ulps off in
// f32. dialect/ScalarOps.cpp's sumOfSquaresPlus is the compiled twin, the same operations.
template <class T>
T sum_of_squares_plus(T a, T x, T y) {
  const T p = x * x, ep = std::fma(x, x, -p), q = y * y, eq = std::fma(y, y, -q);
  auto two_sum = [](T u, T v, T& err) {
    const T s = u + v, w = s - u;
    err = (u - (s - w)) + (v - w);
    return s;
  };
  T e1, e2;
  const T s = two_sum(a, p, e1);
  const T t = two_sum(s, q, e2);
  return t + (((e1 + e2) + ep) + eq);
}

// log(1 + z): real part ½·log1p(2x + x² + y²) where |1 + z| is near 1, else log|1 + z|;
// imaginary part atan2(y, 1 + x).
template <class T>
std::complex<T> complex_log1p(std::complex<T> z) {
  T x = z.real(), y = z.imag();
  T r = sum_of_squares_plus(2 * x, x, y);
  T re = std::fabs(r) < T(0.5) ? std::log1p(r) / 2 : std::log(std::hypot(1 + x, y));
  return {re, std::atan2(y, 1 + x)};
}

// |z| as the compiled code computes it (MLIR's complex.abs lowering, which is XLA's):
// m·sqrt(1 + (n/m)²) of the parts' magnitudes m >= n, and n where that is nan ((0, 0), (inf,
// inf)). A nan part gives nan even beside an infinite one, as in JAX (C99's hypot, std::abs,
// gives inf). One rounding per operation, none fused, as the compiled code's.
template <class T>
T complex_abs(std::complex<T> z) {
  const T a = std::fabs(z.real()), b = std::fabs(z.imag());
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
  const T m = std::max(a, b), n = std::min(a, b);
  const T ratio = n / m;
  const T square = ratio * ratio;
  const T sum = square + T(1);
  const T r = m * std::sqrt(sum);
  return std::isnan(r) ? n : r;
}

// z / |z|, 0 at 0 (JAX's sign of a complex number).
template <class T>
std::complex<T> complex_sign(std::complex<T> z) {
  T a = complex_abs(z);
  return a == 0 ? std::complex<T>(0, 0) : z / a;
}

// The larger (kMax) or smaller of a and b in the lexicographic order of (real, imaginary), as
// jax.lax.max/min and StableHLO order complex numbers (dialect/ScalarOps.cpp's complexMax is
// the compiled twin): the one whose real part is beyond the other's, or, with equal real parts,
// whose imaginary part is. So that reductions, scans, windows and scatters give one answer in
// any order (commutative and associative, as IEEE maximum is on floats): a nan in either part
// of either operand gives nan + nan·i, and equal values differing only in the signs of zeros
// give the partwise IEEE maximum (minimum), +0 over -0. (XLA's select is order-dependent in
// both cases: max(1+2i, nan) is nan but max(nan, 1+2i) is 1+2i.)
template <bool kMax, class T>
std::complex<T> complex_extremum(std::complex<T> a, std::complex<T> b) {
  if (std::isnan(a.real()) || std::isnan(a.imag()) || std::isnan(b.real()) || std::isnan(b.imag()))
    return {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::quiet_NaN()};
  auto beyond = [](T p, T q) { return kMax ? p > q : p < q; };
  if (a.real() != b.real()) return beyond(a.real(), b.real()) ? a : b;
  if (a.imag() != b.imag()) return beyond(a.imag(), b.imag()) ? a : b;
  auto part = [](T p, T q) { return kMax ? ieee_max(p, q) : ieee_min(p, q); };
  return {part(a.real(), b.real()), part(a.imag(), b.imag())};
}

// The identity of complex_extremum in a reduction: (-inf, 0) for max and (inf, 0) for min, as
// JAX's jnp.max/min and segment_max/min start from (the init takes part: max of [-inf - 5i] is
// -inf + 0i, as in JAX).
template <bool kMax, class T>
std::complex<T> complex_extremum_identity() {
  T inf = std::numeric_limits<T>::infinity();
  return {kMax ? -inf : inf, T(0)};
}

}  // namespace strata::kernels
