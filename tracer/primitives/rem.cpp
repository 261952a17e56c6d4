// tracer/primitives/rem.cpp — `rem`: the remainder of x / y with the sign of x (C's fmod and
// %); as in XLA, integer x % 0 is x and INT_MIN % -1 is 0.
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

struct Rem {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      if (b == 0) return a;
      if constexpr (std::is_signed_v<T>)
        if (b == T(-1)) return 0;
      return static_cast<T>(a % b);
    } else {
      return std::fmod(a, b);
    }
  }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) { return x.binaryExpr(y, Rem{}); }
};

// rem(x0, x1) = x0 - x1 * trunc(x0 / x1): d/dx0 = 1, d/dx1 = -trunc(x0 / x1) (as JAX).
Array d0(const Array& x0, const Array&, const Array&) { return ad::scalar_like(1, x0); }
Array d1(const Array& x0, const Array& x1, const Array&) {
  Array q = lax::div(x0, x1);
  return lax::neg(lax::mul(lax::sign(q), lax::floor(lax::abs(q))));
}

}  // namespace

const Primitive prim::kRem{
    .name = "rem",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("rem", in, elementwise::Accepts::kRealNumeric, false);
    },
    .eager = elementwise::binary_kernel<Op>,
    .jvp = ad::binary_jvp_rule<d0, d1>,
    .vjp = ad::binary_vjp_rule<d0, d1>,
    .batch = elementwise::batch_rule<prim::kRem>,
};

}  // namespace strata
