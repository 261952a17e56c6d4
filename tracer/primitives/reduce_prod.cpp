// tracer/primitives/reduce_prod.cpp — `reduce_prod[axes]`: the product over `axes` (1 for none).
#include "batch_rules.h"
#include "ad_rules.h"

#include "../kernels/reduce.h"
#include "../kernels/wrapping.h"

namespace strata {
namespace {

struct Op {
  template <class S> static constexpr bool supports = !std::is_same_v<S, bool>;
  template <class T, class S> static T init() { return T(1); }
  template <class V> static auto reduce(const V& v) {
    using T = typename V::Scalar;
    if constexpr (std::is_integral_v<T>) {  // wrapping (kernels/wrapping.h)
      T p = 1;
      for (Eigen::Index i = 0; i < v.size(); ++i) p = kernels::WrappingMul{}(p, T(v(i)));
      return p;
    } else {
      return v.prod();
    }
  }
  template <class A, class R> static void combine(A& acc, const R& row) { acc = kernels::wrapping_mul(acc, row); }
};


// d prod / d x_i = the product of the other elements, computed exactly with zeros: with no
// zero it is y / x_i; with one zero, the product of the nonzeros at that zero and 0
// elsewhere; with two or more, 0. (Denominators are made safe so that no nan appears even in
// the unselected branches, which keeps higher derivatives finite.)
Array others_product(const Array& x, const Params& p) {
  Array zero = ad::scalar_like(0, x), one = ad::scalar_like(1, x);
  Array is_zero = lax::eq(x, zero);
  Array nonzero_prod = ad::unreduce(lax::bind1(prim::kReduceProd, {lax::select(is_zero, one, x)}, p), x, p);
  Array zeros = ad::unreduce(lax::bind1(prim::kReduceSum, {lax::convert_element_type(is_zero, x.dtype())}, p), x, p);
  Array safe_x = lax::select(is_zero, one, x);
  return lax::select(lax::eq(zeros, zero), lax::div(nonzero_prod, safe_x),
                     lax::select(lax::and_(lax::eq(zeros, one), is_zero), nonzero_prod, zero));
}
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>, const Params& p) {
  return {lax::bind1(prim::kReduceSum, {lax::mul(t[0], others_product(x[0], p))}, p)};
}
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  return {lax::mul(ad::unreduce(ct[0], x[0], p), others_product(x[0], p))};
}

}  // namespace

const Primitive prim::kReduceProd{
    .name = "reduce_prod",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) {
      return kernels::reduce_rule("reduce_prod", in, p, false);
    },
    .eager = kernels::reduce_kernel<Op>,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batching::axes_rule<prim::kReduceProd>,
};

}  // namespace strata
