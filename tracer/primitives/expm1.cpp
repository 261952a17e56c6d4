// tracer/primitives/expm1.cpp — `expm1`: e^x - 1, accurate near 0.
#include "ad_rules.h"
#include "elementwise.h"
#include "../kernels/complex_math.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsComplex<S>;
  template <class X> static auto eval(const X& x) {
    using T = typename X::Scalar;
    if constexpr (elementwise::kIsComplex<T>) return elementwise::each(x, [](T v) { return kernels::complex_expm1(v); });
    // Eigen's float expm1, (e^x - 1)·x/log(e^x), overflows in that product above x ≈ 84.2, e^x
    // only above 88.72: expm1(88.5) was inf. Above 80, e^x - 1 rounds to e^x in f32.
    else if constexpr (std::is_same_v<T, float>) return (x > T(80)).select(x.exp(), x.expm1());
    else return x.expm1();
  }
};

// g times the derivative at x (y is the output).
Array scale(const Array& g, const Array& x, const Array& y) { return lax::mul(g, lax::add(y, ad::scalar_like(1, y))); }

}  // namespace

const Primitive prim::kExpm1{
    .name = "expm1",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("expm1", in, elementwise::Accepts::kInexact, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kExpm1>,
};

}  // namespace strata
