// tracer/primitives/fft.cpp — `fft[fft_type, fft_lengths]`: jax.lax.fft (StableHLO's fft), the
// discrete Fourier transform over the operand's last 1 to 3 dimensions: FFT/IFFT complex →
// complex, RFFT real → complex (the last dimension n → n/2+1), IRFFT its inverse; the inverses
// scaled by 1/N. fft_type is JAX's number (0 FFT, 1 IFFT, 2 RFFT, 3 IRFFT). Kernel:
// kernels/fft.h, which the compiled code's runtime calls too.
#include "../fft_rules.h"
#include "../kernels/fft.h"
#include "batch_rules.h"
#include "common.h"

namespace strata {
namespace {

using fft_rules::Type;

Type type_of(const Params& p) {
  std::optional<Type> t = fft_rules::type_from_int(p.get_int("fft_type"));
  if (!t) throw ValueError("fft: expects fft_type 0 (FFT), 1 (IFFT), 2 (RFFT) or 3 (IRFFT), but got " +
                           std::to_string(p.get_int("fft_type")));
  return *t;
}

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("fft", in, 1);
  const Type t = type_of(p);
  const DType d = in[0].dtype;
  if (fft_rules::takes_complex(t) && !is_complex(d))
    throw DTypeError("fft: " + std::string(fft_rules::type_name(t)) + " expects a complex operand (c64, c128), but got " +
                     in[0].str());
  if (!fft_rules::takes_complex(t) && d != DType::f32 && d != DType::f64)
    throw DTypeError("fft: RFFT expects a real operand (f32, f64), but got " + in[0].str());
  Shape s = primitives::check("fft", fft_rules::shape(t, in[0].shape, p.get_ints("fft_lengths")));
  DType out = t == Type::kRfft ? complex_dtype(d) : t == Type::kIrfft ? real_dtype(d) : d;
  return {AbstractValue{s, out}};
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  const IntList& lengths = p.get_ints("fft_lengths");
  const Shape& s = in[0].shape();
  int64_t batch = 1;
  for (size_t i = 0; i + lengths.size() < s.size(); ++i) batch *= s[i];
  DType d = in[0].dtype();
  kernels::fft({.type = type_of(p), .f64 = d == DType::f64 || d == DType::c128, .batch = batch, .lengths = lengths},
               in[0].data, out[0].data);
}

Array fft(const Array& x, Type t, const IntList& lengths) {
  return lax::bind1(prim::kFft, {x}, Params{{"fft_type", static_cast<int64_t>(t)}, {"fft_lengths", lengths}});
}

// Linear: the JVP is the transform of the tangent.
std::vector<Array> jvp(std::span<const Array>, std::span<const Array> t, std::span<const Array>, const Params& p) {
  return {lax::bind1(prim::kFft, {t[0]}, p)};
}

// JAX's _fft_transpose_rule. The DFT matrix is symmetric, so FFT and IFFT are their own
// transposes. RFFT is FFT (of the real operand made complex) then a slice: its transpose pads
// the cotangent back to n with zeros, transforms, and keeps the real part. IRFFT's is the RFFT
// of the cotangent scaled by 1/N, doubled on the frequencies the Hermitian row holds twice,
// conjugated (JAX's convention for complex cotangents).
std::vector<Array> vjp(std::span<const Array>, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  const Type t = type_of(p);
  const IntList& lengths = p.get_ints("fft_lengths");
  const Array& g = ct[0];
  if (t == Type::kFft || t == Type::kIfft) return {fft(g, t, lengths)};
  const int64_t rank = static_cast<int64_t>(g.shape().size());
  const int64_t n = lengths.back();
  if (t == Type::kRfft) {
    IntList low(rank, 0), high(rank, 0), interior(rank, 0);
    high.back() = n - g.shape().back();
    Array padded = lax::pad(g, lax::scalar(0.0, g.dtype()), low, high, interior);
    return {lax::real(fft(padded, Type::kFft, lengths))};
  }
  Array x = fft(g, Type::kRfft, lengths);
  const int64_t h = x.shape().back(), odd = n % 2;
  double scale = 1.0;
  for (int64_t l : lengths) scale /= static_cast<double>(l);
  Array middle = lax::full(AbstractValue{{h - 2 + odd}, x.dtype()}, 2.0 * scale);
  Array mask = lax::pad(middle, lax::scalar(scale, x.dtype()), {1}, {1 - odd}, {0});
  Array weights = lax::broadcast_in_dim(mask, x.shape(), {rank - 1});
  return {lax::conj(lax::mul(x, weights))};
}

// The transform acts on the last dimensions: the batch dimension goes first.
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  return {{lax::bind1(prim::kFft, {batching::front(args, dims)}, p)}, {0}};
}

}  // namespace

const Primitive prim::kFft{
    .name = "fft",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
