// tracer/primitives/mul.cpp — `mul`: x * y, elementwise.
#include "elementwise.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) { return x * y; }
};

}  // namespace

const Primitive prim::kMul{
    .name = "mul",
    .traits = kElementwise | kCheap | kCommutative,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("mul", in, elementwise::Accepts::kNumeric, false);
    },
    .eager = elementwise::binary_kernel<Op>,
};

}  // namespace strata
