// tracer/primitives/log.cpp — `log`: natural logarithm, elementwise (log 0 = -inf, log of a negative = nan).
#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

// Eigen's vectorised log treats subnormal inputs as the smallest normal (log(1e-40f) =
// -87.3, not -92.1): those lanes (and 0, negatives, nan) take std::log.
struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsComplex<S>;
  template <class X> static auto eval(const X& x) {
    using T = typename X::Scalar;
    if constexpr (elementwise::kIsComplex<T>) return elementwise::each(x, [](T v) { return std::log(v); });
    else return real(x);
  }
  template <class X> static auto real(const X& x) {
    using T = typename X::Scalar;
    Eigen::Array<T, Eigen::Dynamic, 1> r = x.log();
    if (!elementwise::all_at_least(x, std::numeric_limits<T>::min()))
      for (Eigen::Index i = 0; i < r.size(); ++i)
        if (!(x[i] >= std::numeric_limits<T>::min())) r[i] = std::log(x[i]);
    return r;
  }
};

// g times the derivative at x (y is the output).
Array scale(const Array& g, const Array& x, const Array& y) { return lax::div(g, x); }

}  // namespace

const Primitive prim::kLog{
    .name = "log",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("log", in, elementwise::Accepts::kInexact, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kLog>,
};

}  // namespace strata
