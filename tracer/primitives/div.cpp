// tracer/primitives/div.cpp — `div`: x / y, elementwise. Integer division truncates toward
// zero; as in XLA, x / 0 is -1 and INT_MIN / -1 is INT_MIN (no trap).
#include "elementwise.h"

namespace strata {
namespace {

struct IntDiv {
  template <class T> T operator()(T a, T b) const {
    if (b == 0) return T(-1);
    if (b == T(-1)) return static_cast<T>(0 - static_cast<std::make_unsigned_t<T>>(a));
    return a / b;
  }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) {
    using T = typename X::Scalar;
    if constexpr (std::is_integral_v<T>) return x.binaryExpr(y, IntDiv{});
    else return x / y;
  }
};

}  // namespace

const Primitive prim::kDiv{
    .name = "div",
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("div", in, elementwise::Accepts::kNumeric, false);
    },
    .eager = elementwise::binary_kernel<Op>,
};

}  // namespace strata
