// tracer/primitives/sin.cpp — `sin`: sine, elementwise.
#include "elementwise.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X> static auto eval(const X& x) { return x.sin(); }
};

}  // namespace

const Primitive prim::kSin{
    .name = "sin",
    .traits = kElementwise | kCheap,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("sin", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::unary_kernel<Op>,
};

}  // namespace strata
