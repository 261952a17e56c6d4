// tracer/lax.h — the tracer's own op layer, as jax.lax sits under jax.numpy: one function per
// primitive, binding it with exactly the operands given.
//
// No promotion and no broadcasting beyond what the primitive itself allows (elementwise
// primitives take operands of one dtype, each of the result's shape or 0-d). Derivative rules
// and transforms are written with these, never with the public API above the tracer, so that
// what they build traces, jits and differentiates again. Like jax.lax, the structural ops
// return their operand when they would not change it (a reshape to the same shape, an
// identity transpose, a reduction over no axes, a slice of the whole).
#pragma once

#include <initializer_list>
#include <source_location>
#include <span>
#include <vector>

#include "abstract_value.h"
#include "gather_rules.h"
#include "params.h"
#include "primitive.h"

namespace strata::lax {

using Loc = std::source_location;

// Binds `p` to `inputs`. The equation's location is the caller's, unless a transform set a
// ScopedLocation (then it is the user's equation being expanded).
std::vector<Array> bind(const Primitive& p, std::span<const Array> inputs, const Params& params = {},
                        Loc loc = Loc::current());
Array bind1(const Primitive& p, std::initializer_list<Array> inputs, const Params& params = {},
            Loc loc = Loc::current());

// ---- Constants ----
// A concrete 0-d array of `dtype` (strongly typed) holding `value`: a literal inside a trace.
Array scalar(double value, DType dtype);
// `value` broadcast to `aval`'s shape and dtype (inside a trace, one broadcast_in_dim of a
// literal, not a captured constant).
Array full(const AbstractValue& aval, double value, Loc loc = Loc::current());
inline Array zeros(const AbstractValue& aval, Loc loc = Loc::current()) { return full(aval, 0.0, loc); }

// ---- Elementwise (the primitive of the same name; and_, or_, not_ are `and`, `or`, `not`) ----
Array add(const Array& a, const Array& b, Loc loc = Loc::current());
Array sub(const Array& a, const Array& b, Loc loc = Loc::current());
Array mul(const Array& a, const Array& b, Loc loc = Loc::current());
Array div(const Array& a, const Array& b, Loc loc = Loc::current());
Array rem(const Array& a, const Array& b, Loc loc = Loc::current());
Array max(const Array& a, const Array& b, Loc loc = Loc::current());
Array min(const Array& a, const Array& b, Loc loc = Loc::current());
Array pow(const Array& a, const Array& b, Loc loc = Loc::current());
Array atan2(const Array& y, const Array& x, Loc loc = Loc::current());
Array and_(const Array& a, const Array& b, Loc loc = Loc::current());
Array or_(const Array& a, const Array& b, Loc loc = Loc::current());
Array eq(const Array& a, const Array& b, Loc loc = Loc::current());
Array ne(const Array& a, const Array& b, Loc loc = Loc::current());
Array lt(const Array& a, const Array& b, Loc loc = Loc::current());
Array le(const Array& a, const Array& b, Loc loc = Loc::current());
Array gt(const Array& a, const Array& b, Loc loc = Loc::current());
Array ge(const Array& a, const Array& b, Loc loc = Loc::current());
Array neg(const Array& x, Loc loc = Loc::current());
Array exp(const Array& x, Loc loc = Loc::current());
Array log(const Array& x, Loc loc = Loc::current());
Array log1p(const Array& x, Loc loc = Loc::current());
Array expm1(const Array& x, Loc loc = Loc::current());
Array tanh(const Array& x, Loc loc = Loc::current());
Array logistic(const Array& x, Loc loc = Loc::current());
Array sin(const Array& x, Loc loc = Loc::current());
Array cos(const Array& x, Loc loc = Loc::current());
Array sqrt(const Array& x, Loc loc = Loc::current());
Array rsqrt(const Array& x, Loc loc = Loc::current());
Array abs(const Array& x, Loc loc = Loc::current());
Array real(const Array& x, Loc loc = Loc::current());
Array imag(const Array& x, Loc loc = Loc::current());
Array conj(const Array& x, Loc loc = Loc::current());
Array complex(const Array& re, const Array& im, Loc loc = Loc::current());
Array sign(const Array& x, Loc loc = Loc::current());
Array floor(const Array& x, Loc loc = Loc::current());
Array ceil(const Array& x, Loc loc = Loc::current());
Array not_(const Array& x, Loc loc = Loc::current());
Array erf_inv(const Array& x, Loc loc = Loc::current());
// x^y for a static integer y (integer_pow[y]).
Array integer_pow(const Array& x, int64_t y, Loc loc = Loc::current());
// x rounded to a float format of that many exponent and mantissa bits (reduce_precision).
Array reduce_precision(const Array& x, int64_t exponent_bits, int64_t mantissa_bits, Loc loc = Loc::current());
// pred ? on_true : on_false; pred is bool.
Array select(const Array& pred, const Array& on_true, const Array& on_false, Loc loc = Loc::current());
Array convert_element_type(const Array& x, DType dtype, bool weak = false, Loc loc = Loc::current());

// ---- Structure ----
Array broadcast_in_dim(const Array& x, const Shape& shape, const IntList& broadcast_dimensions,
                       Loc loc = Loc::current());
Array reshape(const Array& x, const Shape& shape, Loc loc = Loc::current());
Array transpose(const Array& x, const IntList& permutation, Loc loc = Loc::current());
Array slice(const Array& x, const IntList& start, const IntList& limit, const IntList& strides,
            Loc loc = Loc::current());
Array pad(const Array& x, const Array& padding_value, const IntList& low, const IntList& high,
          const IntList& interior, Loc loc = Loc::current());
// a and b interleaved along `axis` (a0 b0 a1 b1 …; a has as many elements there as b, or one
// more): each padded with zeros into the other's gaps, then added (or'ed for bools) — JAX's
// associative_scan._interleave, shared by the cumulative ops' derivatives and associative_scan.
Array interleave(const Array& a, const Array& b, int64_t axis, Loc loc = Loc::current());
Array reduce_sum(const Array& x, const IntList& axes, Loc loc = Loc::current());
Array reduce_prod(const Array& x, const IntList& axes, Loc loc = Loc::current());
// Every axis of x.
IntList all_axes(const Array& x);
Array dot_general(const Array& a, const Array& b, const IntList& lhs_contract, const IntList& rhs_contract,
                  const IntList& lhs_batch, const IntList& rhs_batch, Loc loc = Loc::current());

// ---- Indexing ----
// The `sizes` box of x at run-time starts (0-d i32, one a dimension), each clamped to keep it inside.
Array dynamic_slice(const Array& x, std::span<const Array> starts, const IntList& sizes, Loc loc = Loc::current());
// x with `update` written at run-time starts (clamped as dynamic_slice's).
Array dynamic_update_slice(const Array& x, const Array& update, std::span<const Array> starts,
                           Loc loc = Loc::current());

// gather[dims, slice_sizes, mode]: mode 0 clamps the boxes into x, 1 reads zeros for boxes outside.
Array gather(const Array& x, const Array& indices, const shape_rules::GatherDims& dims, const IntList& slice_sizes,
             int64_t mode = 0, Loc loc = Loc::current());
// One of the scatter primitives (kScatter, kScatterAdd, kScatterMul, kScatterMin, kScatterMax).
Array scatter(const Primitive& p, const Array& x, const Array& indices, const Array& updates,
              const shape_rules::ScatterDims& dims, Loc loc = Loc::current());

}  // namespace strata::lax
