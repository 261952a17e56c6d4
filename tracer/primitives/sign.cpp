// tracer/primitives/sign.cpp — `sign`: -1, 0 or 1 by the sign of x; floats keep ±0 and nan.
#include "elementwise.h"
#include "../kernels/complex_math.h"

namespace strata {
namespace {

struct Fn {
  template <class T> T operator()(T a) const {
    if constexpr (elementwise::kIsComplex<T>) return kernels::complex_sign(a);
    else if constexpr (std::is_integral_v<T>) return static_cast<T>((a > 0) - (a < 0));
    else return a > T(0) ? T(1) : (a < T(0) ? T(-1) : a);  // ±0 and nan pass through
  }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S> || elementwise::kIsComplex<S>;
  template <class X> static auto eval(const X& x) { return x.unaryExpr(Fn{}); }
};

}  // namespace

const Primitive prim::kSign{
    .name = "sign",
    .arity = 1,
    .traits = kElementwise | kNotDifferentiable,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("sign", in, elementwise::Accepts::kNumeric, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .batch = elementwise::batch_rule<prim::kSign>,
};

}  // namespace strata
