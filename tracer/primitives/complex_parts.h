// tracer/primitives/complex_parts.h — the shape rule and kernel shape the four primitives that
// take complex numbers apart or build them share (real, imag, conj, complex).
#pragma once

#include "elementwise.h"

namespace strata::complex_parts {

// real/imag: a complex operand; the result is its parts' dtype.
inline std::vector<AbstractValue> part_rule(std::string_view name, std::span<const AbstractValue> in) {
  std::vector<AbstractValue> r = elementwise::rule(name, in, elementwise::Accepts::kAny, false);
  if (!is_complex(in[0].dtype))
    throw DTypeError(std::string(name) + ": expects a complex dtype (c64, c128), but got " + in[0].str());
  r[0].dtype = real_dtype(in[0].dtype);
  return r;
}

// out[i] = f(in[i]) for a complex operand of storage S; O is the output's storage.
template <class F>
void map_complex(const KernelArg& a, const KernelArg& o, F f) {
  kernels::dispatch_any(a.dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    if constexpr (kernels::is_complex_storage<S>) {
      using O = decltype(f(S{}));
      const S* x = a.as<S>();
      O* y = o.as<O>();
      kernels::parallel_for(o.size(), kernels::kElementwiseGrain, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) y[i] = f(x[i]);
      });
    } else {
      throw Error("internal: a complex kernel was given a real operand");
    }
  });
}

}  // namespace strata::complex_parts
