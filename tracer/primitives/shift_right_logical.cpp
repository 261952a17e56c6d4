// tracer/primitives/shift_right_logical.cpp — `shift_right_logical`: x >> y on the integer's
// bits as unsigned (zeros shifted in); a shift by the bit width or more gives 0.
#include "elementwise.h"

namespace strata {
namespace {

// Bits: the storage type's width; a sub-byte integer computes in 8 bits, sign-extended when
// signed, so its bits above Bits are cleared before the shift.
template <int Bits> struct Fn {
  template <class T> T operator()(T a, T b) const {
    using U = std::make_unsigned_t<T>;
    if ((std::is_signed_v<T> && b < T(0)) || b >= static_cast<T>(Bits)) return 0;
    U bits = static_cast<U>(a);
    if constexpr (Bits < 8 * static_cast<int>(sizeof(T))) bits = static_cast<U>(bits & ((U{1} << Bits) - 1));
    return static_cast<T>(bits >> b);
  }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsInt<S>;
  template <int Bits, class X, class Y> static auto eval(const X& x, const Y& y) { return x.binaryExpr(y, Fn<Bits>{}); }
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
