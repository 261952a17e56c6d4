// tracer/kernels/bidiagonal_values.cpp — see bidiagonal_values.h. LAPACK's dlasq1-dlasq6 (and
// dlas2 for n = 2), written anew with zero-based indices; the IEEE variant of the transform
// (no test in the inner loop: a zero pivot gives an infinity or a NaN that the caller sees in
// dmin afterwards), as LAPACK runs on IEEE machines.
#include "bidiagonal_values.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

namespace strata::kernels {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();  // dlamch('P')
constexpr double kSafeMin = std::numeric_limits<double>::min();  // dlamch('S')
constexpr double kTol = 100 * kEps, kTol2 = kTol * kTol;
constexpr double kCbias = 1.5;  // reverse a segment when its last q exceeds its first by this

// The singular values of [[f, g], [0, h]] (LAPACK's dlas2): the smaller one to high relative
// accuracy, neither overflowing unless the larger one does.
void singular_values_2x2(double f, double g, double h, double& smin, double& smax) {
  const double fa = std::abs(f), ga = std::abs(g), ha = std::abs(h);
  const double fhmn = std::min(fa, ha), fhmx = std::max(fa, ha);
  if (fhmn == 0) {
    smin = 0;
    if (fhmx == 0) {
      smax = ga;
    } else {
      const double hi = std::max(fhmx, ga), lo = std::min(fhmx, ga) / hi;
      smax = hi * std::sqrt(1 + lo * lo);
    }
  } else if (ga < fhmx) {
    const double as = 1 + fhmn / fhmx, at = (fhmx - fhmn) / fhmx, au = (ga / fhmx) * (ga / fhmx);
    const double c = 2 / (std::sqrt(as * as + au) + std::sqrt(at * at + au));
    smin = fhmn * c;
    smax = fhmx / c;
  } else {
    const double au = fhmx / ga;
    if (au == 0) {  // the true smin need not underflow although au does
      smin = (fhmn * fhmx) / ga;
      smax = ga;
    } else {
      const double as = 1 + fhmn / fhmx, at = (fhmx - fhmn) / fhmx;
      const double c = 1 / (std::sqrt(1 + (as * au) * (as * au)) + std::sqrt(1 + (at * au) * (at * au)));
      smin = 2 * ((fhmn * c) * au);
      smax = ga / (c + c);
    }
  }
}

// The factors whose product, applied in turn, multiplies by to / from without the factor itself
// overflowing or underflowing (LAPACK's dlascl: steps of the safe minimum or its reciprocal
// until the rest is representable). from and to are positive and finite.
std::vector<double> scale_steps(double from, double to) {
  const double small = kSafeMin, big = 1 / small;
  std::vector<double> steps;
  for (;;) {
    const double from1 = from * small, to1 = to / big;
    if (from1 > to) {
      steps.push_back(small);
      from = from1;
    } else if (to1 > from) {
      steps.push_back(big);
      to = to1;
    } else {
      if (to / from != 1) steps.push_back(to / from);
      return steps;
    }
  }
}

double apply_steps(double x, const std::vector<double>& steps) {
  for (double m : steps) x *= m;
  return x;
}

// dqds on the qd array of one n×n (n >= 3) positive definite tridiagonal matrix, LAPACK's
// dlasq2-dlasq6. z (4n) interleaves the two ping-pong copies: q_k in z[4k + p] and e_k in
// z[4k + 2 + p], p = 0 or 1. A transform reads copy pp and writes copy 1 - pp, so it is one
// forward pass over a contiguous array. The slot e_{n0} past a segment's end holds bookkeeping:
// -sigma where a segment split off (the shift it had accumulated), the emin of the transforms.
class Dqds {
 public:
  Dqds(double* z, int64_t n) : z_(z), n_(n) {}

  // The eigenvalues, in q_k of copy 0 (unsorted). False when an iteration limit was reached.
  bool run();

