// tracer/primitives/pow.cpp — `pow`: x^y, elementwise. Floats follow C's pow; integers use
// exact repeated squaring, with x^(negative) = 0 unless |x| = 1; complex numbers as XLA and the
// compiled code (complex_pow).
#include <cmath>
#include <complex>
#include <limits>

#include "ad_rules.h"
#include "../kernels/wrapping.h"
#include "elementwise.h"

namespace strata {
namespace {

// a^b of complex numbers as XLA computes it (and MLIR's complex.pow lowering, so eager agrees
// with compiled code on every input, non-finite ones included): with r = |a|, t = arg a,
// b = c + id: r^c e^(-d t) (cos, sin)(c t + d log r); and 1 for b = 0 or a = 1, 0^c = 0 for
// c > 0, (+inf)^c = inf (c > 0) or 0 (c < 0) for real c. std::pow differs at a zero or
// non-finite base (0^0 is nan there).
template <class R>
std::complex<R> complex_pow(std::complex<R> a, std::complex<R> b) {
  using C = std::complex<R>;
  const R ar = a.real(), ai = a.imag(), c = b.real(), d = b.imag();
  const R inf = std::numeric_limits<R>::infinity();
  if ((c == 0 && d == 0) || (ar == 1 && ai == 0)) return C(1, 0);
  if (ar == inf && ai == 0 && d == 0 && c != 0) return c > 0 ? C(inf, 0) : C(0, 0);
  const R r = std::hypot(ar, ai);
  if (r == 0 && d == 0 && c > 0) return C(0, 0);
  const R t = std::atan2(ai, ar);
  const R q = std::pow(r, c) * std::exp(-d * t);
  const R angle = c * t + d * std::log(r);
  return C(q * std::cos(angle), q * std::sin(angle));
}

struct Pow {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      if constexpr (std::is_signed_v<T>)
        if (b < 0) return a == 1 ? 1 : (a == -1 ? ((b & 1) ? -1 : 1) : 0);
      using U = kernels::wrap_unsigned_t<T>;
      U result = 1, base = static_cast<U>(a);
      for (T e = b; e > 0; e >>= 1) {
        if (e & 1) result *= base;
        base *= base;
      }
      return static_cast<T>(result);
    } else if constexpr (elementwise::kIsComplex<T>) {
      return complex_pow(a, b);
    } else {
      return std::pow(a, b);
    }
  }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S> || elementwise::kIsComplex<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) { return x.binaryExpr(y, Pow{}); }
};

// d/dx0 = x1 * x0^(x1-1) (0 where x1 = 0), d/dx1 = y * log(x0) (log 1 where x0 = 0), as JAX.
Array d0(const Array& x0, const Array& x1, const Array&) {
  Array zero = ad::scalar_like(0, x0), one = ad::scalar_like(1, x0);
  return lax::select(lax::eq(x1, zero), zero, lax::mul(x1, lax::pow(x0, lax::sub(x1, one))));
}
Array d1(const Array& x0, const Array&, const Array& y) {
  return lax::mul(y, lax::log(lax::select(lax::eq(x0, ad::scalar_like(0, x0)), ad::scalar_like(1, x0), x0)));
}

}  // namespace

const Primitive prim::kPow{
    .name = "pow",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("pow", in, elementwise::Accepts::kNumeric, false);
    },
    .eager = elementwise::binary_kernel<Op>,
    .jvp = ad::binary_jvp_rule<d0, d1>,
    .vjp = ad::binary_vjp_rule<d0, d1>,
    .batch = elementwise::batch_rule<prim::kPow>,
};

}  // namespace strata
