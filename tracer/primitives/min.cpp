// tracer/primitives/min.cpp — `min`: the smaller of x and y, elementwise; nan if either is nan.
#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) { return x.binaryExpr(y, Eigen::internal::scalar_min_op<typename X::Scalar, typename X::Scalar, Eigen::PropagateNaN>()); }
};

}  // namespace

const Primitive prim::kMin{
    .name = "min",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("min", in, elementwise::Accepts::kRealNumeric, false);
    },
    .eager = elementwise::binary_kernel<Op>,
    .jvp = ad::binary_extremum_jvp,
    .vjp = ad::binary_extremum_vjp,
    .batch = elementwise::batch_rule<prim::kMin>,
};

}  // namespace strata
