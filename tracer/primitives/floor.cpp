// tracer/primitives/floor.cpp — `floor`: round toward -inf, elementwise.
#include "elementwise.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X> static auto eval(const X& x) { return x.floor(); }
};

}  // namespace

const Primitive prim::kFloor{
    .name = "floor",
    .arity = 1,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("floor", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .batch = elementwise::batch_rule<prim::kFloor>,
};

}  // namespace strata
