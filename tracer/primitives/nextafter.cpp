// tracer/primitives/nextafter.cpp — `nextafter`: the representable value after x towards y, in x's
// own float type, elementwise (jax.lax.nextafter, C's nextafter): y if x == y, nan if either is
// nan, ± the least subnormal from 0. Not differentiable: differentiating it
// is an error, as in JAX.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "ad_rules.h"
#include "elementwise.h"

namespace strata {
namespace {

// One step on the stored bits of S, in integer arithmetic only (bf16 and f16 step in their own
// precision; the compiled body, dialect/ScalarOps.cpp nextAfter, is the same expression).
// The byte floats step alike, on their own sign bit and nans (step8).
template <const kernels::Float8Format& F> kernels::float8<F> step8(kernels::float8<F> xs, kernels::float8<F> ys);
template <class S> S step(S xs, S ys) {
  if constexpr (kernels::is_float8_storage<S>) {
    return step8(xs, ys);
  } else {
    using U = std::conditional_t<sizeof(S) == 2, uint16_t, std::conditional_t<sizeof(S) == 4, uint32_t, uint64_t>>;
    constexpr int kMantissa = std::numeric_limits<S>::digits - 1;
    constexpr U kSign = U{1} << (8 * sizeof(S) - 1), kAbs = static_cast<U>(~kSign);
    constexpr U kInf = static_cast<U>(kAbs & ~((U{1} << kMantissa) - 1));
    constexpr U kQuiet = U{1} << (kMantissa - 1);
    U x = std::bit_cast<U>(xs), y = std::bit_cast<U>(ys);
    U ax = static_cast<U>(x & kAbs), ay = static_cast<U>(y & kAbs);
    U r;
    if (ax > kInf) r = x | kQuiet;  // nan in: that nan, quiet (as x86 returns x + y)
    else if (ay > kInf) r = y | kQuiet;
    else if (x == y || (ax == 0 && ay == 0)) r = y;
    else if (ax == 0) r = (y & kSign) | 1;  // the least subnormal of y's sign
    else r = static_cast<U>(((x & kSign) == (y & kSign) && ay > ax) ? x + 1 : x - 1);  // magnitude up or down
    return std::bit_cast<S>(static_cast<U>(r));
  }
}

// A byte float: e4m3fn's magnitudes above 0x7E are its nan (no inf); the fnuz formats' one nan
// is 0x80 and a step to zero from below is +0; e8m0fnu has no sign (the bits are in order);
// the 6- and 4-bit formats have no nan. y is a number of the format, so a step never leaves it.
template <const kernels::Float8Format& F> kernels::float8<F> step8(kernels::float8<F> xs, kernels::float8<F> ys) {
  using T = kernels::float8<F>;
  const uint8_t x = xs.bits, y = ys.bits, sign = F.sign_bit(), abs = F.magnitude_mask();
  const uint8_t quiet = F.ieee() ? static_cast<uint8_t>(1u << (F.mant_bits - 1)) : 0;
  if (kernels::float8_is_nan(F, x)) return T::from_bits(x | quiet);
  if (kernels::float8_is_nan(F, y)) return T::from_bits(y | quiet);
  const uint8_t ax = x & abs, ay = y & abs;
  if (x == y || (ax == 0 && ay == 0)) return ys;
  if (!F.has_sign()) return T::from_bits(static_cast<uint8_t>(y > x ? x + 1 : x - 1));
  if (ax == 0) return T::from_bits((y & sign) | 1);  // the least subnormal of y's sign
  uint8_t r = static_cast<uint8_t>(((x & sign) == (y & sign) && ay > ax) ? x + 1 : x - 1);  // magnitude up or down
  return T::from_bits(F.specials == kernels::Float8Specials::kFNUZ && r == 0x80 ? 0 : r);
}

// Operands of one shape, or one of them 0-d.
void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
  kernels::dispatch(in[0].dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    if constexpr (kernels::is_float_storage<S>) {
      const S* x = in[0].as<S>();
      const S* y = in[1].as<S>();
      S* z = out[0].as<S>();
      int64_t sx = in[0].shape().empty() ? 0 : 1, sy = in[1].shape().empty() ? 0 : 1;
      kernels::parallel_for(out[0].size(), kernels::kElementwiseGrain, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) z[i] = step(x[i * sx], y[i * sy]);
      });
    } else {
      throw Error("internal: unsupported dtype in nextafter");
    }
  });
}

// As in JAX, which defines no derivative.
std::vector<Array> jvp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params&) {
  ad::not_differentiable("nextafter");
}
std::vector<Array> vjp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params&) {
  ad::not_differentiable("nextafter");
}

}  // namespace

const Primitive prim::kNextafter{
    .name = "nextafter",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = [](std::span<const AbstractValue> in, const Params&) {
      return elementwise::rule("nextafter", in, elementwise::Accepts::kFloat, false);
    },
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kNextafter>,
};

}  // namespace strata
