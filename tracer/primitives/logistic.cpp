// tracer/primitives/logistic.cpp — `logistic`: the logistic sigmoid 1 / (1 + e^-x), elementwise.
#include "ad_rules.h"
#include "complex_arith.h"
#include "elementwise.h"

namespace strata {
namespace {

// 1 / (1 + exp(-x)) with Eigen's exp where it is accurate; Eigen's own f32 logistic is a
// rational approximation off by 100+ ULPs below x = -5. Far out (and nan), e^x / (1 + e^x)
// keeps the tiny results of large negative x.
struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsComplex<S>;
  template <class X> static auto eval(const X& x) {
    using T = typename X::Scalar;
    if constexpr (elementwise::kIsComplex<T>)  // as compiled (and JAX): logistic(-inf + inf·i) is nan, not 0
      return elementwise::each(x, [](T v) { return complex_arith::div(T(1), T(1) + complex_arith::exp(-v)); });
    else return real(x);
  }
  template <class X> static auto real(const X& x) {
    using T = typename X::Scalar;
    const T lim = std::is_same_v<T, float> ? T(80) : T(700);
    Eigen::Array<T, Eigen::Dynamic, 1> in = x, r = ((T(0) - in).exp() + T(1)).inverse();
    if (!elementwise::all_within(in, -lim, lim))
      for (Eigen::Index i = 0; i < in.size(); ++i)
        if (!(in[i] >= -lim && in[i] <= lim)) {
          T e = std::exp(-std::fabs(in[i]));
          r[i] = in[i] < 0 ? e / (T(1) + e) : T(1) / (T(1) + e);
        }
    return r;
  }
};

// g times the derivative at x (y is the output).
Array scale(const Array& g, const Array& x, const Array& y) { return lax::mul(g, lax::mul(y, lax::sub(ad::scalar_like(1, y), y))); }

}  // namespace

const Primitive prim::kLogistic{
    .name = "logistic",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("logistic", in, elementwise::Accepts::kInexact, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kLogistic>,
};

}  // namespace strata
