// tracer/primitives/population_count.cpp — `population_count`: the number of set bits of each integer (as unsigned). Not differentiable.
#include <bit>

#include "elementwise.h"

namespace strata {
namespace {

// Bits: the storage type's width (a sub-byte integer computes in 8 bits, sign-extended when
// signed: only its low Bits bits count).
template <int Bits> struct Fn {
  template <class T> T operator()(T a) const {
    using U = std::make_unsigned_t<T>;
    U bits = static_cast<U>(a);
    if constexpr (Bits < 8 * static_cast<int>(sizeof(T))) bits = static_cast<U>(bits & ((U{1} << Bits) - 1));
    return static_cast<T>(std::popcount(bits));
  }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsInt<S>;
  template <int Bits, class X> static auto eval(const X& x) { return x.unaryExpr(Fn<Bits>{}); }
};

}  // namespace

const Primitive prim::kPopulationCount{
    .name = "population_count",
    .arity = 1,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("population_count", in, elementwise::Accepts::kInt, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .batch = elementwise::batch_rule<prim::kPopulationCount>,
};

}  // namespace strata
