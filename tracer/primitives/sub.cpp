// tracer/primitives/sub.cpp — `sub`: x - y, elementwise.
#include "elementwise.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) { return x - y; }
};

}  // namespace

const Primitive prim::kSub{
    .name = "sub",
    .traits = kElementwise | kCheap,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("sub", in, elementwise::Accepts::kNumeric, false);
    },
    .eager = elementwise::binary_kernel<Op>,
};

}  // namespace strata
