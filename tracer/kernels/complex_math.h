// tracer/kernels/complex_math.h — complex functions <complex> lacks, for the eager kernels:
// the formulas XLA and MLIR's complex-to-standard lowering use, accurate near 0.
#pragma once

#include <cmath>
#include <complex>

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

// log(1 + z): real part ½·log1p(2x + x² + y²) where |1 + z| is near 1, else log|1 + z|;
// imaginary part atan2(y, 1 + x).
template <class T>
std::complex<T> complex_log1p(std::complex<T> z) {
  T x = z.real(), y = z.imag();
  T r = x * (2 + x) + y * y;
  T re = std::fabs(r) < T(0.5) ? std::log1p(r) / 2 : std::log(std::hypot(1 + x, y));
  return {re, std::atan2(y, 1 + x)};
}

// z / |z|, 0 at 0 (JAX's sign of a complex number).
template <class T>
std::complex<T> complex_sign(std::complex<T> z) {
  T a = std::abs(z);
  return a == 0 ? std::complex<T>(0, 0) : z / a;
}

// The larger (kMax) or smaller of a and b in the lexicographic order of (real, imaginary), as
// jax.lax.max/min and StableHLO order complex numbers (dialect/ScalarOps.cpp's complexMax is
// the compiled twin): a where its real part is beyond b's, or equal with its imaginary part
// beyond; else b (also where a nan compares false).
template <bool kMax, class T>
std::complex<T> complex_extremum(std::complex<T> a, std::complex<T> b) {
  auto beyond = [](T p, T q) { return kMax ? p > q : p < q; };
  bool pick = a.real() == b.real() ? beyond(a.imag(), b.imag()) : beyond(a.real(), b.real());
  return pick ? a : b;
}

}  // namespace strata::kernels
