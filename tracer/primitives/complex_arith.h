// tracer/primitives/complex_arith.h — complex multiply, divide and exp as the compiled code
// computes them, for the eager kernels that build on them (mul, div, exp, logistic,
// integer_pow).
//
// std::complex's operators are not that arithmetic: GCC's * and / recover C Annex G's
// infinities (__mulsc3, __divsc3) and cexp follows C99, so an eager kernel built on them gives
// 0 where the compiled program (and JAX) gives nan, e.g. logistic(-inf + inf·i). Non-finite
// parts are where the two paths would otherwise part, so they are spelled out here once.
#pragma once

#include <cmath>
#include <limits>

namespace strata::complex_arith {

// (ac - bd) + (ad + bc)i with each part one fused multiply-add and no recovery of Annex G's
// infinities: XLA's product, and the compiled one (lowering/ComplexToStandard.cpp), which
// fuses the same product of each part ((1e30 + 1e30i)² in c64 is -inf + inf·i, not nan + inf·i).
template <class C>
C mul(C x, C y) {
  const auto a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
  return C(std::fma(a, c, -(b * d)), std::fma(b, c, a * d));
}

// MLIR's complex-to-standard division: Smith's algorithm, then C Annex G's recovery of
// infinities and zeros when both parts came out nan. JAX's (XLA's case analysis) agrees: no
// overflow in |b|² (1 / (1e30 + 1e30i) in c64 is 5e-31 - 5e-31i, not 0) and finite / infinite
// = 0 (Eigen's a·conj(b)/|b|² gives nan).
template <class C>
C div(C a, C b) {
  using R = typename C::value_type;
  const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  const R inf = std::numeric_limits<R>::infinity();
  R re, im;
  if (std::fabs(br) < std::fabs(bi)) {
    const R r = br / bi, d = bi + r * br;
    re = (ar * r + ai) / d;
    im = (ai * r - ar) / d;
  } else {
    const R r = bi / br, d = br + r * bi;
    re = (ar + ai * r) / d;
    im = (ai - ar * r) / d;
  }
  if (!(std::isnan(re) && std::isnan(im))) return C(re, im);
  if (br == 0 && bi == 0 && (!std::isnan(ar) || !std::isnan(ai))) {  // x / 0
    const R s = std::copysign(inf, br);
    return C(s * ar, s * ai);
  }
  auto unit = [](R v) { return std::copysign(std::isinf(v) ? R(1) : R(0), v); };
  if ((std::isinf(ar) || std::isinf(ai)) && std::isfinite(br) && std::isfinite(bi)) {  // inf / finite
    const R x = unit(ar), y = unit(ai);
    return C(inf * (x * br + y * bi), inf * (y * br - x * bi));
  }
  if (std::isfinite(ar) && std::isfinite(ai) && (std::isinf(br) || std::isinf(bi))) {  // finite / inf
    const R x = unit(br), y = unit(bi);
    return C(R(0) * (ar * x + ai * y), R(0) * (ai * x - ar * y));
  }
  return C(re, im);
}

// XLA's e^a·(cos b + i·sin b), as the jit computes it, not C99's cexp: they differ where a part
// is infinite or nan (exp(-inf - inf·i) is nan + nan·i in JAX, 0 in C99) or e^a overflows. A
// real argument's imaginary part stays as it is (exp(inf + 0i) = inf + 0i).
template <class C>
C exp(C v) {
  using R = typename C::value_type;
  const R e = std::exp(v.real());
  return C(e * std::cos(v.imag()), v.imag() == R(0) ? v.imag() : e * std::sin(v.imag()));
}

}  // namespace strata::complex_arith
