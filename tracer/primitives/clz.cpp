// tracer/primitives/clz.cpp — `clz`: the number of leading zero bits of each integer (the bit width for 0). Not differentiable.
#include <bit>

#include "elementwise.h"

namespace strata {
namespace {

struct Fn {
  template <class T> T operator()(T a) const { return static_cast<T>(std::countl_zero(static_cast<std::make_unsigned_t<T>>(a))); }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsInt<S>;
  template <class X> static auto eval(const X& x) { return x.unaryExpr(Fn{}); }
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
