// tracer/kernels/secular.h — what both divide and conquer solvers share, eigh's
// (symmetric_eigen.cpp, poles the halves' eigenvalues) and svd's (bidiagonal_svd.cpp, poles the
// squares of the halves' singular values): the secular equation of a rank-one update (LAPACK's
// dlaed4 and dlasd4 do the same iteration on d and on d² apart; here the poles enter only
// through their differences, which each caller computes as accurately as its poles allow), the
// rotation of two basis vectors, and the recursion's order.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "parallel.h"

namespace strata::kernels {

// Adds Σ t, Σ t / d_j and Σ |t| over j in [lo, hi), t = w2[j] / d_j, d_j = off[j] - tau, in 8
// lanes (a plain sum does not vectorize: its order is fixed).
inline void secular_sums(const double* off, const double* w2, int64_t lo, int64_t hi, double tau, double& f,
                         double& df, double& err) {
  constexpr int L = 8;
  double fs[L] = {}, ds[L] = {}, es[L] = {};
  int64_t j = lo;
  for (; j + L <= hi; j += L)
    for (int l = 0; l < L; ++l) {
      const double r = 1 / (off[j + l] - tau), t = w2[j + l] * r;
      fs[l] += t;
      ds[l] += t * r;
      es[l] += std::abs(t);
    }
  for (; j < hi; ++j) {
    const double r = 1 / (off[j] - tau), t = w2[j] * r;
    fs[0] += t;
    ds[0] += t * r;
    es[0] += std::abs(t);
  }
  for (int l = 0; l < L; ++l) f += fs[l], df += ds[l], err += es[l];
}

// Root k of the secular equation 1/rho + Σ_j w2[j] / (p_j - λ) = 0 (poles p ascending and
// distinct, rho > 0, w2 > 0): λ in (p_k, p_{k+1}), the last in (p_{K-1}, p_{K-1} + rho Σ w2].
// offsets(o, off) fills off[0, K) with p_j - p_o. λ is kept as p_o + tau, o the nearer pole
// (returned in `origin`, tau returned), and delta[j] = p_j - λ is computed as off[j] - tau:
// exact enough near the pole for the vectors (LAPACK's dlaed4). Each step solves a model with
// the two poles around the root exact and the other terms matched in value and slope (Li's
// middle way); a step leaving the bracket bisects it. off: scratch of K.
template <class Offsets>
double secular_root(int64_t k, int64_t K, const Offsets& offsets, const double* w2, double rho, double* delta,
                    double* off, int64_t& origin) {
  const double eps = std::numeric_limits<double>::epsilon(), rhoinv = 1 / rho;
  const bool last = k == K - 1;
  int64_t o = k;
  offsets(k, off);
  double lo = 0, hi;
  if (last) {
    hi = 0;
    for (int64_t j = 0; j < K; ++j) hi += w2[j];
    hi *= rho;
  } else {
    const double gap = off[k + 1], mid = gap / 2;
    double f = rhoinv, df = 0, err = 0;
    secular_sums(off, w2, 0, K, mid, f, df, err);
    if (f >= 0) {
      hi = mid;
    } else {  // nearer the upper pole: measure from it
      o = k + 1;
      lo = mid - gap;
      hi = 0;
      offsets(o, off);
    }
  }
  double tau = lo + (hi - lo) / 2;
  for (int it = 0; it < 400; ++it) {
    double f = rhoinv, dpsi = 0, dphi = 0, err = rhoinv;
    secular_sums(off, w2, 0, k + 1, tau, f, dpsi, err);
    secular_sums(off, w2, k + 1, K, tau, f, dphi, err);
    if (std::abs(f) <= 8 * eps * err) break;
    (f < 0 ? lo : hi) = tau;
    const double d1 = off[k] - tau;
    double eta;
    if (!last) {
      const double d2 = off[k + 1] - tau;
      const double a = (d1 + d2) * f - d1 * d2 * (dpsi + dphi), b = d1 * d2 * f, c = f - d1 * dpsi - d2 * dphi;
      if (c == 0) {
        eta = b / a;
      } else {
        const double disc = std::sqrt(std::abs(a * a - 4 * b * c));
        eta = a <= 0 ? (a - disc) / (2 * c) : 2 * b / (a + disc);  // the root between the poles
      }
    } else {
      eta = d1 + d1 * d1 * dpsi / (f - d1 * dpsi);
    }
    if (!(f * eta < 0)) eta = -f / (dpsi + dphi);  // the model's root is behind: a Newton step
    double next = tau + eta;
    if (!(next > lo && next < hi)) next = lo + (hi - lo) / 2;
    if (next == tau) break;
    tau = next;
  }
  for (int64_t j = 0; j < K; ++j) delta[j] = off[j] - tau;
  origin = o;
  return tau;
}

// Columns p and q of m (rows [r0, r1), ld apart) ← (c·x + s·y, c·y − s·x) for their entries x,
// y, in double: the Givens rotation of two basis vectors that deflation and the joining of null
// vectors apply.
template <class R>
void rotate_columns(R* m, int64_t ld, int64_t r0, int64_t r1, int64_t p, int64_t q, double c, double s) {
  for (int64_t r = r0; r < r1; ++r) {
    const double x = double(m[r * ld + p]), y = double(m[r * ld + q]);
    m[r * ld + p] = static_cast<R>(c * x + s * y);
    m[r * ld + q] = static_cast<R>(c * y - s * x);
  }
}

// The recursion, flattened: [0, n) halved at mid = lo + (hi - lo) / 2 down to blocks of at most
// `leaf` (the second half starting at mid + gap: svd keeps a middle column between its halves),
// at_split(lo, mid, hi) called on the way down; then every leaf solve_leaf(lo, hi) across the
// pool and, if all succeeded, merge(lo, mid, hi), children first. False when a leaf failed.
template <class AtSplit, class SolveLeaf, class Merge>
bool divide_and_conquer(int64_t n, int64_t leaf, int64_t gap, const AtSplit& at_split, const SolveLeaf& solve_leaf,
                        const Merge& merge) {
  std::vector<std::pair<int64_t, int64_t>> leaves;
  std::vector<std::array<int64_t, 3>> merges;
  auto split = [&](auto& self, int64_t lo, int64_t hi) -> void {
    if (hi - lo <= leaf) return leaves.push_back({lo, hi});
    const int64_t mid = lo + (hi - lo) / 2;
    at_split(lo, mid, hi);
    self(self, lo, mid);
    self(self, mid + gap, hi);
    merges.push_back({lo, mid, hi});
  };
  split(split, 0, n);
  std::vector<char> failed(leaves.size());
  parallel_for(static_cast<int64_t>(leaves.size()), 1, [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) failed[i] = !solve_leaf(leaves[i].first, leaves[i].second);
  });
  if (std::find(failed.begin(), failed.end(), 1) != failed.end()) return false;
  for (const auto& g : merges) merge(g[0], g[1], g[2]);
  return true;
}

}  // namespace strata::kernels
