// tracer/primitives/or.cpp — `or`: logical or of bools, bitwise or of integers.
#include "elementwise.h"

namespace strata {
namespace {

struct Fn {
  template <class T> T operator()(T a, T b) const { return static_cast<T>(a | b); }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsInt<S> || elementwise::kIsBool<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) { return x.binaryExpr(y, Fn{}); }
};

}  // namespace

const Primitive prim::kOr{
    .name = "or",
    .arity = 2,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("or", in, elementwise::Accepts::kIntOrBool, false);
    },
    .eager = elementwise::binary_kernel<Op>,
    .batch = elementwise::batch_rule<prim::kOr>,
};

}  // namespace strata
