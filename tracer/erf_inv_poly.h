// tracer/erf_inv_poly.h — the inverse error function as M. Giles, "Approximating the erfinv
// function" (GPU Computing Gems Jade Edition, 2011) gives it: a polynomial in
// w = -log((1 - x)(1 + x)) (or in sqrt(w) in the tails), times x. One table for both the eager
// kernel (tracer/primitives/erf_inv.cpp) and the compiled scalar body (dialect/ScalarOps.cpp),
// so that both evaluate the same polynomials in the same order (Horner, highest power first).
// Single precision: two pieces (w < 5, else); double precision: three (w < 6.25, w < 16, else).
#pragma once

#include <array>
#include <cmath>
#include <limits>

namespace strata::erf_inv_poly {

// f32: p(w - 2.5) for w < 5, p(sqrt(w) - 3) otherwise.
inline constexpr double kF32Split = 5.0, kF32Shift[2] = {2.5, 3.0};
inline constexpr std::array<double, 9> kF32Center = {
    2.81022636e-08,  3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
    -0.00125372503, -0.00417768164,  0.246640727,    1.50140941};
inline constexpr std::array<double, 9> kF32Tail = {
    -0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
    -0.0076224613,   0.00943887047,  1.00167406,    2.83297682};

// f64: p(w - 3.125) for w < 6.25, p(sqrt(w) - 3.25) for w < 16, p(sqrt(w) - 5) otherwise.
inline constexpr double kF64Split[2] = {6.25, 16.0}, kF64Shift[3] = {3.125, 3.25, 5.0};
inline constexpr std::array<double, 23> kF64Center = {
    -3.6444120640178196996e-21, -1.685059138182016589e-19,  1.2858480715256400167e-18,
    1.115787767802518096e-17,   -1.333171662854620906e-16,  2.0972767875968561637e-17,
    6.6376381343583238325e-15,  -4.0545662729752068639e-14, -8.1519341976054721522e-14,
    2.6335093153082322977e-12,  -1.2975133253453532498e-11, -5.4154120542946279317e-11,
    1.051212273321532285e-09,   -4.1126339803469836976e-09, -2.9070369957882005086e-08,
    4.2347877827932403518e-07,  -1.3654692000834678645e-06, -1.3882523362786468719e-05,
    0.0001867342080340571352,   -0.00074070253416626697512, -0.0060336708714301490533,
    0.24015818242558961693,     1.6536545626831027356};
inline constexpr std::array<double, 19> kF64Middle = {
    2.2137376921775787049e-09,  9.0756561938885390979e-08, -2.7517406297064545428e-07,
    1.8239629214389227755e-08,  1.5027403968909827627e-06, -4.013867526981545969e-06,
    2.9234449089955446044e-06,  1.2475304481671778723e-05, -4.7318229009055733981e-05,
    6.8284851459573175448e-05,  2.4031110387097893999e-05, -0.0003550375203628474796,
    0.00095328937973738049703,  -0.0016882755560235047313, 0.0024914420961078508066,
    -0.0037512085075692412107,  0.005370914553590063617,   1.0052589676941592334,
    3.0838856104922207635};
inline constexpr std::array<double, 17> kF64Tail = {
    -2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-09,
    -3.7894654401267369937e-09, 7.6157012080783393804e-09,  -1.4960026627149240478e-08,
    2.9147953450901080826e-08,  -6.7711997758452339498e-08, 2.2900482228026654717e-07,
    -9.9298272942317002539e-07, 4.5260625972231537039e-06,  -1.9681778105531670567e-05,
    7.5995277030017761139e-05,  -0.00021503011930044477347, -0.00013871931833623122026,
    1.0103004648645343977,      4.8499064014085844221};

template <class T, size_t N>
T horner(const std::array<double, N>& c, T w) {
  T p = static_cast<T>(c[0]);
  for (size_t i = 1; i < N; ++i) p = static_cast<T>(c[i]) + p * w;
  return p;
}

// erf_inv(x) in T (float or double): ±inf at ±1, nan outside [-1, 1] and for nan.
template <class T>
T eval(T x) {
  T w = -std::log((T(1) - x) * (T(1) + x));
  T p;
  if constexpr (sizeof(T) == 4) {
    if (w < T(kF32Split)) p = horner(kF32Center, w - T(kF32Shift[0]));
    else p = horner(kF32Tail, std::sqrt(w) - T(kF32Shift[1]));
  } else {
    if (w < T(kF64Split[0])) p = horner(kF64Center, w - T(kF64Shift[0]));
    else if (w < T(kF64Split[1])) p = horner(kF64Middle, std::sqrt(w) - T(kF64Shift[1]));
    else p = horner(kF64Tail, std::sqrt(w) - T(kF64Shift[2]));
  }
  if (std::abs(x) == T(1)) return x * std::numeric_limits<T>::infinity();
  return p * x;
}

}  // namespace strata::erf_inv_poly
