// tracer/primitives/shift_right_logical.cpp — `shift_right_logical`: x >> y on the integer's
// bits as unsigned (zeros shifted in); a shift by the bit width or more gives 0.
#include "elementwise.h"

namespace strata {
namespace {

struct Fn {
  template <class T> T operator()(T a, T b) const {
    using U = std::make_unsigned_t<T>;
    if ((std::is_signed_v<T> && b < T(0)) || b >= static_cast<T>(sizeof(T) * 8)) return 0;
    return static_cast<T>(static_cast<U>(a) >> b);
  }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsInt<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) { return x.binaryExpr(y, Fn{}); }
};

}  // namespace

const Primitive prim::kShiftRightLogical{
    .name = "shift_right_logical",
    .arity = 2,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("shift_right_logical", in, elementwise::Accepts::kInt, false);
    },
    .eager = elementwise::binary_kernel<Op>,
    .batch = elementwise::batch_rule<prim::kShiftRightLogical>,
};

}  // namespace strata
