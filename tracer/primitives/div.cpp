// tracer/primitives/div.cpp — `div`: x / y, elementwise. Integer division truncates toward
// zero; as in XLA, x / 0 is -1 and INT_MIN / -1 is INT_MIN (no trap). Complex: ComplexDiv.
#include <cmath>
#include <limits>

#include "ad_rules.h"
#include "../kernels/wrapping.h"
#include "elementwise.h"

namespace strata {
namespace {

struct IntDiv {
  template <class T> T operator()(T a, T b) const {
    if (b == 0) return static_cast<T>(-1);  // all ones, signed or unsigned (as XLA)
    if constexpr (std::is_signed_v<T>)
      if (b == T(-1)) return kernels::WrappingNeg{}(a);  // INT_MIN / -1 is INT_MIN
    return static_cast<T>(a / b);
  }
};

// Complex division as the compiled code does it (MLIR's complex-to-standard: Smith's
// algorithm, then C Annex G's recovery of infinities and zeros when both parts came out nan),
// which XLA's and so JAX's agree with: no overflow in |b|² (1 / (1e30 + 1e30i) in c64 is
// 5e-31 - 5e-31i, not 0) and finite / infinite = 0 (Eigen's a·conj(b)/|b|² gives nan).
struct ComplexDiv {
  template <class C> C operator()(C a, C b) const {
    using R = typename C::value_type;
    const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    const R inf = std::numeric_limits<R>::infinity();
    R re, im;
    if (std::fabs(br) < std::fabs(bi)) {
      const R r = br / bi, d = bi + r * br;
      re = (ar * r + ai) / d;
      im = (ai * r - ar) / d;
    } else {
      const R r = bi / br, d = br + r * bi;
      re = (ar + ai * r) / d;
      im = (ai - ar * r) / d;
    }
    if (!(std::isnan(re) && std::isnan(im))) return C(re, im);
    if (br == 0 && bi == 0 && (!std::isnan(ar) || !std::isnan(ai))) {  // x / 0
      const R s = std::copysign(inf, br);
      return C(s * ar, s * ai);
    }
    auto unit = [](R v) { return std::copysign(std::isinf(v) ? R(1) : R(0), v); };
    if ((std::isinf(ar) || std::isinf(ai)) && std::isfinite(br) && std::isfinite(bi)) {  // inf / finite
      const R x = unit(ar), y = unit(ai);
      return C(inf * (x * br + y * bi), inf * (y * br - x * bi));
    }
    if (std::isfinite(ar) && std::isfinite(ai) && (std::isinf(br) || std::isinf(bi))) {  // finite / inf
      const R x = unit(br), y = unit(bi);
      return C(R(0) * (ar * x + ai * y), R(0) * (ai * x - ar * y));
    }
    return C(re, im);
  }
};

struct Op {
  template <class S> static constexpr bool supports = elementwise::kIsFloat<S> || elementwise::kIsInt<S> || elementwise::kIsComplex<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) {
    using T = typename X::Scalar;
    if constexpr (std::is_integral_v<T>) return x.binaryExpr(y, IntDiv{});
    else if constexpr (elementwise::kIsComplex<T>) return x.binaryExpr(y, ComplexDiv{});
    else return x / y;
  }
};

// d/dx0 = 1/x1, d/dx1 = -x0/x1^2 = -y/x1.
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y, const Params&) {
  const Shape& s = y[0].shape();
  Array a = t[0].valid() ? ad::broadcast_scalar(lax::div(t[0], x[1]), s) : Array();
  Array b = t[1].valid() ? ad::broadcast_scalar(lax::neg(lax::mul(t[1], lax::div(y[0], x[1]))), s) : Array();
  return {ad::add_cotangent(a, b)};
}
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct, const Params&) {
  Array g = lax::div(ct[0], x[1]);
  return {ad::unbroadcast(g, x[0]), ad::unbroadcast(lax::neg(lax::mul(g, y[0])), x[1])};
}

}  // namespace

const Primitive prim::kDiv{
    .name = "div",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("div", in, elementwise::Accepts::kNumeric, false);
    },
    .eager = elementwise::binary_kernel<Op>,
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kDiv>,
};

}  // namespace strata
