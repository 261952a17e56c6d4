// tracer/kernels/deflation.h — the small-subdiagonal test the real and complex QR iterations
// (nonsymmetric_eigen.cpp, complex_eigen.cpp) share.
#pragma once

#include <algorithm>

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

}  // namespace strata::kernels
