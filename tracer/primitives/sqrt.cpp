// tracer/primitives/sqrt.cpp — `sqrt`: square root, elementwise (nan below 0, -0 for -0).
#include "elementwise.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X> static auto eval(const X& x) { return x.sqrt(); }
};

}  // namespace

const Primitive prim::kSqrt{
    .name = "sqrt",
    .traits = kElementwise | kCheap,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("sqrt", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::unary_kernel<Op>,
};

}  // namespace strata