 private:
  double& q(int64_t k, int p) { return z_[4 * k + p]; }
  double& e(int64_t k, int p) { return z_[4 * k + 2 + p]; }

  void reverse(int64_t lo, int64_t hi, bool both_copies);
  void step();                             // dlasq3
  void choose_shift(int64_t n0_entry);     // dlasq4
  void transform();                        // dlasq5
  void transform_unshifted();              // dlasq6

  // The copy a transform reads (pp) and the one it writes (1 - pp), q and e interleaved.
  struct Copies {
    const double *in_q, *in_e;
    double *out_q, *out_e;
  };
  Copies copies() const { return {z_ + pp_, z_ + 2 + pp_, z_ + 1 - pp_, z_ + 3 - pp_}; }

  double* z_;
  int64_t n_;
  int64_t i0_ = 0, n0_ = 0;  // the unreduced segment [i0, n0]
  int pp_ = 0;               // 2: just reversed, the entry deflation tests read shifted slots
  double dmin_ = 0, dmin1_ = 0, dmin2_ = 0, dn_ = 0, dn1_ = 0, dn2_ = 0;
  double g_ = 0, tau_ = 0;
  int ttype_ = 0;
  double sigma_ = 0, desig_ = 0, qmax_ = 0;
};

// Reverses the segment [lo, hi]: q_lo..q_hi and e_lo..e_{hi-1}, of copy 0 or of both copies.
void Dqds::reverse(int64_t lo, int64_t hi, bool both_copies) {
  for (int p = 0; p < (both_copies ? 2 : 1); ++p) {
    for (int64_t i = lo, j = hi; i < j; ++i, --j) std::swap(q(i, p), q(j, p));
    for (int64_t i = lo, j = hi - 1; i < j; ++i, --j) std::swap(e(i, p), e(j, p));
  }
}

// One dqds transform with shift tau from copy pp into copy 1 - pp (dlasq5, IEEE variant):
// qq_k = d_k + e_k, ee_k = e_k q_{k+1} / qq_k, d_{k+1} = d_k q_{k+1} / qq_k - tau. dmin, dmin1,
// dmin2 are the least d over the whole, all but the last, all but the last two; dn, dn1, dn2
// the last three d. A d that meets a zero pivot turns NaN and stays NaN down the recurrence,
// and the mins keep it (std::min(d, m) returns d when d is NaN), so the caller sees it. A tau
// below half the rounding error of sigma + tau is dropped, and then d below that error is
// flushed to zero.
void Dqds::transform() {
  if (n0_ - i0_ - 1 <= 0) return;
  const double dthresh = kEps * (sigma_ + tau_);
  if (tau_ < dthresh * 0.5) tau_ = 0;
  const double tau = tau_;
  const auto [in_q, in_e, out_q, out_e] = copies();
  const int64_t i0 = i0_, n0 = n0_;
  double emin = in_q[4 * (i0 + 1)];
  double d = in_q[4 * i0] - tau;
  double dmin = d;
  dmin1_ = -in_q[4 * i0];
  // The loop carries only d; qq, ee and the mins hang off it.
  if (tau != 0) {
    for (int64_t k = 4 * i0, end = 4 * (n0 - 2); k < end; k += 4) {
      const double qq = d + in_e[k];
      out_q[k] = qq;
      const double t = in_q[k + 4] / qq;
      d = d * t - tau;
      dmin = std::min(d, dmin);
      const double ee = in_e[k] * t;
      out_e[k] = ee;
      emin = std::min(ee, emin);
    }
  } else {
    for (int64_t k = 4 * i0, end = 4 * (n0 - 2); k < end; k += 4) {
      const double qq = d + in_e[k];
      out_q[k] = qq;
      const double t = in_q[k + 4] / qq;
      d = d * t;
      if (d < dthresh) d = 0;
      dmin = std::min(d, dmin);
      const double ee = in_e[k] * t;
      out_e[k] = ee;
      emin = std::min(ee, emin);
    }
  }
  // The last two steps apart, to keep d_{n0-2} and d_{n0-1}.
  dn2_ = d;
  dmin2_ = dmin;
  int64_t k = 4 * (n0 - 2);
  double qq = dn2_ + in_e[k];
  out_q[k] = qq;
  out_e[k] = in_q[k + 4] * (in_e[k] / qq);
  dn1_ = in_q[k + 4] * (dn2_ / qq) - tau;
  dmin = std::min(dn1_, dmin);
  dmin1_ = dmin;
  k += 4;
  qq = dn1_ + in_e[k];
  out_q[k] = qq;
  out_e[k] = in_q[k + 4] * (in_e[k] / qq);
  dn_ = in_q[k + 4] * (dn1_ / qq) - tau;
  dmin = std::min(dn_, dmin);
  dmin_ = dmin;
  out_q[4 * n0] = dn_;
  out_e[4 * n0] = emin;
}

// One unshifted dqd transform that guards against underflow (dlasq6): a zero pivot splits the
// array there (ee = 0, the recurrence restarts from the next q), and a quotient q_{k+1} / qq_k
// out of the safe range is not formed.
void Dqds::transform_unshifted() {
  if (n0_ - i0_ - 1 <= 0) return;
  const auto [in_q, in_e, out_q, out_e] = copies();
  const int64_t i0 = i0_, n0 = n0_;
  double emin = in_q[4 * (i0 + 1)];
  double d = in_q[4 * i0];
  double dmin = d;
  // Step k: returns d_{k+1}; a zero pivot restarts dmin and emin.
  auto dqd = [&](int64_t k, double dk) {
    const double qq = dk + in_e[k];
    out_q[k] = qq;
    const double next_q = in_q[k + 4];
    double dnext;
    if (qq == 0) {
      out_e[k] = 0;
      dnext = next_q;
      dmin = dnext;
      emin = 0;
    } else if (kSafeMin * next_q < qq && kSafeMin * qq < next_q) {
      const double t = next_q / qq;
      out_e[k] = in_e[k] * t;
      dnext = dk * t;
    } else {
      out_e[k] = next_q * (in_e[k] / qq);
      dnext = next_q * (dk / qq);
    }
    return dnext;
  };
  for (int64_t k = 4 * i0, end = 4 * (n0 - 2); k < end; k += 4) {
    d = dqd(k, d);
    dmin = std::min(d, dmin);
    emin = std::min(out_e[k], emin);
  }
  dn2_ = d;
  dmin2_ = dmin;
  int64_t k = 4 * (n0 - 2);
  dn1_ = dqd(k, dn2_);
  dmin = std::min(dn1_, dmin);
  dmin1_ = dmin;
  k += 4;
  dn_ = dqd(k, dn1_);
  dmin = std::min(dn_, dmin);
  dmin_ = dmin;
  out_q[4 * n0] = dn_;
  out_e[4 * n0] = emin;
}

// The shift for the next transform (dlasq4): an estimate of the least eigenvalue of the
// segment from the d of the last transform, by the case the minimum fell in (ttype -2 to -12).
// Where the qd array is not diagonally dominant enough for an estimate to hold (an e above its
// q), tau keeps its previous value, as in LAPACK.
void Dqds::choose_shift(int64_t n0_entry) {
  constexpr double kCnst1 = 0.563, kCnst2 = 1.01, kCnst3 = 1.05, kThird = 0.333;
  if (dmin_ <= 0) {  // a negative dmin asks for a shift of that size
    tau_ = -dmin_;
    ttype_ = -1;
    return;
  }
  const int64_t i0 = i0_, n0 = n0_;
  const int p = pp_, o = 1 - pp_;  // the current copy and the one before it
  const double dmin = dmin_, dmin1 = dmin1_, dmin2 = dmin2_, dn = dn_, dn1 = dn1_, dn2 = dn2_;
  double s = 0;
  // The norm² contribution of the earlier indices in cases 4 and 5: adds to a2 the terms
  // b2 · e_from / q_from ⋯ e_j / q_j for j = from down to i0 (b2, the term before, already in
  // a2), stopping once a term is under 1% of the sum or the sum passes cnst1. False (no
  // estimate) on an e above its q.
  auto sum_ratios = [&](int64_t from, double& a2, double b2) {
    for (int64_t j = from; j >= i0; --j) {
      if (b2 == 0) break;
      const double b1 = b2;
      if (e(j, p) > q(j, p)) return false;
      b2 *= e(j, p) / q(j, p);
      a2 += b2;
      if (100 * std::max(b2, b1) < a2 || kCnst1 < a2) break;
    }
    return true;
  };
  if (n0_entry == n0) {  // nothing deflated
    if (dmin == dn || dmin == dn1) {
      double b1 = std::sqrt(q(n0, p)) * std::sqrt(e(n0 - 1, p));
      double b2 = std::sqrt(q(n0 - 1, p)) * std::sqrt(e(n0 - 2, p));
      double a2 = q(n0 - 1, p) + e(n0 - 1, p);
      if (dmin == dn && dmin1 == dn1) {  // cases 2 and 3
        const double gap2 = dmin2 - a2 - dmin2 * 0.25;
        const double gap1 = gap2 > 0 && gap2 > b2 ? a2 - dn - (b2 / gap2) * b2 : a2 - dn - (b1 + b2);
        if (gap1 > 0 && gap1 > b1) {
          s = std::max(dn - (b1 / gap1) * b1, 0.5 * dmin);
          ttype_ = -2;
        } else {
          s = 0;
          if (dn > b1) s = dn - b1;
          if (a2 > b1 + b2) s = std::min(s, a2 - (b1 + b2));
          s = std::max(s, kThird * dmin);
          ttype_ = -3;
        }
      } else {  // case 4
        ttype_ = -4;
        s = 0.25 * dmin;
        double gam;
        int64_t from;
        if (dmin == dn) {
          gam = dn;
          a2 = 0;
          if (e(n0 - 1, p) > q(n0 - 1, p)) return;
          b2 = e(n0 - 1, p) / q(n0 - 1, p);
          from = n0 - 2;
        } else {
          gam = dn1;
          if (e(n0 - 1, o) > q(n0, o)) return;
          a2 = e(n0 - 1, o) / q(n0, o);
          if (e(n0 - 2, p) > q(n0 - 2, p)) return;
          b2 = e(n0 - 2, p) / q(n0 - 2, p);
          from = n0 - 3;
        }
        a2 += b2;
        if (!sum_ratios(from, a2, b2)) return;
        a2 *= kCnst3;
        if (a2 < kCnst1) s = gam * (1 - std::sqrt(a2)) / (1 + a2);  // Rayleigh quotient residual bound
      }
    } else if (dmin == dn2) {  // case 5
      ttype_ = -5;
      s = 0.25 * dmin;
      const double b1 = q(n0, o), b2 = q(n0 - 1, o), gam = dn2;
      if (e(n0 - 2, o) > b2 || e(n0 - 1, o) > b1) return;
      double a2 = (e(n0 - 2, o) / b2) * (1 + e(n0 - 1, o) / b1);
      if (n0 - i0 > 2) {
        const double r = e(n0 - 3, p) / q(n0 - 3, p);
        a2 += r;
        if (!sum_ratios(n0 - 4, a2, r)) return;
        a2 *= kCnst3;
      }
      if (a2 < kCnst1) s = gam * (1 - std::sqrt(a2)) / (1 + a2);
    } else {  // case 6: no information; g grows on repeats
      if (ttype_ == -6)
        g_ += kThird * (1 - g_);
      else if (ttype_ == -18)
        g_ = 0.25 * kThird;
      else
        g_ = 0.25;
      s = g_ * dmin;
      ttype_ = -6;
    }
  } else if (n0_entry == n0 + 1) {  // one eigenvalue just deflated: dmin1, dn1 stand for dmin, dn
    if (dmin1 == dn1 && dmin2 == dn2) {  // cases 7 and 8
      ttype_ = -7;
      s = kThird * dmin1;
      if (e(n0 - 1, p) > q(n0 - 1, p)) return;
      double b1 = e(n0 - 1, p) / q(n0 - 1, p), b2 = b1;
      if (b2 != 0) {
        for (int64_t j = n0 - 2; j >= i0; --j) {
          const double a2 = b1;
          if (e(j, p) > q(j, p)) return;
          b1 *= e(j, p) / q(j, p);
          b2 += b1;
          if (100 * std::max(b1, a2) < b2) break;
        }
      }
      b2 = std::sqrt(kCnst3 * b2);
      const double a2 = dmin1 / (1 + b2 * b2), gap2 = 0.5 * dmin2 - a2;
      if (gap2 > 0 && gap2 > b2 * a2) {
        s = std::max(s, a2 * (1 - kCnst2 * a2 * (b2 / gap2) * b2));
      } else {
        s = std::max(s, a2 * (1 - kCnst2 * b2));
        ttype_ = -8;
      }
    } else {  // case 9
      s = dmin1 == dn1 ? 0.5 * dmin1 : 0.25 * dmin1;
      ttype_ = -9;
    }
  } else if (n0_entry == n0 + 2) {  // two deflated: dmin2, dn2 stand for dmin, dn
    if (dmin2 == dn2 && 2 * e(n0 - 1, p) < q(n0 - 1, p)) {  // cases 10 and 11
      ttype_ = -10;
      s = kThird * dmin2;
      if (e(n0 - 1, p) > q(n0 - 1, p)) return;
      double b1 = e(n0 - 1, p) / q(n0 - 1, p), b2 = b1;
      if (b2 != 0) {
        for (int64_t j = n0 - 2; j >= i0; --j) {
          if (e(j, p) > q(j, p)) return;
          b1 *= e(j, p) / q(j, p);
          b2 += b1;
          if (100 * b1 < b2) break;
        }
      }
      b2 = std::sqrt(kCnst3 * b2);
      const double a2 = dmin2 / (1 + b2 * b2);
      const double gap2 = q(n0 - 1, p) + e(n0 - 2, p) - std::sqrt(q(n0 - 2, p)) * std::sqrt(e(n0 - 2, p)) - a2;
      if (gap2 > 0 && gap2 > b2 * a2)
        s = std::max(s, a2 * (1 - kCnst2 * a2 * (b2 / gap2) * b2));
      else
        s = std::max(s, a2 * (1 - kCnst2 * b2));
    } else {
      s = 0.25 * dmin2;
      ttype_ = -11;
    }
  } else if (n0_entry > n0 + 2) {  // case 12: more than two deflated, no information
    s = 0;
    ttype_ = -12;
  }
  tau_ = s;
}

// dlasq3: deflates converged eigenvalues off the end of the segment, reverses the segment when
// its far end is the smaller, then runs a transform with the chosen shift, retrying with a
// smaller one (or none, guarded by dlasq6) until all d come out nonnegative; adds the shift to
// sigma, compensated (desig carries the low part).
void Dqds::step() {
  const int64_t n0_entry = n0_;
  for (;;) {
    if (n0_ < i0_) return;
    bool one = n0_ == i0_, two = n0_ == i0_ + 1;
    if (!one && !two) {
      // e_{n0-1} is negligible when it is against sigma + q_{n0}, or its value before the last
      // transform is against q_{n0-1}; e_{n0-2} likewise against sigma and q_{n0-2}. Offsets from
      // nn, the q of n0 in copy pp: z[nn - 2] is e_{n0-1}, z[nn - 2pp - 1] the other copy's. With
      // pp = 2 (the segment was just reversed) they read the slots one place over, as LAPACK's do.
      const int64_t nn = 4 * n0_ + pp_;
      one = !(z_[nn - 2] > kTol2 * (sigma_ + z_[nn]) && z_[nn - 2 * pp_ - 1] > kTol2 * z_[nn - 4]);
      two = !one && !(z_[nn - 6] > kTol2 * sigma_ && z_[nn - 2 * pp_ - 5] > kTol2 * z_[nn - 8]);
    }
    if (one) {  // e_{n0-1} negligible: q_{n0} + sigma is an eigenvalue
      z_[4 * n0_] = z_[4 * n0_ + pp_] + sigma_;
      --n0_;
      continue;
    }
    if (two) {  // e_{n0-2} negligible: the eigenvalues of the trailing 2×2
      const int64_t nn = 4 * n0_ + pp_;
      double a = z_[nn - 4], b = z_[nn - 2], c = z_[nn];
      if (c > a) std::swap(a, c);
      double t = 0.5 * ((a - c) + b);
      if (b > c * kTol2 && t != 0) {
        double s = c * (b / t);
        if (s <= t)
          s = c * (b / (t * (1 + std::sqrt(1 + s / t))));
        else
          s = c * (b / (t + std::sqrt(t) * std::sqrt(t + s)));
        t = a + (s + b);
        c *= a / t;
        a = t;
      }
      z_[4 * (n0_ - 1)] = a + sigma_;
      z_[4 * n0_] = c + sigma_;
      n0_ -= 2;
      continue;
    }
    break;
  }
  if (pp_ == 2) pp_ = 0;
  const int64_t i0 = i0_, n0 = n0_;
  const int p = pp_, o = 1 - pp_;

  // Reverse the segment when warranted (after a failure or a deflation), so that the smaller
  // end is last, where the shifts converge; the bookkeeping in e_{n0} follows.
  if ((dmin_ <= 0 || n0 < n0_entry) && kCbias * q(i0, p) < q(n0, p)) {
    reverse(i0, n0, true);
    if (n0 - i0 <= 4) {
      e(n0, p) = e(i0, p);
      e(n0, o) = e(i0, o);
    }
    dmin2_ = std::min(dmin2_, e(n0, p));
    e(n0, p) = std::min({e(n0, p), e(i0, p), e(i0 + 1, p)});
    e(n0, o) = std::min({e(n0, o), e(i0, o), e(i0 + 1, o)});
    qmax_ = std::max({qmax_, q(i0, p), q(i0 + 1, p)});
    dmin_ = -0.0;
  }

  choose_shift(n0_entry);
  bool guarded = false;
  for (;;) {
    transform();
    if (dmin_ >= 0 && dmin1_ >= 0) break;  // success
    if (dmin_ < 0 && dmin1_ > 0 && e(n0 - 1, o) < kTol * (sigma_ + dn1_) && std::abs(dn_) < kTol * sigma_) {
      // Convergence hidden by a negative d_n0: take it as zero.
      q(n0, o) = 0;
      dmin_ = 0;
      break;
    }
    if (dmin_ < 0) {  // tau too big
      if (ttype_ < -22) {  // failed twice: no shift
        tau_ = 0;
      } else if (dmin1_ > 0) {  // late failure: tau + dmin is an excellent shift
        tau_ = (tau_ + dmin_) * (1 - 2 * kEps);
        ttype_ -= 11;
      } else {  // early failure
        tau_ *= 0.25;
        ttype_ -= 12;
      }
      continue;
    }
    if (std::isnan(dmin_)) {  // a zero pivot: retry unshifted, then guarded
      if (tau_ != 0) {
        tau_ = 0;
        continue;
      }
    }
    guarded = true;  // a NaN without shift, or possible underflow
    break;
  }
  if (guarded) {
    transform_unshifted();
    tau_ = 0;
  }
  double t;
  if (tau_ < sigma_) {
    desig_ += tau_;
    t = sigma_ + desig_;
    desig_ -= t - sigma_;
  } else {
    t = sigma_ + tau_;
    desig_ = sigma_ - (t - tau_) + desig_;
  }
  sigma_ = t;
}

// dlasq2 from the rearranged qd array (copy 0 filled, copy 1 zero).
bool Dqds::run() {
  const int64_t n = n_;
  i0_ = 0;
  n0_ = n - 1;
  if (kCbias * q(0, 0) < q(n - 1, 0)) reverse(0, n - 1, false);  // the small end last

  // Twice (copy 0 into 1, then back): split where an e is negligible against the d of a dqd
  // pass from the bottom (Li's test), then a dqd transform that splits the same way.
  for (int p = 0; p < 2; ++p) {
    const int o = 1 - p;
    double d = q(n - 1, p);
    for (int64_t k = n - 2; k >= 0; --k) {
      if (e(k, p) <= kTol2 * d) {
        e(k, p) = -0.0;
        d = q(k, p);
      } else {
        d = q(k, p) * (d / (d + e(k, p)));
      }
    }
    d = q(0, p);
    for (int64_t k = 0; k < n - 1; ++k) {
      q(k, o) = d + e(k, p);
      if (e(k, p) <= kTol2 * d) {
        e(k, p) = -0.0;
        q(k, o) = d;
        e(k, o) = 0;
        d = q(k + 1, p);
      } else if (kSafeMin * q(k + 1, p) < q(k, o) && kSafeMin * q(k, o) < q(k + 1, p)) {
        const double t = q(k + 1, p) / q(k, o);
        e(k, o) = e(k, p) * t;
        d *= t;
      } else {
        e(k, o) = q(k + 1, p) * (e(k, p) / q(k, o));
        d = q(k + 1, p) * (d / q(k, o));
      }
    }
    q(n - 1, o) = d;
    qmax_ = q(0, o);
    for (int64_t k = 1; k < n; ++k) qmax_ = std::max(qmax_, q(k, o));
  }
  pp_ = 0;
  ttype_ = 0;
  dmin1_ = dmin2_ = dn_ = dn1_ = dn2_ = g_ = tau_ = 0;

  // One segment at a time from the bottom: [i0, n0] ends at the last unfinished index and
  // starts after the nearest e that is not positive (a split).
  for (int64_t outer = 0; outer <= n; ++outer) {
    if (n0_ < 0) return true;
    desig_ = 0;
    sigma_ = n0_ == n - 1 ? 0 : -e(n0_, 0);  // the shift the segment split off with
    if (sigma_ < 0) return false;
    // Find i0, and qmin and emax for a Gershgorin-type bound when the q dominate the e.
    double emax = 0, qmin = q(n0_, 0);
    qmax_ = qmin;
    int64_t k = n0_;
    for (; k >= 1; --k) {
      if (e(k - 1, 0) <= 0) break;
      if (qmin >= 4 * emax) {
        qmin = std::min(qmin, q(k, 0));
        emax = std::max(emax, e(k - 1, 0));
      }
      qmax_ = std::max(qmax_, q(k - 1, 0) + e(k - 1, 0));
    }
    i0_ = k;
    pp_ = 0;
    // Reverse the segment when a dqd pass from the top finds its minimum in the first third.
    if (n0_ - i0_ > 1) {
      double dee = q(i0_, 0), deemin = dee;
      int64_t kmin = i0_;
      for (int64_t j = i0_ + 1; j <= n0_; ++j) {
        dee = q(j, 0) * (dee / (dee + e(j - 1, 0)));
        if (dee <= deemin) {
          deemin = dee;
          kmin = j;
        }
      }
      if ((kmin - i0_) * 2 < n0_ - kmin && deemin <= 0.5 * q(n0_, 0)) {
        reverse(i0_, n0_, true);
        pp_ = 2;
      }
    }
    dmin_ = -std::max(0.0, qmin - 2 * std::sqrt(qmin) * std::sqrt(emax));  // -(initial shift)

    const int64_t limit = 100 * (n0_ - i0_ + 1);
    bool finished = false;
    for (int64_t it = 0; it < limit; ++it) {
      if (i0_ > n0_) {
        finished = true;
        break;
      }
      step();
      pp_ = 1 - pp_;
      // After a pair of transforms, when an emin is tiny, split the segment where e is
      // negligible (the shift accumulated so far goes into the split slot, negated).
      if (pp_ == 0 && n0_ - i0_ >= 3 && (e(n0_, 1) <= kTol2 * qmax_ || e(n0_, 0) <= kTol2 * sigma_)) {
        int64_t split = i0_ - 1;
        qmax_ = q(i0_, 0);
        double emin = e(i0_, 0), oldemin = e(i0_, 1);
        for (int64_t j = i0_; j <= n0_ - 3; ++j) {
          if (e(j, 1) <= kTol2 * q(j, 0) || e(j, 0) <= kTol2 * sigma_) {
            e(j, 0) = -sigma_;
            split = j;
            qmax_ = 0;
            emin = e(j + 1, 0);
            oldemin = e(j + 1, 1);
          } else {
            qmax_ = std::max(qmax_, q(j + 1, 0));
            emin = std::min(emin, e(j, 0));
            oldemin = std::min(oldemin, e(j, 1));
          }
        }
        e(n0_, 0) = emin;
        e(n0_, 1) = oldemin;
        i0_ = split + 1;
      }
    }
    if (!finished && i0_ <= n0_) return false;  // 100 transforms per index did not finish it
  }
  return n0_ < 0;  // more segments than indices
}

}  // namespace

