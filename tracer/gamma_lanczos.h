// tracer/gamma_lanczos.h — lgamma and digamma by the Lanczos approximation (g = 7, 9 terms),
// the algorithm of XLA and of CHLO's decompositions, which JAX's lax.lgamma/lax.digamma use.
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
  // lgamma(1) = lgamma(2) = 0 exactly (log 0! and log 1!, as in a Poisson log-pmf): the
  // approximation's roundings leave 2^-21 there in f32 (XLA: at 1, not at 2) and 2^-50 in f64.
  V exact = o.or_(o.eq(x, one), o.eq(x, o.c(2.0)));
  return o.select(o.isinf(x), o.c(INFINITY), o.select(exact, o.c(0.0), result));
}

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
