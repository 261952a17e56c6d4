// tracer/primitives/div.cpp — `div`: x / y, elementwise. Integer division truncates toward
// zero; as in XLA, x / 0 is -1 and INT_MIN / -1 is INT_MIN (no trap). Complex: complex_arith::div.
#include <cmath>
#include <limits>

#include "ad_rules.h"
#include "../kernels/wrapping.h"
#include "complex_arith.h"
#include "elementwise.h"

namespace strata {
namespace {

struct IntDiv {
  template <class T> T operator()(T a, T b) const {
    if (b == 0) return static_cast<T>(-1);  // all ones, signed or unsigned (as XLA)
    if constexpr (std::is_signed_v<T>)
      if (b == T(-1)) return kernels::WrappingNeg{}(a);  // INT_MIN / -1 is INT_MIN
    return static_cast<T>(a / b);
  }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S> || elementwise::kIsComplex<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) {
    using T = typename X::Scalar;
    if constexpr (std::is_integral_v<T>) return x.binaryExpr(y, IntDiv{});
    else if constexpr (elementwise::kIsComplex<T>) return x.binaryExpr(y, [](T a, T b) { return complex_arith::div(a, b); });
    else return x / y;
  }
};

// d/dx0 = 1/x1, d/dx1 = -x0/x1^2 = -y/x1.
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y, const Params&) {
  const Shape& s = y[0].shape();
  Array a = t[0].valid() ? ad::broadcast_scalar(lax::div(t[0], x[1]), s) : Array();
  Array b = t[1].valid() ? ad::broadcast_scalar(lax::neg(lax::mul(t[1], lax::div(y[0], x[1]))), s) : Array();
  return {ad::add_cotangent(a, b)};
}
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct, const Params&) {
  Array g = lax::div(ct[0], x[1]);
  return {ad::unbroadcast(g, x[0]), ad::unbroadcast(lax::neg(lax::mul(g, y[0])), x[1])};
}

}  // namespace

const Primitive prim::kDiv{
    .name = "div",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("div", in, elementwise::Accepts::kNumeric, false);
    },
    .eager = elementwise::binary_kernel<Op>,
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kDiv>,
};

}  // namespace strata
