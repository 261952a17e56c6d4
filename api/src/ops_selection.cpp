// all/any (reduce_and/reduce_or) and clip/clamp (clamp). argmin lives with argmax in ops_reduce.cpp.
#include "op_helpers.h"
#include "shape_rules.h"
#include "strata/selection.h"

namespace strata {

using lax::bind1;

namespace {

Array bool_reduce(const Primitive& p, std::string_view op, const Array& x, const Axes& axes, bool keepdims,
                  const SourceLocation& loc) {
  const AbstractValue& av = api::aval(x, op);
  Array b = av.dtype == DType::bool_ ? x : not_equal(x, api::convert(Array(0), {av.dtype, true}, loc), loc);
  IntList ax = api::normalize_axes(op, axes, av);
  Array r = ax.empty() ? b : bind1(p, {b}, Params{{"axes", ax}}, loc);
  if (!keepdims) return r;
  Shape s = av.shape;
  for (int64_t a : ax) s[static_cast<size_t>(a)] = 1;
  return reshape(r, s, loc);
}

}  // namespace

Array all(const Array& x, Axes axes, bool keepdims, SourceLocation loc) {
  return bool_reduce(prim::kReduceAnd, "all", x, axes, keepdims, loc);
}
Array any(const Array& x, Axes axes, bool keepdims, SourceLocation loc) {
  return bool_reduce(prim::kReduceOr, "any", x, axes, keepdims, loc);
}

Array clip(const Array& x, const Array& lo, const Array& hi, SourceLocation loc) {
  const AbstractValue &xv = api::aval(x, "clip"), &lv = api::aval(lo, "clip"), &hv = api::aval(hi, "clip");
  shape_rules::Result r = shape_rules::broadcast_shapes(xv.shape, lv.shape);
  if (r.ok()) r = shape_rules::broadcast_shapes(r.shape, hv.shape);
  if (!r.ok())
    throw ShapeError("clip: shapes " + xv.str() + ", " + lv.str() + " and " + hv.str() + " cannot be broadcast");
  TypeSpec t = promote_types(promote_types(api::spec(x, "clip"), api::spec(lo, "clip")), api::spec(hi, "clip"));
  Array a = api::broadcast_to_shape(api::convert(x, t, loc), r.shape, loc);
  return bind1(prim::kClamp, {api::match_shape(api::convert(lo, t, loc), r.shape, loc), a,
                              api::match_shape(api::convert(hi, t, loc), r.shape, loc)}, {}, loc);
}

Array clamp(const Array& lo, const Array& x, const Array& hi, SourceLocation loc) {
  const AbstractValue &xv = api::aval(x, "clamp"), &lv = api::aval(lo, "clamp"), &hv = api::aval(hi, "clamp");
  for (const AbstractValue* b : {&lv, &hv})
    if (!b->shape.empty() && b->shape != xv.shape)
      throw ShapeError("clamp: expects bounds that are 0-d or of the operand's shape, but got " + lv.str() + ", " +
                       xv.str() + " and " + hv.str());
  TypeSpec t = promote_types(promote_types(api::spec(x, "clamp"), api::spec(lo, "clamp")), api::spec(hi, "clamp"));
  return bind1(prim::kClamp, {api::convert(lo, t, loc), api::convert(x, t, loc), api::convert(hi, t, loc)}, {}, loc);
}

}  // namespace strata
