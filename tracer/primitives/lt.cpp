// tracer/primitives/lt.cpp — `lt`: x < y, elementwise, as bool (false when either is nan).
#include "elementwise.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = !elementwise::kIsComplex<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) { return (x < y); }
};

}  // namespace

const Primitive prim::kLt{
    .name = "lt",
    .arity = 2,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("lt", in, elementwise::Accepts::kOrdered, true);
    },
    .eager = elementwise::binary_kernel<Op, true>,
    .batch = elementwise::batch_rule<prim::kLt>,
};

}  // namespace strata
