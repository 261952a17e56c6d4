// tracer/primitives/reduce_sum.cpp — `reduce_sum[axes]`: the sum over `axes` (0 for none).
#include "batch_rules.h"
#include "ad_rules.h"

#include "../kernels/reduce.h"
#include "../kernels/wrapping.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = !std::is_same_v<S, bool>;
  // e8m0fnu has no zero: its identity, as the type holds 0, is nan, and it joins every sum as
  // the compiled reduce's init does (JAX's sums of e8m0fnu are nan too). The init joins every
  // float sum too: +0.0 makes a sum of -0.0s +0.0, as the compiled reduce and JAX give.
  template <class T, class S> static T init() {
    if constexpr (std::is_same_v<S, kernels::f8e8m0fnu_t>) return static_cast<T>(S(0));
    else return T(0);
  }
  template <class S> static constexpr bool joins_init = !std::is_integral_v<S>;
  template <class V> static auto reduce(const V& v) {
    using T = typename V::Scalar;
    if constexpr (std::is_integral_v<T>) {  // wrapping (kernels/wrapping.h)
      T s = 0;
      for (Eigen::Index i = 0; i < v.size(); ++i) s = kernels::WrappingAdd{}(s, T(v(i)));
      return s;
    } else {
      return kernels::cascade_sum(v, 0, v.size());
    }
  }
  template <class A, class R> static void combine(A& acc, const R& row) { acc = kernels::wrapping_add(acc, row); }
};


std::vector<Array> jvp(std::span<const Array>, std::span<const Array> t, std::span<const Array>, const Params& p) {
  return {lax::bind1(prim::kReduceSum, {t[0]}, p)};
}
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  return {ad::unreduce(ct[0], x[0], p)};
}

}  // namespace

const Primitive prim::kReduceSum{
    .name = "reduce_sum",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) {
      return kernels::reduce_rule("reduce_sum", in, p, false);
    },
    .eager = kernels::reduce_kernel<Op>,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batching::axes_rule<prim::kReduceSum>,
};

}  // namespace strata
