// tracer/primitives/is_finite.cpp — `is_finite`: true where x is neither ±inf nor nan,
// elementwise, as bool (floats only, as jax.lax.is_finite). Not differentiable.
#include "elementwise.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X> static auto eval(const X& x) { return x.isFinite(); }
};

}  // namespace

const Primitive prim::kIsFinite{
    .name = "is_finite",
    .arity = 1,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("is_finite", in, elementwise::Accepts::kFloat, true);
    },
    .eager = elementwise::unary_kernel<Op, true>,
    .batch = elementwise::batch_rule<prim::kIsFinite>,
};

}  // namespace strata
