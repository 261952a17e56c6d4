// tracer/primitives/reduce_min.cpp — `reduce_min[axes]`: the smallest element over `axes` (nan if any is nan; +inf, or the integer maximum, for none).
#include <algorithm>

#include "ad_rules.h"
#include <limits>

#include "../kernels/reduce.h"

namespace strata {
namespace {

template <class T> T lowest() {
  return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
}
template <class T> T highest() {
  return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
}

struct Op {
  template <class S> static constexpr bool supports = !std::is_same_v<S, uint8_t>;
  template <class T> static T init() { return highest<T>(); }
  template <class V> static auto reduce(const V& v) { return v.template minCoeff<Eigen::PropagateNaN>(); }
  template <class A, class R> static void combine(A& acc, const R& row) { acc = acc.binaryExpr(row, Eigen::internal::scalar_min_op<typename A::Scalar, typename A::Scalar, Eigen::PropagateNaN>()); }
};

// The reduced value broadcast back over the reduced axes.
Array expand(const Array& r, const Array& x, const Params& p) {
  const IntList& axes = p.get_ints("axes");
  IntList kept;
  for (int64_t d = 0; d < x.ndim(); ++d)
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) kept.push_back(d);
  return ad::bind_prim(prim::kBroadcastInDim, {r}, Params{{"shape", IntList(x.shape())}, {"broadcast_dimensions", kept}});
}

// The derivative flows to the positions that attain the minimum, split evenly between ties
// (as JAX does).
Array location_weights(const Array& x, const Array& y, const Params& p) {
  Array mask = astype(equal(x, expand(y, x, p)), x.dtype());
  return divide(mask, expand(ad::bind_prim(prim::kReduceSum, {mask}, p), x, p));
}
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y, const Params& p) {
  return {ad::bind_prim(prim::kReduceSum, {multiply(t[0], location_weights(x[0], y[0], p))}, p)};
}
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct, const Params& p) {
  return {multiply(expand(ct[0], x[0], p), location_weights(x[0], y[0], p))};
}

}  // namespace

const Primitive prim::kReduceMin{
    .name = "reduce_min",
    .traits = kReduction,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) {
      return kernels::reduce_rule("reduce_min", in, p, false);
    },
    .eager = kernels::reduce_kernel<Op>,
    .jvp = jvp,
    .vjp = vjp,
};

}  // namespace strata
