// tracer/gamma_lanczos.h — lgamma and digamma by the Lanczos approximation (g = 7, 9 terms),
// the algorithm of XLA and of CHLO's decompositions, which JAX's lax.lgamma/lax.digamma use;
// lgamma by its Taylor series about 2 between 1/2 and 7/2, where it crosses 0 (at 1 and 2) and
// the Lanczos sum's absolute error (2^-21 in f32, 2^-50 in f64) was up to 10^5 ulps of the
// result (and is in JAX).
//
// Written once over an arithmetic policy `O` so that the eager kernel (O = scalar C++ in the
// compute type, tracer/primitives/lgamma.cpp) and the compiled code (O = MLIR ops,
// dialect/ScalarOps.cpp) evaluate the same expression: jit agrees with eager to the rounding
// of each operation, and both agree with JAX. No branches: both sides of the reflection are
// computed and one is selected, so compiled loops vectorise.
//
// The policy (tracer/scalar_policy.h) provides V, B and the arithmetic.
#pragma once

#include <array>
#include <cmath>

#include "scalar_policy.h"

namespace strata::gamma_lanczos {

inline constexpr double kGamma = 7;
inline constexpr double kBase = 0.99999999999980993227684700473478;
inline constexpr std::array<double, 8> kCoefficients = {
    676.520368121885098567009190444019, -1259.13921672240287047156078755283,
    771.3234287776530788486528258894,   -176.61502916214059906584551354,
    12.507343278686904814458936853,     -0.13857109526572011689554707,
    9.984369578019570859563e-6,         1.50563273514931155834e-7};

// lgamma(2 + e) = (1 - γ)·e + Σ_{k≥2} (-1)^k (ζ(k) - 1)/k · e^k: these coefficients, k = 2 ...
// 29 (radius 2; for |e| ≤ 1/2 the terms shrink as 4^-k/k: all 28 for f64, the first 12 for f32).
inline constexpr double kOneMinusEuler = 0.4227843350984671393934879;
inline constexpr std::array<double, 28> kSeriesAbout2 = {
    0.3224670334241132182362,     -0.06735230105319809513325,  0.020580808427784547879,
    -0.007385551028673985266273,  0.002890510330741523285753,  -0.001192753911703260977114,
    0.0005096695247430424223357,  -0.0002231547584535793797614, 0.0000994575127818085337146,
    -0.00004492623673813314170021, 0.00002050721277567069155317, -0.000009439488275268395903987,
    0.000004374866789907487804182, -0.000002039215753801366236782, 9.551412130407419832857e-7,
    -4.492469198764566043294e-7,  2.120718480555466586923e-7,  -1.004322482396809960872e-7,
    4.76981016936398056576e-8,    -2.271109460894316491032e-8, 1.083865921489695409107e-8,
    -5.183475041970046655121e-9,  2.483674543802478317185e-9,  -1.192140140586091207443e-9,
    5.73136724167886201333e-10,   -2.759522885124233145178e-10, 1.33047643742444894815e-10,
    -6.422964563838100022082e-11};

// lgamma(w) for w = 1 + z in [1/2, 7/2) (z in [-1/2, 5/2)): the series about 2 at e = z - m,
// m = 0, 1, 2 the nearest (exact: Sterbenz), with lgamma(w) = lgamma(w + 1) - log w below 3/2
// and lgamma(w - 1) + log(w - 1) above 5/2.
template <class O> typename O::V lgamma_series(O& o, typename O::V z) {
  using V = typename O::V;
  auto low = o.lt(z, o.c(0.5)), high = o.ge(z, o.c(1.5));
  V e = o.select(low, z, o.select(high, o.sub(z, o.c(2.0)), o.sub(z, o.c(1.0))));
  const size_t terms = o.f64() ? kSeriesAbout2.size() : 12;
  V p = o.c(kSeriesAbout2[terms - 1]);
  for (size_t k = terms - 1; k-- > 0;) p = o.add(o.c(kSeriesAbout2[k]), o.mul(e, p));
  V series = o.mul(e, o.add(o.c(kOneMinusEuler), o.mul(e, p)));
  // One logarithm: log1p(z) below, log z = log1p(z - 1) above (z - 1 exact).
  V log = o.log1p(o.select(low, z, o.sub(z, o.c(1.0))));
  return o.add(series, o.select(low, o.neg(log), o.select(high, log, o.c(0.0))));
}

// log|Γ(x)|: +inf at the poles (0, -1, -2, ...) and at ±inf, nan for nan.
template <class O> typename O::V lgamma(O& o, typename O::V x) {
  using V = typename O::V;
  V one_half = o.c(0.5), one = o.c(1.0);
  // Below 1/2, Euler's reflection: lgamma(x) = log(pi) - log|sin(pi x)| - lgamma(1 - x).
  auto reflect = o.lt(x, one_half);
  V z = o.select(reflect, o.sub(o.c(0.0), x), o.sub(x, one));
  V sum = o.c(kBase);
  for (size_t i = 0; i < kCoefficients.size(); ++i)
    sum = o.add(sum, o.div(o.c(kCoefficients[i]), o.add(z, o.c(static_cast<double>(i) + 1.0))));
  // log(t) = log(g + 1/2) + log1p(z / (g + 1/2)), t = g + 1/2 + z; and
  // (z + 1/2) log t - t written as (z + 1/2 - t / log t) log t, which cannot overflow.
  V t = o.add(o.c(kGamma + 0.5), z);
  V log_t = o.add(o.c(std::log(kGamma + 0.5)), o.log1p(o.div(z, o.c(kGamma + 0.5))));
  V log_y = o.add(o.add(o.c(0.5 * std::log(2.0 * M_PI)), o.mul(o.sub(o.add(z, one_half), o.div(t, log_t)), log_t)),
                  o.log(sum));
  // lgamma(1 + z) by the series where 1 + z is in [1/2, 7/2): exactly 0 at 1 and 2 (log 0!
  // and log 1!, as a Poisson log-pmf wants them; the Lanczos sum left 2^-21 there in f32).
  log_y = o.select(o.and_(o.ge(z, o.c(-0.5)), o.lt(z, o.c(2.5))), lgamma_series(o, z), log_y);
  // |sin(pi x)| = sin(pi f), f = |x| - floor|x| folded into [0, 1/2]: exact 0 at integers and no
  // loss of precision near them.
  V ax = o.abs(x);
  V frac = o.sub(ax, o.floor(ax));
  V reduced = o.select(o.gt(frac, one_half), o.sub(one, frac), frac);
  V log_sin = o.log(o.sin(o.mul(o.c(M_PI), reduced)));
  // At a pole log_sin is -inf and the result +inf (never inf - inf).
  V reflection = o.select(o.isinf(log_sin), o.sub(o.c(0.0), log_sin),
                          o.sub(o.sub(o.c(std::log(M_PI)), log_sin), log_y));
  V result = o.select(reflect, reflection, log_y);
  return o.select(o.isinf(x), o.c(INFINITY), result);
}

// ψ's positive root x0 (hi + lo, for f64 and for f32) and its Taylor coefficients there,
// ψ^(n)(x0)/n!, n = 1 ... 23 (radius x0: within 1/4 of it the terms shrink as 0.17^n: all 23
// for f64, the first 11 for f32).
inline constexpr double kDigammaRootHi64 = 1.4616321449683622, kDigammaRootLo64 = 9.549995429965697e-17;
inline constexpr double kDigammaRootHi32 = 1.4616321325302124, kDigammaRootLo32 = 1.2438149938918909e-08;
inline constexpr std::array<double, 23> kDigammaAtRoot = {
    0.9676722454476211704274,   -0.4427631689835921060929,  0.2584997609556510106244,
    -0.1639427054424065275043,  0.1078240506912623657572,   -0.07219956125645471092612,
    0.04880428816414310722509,  -0.03316112647484735929226, 0.02259764823221810465962,
    -0.0154247659049489591388,  0.01053879161661217538812,  -0.00720453438635686824097,
    0.004926781395729853446354, -0.003369801655439328082793, 0.002305126326734927836938,
    -0.001576936771430197259271, 0.001078825201916296580692, -0.000738070938996005129566,
    0.0005049532658346020351774, -0.0003454680251063076995556, 0.0002363560156402705279237,
    -0.0001617062209197480344936, 0.0001106337276874741090409};

// ψ(x) = Γ'(x)/Γ(x): nan at the poles (0, -1, -2, ...).
template <class O> typename O::V digamma(O& o, typename O::V x) {
  using V = typename O::V;
  V zero = o.c(0.0), one_half = o.c(0.5), one = o.c(1.0);
  // Below 1/2: ψ(x) = ψ(1 - x) - pi cot(pi x).
  auto reflect = o.lt(x, one_half);
  V z = o.select(reflect, o.sub(zero, x), o.sub(x, one));
  V num = zero, denom = o.c(kBase);
  for (size_t i = 0; i < kCoefficients.size(); ++i) {
    V zi = o.add(z, o.c(static_cast<double>(i) + 1.0));
    num = o.sub(num, o.div(o.c(kCoefficients[i]), o.mul(zi, zi)));
    denom = o.add(denom, o.div(o.c(kCoefficients[i]), zi));
  }
  V t = o.add(o.c(kGamma + 0.5), z);
  V log_t = o.add(o.c(std::log(kGamma + 0.5)), o.log1p(o.div(z, o.c(kGamma + 0.5))));
  V y = o.sub(o.add(log_t, o.div(num, denom)), o.div(o.c(kGamma), t));
  // cot(pi x) of x shifted into [-1/2, 1/2] (by a whole number: same cotangent, better
  // precision).
  V reduced = o.add(x, o.abs(o.floor(o.add(x, one_half))));
  V angle = o.mul(o.c(M_PI), reduced);
  V reflection = o.sub(y, o.div(o.mul(o.c(M_PI), o.cos(angle)), o.sin(angle)));
  V result = o.select(reflect, reflection, y);
  // Within 1/4 of the positive root, the series in d = (x - hi) - lo (the first difference
  // exact): the Lanczos form's absolute error (~1e-7 in f32) was up to 3e3 ulps of ψ there, as
  // in JAX.
  const bool wide = o.f64();
  V hi = o.c(wide ? kDigammaRootHi64 : kDigammaRootHi32), lo = o.c(wide ? kDigammaRootLo64 : kDigammaRootLo32);
  V near_d = o.sub(x, hi), d = o.sub(near_d, lo);
  const size_t terms = wide ? kDigammaAtRoot.size() : 11;
  V p = o.c(kDigammaAtRoot[terms - 1]);
  for (size_t k = terms - 1; k-- > 0;) p = o.add(o.c(kDigammaAtRoot[k]), o.mul(d, p));
  result = o.select(o.lt(o.abs(near_d), o.c(0.25)), o.mul(d, p), result);
  return o.select(o.and_(o.le(x, zero), o.eq(x, o.floor(x))), o.c(NAN), result);
}

template <class T> T lgamma(T x) {
  ScalarOps<T> o;
  return lgamma(o, x);
}
template <class T> T digamma(T x) {
  ScalarOps<T> o;
  return digamma(o, x);
}

}  // namespace strata::gamma_lanczos
