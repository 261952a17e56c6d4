// tracer/primitives/clz.cpp — `clz`: the number of leading zero bits of each integer (the bit width for 0). Not differentiable.
#include <bit>

#include "elementwise.h"

namespace strata {
namespace {

// Bits: the storage type's width (a sub-byte integer computes in 8 bits: its leading zeros
// are those of its low Bits bits).
template <int Bits> struct Fn {
  template <class T> T operator()(T a) const {
    using U = std::make_unsigned_t<T>;
    constexpr int kSpare = 8 * static_cast<int>(sizeof(T)) - Bits;
    U bits = static_cast<U>(a);
    if constexpr (kSpare > 0) bits = static_cast<U>(static_cast<U>(bits << kSpare) | ((U{1} << kSpare) - 1));
    return static_cast<T>(std::countl_zero(bits));
  }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsInt<S>;
  template <int Bits, class X> static auto eval(const X& x) { return x.unaryExpr(Fn<Bits>{}); }
};

}  // namespace

const Primitive prim::kClz{
    .name = "clz",
    .arity = 1,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("clz", in, elementwise::Accepts::kInt, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .batch = elementwise::batch_rule<prim::kClz>,
};

}  // namespace strata
