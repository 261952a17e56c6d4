// tracer/kernels/balance.h — LAPACK's gebal (job 'B') and gebak for the nonsymmetric
// eigenproblem, real (nonsymmetric_eigen.cpp) and complex (complex_eigen.cpp): the balancing
// similarity geev applies before the Hessenberg reduction, and its undoing on the eigenvectors.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata::kernels {

// LAPACK's dgebal/zgebal with job 'B' on h (n×n, row-major, real or complex), in place: h ← D⁻¹ Pᵀ h P D. P moves
// rows and columns that isolate an eigenvalue (all zero off the diagonal within the rest) to
// the bottom and the top, leaving rows and columns [ilo, ihi] to the iteration; D, powers of two
// (exact), then makes each row's and column's 2-norms within [ilo, ihi] comparable (Osborne's
// iteration, until no scaling reduces c + r by 5%). Without it, a matrix whose entries span
// orders of magnitude (a companion matrix, D A D⁻¹) loses its small eigenvalues to the large
// entries' rounding. scale[i] is D's entry for i in [ilo, ihi], else the index row i was swapped
// with, as LAPACK's SCALE.
template <class E, class T = decltype(std::abs(E()))>
void balance(E* h, int64_t n, int64_t& ilo, int64_t& ihi, std::vector<T>& scale) {
  auto at = [&](int64_t i, int64_t j) -> E& { return h[i * n + j]; };
  auto swap = [&](int64_t i, int64_t j) {  // P's transposition of i and j: rows and columns
    for (int64_t r = 0; r < n; ++r) std::swap(at(r, i), at(r, j));
    for (int64_t c = 0; c < n; ++c) std::swap(at(i, c), at(j, c));
  };
  scale.assign(static_cast<size_t>(n), T(1));
  int64_t k = 0, l = n - 1;
  // Rows zero off the diagonal within columns [0, l] isolate an eigenvalue: to the bottom.
  for (bool moved = true; moved;) {
    moved = false;
    for (int64_t i = l; i >= 0; --i) {
      bool isolated = true;
      for (int64_t j = 0; j <= l && isolated; ++j) isolated = i == j || at(i, j) == E(0);
      if (!isolated) continue;
      scale[l] = T(i);
      if (i != l) swap(i, l);
      moved = true;
      if (l == 0) {
        ilo = ihi = 0;
        return;
      }
      --l;
    }
  }
  // Columns zero off the diagonal within rows [k, l]: to the left.
  for (bool moved = true; moved;) {
    moved = false;
    for (int64_t j = k, last = l; j <= last; ++j) {
      bool isolated = true;
      for (int64_t i = k; i <= l && isolated; ++i) isolated = i == j || at(i, j) == E(0);
      if (!isolated) continue;
      scale[k] = T(j);
      if (j != k) swap(j, k);
      moved = true;
      ++k;
    }
  }
  ilo = k, ihi = l;
  for (int64_t i = k; i <= l; ++i) scale[i] = T(1);
  const T sfmin1 = std::numeric_limits<T>::min() / std::numeric_limits<T>::epsilon(), sfmax1 = T(1) / sfmin1;
  const T sfmin2 = sfmin1 * 2, sfmax2 = T(1) / sfmin2;
  // A 2-norm scaled by the largest part (no under/overflow); complex entries by their real and
  // imaginary parts, not by hypot per entry (a tenth of c64 eig's time at 512²).
  auto norm2 = [](auto value, int64_t len) {
    T big = 0, sum = 0;
    if constexpr (std::is_floating_point_v<E>) {
      for (int64_t q = 0; q < len; ++q) big = std::max(big, std::abs(value(q)));
      if (big == T(0)) return T(0);
      for (int64_t q = 0; q < len; ++q) sum += (value(q) / big) * (value(q) / big);
    } else {
      for (int64_t q = 0; q < len; ++q) big = std::max({big, std::abs(value(q).real()), std::abs(value(q).imag())});
      if (big == T(0)) return T(0);
      for (int64_t q = 0; q < len; ++q) {
        const T re = value(q).real() / big, im = value(q).imag() / big;
        sum += re * re + im * im;
      }
    }
    return big * std::sqrt(sum);
  };
  // The largest |entry| (complex: that of the largest |re| + |im|, as zgebal's izamax finds it).
  auto largest = [](auto value, int64_t begin, int64_t end) {
    if constexpr (std::is_floating_point_v<E>) {
      T m = 0;
      for (int64_t q = begin; q < end; ++q) m = std::max(m, std::abs(value(q)));
      return m;
    } else {
      T m = -1;
      int64_t at_m = begin;
      for (int64_t q = begin; q < end; ++q)
        if (const T x = std::abs(value(q).real()) + std::abs(value(q).imag()); x > m) m = x, at_m = q;
      return end > begin ? std::abs(value(at_m)) : T(0);
    }
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (int64_t i = ilo; i <= ihi; ++i) {
      T c = norm2([&](int64_t q) { return at(ilo + q, i); }, ihi - ilo + 1);
      T r = norm2([&](int64_t q) { return at(i, ilo + q); }, ihi - ilo + 1);
      T ca = largest([&](int64_t q) { return at(q, i); }, 0, ihi + 1);
      T ra = largest([&](int64_t q) { return at(i, q); }, ilo, n);
      if (c == T(0) || r == T(0)) continue;
      T g = r / 2, f = 1;
      const T s = c + r;
      while (c < g && std::max({f, c, ca}) < sfmax2 && std::min({r, g, ra}) > sfmin2) {
        f *= 2, c *= 2, ca *= 2, r /= 2, g /= 2, ra /= 2;
      }
      g = c / 2;
      while (g >= r && std::max(r, ra) < sfmax2 && std::min({f, c, g, ca}) > sfmin2) {
        f /= 2, c /= 2, g /= 2, ca /= 2, r *= 2, ra *= 2;
      }
      if (c + r >= T(0.95) * s) continue;
      if (f < T(1) && scale[i] < T(1) && f * scale[i] <= sfmin1) continue;
      if (f > T(1) && scale[i] > T(1) && scale[i] >= sfmax1 / f) continue;
      scale[i] *= f;
      changed = true;
      for (int64_t q = ilo; q < n; ++q) at(i, q) /= f;
      for (int64_t q = 0; q <= ihi; ++q) at(q, i) *= f;
    }
  }
}

// LAPACK's dgebak/zgebak: the eigenvectors of D⁻¹ Pᵀ a P D (row j of vt: vector j) to those of a, P D v
// for right ones, P D⁻¹ u for left ones (uᴴ D⁻¹ Pᵀ a = λ uᴴ D⁻¹ Pᵀ).
template <class E, class T>
void unbalance(E* vt, int64_t n, int64_t ilo, int64_t ihi, const std::vector<T>& scale, bool left) {
  if (ilo < ihi)  // (ilo = ihi: every row was permuted, scale[ilo] holds an index)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = ilo; i <= ihi; ++i) vt[j * n + i] = left ? vt[j * n + i] / scale[i] : vt[j * n + i] * scale[i];
  for (int64_t q = 0; q < n; ++q) {  // the swaps undone in reverse: ilo - 1 down to 0, then ihi + 1 up
    const int64_t i = q < ilo ? ilo - 1 - q : q;
    if (i >= ilo && i <= ihi) continue;
    const int64_t k = static_cast<int64_t>(scale[i]);
    if (k != i)
      for (int64_t j = 0; j < n; ++j) std::swap(vt[j * n + i], vt[j * n + k]);
  }
}

}  // namespace strata::kernels
