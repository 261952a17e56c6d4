// tracer/primitives/sqrt.cpp — `sqrt`: square root, elementwise (nan below 0, -0 for -0).
#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

// std::sqrt, not Eigen's packet sqrt: with EIGEN_FAST_MATH (its default) the AVX-512 version
// is an rsqrt14 + Newton approximation that is not correctly rounded, flushes subnormals and
// gives sqrt(inf) = nan.
struct Fn {
  template <class T> T operator()(T v) const { return std::sqrt(v); }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsComplex<S>;
  template <class X> static auto eval(const X& x) { return x.unaryExpr(Fn{}); }
};

// g times the derivative at x (y is the output).
Array scale(const Array& g, const Array& x, const Array& y) { return lax::div(lax::mul(g, ad::scalar_like(0.5, y)), y); }

}  // namespace

const Primitive prim::kSqrt{
    .name = "sqrt",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("sqrt", in, elementwise::Accepts::kInexact, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kSqrt>,
};

}  // namespace strata
