// tracer/scalar_policy.h — the arithmetic policy over which the longer special functions are
// written once (gamma_lanczos.h, incomplete_gamma.h, bessel_i.h, zeta.h): ScalarOps<T> runs
// them on C++ scalars of the compute type T (the eager kernels, tracer/primitives/*.cpp); its
// twin over MLIR values (dialect/ScalarOps.cpp, MlirOps) emits the same expression, op for op,
// as the compiled element. jit then agrees with eager to the rounding of each operation.
//
// A policy provides the value type V and predicate type B, and:
//   c(double)                        a constant of V's type;
//   add sub mul div neg              arithmetic;
//   log log1p exp sqrt sin cos floor abs pow rem (C's fmod) copysign
//   lt le gt ge eq ne                ordered comparisons (false on nan; ne is unordered);
//   isinf isnan and_ or_ not_ select
//   eps() largest() tiny()           the machine epsilon, largest finite and least normal value;
//   f64()                            whether V is double (algorithms with per-width constants);
//   loop(active, state, step)        while (active) { (active, state) = step(state); } over a
//                                    fixed-size std::array<V, N> (an scf.while when compiled:
//                                    each element runs its own number of iterations).
// Algorithms select rather than branch on values, so the straight-line parts vectorise.
#pragma once

#include <array>
#include <cmath>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

namespace strata {

template <class T> struct ScalarOps {
  using V = T;
  using B = bool;
  V c(double v) const { return static_cast<T>(v); }
  V add(V a, V b) const { return a + b; }
  V sub(V a, V b) const { return a - b; }
  V mul(V a, V b) const { return a * b; }
  V div(V a, V b) const { return a / b; }
  V neg(V a) const { return -a; }
  V log(V a) const { return std::log(a); }
  V log1p(V a) const { return std::log1p(a); }
  V exp(V a) const { return std::exp(a); }
  V sqrt(V a) const { return std::sqrt(a); }
  V sin(V a) const { return std::sin(a); }
  V cos(V a) const { return std::cos(a); }
  V floor(V a) const { return std::floor(a); }
  V abs(V a) const { return std::abs(a); }
  V pow(V a, V b) const { return std::pow(a, b); }
  V rem(V a, V b) const { return std::fmod(a, b); }
  V copysign(V a, V b) const { return std::copysign(a, b); }
  B lt(V a, V b) const { return a < b; }
  B le(V a, V b) const { return a <= b; }
  B gt(V a, V b) const { return a > b; }
  B ge(V a, V b) const { return a >= b; }
  B eq(V a, V b) const { return a == b; }
  B ne(V a, V b) const { return a != b; }
  B isinf(V a) const { return std::isinf(a); }
  B isnan(V a) const { return std::isnan(a); }
  B and_(B a, B b) const { return a && b; }
  B or_(B a, B b) const { return a || b; }
  B not_(B a) const { return !a; }
  V select(B p, V a, V b) const { return p ? a : b; }
  V eps() const { return std::numeric_limits<T>::epsilon(); }
  V largest() const { return std::numeric_limits<T>::max(); }
  V tiny() const { return std::numeric_limits<T>::min(); }
  bool f64() const { return std::is_same_v<T, double>; }
  template <size_t N, class Step> std::array<V, N> loop(B active, std::array<V, N> state, Step step) const {
    while (active) std::tie(active, state) = step(state);
    return state;
  }
};

}  // namespace strata
