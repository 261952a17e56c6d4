// tracer/primitives/ne.cpp — `ne`: x != y, elementwise, as bool (false when either is nan, except ne).
#include "elementwise.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = true;
  template <class X, class Y> static auto eval(const X& x, const Y& y) { return (x != y); }
};

}  // namespace

const Primitive prim::kNe{
    .name = "ne",
    .arity = 2,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("ne", in, elementwise::Accepts::kAny, true);
    },
    .eager = elementwise::binary_kernel<Op, true>,
    .batch = elementwise::batch_rule<prim::kNe>,
};

}  // namespace strata
