// tracer/primitives/pow.cpp — `pow`: x^y, elementwise. Floats follow C's pow; integers use
// exact repeated squaring, with x^(negative) = 0 unless |x| = 1; complex numbers std::pow, but
// a zero base as XLA: 0^0 = 1, 0^b = 0 for real b > 0, nan otherwise.
#include <cmath>
#include <limits>

#include "ad_rules.h"
#include "../kernels/wrapping.h"
#include "elementwise.h"

namespace strata {
namespace {

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
      // A zero base as XLA (and so JAX, and the compiled code) has it: std::pow's exp(b log 0)
      // gives nan for 0^0 and ±inf or 0 elsewhere.
      if (a == T(0)) {
        using R = typename T::value_type;
        if (b == T(0)) return T(1);
        if (b.imag() == 0 && b.real() > 0) return T(0);
        return T(std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::quiet_NaN());
      }
      return std::pow(a, b);
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
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y, const Params&) {
  return ad::binary_jvp(x, t, y, d0, d1);
}
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct, const Params&) {
  return ad::binary_vjp(x, y, ct, d0, d1);
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
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kPow>,
};

}  // namespace strata
