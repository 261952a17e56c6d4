// tracer/primitives/complex.cpp — `complex`: x + iy from two real operands of one dtype,
// elementwise (f32 -> c64, f64 -> c128), as jax.lax.complex.
#include "ad_rules.h"
#include "complex_parts.h"
#include "../array_impl.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params&) {
  std::vector<AbstractValue> r = elementwise::rule("complex", in, elementwise::Accepts::kAny, false);
  if (in[0].dtype != DType::f32 && in[0].dtype != DType::f64)
    throw DTypeError("complex: expects f32 or f64 parts, but got " + in[0].str() + " and " + in[1].str());
  r[0].dtype = complex_dtype(in[0].dtype);
  r[0].weak = false;
  return r;
}

template <class T>
void build(const KernelArg& a, const KernelArg& b, const KernelArg& o) {
  const T* x = a.as<T>();
  const T* y = b.as<T>();
  const bool xs = a.shape().empty(), ys = b.shape().empty();
  auto* z = o.as<std::complex<T>>();
  kernels::parallel_for(o.size(), kernels::kElementwiseGrain, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) z[i] = {x[xs ? 0 : i], y[ys ? 0 : i]};
  });
}

// Linear (JAX's rules): complex(tx, ty) (a missing tangent is zero); the transpose gives the
// parts real(ct) and -imag(ct).
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y, const Params&) {
  const Shape& s = y[0].shape();
  Array tx = ad::broadcast_scalar(ad::instantiate(t[0], detail::aval_of(x[0])), s);
  Array ty = ad::broadcast_scalar(ad::instantiate(t[1], detail::aval_of(x[1])), s);
  return {lax::complex(tx, ty)};
}
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params&) {
  return {ad::unbroadcast(lax::real(ct[0]), x[0]), ad::unbroadcast(lax::neg(lax::imag(ct[0])), x[1])};
}

}  // namespace

const Primitive prim::kComplex{
    .name = "complex",
    .arity = 2,
    .traits = kElementwise,
    .shape_rule = rule,
    .eager = [](std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
      if (in[0].dtype() == DType::f32) build<float>(in[0], in[1], out[0]);
      else build<double>(in[0], in[1], out[0]);
    },
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kComplex>,
};

}  // namespace strata
