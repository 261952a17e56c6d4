// tracer/kernels/arg_extremum.h — the rule and kernel shared by argmax and argmin: the index
// of the largest (smallest) element along one axis, the first on ties, the first nan if any.
#pragma once

#include <algorithm>
#include <string>

#include "../primitives/common.h"

namespace strata::kernels {

inline std::vector<AbstractValue> arg_extremum_rule(std::string_view op, std::span<const AbstractValue> in,
                                                    const Params& p) {
  std::string name(op);
  primitives::expect_arity(op, in, 1);
  const IntList& axes = p.get_ints("axes");
  if (axes.size() != 1)
    throw ValueError(name + ": expects exactly one axis, but got " + shape_rules::list_string(axes));
  DType it = p.get_dtype("index_dtype");
  if (!is_integer(it)) throw DTypeError(name + ": expects an integer index_dtype, but got " + std::string(short_name(it)));
  Shape out = primitives::check(op, shape_rules::argmax(in[0].shape, axes[0]));
  return {AbstractValue{out, it, false}};
}

template <bool kMax>
void arg_extremum_kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  const Shape& s = in[0].shape();
  size_t axis = static_cast<size_t>(p.get_ints("axes")[0]);
  int64_t outer = 1, inner = 1, n = s[axis];
  for (size_t d = 0; d < axis; ++d) outer *= s[d];
  for (size_t d = axis + 1; d < s.size(); ++d) inner *= s[d];
  dispatch(in[0].dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = typename ComputeOf<S>::type;
    const S* x = in[0].as<S>();
    parallel_for(outer * inner, std::max<int64_t>(1, kElementwiseGrain / n), [&](int64_t lo, int64_t hi) {
      for (int64_t oi = lo; oi < hi; ++oi) {
        int64_t o = oi / inner, i = oi % inner;
        const S* base = x + o * n * inner + i;
        int64_t best = 0;
        C bv = static_cast<C>(base[0]);
        if (bv == bv) {
          for (int64_t k = 1; k < n; ++k) {
            C v = static_cast<C>(base[k * inner]);
            if (v != v) { best = k; break; }  // nan wins
            if (kMax ? v > bv : v < bv) { bv = v; best = k; }
          }
        }
        dispatch(out[0].dtype(), [&](auto otag) {
          using O = typename decltype(otag)::type;
          out[0].as<O>()[oi] = static_cast<O>(best);
        });
      }
    });
  });
}

}  // namespace strata::kernels
