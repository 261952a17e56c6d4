// tracer/primitives/logistic.cpp — `logistic`: the logistic sigmoid 1 / (1 + e^-x), elementwise.
#include "elementwise.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X> static auto eval(const X& x) { return x.logistic(); }
};

}  // namespace

const Primitive prim::kLogistic{
    .name = "logistic",
    .traits = kElementwise | kCheap,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("logistic", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::unary_kernel<Op>,
};

}  // namespace strata
