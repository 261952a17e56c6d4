// tracer/primitives/cos.cpp — `cos`: cosine, elementwise.
#include "elementwise.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X> static auto eval(const X& x) { return x.cos(); }
};

}  // namespace

const Primitive prim::kCos{
    .name = "cos",
    .traits = kElementwise | kCheap,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("cos", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::unary_kernel<Op>,
};

}  // namespace strata
