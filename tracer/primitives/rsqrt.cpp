// tracer/primitives/rsqrt.cpp — `rsqrt`: 1 / sqrt(x), elementwise.
#include "elementwise.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X> static auto eval(const X& x) { return x.rsqrt(); }
};

}  // namespace

const Primitive prim::kRsqrt{
    .name = "rsqrt",
    .traits = kElementwise | kCheap,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("rsqrt", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::unary_kernel<Op>,
};

}  // namespace strata
