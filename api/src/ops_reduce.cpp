// Reductions: sum, mean, max, min, prod, argmax, argmin.
#include "op_helpers.h"
#include "strata/selection.h"

namespace strata {

using lax::bind1;

namespace {

// Reinserts reduced axes as size-1 dimensions.
Array keep_dims(const Array& r, const AbstractValue& in, const IntList& axes, const SourceLocation& loc) {
  Shape s = in.shape;
  for (int64_t a : axes) s[static_cast<size_t>(a)] = 1;
  return reshape(r, s, loc);
}

Array reduce(const Primitive& p, std::string_view op, const Array& x, const Axes& axes,
             bool keepdims, const SourceLocation& loc, DType bool_as, bool widen_ints = false) {
  Array in = widen_ints ? api::widen_small_ints(x, op, loc) : x;
  bool was_bool = api::aval(x, op).dtype == DType::bool_;
  if (was_bool) in = api::convert(x, {bool_as, false}, loc);
  const AbstractValue& av = api::aval(in, op);
  IntList ax = api::normalize_axes(op, axes, av);
  Array r = ax.empty() ? in : bind1(p, {in}, Params{{"axes", ax}}, loc);
  // Back to bool as `> 0`, not `!= 0`: an empty max is INT_MIN, which must read as false (the
  // identity of `any`); an empty min is INT_MAX, true (the identity of `all`).
  if (was_bool && bool_as == DType::i32 && (&p == &prim::kReduceMax || &p == &prim::kReduceMin))
    r = bind1(prim::kGt, {r, api::convert(Array(0), {DType::i32, false}, loc)}, {}, loc);
  return keepdims ? keep_dims(r, av, ax, loc) : r;
}

}  // namespace

// Bools sum and multiply as i32 (NumPy counts them), 8- and 16-bit integers as (u)int32; max
// and min of bools stay bool.
Array sum(const Array& x, Axes axes, bool keepdims, SourceLocation loc) {
  return reduce(prim::kReduceSum, "sum", x, axes, keepdims, loc, DType::i32, true);
}
Array prod(const Array& x, Axes axes, bool keepdims, SourceLocation loc) {
  return reduce(prim::kReduceProd, "prod", x, axes, keepdims, loc, DType::i32, true);
}
Array max(const Array& x, Axes axes, bool keepdims, SourceLocation loc) {
  return reduce(prim::kReduceMax, "max", x, axes, keepdims, loc, DType::i32);
}
Array min(const Array& x, Axes axes, bool keepdims, SourceLocation loc) {
  return reduce(prim::kReduceMin, "min", x, axes, keepdims, loc, DType::i32);
}

Array mean(const Array& x, Axes axes, bool keepdims, SourceLocation loc) {
  Array in = api::to_inexact(x, "mean", loc);
  const AbstractValue& av = api::aval(in, "mean");
  IntList ax = api::normalize_axes("mean", axes, av);
  int64_t n = 1;
  for (int64_t a : ax) n *= av.shape[static_cast<size_t>(a)];
  // bf16/f16 (and the 8-bit floats) accumulate and divide in f32 and round once (jnp.mean does
  // the same for the 16-bit ones); the count is a weak scalar of the computation dtype, so that
  // a weak f32 input stays f32.
  DType t = av.dtype;
  bool half = is_narrow_float(t);
  Array s = sum(half ? api::convert(in, {DType::f32, av.weak}, loc) : in, axes, keepdims, loc);
  Array count = api::convert(Array(static_cast<double>(n)), {half ? DType::f32 : t, true}, loc);
  Array r = divide(s, count, loc);
  return half ? api::convert(r, {t, av.weak}, loc) : r;
}

namespace {

// argmax and argmin: over the flattened array when no axis is given.
Array arg_extremum(const Primitive& prim, const std::string& op, const Array& x, std::optional<int> axis,
                   bool keepdims, const SourceLocation& loc) {
  Array in = x;
  const AbstractValue& av0 = api::aval(x, op);
  if (av0.dtype == DType::bool_) in = api::convert(x, {DType::i32, false}, loc);
  if (!axis) {
    if (av0.size() == 0) throw ValueError(op + ": expects a non-empty array, but got " + av0.str());
    Array flat = reshape(in, {av0.size()}, loc);
    Array r = bind1(prim, {flat}, Params{{"axes", IntList{0}}, {"index_dtype", DType::i32}}, loc);
    return keepdims ? reshape(r, Shape(av0.shape.size(), 1), loc) : r;
  }
  int a = api::normalize_axis(op, *axis, av0);
  if (av0.shape[static_cast<size_t>(a)] == 0)
    throw ValueError(op + ": axis " + std::to_string(*axis) + " of " + av0.str() + " is empty");
  Array r = bind1(prim, {in}, Params{{"axes", IntList{a}}, {"index_dtype", DType::i32}}, loc);
  if (!keepdims) return r;
  Shape s = av0.shape;
  s[static_cast<size_t>(a)] = 1;
  return reshape(r, s, loc);
}

}  // namespace

Array argmax(const Array& x, std::optional<int> axis, bool keepdims, SourceLocation loc) {
  return arg_extremum(prim::kArgmax, "argmax", x, axis, keepdims, loc);
}
Array argmin(const Array& x, std::optional<int> axis, bool keepdims, SourceLocation loc) {
  return arg_extremum(prim::kArgmin, "argmin", x, axis, keepdims, loc);
}

}  // namespace strata
