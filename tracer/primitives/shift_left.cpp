// tracer/primitives/shift_left.cpp — `shift_left`: x << y on the integer's bits (zeros
// shifted in, as unsigned: no overflow); a shift by the bit width or more, or negative, gives 0.
#include "elementwise.h"

namespace strata {
namespace {

// Bits: the storage type's width (a sub-byte integer computes in 8 bits; its store keeps the
// low Bits bits).
template <int Bits> struct Fn {
  template <class T> T operator()(T a, T b) const {
    using U = std::make_unsigned_t<T>;
    if ((std::is_signed_v<T> && b < T(0)) || b >= static_cast<T>(Bits)) return 0;
    return static_cast<T>(static_cast<U>(a) << b);
  }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsInt<S>;
  template <int Bits, class X, class Y> static auto eval(const X& x, const Y& y) { return x.binaryExpr(y, Fn<Bits>{}); }
};

}  // namespace

const Primitive prim::kShiftLeft{
    .name = "shift_left",
    .arity = 2,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("shift_left", in, elementwise::Accepts::kInt, false);
    },
    .eager = elementwise::binary_kernel<Op>,
    .batch = elementwise::batch_rule<prim::kShiftLeft>,
};

}  // namespace strata
