// tracer/primitives/reduce_precision.cpp — `reduce_precision[exponent_bits, mantissa_bits]`:
// each element rounded to the nearest value (ties to even) of a float format with that many
// exponent and mantissa bits, kept in its own type (jax.lax.reduce_precision, StableHLO's
// reduce_precision): beyond the format's range ±inf, below its smallest normal ±0 (no
// subnormals), nans unchanged (even with no mantissa bits, as JAX 0.10.2 on CPU gives). XLA's
// algorithm on the stored bits;
// the compiled body (dialect/ScalarOps.cpp reducePrecision) is the same expression. Linear: its
// derivative is itself, as in JAX.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "../lax.h"
#include "elementwise.h"

namespace strata {
namespace {

template <class S> S reduce(S xs, int64_t exponent_bits, int64_t mantissa_bits) {
  using U = std::conditional_t<sizeof(S) == 2, uint16_t, std::conditional_t<sizeof(S) == 4, uint32_t, uint64_t>>;
  constexpr int kWidth = 8 * sizeof(S), kMantissa = std::numeric_limits<S>::digits - 1;
  constexpr int kExponent = kWidth - 1 - kMantissa;
  U x = std::bit_cast<U>(xs);
  if (mantissa_bits < kMantissa) {
    const int shift = kMantissa - static_cast<int>(mantissa_bits);
    const U last = U{1} << shift, bias = static_cast<U>((last >> 1) - 1);
    const U last_bit = static_cast<U>((x & last) >> shift);
    x = static_cast<U>((x + last_bit + bias) & static_cast<U>(~(last - 1)));
  }
  if (exponent_bits < kExponent) {
    const U src_bias = (U{1} << (kExponent - 1)) - 1, bias = (U{1} << (exponent_bits - 1)) - 1;
    const U exp_mask = static_cast<U>(((U{1} << kExponent) - 1) << kMantissa), sign = U{1} << (kWidth - 1);
    const U exponent = x & exp_mask;
    const U zero = x & sign, inf = static_cast<U>(zero | exp_mask);
    if (exponent > static_cast<U>((src_bias + bias) << kMantissa)) x = inf;
    if (exponent <= static_cast<U>((src_bias - bias) << kMantissa)) x = zero;
  }
  S r = std::bit_cast<S>(x);
  return xs != xs ? xs : r;
}

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  int64_t e = p.get_int("exponent_bits"), m = p.get_int("mantissa_bits");
  if (e < 1 || m < 0)
    throw ValueError("reduce_precision: expects exponent_bits >= 1 and mantissa_bits >= 0, but got " +
                     std::to_string(e) + " and " + std::to_string(m));
  // XLA's recipe assumes IEEE specials (e4m3fn has none) and is no use below 8 bits.
  if (!in.empty() && is_float8(in[0].dtype))
    throw DTypeError("reduce_precision: expects bf16, f16, f32 or f64, but got " + std::string(long_name(in[0].dtype)) +
                     "; convert 8-bit floats to f32 first");
  return elementwise::rule("reduce_precision", in, elementwise::Accepts::kFloat, false);
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  int64_t e = p.get_int("exponent_bits"), m = p.get_int("mantissa_bits");
  kernels::dispatch(in[0].dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    if constexpr (kernels::is_float_storage<S> && !kernels::is_float8_storage<S>) {
      const S* x = in[0].as<S>();
      S* z = out[0].as<S>();
      kernels::parallel_for(out[0].size(), kernels::kElementwiseGrain, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) z[i] = reduce(x[i], e, m);
      });
    } else {
      throw Error("internal: unsupported dtype in reduce_precision");
    }
  });
}

// Linear (JAX's deflinear): the tangent and the cotangent are reduced alike.
std::vector<Array> jvp(std::span<const Array>, std::span<const Array> t, std::span<const Array>, const Params& p) {
  return {lax::reduce_precision(t[0], p.get_int("exponent_bits"), p.get_int("mantissa_bits"))};
}
std::vector<Array> vjp(std::span<const Array>, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  return {lax::reduce_precision(ct[0], p.get_int("exponent_bits"), p.get_int("mantissa_bits"))};
}

}  // namespace

const Primitive prim::kReducePrecision{
    .name = "reduce_precision",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kReducePrecision>,
};

}  // namespace strata
