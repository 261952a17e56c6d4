// tracer/primitives/rem.cpp — `rem`: the remainder of x / y with the sign of x (C's fmod and
// %); as in XLA, integer x % 0 is x and INT_MIN % -1 is 0.
#include <cmath>

#include "elementwise.h"

namespace strata {
namespace {

struct Rem {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      if (b == 0) return a;
      if (b == T(-1)) return 0;
      return a % b;
    } else {
      return std::fmod(a, b);
    }
  }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) { return x.binaryExpr(y, Rem{}); }
};

}  // namespace

const Primitive prim::kRem{
    .name = "rem",
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("rem", in, elementwise::Accepts::kNumeric, false);
    },
    .eager = elementwise::binary_kernel<Op>,
};

}  // namespace strata
