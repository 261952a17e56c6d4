// tracer/primitives/rsqrt.cpp — `rsqrt`: 1 / sqrt(x), elementwise.
#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

// 1 / std::sqrt (within 1 ULP): Eigen's fast packet rsqrt is off for subnormal inputs
// (rsqrt(1e-323) = inf in f64).
struct Fn {
  template <class T> T operator()(T v) const { return T(1) / std::sqrt(v); }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsComplex<S>;
  template <class X> static auto eval(const X& x) { return x.unaryExpr(Fn{}); }
};

// g times the derivative at x (y is the output).
Array scale(const Array& g, const Array& x, const Array& y) { return lax::mul(g, lax::mul(ad::scalar_like(-0.5, y), lax::div(y, x))); }

}  // namespace

const Primitive prim::kRsqrt{
    .name = "rsqrt",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("rsqrt", in, elementwise::Accepts::kInexact, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kRsqrt>,
};

}  // namespace strata
