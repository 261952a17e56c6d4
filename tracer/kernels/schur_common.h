// tracer/kernels/schur_common.h — what the real and complex QR iterations and their
// eigenvector substitutions (nonsymmetric_eigen.cpp, complex_eigen.cpp) share: the
// small-subdiagonal test and the 1×1 step of a substitution.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>

namespace strata::kernels {

// Ahues and Tisseur's conservative deflation test (LAPACK Working Note 122, as dlahqr and
// zlahqr apply it once |h(k, k−1)| ≤ ulp·(|h(k−1, k−1)| + |h(k, k)|)): whether h(k, k−1) is
// negligible, from the magnitudes sub = |h(k, k−1)|, super = |h(k−1, k)|, diag = |h(k, k)| and
// gap = |h(k−1, k−1) − h(k, k)| (|·| the absolute value, or |re| + |im| for complex entries).
template <class T>
bool negligible_subdiagonal(T sub, T super, T diag, T gap, T smlnum, T ulp) {
  const T ab = std::max(sub, super), ba = std::min(sub, super);
  const T aa = std::max(diag, gap), bb = std::min(diag, gap);
  const T s = aa + ab;
  return ba * (ab / s) <= std::max(smlnum, ulp * (bb * (aa / s)));
}

// |re| + |im| (LAPACK's cabs1; |x| for a real x). C: T or std::complex<T>.
template <class C>
inline auto magnitude(const C& x) {
  return std::abs(std::real(x)) + std::abs(std::imag(x));
}

// r / d for one row of a substitution (dlaln2's 1×1 case): |d| raised to smin, and r and the
// components solved so far (`scale_solved`) scaled down first where the quotient would pass big.
// C: T or std::complex<T>.
template <class C, class T, class Scale>
C solve1(C r, C d, T smin, T big, Scale scale_solved) {
  if (magnitude(d) < smin) d = C(smin);
  if (magnitude(r) > big * magnitude(d)) {
    const T s = big * magnitude(d) / magnitude(r);
    scale_solved(s), r *= s;
  }
  return r / d;
}

}  // namespace strata::kernels
