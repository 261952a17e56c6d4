// tracer/primitives/tanh.cpp — `tanh`: hyperbolic tangent, elementwise.
#include "elementwise.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X> static auto eval(const X& x) { return x.tanh(); }
};

}  // namespace

const Primitive prim::kTanh{
    .name = "tanh",
    .traits = kElementwise | kCheap,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("tanh", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::unary_kernel<Op>,
};

}  // namespace strata
