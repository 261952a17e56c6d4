// tracer/primitives/argmax.cpp — `argmax[axes=(k,), index_dtype]`: the index of the largest
// element along axis k (the first one on ties; the first nan if there is one).
#include "batch_rules.h"
#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("argmax", in, 1);
  const IntList& axes = p.get_ints("axes");
  if (axes.size() != 1)
    throw ValueError("argmax: expects exactly one axis, but got " + shape_rules::list_string(axes));
  DType it = p.get_dtype("index_dtype");
  if (!is_integer(it)) throw DTypeError("argmax: expects an integer index_dtype, but got " + std::string(short_name(it)));
  Shape out = primitives::check("argmax", shape_rules::argmax(in[0].shape, axes[0]));
  return {AbstractValue{out, it, false}};
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  const Shape& s = in[0].shape();
  size_t axis = static_cast<size_t>(p.get_ints("axes")[0]);
  int64_t outer = 1, inner = 1, n = s[axis];
  for (size_t d = 0; d < axis; ++d) outer *= s[d];
  for (size_t d = axis + 1; d < s.size(); ++d) inner *= s[d];
  kernels::dispatch(in[0].dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = typename kernels::ComputeOf<S>::type;
    const S* x = in[0].as<S>();
    kernels::parallel_for(outer * inner, std::max<int64_t>(1, kernels::kElementwiseGrain / n), [&](int64_t lo, int64_t hi) {
      for (int64_t oi = lo; oi < hi; ++oi) {
        int64_t o = oi / inner, i = oi % inner;
        const S* base = x + o * n * inner + i;
        int64_t best = 0;
        C bv = static_cast<C>(base[0]);
        if (bv == bv) {
          for (int64_t k = 1; k < n; ++k) {
            C v = static_cast<C>(base[k * inner]);
            if (v != v) { best = k; break; }  // nan wins
            if (v > bv) { bv = v; best = k; }
          }
        }
        kernels::dispatch(out[0].dtype(), [&](auto otag) {
          using O = typename decltype(otag)::type;
          out[0].as<O>()[oi] = static_cast<O>(best);
        });
      }
    });
  });
}

}  // namespace

const Primitive prim::kArgmax{
    .name = "argmax",
    .arity = 1,
    .traits = kNotDifferentiable,
    .shape_rule = rule,
    .eager = kernel,
    .batch = batching::axes_rule<prim::kArgmax>,
};

}  // namespace strata
