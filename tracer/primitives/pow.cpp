// tracer/primitives/pow.cpp — `pow`: x^y, elementwise. Floats follow C's pow; integers use
// exact repeated squaring, with x^(negative) = 0 unless |x| = 1.
#include <cmath>

#include "elementwise.h"

namespace strata {
namespace {

struct Pow {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      if (b < 0) return a == 1 ? 1 : (a == -1 ? ((b & 1) ? -1 : 1) : 0);
      using U = std::make_unsigned_t<T>;
      U result = 1, base = static_cast<U>(a);
      for (T e = b; e > 0; e >>= 1) {
        if (e & 1) result *= base;
        base *= base;
      }
      return static_cast<T>(result);
    } else {
      return std::pow(a, b);
    }
  }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) { return x.binaryExpr(y, Pow{}); }
};

}  // namespace

const Primitive prim::kPow{
    .name = "pow",
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("pow", in, elementwise::Accepts::kNumeric, false);
    },
    .eager = elementwise::binary_kernel<Op>,
};

}  // namespace strata
