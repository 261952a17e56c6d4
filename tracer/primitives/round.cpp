// tracer/primitives/round.cpp — `round[rounding_method]`: x rounded to an integer value,
// elementwise, as jax.lax.round: rounding_method 0 rounds halfway cases away from zero, 1 to the
// nearest even integer. ±0, ±inf and nan pass through. Piecewise constant: not differentiable
// (its derivative is zero, as JAX's).
#include <cmath>

#include "elementwise.h"

namespace strata {
namespace {

struct AwayFromZero {
  template <class T> T operator()(T a) const { return std::round(a); }
};
struct ToNearestEven {
  template <class T> T operator()(T a) const {
    if constexpr (std::is_same_v<T, float>) return ::roundevenf(a);
    else return ::roundeven(a);
  }
};

template <class Fn>
struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X> static auto eval(const X& x) { return x.unaryExpr(Fn{}); }
};

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  int64_t m = p.get_int("rounding_method");
  if (m != 0 && m != 1)
    throw ValueError("round: rounding_method must be 0 (away from zero) or 1 (to nearest even), but got " +
                     std::to_string(m));
  return elementwise::rule("round", in, elementwise::Accepts::kFloat, false);
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  if (p.get_int("rounding_method") == 1) elementwise::unary_kernel<Op<ToNearestEven>>(in, out, p);
  else elementwise::unary_kernel<Op<AwayFromZero>>(in, out, p);
}

}  // namespace

const Primitive prim::kRound{
    .name = "round",
    .arity = 1,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = rule,
    .eager = kernel,
    .batch = elementwise::batch_rule<prim::kRound>,
};

}  // namespace strata
