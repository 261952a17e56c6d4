// tracer/primitives/neg.cpp — `neg`: -x, elementwise.
#include "elementwise.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S>;
  template <class X> static auto eval(const X& x) { return -x; }
};

}  // namespace

const Primitive prim::kNeg{
    .name = "neg",
    .traits = kElementwise | kCheap,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("neg", in, elementwise::Accepts::kNumeric, false);
    },
    .eager = elementwise::unary_kernel<Op>,
};

}  // namespace strata
