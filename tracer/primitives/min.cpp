// tracer/primitives/min.cpp — `min`: the smaller of x and y, elementwise; nan if either is nan.
#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) { return x.binaryExpr(y, Eigen::internal::scalar_min_op<typename X::Scalar, typename X::Scalar, Eigen::PropagateNaN>()); }
};

// The derivative flows to the smaller operand; on ties it is split evenly (as JAX does).
Array d0(const Array& x0, const Array& x1, const Array&) {
  return where(less(x0, x1), ad::scalar_like(1, x0), where(equal(x0, x1), ad::scalar_like(0.5, x0), ad::scalar_like(0, x0)));
}
Array d1(const Array& x0, const Array& x1, const Array& y) { return subtract(ad::scalar_like(1, x0), d0(x0, x1, y)); }
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y, const Params&) {
  return ad::binary_jvp(x, t, y, d0, d1);
}
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct, const Params&) {
  return ad::binary_vjp(x, y, ct, d0, d1);
}

}  // namespace

const Primitive prim::kMin{
    .name = "min",
    .traits = kElementwise | kCheap | kCommutative,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("min", in, elementwise::Accepts::kNumeric, false);
    },
    .eager = elementwise::binary_kernel<Op>,
    .jvp = jvp,
    .vjp = vjp,
};

}  // namespace strata
