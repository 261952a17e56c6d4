// tracer/primitives/reduce_prod.cpp — `reduce_prod[axes]`: the product over `axes` (1 for none).
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
  template <class T> static T init() { return T(1); }
  template <class V> static auto reduce(const V& v) { return v.prod(); }
  template <class A, class R> static void combine(A& acc, const R& row) { acc *= row; }
};

}  // namespace

const Primitive prim::kReduceProd{
    .name = "reduce_prod",
    .traits = kReduction,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) {
      return kernels::reduce_rule("reduce_prod", in, p, false);
    },
    .eager = kernels::reduce_kernel<Op>,
};

}  // namespace strata
