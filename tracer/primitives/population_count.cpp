// tracer/primitives/population_count.cpp — `population_count`: the number of set bits of each integer (as unsigned). Not differentiable.
#include <bit>

#include "elementwise.h"

namespace strata {
namespace {

struct Fn {
  template <class T> T operator()(T a) const { return static_cast<T>(std::popcount(static_cast<std::make_unsigned_t<T>>(a))); }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsInt<S>;
  template <class X> static auto eval(const X& x) { return x.unaryExpr(Fn{}); }
};

}  // namespace

const Primitive prim::kPopulationCount{
    .name = "population_count",
    .arity = 1,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("population_count", in, elementwise::Accepts::kInt, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .batch = elementwise::batch_rule<prim::kPopulationCount>,
};

}  // namespace strata
