// tracer/primitives/exp.cpp — `exp`: e^x, elementwise.
#include "ad_rules.h"
#include "complex_arith.h"
#include "elementwise.h"

namespace strata {
namespace {

// Eigen's vectorised exp is accurate in the normal range, but flushes subnormal results to 0,
// overflows early in f32 (exp(88.5f) = inf) and gives exp(-inf) = 5.6e-309 in f64: lanes
// outside the range where it is right take std::exp.
struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsComplex<S>;
  template <class X> static auto eval(const X& x) {
    using T = typename X::Scalar;
    if constexpr (elementwise::kIsComplex<T>) return elementwise::each(x, complex_arith::exp<T>);  // as compiled
    else return real(x);
  }
  template <class X> static auto real(const X& x) {
    using T = typename X::Scalar;
    constexpr bool kF32 = std::is_same_v<T, float>;
    const T lo = kF32 ? T(-87) : T(-708), hi = kF32 ? T(88) : T(709);
    // Below ln of half the least subnormal the result is 0: set without libm (whose underflow
    // path is slow) and without a branch per element, since such lanes (-inf in a masked
    // softmax) come mixed with ordinary ones at random; libm takes the few others.
    const T zero = kF32 ? T(-104) : T(-745.5);
    Eigen::Array<T, Eigen::Dynamic, 1> r = x.exp();
    if (!elementwise::all_within(x, lo, hi)) {
      T* out = r.data();
      for (Eigen::Index i = 0; i < r.size(); ++i) out[i] = x[i] < zero ? T(0) : out[i];  // a blend, vectorised
      for (Eigen::Index i = 0; i < r.size(); ++i) {
        const T v = x[i];
        if (((v >= zero) & (v < lo)) | (v > hi) | (v != v)) r[i] = std::exp(v);
      }
    }
    return r;
  }
};

// g times the derivative at x (y is the output).
Array scale(const Array& g, const Array& x, const Array& y) { return lax::mul(g, y); }

}  // namespace

const Primitive prim::kExp{
    .name = "exp",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("exp", in, elementwise::Accepts::kInexact, false);
    },
    .eager = elementwise::unary_kernel<Op>,
    .jvp = ad::unary_jvp<scale>,
    .vjp = ad::unary_vjp<scale>,
    .batch = elementwise::batch_rule<prim::kExp>,
};

}  // namespace strata
