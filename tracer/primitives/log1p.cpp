// tracer/primitives/log1p.cpp — `log1p`: log(1 + x), accurate near 0.
#include "ad_rules.h"
#include "elementwise.h"
#include "../kernels/complex_math.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsComplex<S>;
  template <class X> static auto eval(const X& x) {
    using T = typename X::Scalar;
    if constexpr (elementwise::kIsComplex<T>) return elementwise::each(x, [](T v) { return kernels::complex_log1p(v); });
    else return x.log1p();
  }
};

// g times the derivative at x (y is the output).
Array scale(const Array& g, const Array& x, const Array& y) { return lax::div(g, lax::add(x, ad::scalar_like(1, x))); }

}  // namespace

const Primitive prim::kLog1p{
    .name = "log1p",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("log1p", in, elementwise::Accepts::kInexact, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kLog1p>,
};

}  // namespace strata
