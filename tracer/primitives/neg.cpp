// tracer/primitives/neg.cpp — `neg`: -x, elementwise.
#include "ad_rules.h"
#include "elementwise.h"
#include "../kernels/wrapping.h"

namespace strata {
namespace {

// A scalar functor: Eigen 3.4's AVX-512 pnegate computes 0 - x, which turns -(+0) into +0.
struct Fn {
  template <class T> T operator()(T v) const { return kernels::WrappingNeg{}(v); }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S> || elementwise::kIsComplex<S>;
  template <class X> static auto eval(const X& x) { return x.unaryExpr(Fn{}); }
};

// g times the derivative at x (y is the output).
Array scale(const Array& g, const Array& x, const Array& y) { return lax::neg(g); }

}  // namespace

const Primitive prim::kNeg{
    .name = "neg",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("neg", in, elementwise::Accepts::kNumeric, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kNeg>,
};

}  // namespace strata
