// tracer/primitives/not.cpp — `not`: logical not of bools, bitwise not of integers.
#include "elementwise.h"

namespace strata {
namespace {

struct Fn {
  template <class T> T operator()(T a) const {
    if constexpr (std::is_same_v<T, bool>) return !a;
    else return static_cast<T>(~a);
  }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsInt<S> || elementwise::kIsBool<S>;
  template <class X> static auto eval(const X& x) { return x.unaryExpr(Fn{}); }
};

}  // namespace

const Primitive prim::kNot{
    .name = "not",
    .arity = 1,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("not", in, elementwise::Accepts::kIntOrBool, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .batch = elementwise::batch_rule<prim::kNot>,
};

}  // namespace strata
