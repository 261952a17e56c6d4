// tracer/primitives/mul.cpp — `mul`: x * y, elementwise.
#include "ad_rules.h"
#include "complex_arith.h"
#include "elementwise.h"
#include "../kernels/wrapping.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S> || elementwise::kIsComplex<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) {
    using T = typename X::Scalar;
    if constexpr (elementwise::kIsComplex<T>) return x.binaryExpr(y, [](T a, T b) { return complex_arith::mul(a, b); });
    else return kernels::wrapping_mul(x, y);
  }
};

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y, const Params&) {
  const Shape& s = y[0].shape();
  Array a = t[0].valid() ? ad::broadcast_scalar(lax::mul(t[0], x[1]), s) : Array();
  Array b = t[1].valid() ? ad::broadcast_scalar(lax::mul(x[0], t[1]), s) : Array();
  return {ad::add_cotangent(a, b)};
}
// Reads both inputs, not the output.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params&) {
  return {ad::unbroadcast(lax::mul(ct[0], x[1]), x[0]), ad::unbroadcast(lax::mul(x[0], ct[0]), x[1])};
}

}  // namespace

const Primitive prim::kMul{
    .name = "mul",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("mul", in, elementwise::Accepts::kNumeric, false);
    },
    .eager = elementwise::binary_kernel<Op>,
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kMul>,
};

}  // namespace strata
