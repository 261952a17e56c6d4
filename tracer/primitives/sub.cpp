// tracer/primitives/sub.cpp — `sub`: x - y, elementwise.
#include "ad_rules.h"
#include "elementwise.h"
#include "../kernels/wrapping.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S> || elementwise::kIsComplex<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) { return kernels::wrapping_sub(x, y); }
};

std::vector<Array> jvp(std::span<const Array>, std::span<const Array> t, std::span<const Array> y, const Params&) {
  const Shape& s = y[0].shape();
  Array neg = t[1].valid() ? lax::neg(ad::broadcast_scalar(t[1], s)) : Array();
  return {ad::add_cotangent(ad::broadcast_scalar(t[0], s), neg)};
}
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params&) {
  return {ad::unbroadcast(ct[0], x[0]), ad::unbroadcast(lax::neg(ct[0]), x[1])};
}

}  // namespace

const Primitive prim::kSub{
    .name = "sub",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("sub", in, elementwise::Accepts::kNumeric, false);
    },
    .eager = elementwise::binary_kernel<Op>,
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kSub>,
};

}  // namespace strata
