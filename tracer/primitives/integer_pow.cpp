// tracer/primitives/integer_pow.cpp — `integer_pow[y]`: x^y for a static integer y,
// elementwise, as jax.lax.integer_pow: repeated squaring (multiplications only, in the compute
// type), x^0 = 1 (nan and inf included), x^-n = 1 / x^n on floats. Integers wrap on overflow;
// a negative y on integers is an error (as in JAX).
#include <cstdint>
#include <type_traits>

#include "ad_rules.h"
#include "../kernels/wrapping.h"
#include "complex_arith.h"
#include "elementwise.h"

namespace strata {
namespace {

// The multiplications of the compiled body (dialect/ScalarOps.cpp: integerPow), in its order:
// the bits of |y| from the lowest, each set bit multiplying the accumulated power in.
template <class T>
T integer_pow(T x, int64_t y) {
  uint64_t e = y < 0 ? uint64_t{0} - static_cast<uint64_t>(y) : static_cast<uint64_t>(y);
  if constexpr (std::is_integral_v<T>) {
    using U = kernels::wrap_unsigned_t<T>;
    U acc = 1, base = static_cast<U>(x);
    for (bool first = true; e; e >>= 1) {
      if (e & 1) acc = first ? base : static_cast<U>(acc * base), first = false;
      if (e > 1) base = static_cast<U>(base * base);
    }
    return static_cast<T>(acc);
  } else {
    // Complex numbers by the compiled complex.mul and complex.div, not std::complex's operators.
    auto mul = [](T a, T b) -> T {
      if constexpr (elementwise::kIsComplex<T>) return complex_arith::mul(a, b);
      else return a * b;
    };
    T acc = 1, base = x;
    for (bool first = true; e; e >>= 1) {
      if (e & 1) acc = first ? base : mul(acc, base), first = false;
      if (e > 1) base = mul(base, base);
    }
    if (y >= 0) return acc;
    if constexpr (elementwise::kIsComplex<T>) return complex_arith::div(T(1), acc);
    else return T(1) / acc;
  }
}

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  int64_t y = p.get_int("y");
  std::vector<AbstractValue> out = elementwise::rule("integer_pow", in, elementwise::Accepts::kNumeric, false);
  if (y < 0 && !is_inexact(in[0].dtype))
    throw DTypeError("integer_pow: integers cannot be raised to a negative power, but got " + in[0].str() +
                     " to the power " + std::to_string(y));
  return out;
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  int64_t y = p.get_int("y");
  kernels::dispatch_any(in[0].dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    if constexpr (elementwise::kIsFloat<S> || elementwise::kIsInt<S> || elementwise::kIsComplex<S>) {
      using C = typename kernels::ComputeOf<S>::type;
      const S* x = in[0].as<S>();
      S* o = out[0].as<S>();
      kernels::parallel_for(out[0].size(), kernels::kElementwiseGrain, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) o[i] = static_cast<S>(integer_pow(static_cast<C>(x[i]), y));
      });
    } else {
      throw Error("internal: unsupported dtype in the integer_pow kernel");
    }
  });
}

// g · y · x^(y-1); zero for y = 0 (as JAX).
Array scale(const Array& g, const Array& x, const Params& p) {
  int64_t y = p.get_int("y");
  if (y == 0) return lax::mul(g, ad::scalar_like(0, g));
  if (y == 1) return g;
  return lax::mul(g, lax::mul(ad::scalar_like(static_cast<double>(y), x), lax::integer_pow(x, y - 1)));
}
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>, const Params& p) {
  return {scale(t[0], x[0], p)};
}
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  return {scale(ct[0], x[0], p)};
}

}  // namespace

const Primitive prim::kIntegerPow{
    .name = "integer_pow",
    .arity = 1,
    .traits = kElementwise,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kIntegerPow>,
};

}  // namespace strata
