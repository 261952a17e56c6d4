// tracer/primitives/atan2.cpp — `atan2`: the angle of the point (x1, x0) = (x, y) in (-pi, pi],
// elementwise, as C's atan2 (jax.lax.atan2(y, x): the first operand is y).
#include <cmath>

#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

struct Atan2 {
  template <class T> T operator()(T y, T x) const { return std::atan2(y, x); }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S>;
  template <class X, class Y> static auto eval(const X& y, const Y& x) { return y.binaryExpr(x, Atan2{}); }
};

// d/dy = x / (x² + y²), d/dx = -y / (x² + y²) (as JAX).
Array norm2(const Array& y, const Array& x) { return lax::add(lax::mul(x, x), lax::mul(y, y)); }
Array d0(const Array& y, const Array& x, const Array&) { return lax::div(x, norm2(y, x)); }
Array d1(const Array& y, const Array& x, const Array&) { return lax::div(lax::neg(y), norm2(y, x)); }

}  // namespace

const Primitive prim::kAtan2{
    .name = "atan2",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("atan2", in, elementwise::Accepts::kFloat, false);
    },
    .eager = elementwise::binary_kernel<Op>,
    .jvp = ad::binary_jvp_rule<d0, d1>,
    .vjp = ad::binary_vjp_rule<d0, d1>,
    .batch = elementwise::batch_rule<prim::kAtan2>,
};

}  // namespace strata
