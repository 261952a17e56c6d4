// api/src/special_common.h — what the st::special files share: constants of an array's dtype,
// the real-float promotion of their arguments, Horner's rule over a coefficient table.
#pragma once

#include <cstddef>
#include <string>

#include "op_helpers.h"
#include "strata/creation.h"

namespace strata::special::detail {

// v as a 0-d array of x's dtype.
inline Array c_like(double v, const Array& x) { return astype(Array(v), x.dtype()); }

// x as a float (integers promote); complex values are refused, naming the op.
inline Array real_inexact(const Array& x, const char* op, const SourceLocation& loc) {
  Array y = api::to_inexact(x, op, loc);
  if (is_complex(y.dtype())) throw DTypeError(std::string(op) + ": expects real values, but got " + api::aval(x, op).str());
  return y;
}

// c[0] w^(N-1) + ... + c[N-1] (highest power first, as polyval), of w's shape.
template <std::size_t N> Array horner(const double (&c)[N], const Array& w) {
  Array acc = c_like(c[0], w) + zeros_like(w);
  for (std::size_t i = 1; i < N; ++i) acc = acc * w + c_like(c[i], w);
  return acc;
}

}  // namespace strata::special::detail