bool bidiagonal_singular_values(int64_t n, const double* d, const double* e, double* s) {
  for (int64_t i = 0; i < n; ++i)
    if (!std::isfinite(d[i]) || (i + 1 < n && !std::isfinite(e[i]))) return false;
  if (n <= 0) return true;
  if (n == 1) {
    s[0] = std::abs(d[0]);
    return true;
  }
  if (n == 2) {
    singular_values_2x2(d[0], e[0], d[1], s[1], s[0]);
    return true;
  }
  double emax = 0, dmax = 0;
  for (int64_t i = 0; i < n - 1; ++i) emax = std::max(emax, std::abs(e[i]));
  for (int64_t i = 0; i < n; ++i) dmax = std::max(dmax, std::abs(d[i]));
  if (emax == 0) {  // diagonal already
    for (int64_t i = 0; i < n; ++i) s[i] = std::abs(d[i]);
    std::sort(s, s + n, std::greater<>());
    return true;
  }
  // Scale the largest entry to sqrt(eps / safmin) (2^485) before squaring: the squares neither
  // overflow nor, down to eps below the largest, underflow. (Not by a power of two: squaring
  // rounds anyway.)
  const double sigmx = std::max(emax, dmax), scale = std::sqrt(kEps / kSafeMin);
  const std::vector<double> down = scale_steps(sigmx, scale), up = scale_steps(scale, sigmx);
  std::vector<double> z(4 * n, 0.0);
  double esum = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double qi = apply_steps(std::abs(d[i]), down), ei = i + 1 < n ? apply_steps(std::abs(e[i]), down) : 0;
    z[4 * i] = qi * qi;
    z[4 * i + 2] = ei * ei;
    esum += z[4 * i + 2];
  }
  // All e underflowed when squared: diagonal. (LAPACK's further test, a zero trace, cannot
  // pass here: the largest entry squares to 2^970.)
  if (esum != 0 && !Dqds(z.data(), n).run()) return false;
  std::vector<double> w(n);
  for (int64_t i = 0; i < n; ++i) w[i] = z[4 * i];
  std::sort(w.begin(), w.end(), std::greater<>());
  for (int64_t i = 0; i < n; ++i) {
    s[i] = apply_steps(std::sqrt(w[i]), up);
    if (std::isnan(s[i])) return false;
  }
  return true;
}

}  // namespace strata::kernels
