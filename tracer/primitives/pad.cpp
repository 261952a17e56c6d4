// tracer/primitives/pad.cpp — `pad[padding_low, padding_high, padding_interior]`: the operand
// with `low`/`high` copies of the padding value (a 0-d operand) before/after each dimension
// and `interior` copies between elements (StableHLO's pad; a negative low/high removes that
// many elements from the edge).
#include "batch_rules.h"
#include "../array_impl.h"
#include "ad_rules.h"
#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("pad", in, 2);
  if (in[1].dtype != in[0].dtype || !in[1].shape.empty())
    throw DTypeError("pad: expects a 0-d padding value of the operand's dtype, but got " + in[1].str() +
                     " for " + in[0].str());
  Shape out = primitives::check("pad", shape_rules::pad(in[0].shape, p.get_ints("padding_low"),
                                                        p.get_ints("padding_high"), p.get_ints("padding_interior")));
  return {AbstractValue{out, in[0].dtype, in[0].weak}};
}

// Fills the output with the padding value, then scatters the operand's rows into place.
void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  const IntList& lo = p.get_ints("padding_low");
  const IntList& interior = p.get_ints("padding_interior");
  const Shape& is = in[0].shape();
  const Shape& os = out[0].shape();
  size_t rank = is.size();
  kernels::dispatch_any(out[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* x = in[0].as<T>();
    T* y = out[0].as<T>();
    T value = *in[1].as<T>();
    std::fill_n(y, out[0].size(), value);
    if (in[0].size() == 0) return;
    std::vector<int64_t> ostride = kernels::contiguous_strides(os);
    std::vector<int64_t> idx(rank, 0);
    for (int64_t i = 0; i < in[0].size(); ++i) {
      int64_t o = 0;
      bool inside = true;
      for (size_t d = 0; d < rank; ++d) {
        int64_t pos = lo[d] + idx[d] * (interior[d] + 1);
        inside = inside && pos >= 0 && pos < os[d];
        o += pos * ostride[d];
      }
      if (inside) y[o] = x[i];
      for (size_t d = rank; d-- > 0;) {
        if (++idx[d] < is[d]) break;
        idx[d] = 0;
      }
    }
  });
}

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>, const Params& p) {
  if (!t[0].valid() && !t[1].valid()) return {Array()};
  Array value = t[1].valid() ? t[1] : ad::scalar_like(0, x[0]);
  return {lax::bind1(prim::kPad, {ad::instantiate(t[0], detail::aval_of(x[0])), value}, p)};
}
// The operand's cotangent undoes the padding (as JAX's pad transpose): the cotangent padded by
// the negated edges (restoring what negative padding removed, as zeros), then the strided
// slice that skips the interior; the padding value's is the sum of the rest.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  const IntList& lo = p.get_ints("padding_low");
  const IntList& hi = p.get_ints("padding_high");
  const IntList& interior = p.get_ints("padding_interior");
  const Shape& is = x[0].shape();
  IntList neg_lo, neg_hi, zeros(is.size(), 0);
  for (size_t d = 0; d < is.size(); ++d) neg_lo.push_back(-lo[d]), neg_hi.push_back(-hi[d]);
  Array unpadded = lax::bind1(prim::kPad, {ct[0], ad::scalar_like(0, ct[0])},
                              Params{{"padding_low", neg_lo}, {"padding_high", neg_hi}, {"padding_interior", zeros}});
  std::vector<int64_t> start(is.size(), 0), stop(is.size()), step(is.size());
  for (size_t d = 0; d < is.size(); ++d) {
    step[d] = interior[d] + 1;
    stop[d] = unpadded.shape()[d];
  }
  Array g = lax::bind1(prim::kSlice, {unpadded}, Params{{"start_indices", IntList(start)}, {"limit_indices", IntList(stop)}, {"strides", IntList(step)}});
  return {g, lax::sub(lax::reduce_sum(ct[0], lax::all_axes(ct[0])), lax::reduce_sum(g, lax::all_axes(g)))};
}


// Batched operand: the batch dimension first, not padded. A batched padding value (a different
// one per example) has no rule yet.
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  if (dims[1] != not_mapped)
    throw ValueError("vmap: `pad` with a padding value that differs per example has no batching rule yet");
  auto unpadded_first = [&](const char* name) {  // no padding along the batch dimension
    IntList amounts{0};
    for (int64_t v : p.get_ints(name)) amounts.push_back(v);
    return amounts;
  };
  return {{lax::pad(batching::front(args, dims), args[1], unpadded_first("padding_low"),
                    unpadded_first("padding_high"), unpadded_first("padding_interior"))},
          {0}};
}

}  // namespace

const Primitive prim::kPad{
    .name = "pad",
    .arity = 2,
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
