// tracer/primitives/xor.cpp — `xor`: logical exclusive or of bools, bitwise of integers.
#include "elementwise.h"

namespace strata {
namespace {

struct Fn {
  template <class T> T operator()(T a, T b) const { return static_cast<T>(a ^ b); }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsInt<S> || elementwise::kIsBool<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) { return x.binaryExpr(y, Fn{}); }
};

}  // namespace

const Primitive prim::kXor{
    .name = "xor",
    .arity = 2,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("xor", in, elementwise::Accepts::kIntOrBool, false);
    },
    .eager = elementwise::binary_kernel<Op>,
    .batch = elementwise::batch_rule<prim::kXor>,
};

}  // namespace strata
