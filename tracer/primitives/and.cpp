// tracer/primitives/and.cpp — `and`: logical and of bools, bitwise and of integers.
#include "elementwise.h"

namespace strata {
namespace {

struct Fn {
  template <class T> T operator()(T a, T b) const { return static_cast<T>(a & b); }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsInt<S> || elementwise::kIsBool<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) { return x.binaryExpr(y, Fn{}); }
};

}  // namespace

const Primitive prim::kAnd{
    .name = "and",
    .arity = 2,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("and", in, elementwise::Accepts::kIntOrBool, false);
    },
    .eager = elementwise::binary_kernel<Op>,
    .batch = elementwise::batch_rule<prim::kAnd>,
};

}  // namespace strata
