// tracer/primitives/shift_right_arithmetic.cpp — `shift_right_arithmetic`: x >> y shifting in
// copies of the sign bit; a shift by the bit width or more, or negative, gives 0 or -1 by sign.
#include "elementwise.h"

namespace strata {
namespace {

// Bits: the storage type's width (a sub-byte integer computes in 8 bits).
template <int Bits> struct Fn {
  template <class T> T operator()(T a, T b) const {
    // On the bits as a signed integer, for unsigned types too (XLA's ShiftRightArithmetic): an
    // unsigned sub-byte value is first sign-extended from its bit Bits-1.
    using Signed = std::make_signed_t<T>;
    using U = std::make_unsigned_t<T>;
    constexpr int kSpare = 8 * static_cast<int>(sizeof(T)) - Bits;
    const T width = static_cast<T>(Bits);
    bool out_of_range = std::is_signed_v<T> ? (b < T(0) || b >= width) : b >= width;
    Signed v = static_cast<Signed>(a);
    if constexpr (kSpare > 0) v = static_cast<Signed>(static_cast<Signed>(static_cast<U>(static_cast<U>(a) << kSpare)) >> kSpare);
    return static_cast<T>(v >> (out_of_range ? width - 1 : b));
  }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsInt<S>;
  template <int Bits, class X, class Y> static auto eval(const X& x, const Y& y) { return x.binaryExpr(y, Fn<Bits>{}); }
};

}  // namespace

const Primitive prim::kShiftRightArithmetic{
    .name = "shift_right_arithmetic",
    .arity = 2,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("shift_right_arithmetic", in, elementwise::Accepts::kInt, false);
    },
    .eager = elementwise::binary_kernel<Op>,
    .batch = elementwise::batch_rule<prim::kShiftRightArithmetic>,
};

}  // namespace strata
