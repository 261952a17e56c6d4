// strata/aliases.h — jax.numpy's other spellings of strata's ops (NumPy's arc* names, the array
// API's bitwise_* and concat, ...), so code ported from NumPy or JAX reads the same. Each is the
// op it names, with that op's rules and errors; right_shift picks the shift by the dtype.
#pragma once

#include <vector>

#include "strata/array.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/ops.h"

namespace strata {

// Inverse trigonometric and hyperbolic functions (jnp.arccos == jnp.acos, ...).
inline Array arccos(const Array& x, SourceLocation loc = SourceLocation::current()) { return acos(x, loc); }
inline Array arcsin(const Array& x, SourceLocation loc = SourceLocation::current()) { return asin(x, loc); }
inline Array arctan(const Array& x, SourceLocation loc = SourceLocation::current()) { return atan(x, loc); }
inline Array arccosh(const Array& x, SourceLocation loc = SourceLocation::current()) { return acosh(x, loc); }
inline Array arcsinh(const Array& x, SourceLocation loc = SourceLocation::current()) { return asinh(x, loc); }
inline Array arctanh(const Array& x, SourceLocation loc = SourceLocation::current()) { return atanh(x, loc); }
inline Array arctan2(const Array& y, const Array& x, SourceLocation loc = SourceLocation::current()) {
  return atan2(y, x, loc);
}

// Arithmetic.
inline Array absolute(const Array& x, SourceLocation loc = SourceLocation::current()) { return abs(x, loc); }
// |x| as a float (integers promote, as jnp.fabs; complex is refused, as NumPy's fabs).
Array fabs(const Array& x, SourceLocation loc = SourceLocation::current());
inline Array pow(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current()) {
  return power(a, b, loc);
}
inline Array mod(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current()) {
  return remainder(a, b, loc);
}
inline Array true_divide(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current()) {
  return divide(a, b, loc);
}
// +x: x itself (arrays are immutable values); bools are refused, as jnp.positive refuses them.
Array positive(const Array& x, SourceLocation loc = SourceLocation::current());
inline Array around(const Array& x, SourceLocation loc = SourceLocation::current()) { return round(x, loc); }
// Rounds toward zero (jnp.fix).
inline Array fix(const Array& x, SourceLocation loc = SourceLocation::current()) { return trunc(x, loc); }
inline Array degrees(const Array& x, SourceLocation loc = SourceLocation::current()) { return rad2deg(x, loc); }
inline Array radians(const Array& x, SourceLocation loc = SourceLocation::current()) { return deg2rad(x, loc); }

// jnp.isfinite (lax.is_finite).
inline Array isfinite(const Array& x, SourceLocation loc = SourceLocation::current()) { return is_finite(x, loc); }

// Reductions and joins.
inline Array amax(const Array& x, Axes axes = {}, bool keepdims = false, SourceLocation loc = SourceLocation::current()) {
  return max(x, std::move(axes), keepdims, loc);
}
inline Array amin(const Array& x, Axes axes = {}, bool keepdims = false, SourceLocation loc = SourceLocation::current()) {
  return min(x, std::move(axes), keepdims, loc);
}
inline Array concat(const std::vector<Array>& xs, int axis = 0, SourceLocation loc = SourceLocation::current()) {
  return concatenate(xs, axis, loc);
}

// jnp.dot: a product for 0-d operands, the inner product of vectors, matmul of matrices, and
// otherwise the sum over a's last axis and b's second-to-last (b's only axis when 1-d):
// a.shape[:-1] + b.shape[:-2] + b.shape[-1:].
Array dot(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
inline Array conjugate(const Array& x, SourceLocation loc = SourceLocation::current()) { return conj(x, loc); }
// jnp.empty_like: zeros (XLA has no uninitialised arrays; JAX returns zeros too).
inline Array empty_like(const Array& x) { return zeros_like(x); }
// jnp.copy: x itself — arrays are immutable values, so sharing is a copy.
inline Array copy(const Array& x) { return x; }

// Bitwise ops: logical on bools, bitwise on integers, refused on floats (the operators' rules).
inline Array bitwise_and(const Array& a, const Array& b) { return a & b; }
inline Array bitwise_or(const Array& a, const Array& b) { return a | b; }
inline Array bitwise_xor(const Array& a, const Array& b) { return a ^ b; }
inline Array bitwise_not(const Array& x) { return ~x; }
inline Array bitwise_invert(const Array& x) { return ~x; }
inline Array invert(const Array& x) { return ~x; }
inline Array left_shift(const Array& x, const Array& y, SourceLocation loc = SourceLocation::current()) {
  return shift_left(x, y, loc);
}
inline Array bitwise_left_shift(const Array& x, const Array& y, SourceLocation loc = SourceLocation::current()) {
  return shift_left(x, y, loc);
}
// NumPy's right shift: arithmetic (sign-filling) for signed integers, logical for unsigned ones
// (of the operands' promoted type).
Array right_shift(const Array& x, const Array& y, SourceLocation loc = SourceLocation::current());
inline Array bitwise_right_shift(const Array& x, const Array& y, SourceLocation loc = SourceLocation::current()) {
  return right_shift(x, y, loc);
}

}  // namespace strata
