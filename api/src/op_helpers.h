// api/src/op_helpers.h — what the public ops share: promotion and broadcasting. They bind
// primitives through the tracer's op layer (lax.h), after NumPy's promotion and broadcasting.
#pragma once

#include <cmath>
#include <optional>
#include <source_location>
#include <string>

#include "array_impl.h"
#include "lax.h"
#include "primitive.h"
#include "strata/ops.h"
#include "trace.h"

namespace strata::api {

// The abstract value of an operand of `op`; rejects null and escaped arrays naming the op.
const AbstractValue& aval(const Array& a, std::string_view op);
inline TypeSpec spec(const Array& a, std::string_view op) {
  const AbstractValue& av = aval(a, op);
  return {av.dtype, av.weak};
}

// `x` as dtype/weak `to`. Concrete 0-d values (C++ scalars) convert at once, even inside a
// trace, so that a literal stays a literal; anything else binds convert_element_type.
Array convert(const Array& x, TypeSpec to, const SourceLocation& loc);
// `x` broadcast to `shape` by NumPy's trailing alignment (no-op when it already has it).
Array broadcast_to_shape(const Array& x, const Shape& shape, const SourceLocation& loc);

// NumPy broadcasting of two operands' shapes; ShapeError "op: shapes f32[3,4] and f32[5]
// cannot be broadcast" otherwise.
Shape broadcast_shapes(std::string_view op, const Array& a, const Array& b);

// Promotes a and b to their common type and shape for an elementwise primitive. 0-d operands
// stay 0-d (the primitives broadcast scalars themselves, as JAX's jaxprs show `mul a 2.0`).
std::pair<Array, Array> promote_binary(std::string_view op, const Array& a, const Array& b,
                                       const SourceLocation& loc);
// a and b in their promoted dtype (JAX's lattice), shapes as they are (for ops that do not
// broadcast their operands together: searchsorted's sorted array and queries, a matrix and a
// right-hand side); the _inexact form promotes integers to floats first.
std::pair<Array, Array> promote_dtypes(std::string_view op, const Array& a, const Array& b, const SourceLocation& loc);
std::pair<Array, Array> promote_inexact_dtypes(std::string_view op, const Array& a, const Array& b,
                                               const SourceLocation& loc);
// x[start:stop:stride] along `axis` (NumPy's slice rules: negative from the end, clamped).
Array slice_along(const Array& x, int axis, int64_t start, std::optional<int64_t> stop, int64_t stride,
                  const SourceLocation& loc);
// The shape-matched operand: broadcast unless it is 0-d.
Array match_shape(const Array& x, const Shape& shape, const SourceLocation& loc);

// `v` as a weak 0-d constant of x's dtype, so a constant never promotes x (a weak f64 would
// turn an f32 or f16 operand into f64).
inline Array weak_scalar_like(double v, const Array& x, std::string_view op, const SourceLocation& loc) {
  return convert(Array(v), {aval(x, op).dtype, true}, loc);
}

// +inf, or the largest finite value of a float type without infinities (f8_e4m3fn: 448): the
// top of max/min identities and bounds.
inline double float_top(DType t) { return supports_inf(t) ? INFINITY : finfo(t).max; }

// The signed integer type of t's width, to read a float's bits as (frexp, nextafter steps).
inline DType bits_type(DType t) {
  return itemsize(t) == 8 ? DType::i64 : itemsize(t) == 4 ? DType::i32 : itemsize(t) == 2 ? DType::i16 : DType::i8;
}

// v as a strong 0-d i32 (indices, counts).
inline Array i32_scalar(int64_t v) { return lax::scalar(static_cast<double>(v), DType::i32); }

// Promotes integers and bools to a float type (weak stays weak), for exp, log, divide, ….
Array to_inexact(const Array& x, std::string_view op, const SourceLocation& loc);

// Integers narrower than 32 bits as (u)int32 (weak stays weak), as jnp.sum, jnp.prod and
// jnp.cumsum accumulate them; anything else unchanged.
Array widen_small_ints(const Array& x, std::string_view op, const SourceLocation& loc);

// Normalises reduction axes against `rank` (negative from the end; all when unset); throws
// ValueError naming the op for out-of-range or repeated axes.
IntList normalize_axes(std::string_view op, const Axes& axes, const AbstractValue& av);
int normalize_axis(std::string_view op, int axis, const AbstractValue& av);

}  // namespace strata::api
