// tracer/primitives/ad_rules.h — helpers the primitives' JVP and VJP rules share.
//
// Rules are written with the tracer's op layer (tracer/lax.h), which binds primitives, so that
// they trace, compile and differentiate again. A null Array stands for a symbolic zero.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "../abstract_value.h"
#include "../params.h"
#include "../lax.h"
#include "../primitive.h"

namespace strata::ad {

// `t`, or zeros of `aval` when t is a symbolic zero.
Array instantiate(const Array& t, const AbstractValue& aval);
// a + b where either may be a symbolic zero.
Array add_cotangent(const Array& a, const Array& b);
// The cotangent of an elementwise operand: elementwise primitives broadcast 0-d operands, so a
// 0-d operand's cotangent is the sum of the output's.
Array unbroadcast(const Array& ct, const Array& operand);
// `x` broadcast to `shape` when it is 0-d (the tangent of a 0-d operand of an elementwise op).
Array broadcast_scalar(const Array& x, const Shape& shape);
// A 0-d array of `like`'s dtype holding `v` (strongly typed, as the rules' operands are).
inline Array scalar_like(double v, const Array& like) { return lax::scalar(v, like.dtype()); }

// Unary elementwise rules: both the JVP and the VJP multiply by the derivative, so one
// function S(g, x, y) — "g times f'(x), given the output y" — defines both.
using Scale = Array (*)(const Array& g, const Array& x, const Array& y);
template <Scale S>
std::vector<Array> unary_jvp(std::span<const Array> x, std::span<const Array> t,
                             std::span<const Array> y, const Params&) {
  return {S(t[0], x[0], y[0])};
}
template <Scale S>
std::vector<Array> unary_vjp(std::span<const Array> x, std::span<const Array> y,
                             std::span<const Array> ct, const Params&) {
  return {S(ct[0], x[0], y[0])};
}

// The result of a reduce_*[axes] broadcast back over the reduced axes of its operand x.
Array unreduce(const Array& r, const Array& x, const Params& params);
// reduce_max and reduce_min: the derivative flows to the positions that attain the extremum
// y, split evenly between ties (as JAX does).
std::vector<Array> extremum_jvp(std::span<const Array> x, std::span<const Array> t,
                                std::span<const Array> y, const Params& params);
std::vector<Array> extremum_vjp(std::span<const Array> x, std::span<const Array> y,
                                std::span<const Array> ct, const Params& params);

// Binary elementwise with partial derivatives dx(x0, x1, y) and dy(x0, x1, y), either of
// which may be null (zero). Handles 0-d operands of the primitive's scalar broadcasting.
using Partial2 = Array (*)(const Array& x0, const Array& x1, const Array& y);
std::vector<Array> binary_jvp(std::span<const Array> x, std::span<const Array> t,
                              std::span<const Array> y, Partial2 d0, Partial2 d1);
std::vector<Array> binary_vjp(std::span<const Array> x, std::span<const Array> y,
                              std::span<const Array> ct, Partial2 d0, Partial2 d1);
// The two as a primitive's rules, like unary_jvp<S>: `.jvp = ad::binary_jvp_rule<d0, d1>`.
template <Partial2 D0, Partial2 D1>
std::vector<Array> binary_jvp_rule(std::span<const Array> x, std::span<const Array> t,
                                   std::span<const Array> y, const Params&) {
  return binary_jvp(x, t, y, D0, D1);
}
template <Partial2 D0, Partial2 D1>
std::vector<Array> binary_vjp_rule(std::span<const Array> x, std::span<const Array> y,
                                   std::span<const Array> ct, const Params&) {
  return binary_vjp(x, y, ct, D0, D1);
}

// For primitives JAX defines no derivative for: a clear error naming the primitive rather than
// a silent zero.
[[noreturn]] void not_differentiable(std::string_view primitive);

// max and min (elementwise): the derivative flows to the operand equal to the result y, split
// evenly where both are (JAX's _balanced_eq, so a nan operand gets none).
std::vector<Array> binary_extremum_jvp(std::span<const Array> x, std::span<const Array> t,
                                       std::span<const Array> y, const Params&);
std::vector<Array> binary_extremum_vjp(std::span<const Array> x, std::span<const Array> y,
                                       std::span<const Array> ct, const Params&);

// The VJP of a rule whose output tangents `tangent_map(tangents)` (one tangent per operand x,
// null = zero; one per output y) are linear in the tangents: the map traced as a function of
// the float operands' tangents and transposed (ad::linear_transpose). How custom_jvp_call and
// the complex linear-algebra primitives get their VJPs from their JVPs.
using TangentMap = std::function<std::vector<Array>(std::span<const Array> tangents)>;
std::vector<Array> transpose_tangent_map(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct,
                                         const TangentMap& tangent_map);

}  // namespace strata::ad
