// api/src/stats_common.cpp — argument promotion and broadcasting for st::stats.
#include "stats_common.h"

#include "shape_rules.h"

namespace strata::stats::detail {

std::vector<Array> promote(const char* op, std::initializer_list<Array> args, const Src& src) {
  std::vector<Array> out = promote_dtypes(op, args, src);
  common_shape(op, out);  // a mismatch is reported here, naming the function
  return out;
}

std::vector<Array> promote_dtypes(const char* op, std::initializer_list<Array> args, const Src& src) {
  TypeSpec t{};
  bool first = true;
  for (const Array& a : args) {
    TypeSpec s = api::spec(a, op);
    if (is_complex(s.dtype)) throw DTypeError(std::string(op) + ": expects real values, but got " + api::aval(a, op).str());
    t = first ? s : promote_types(t, s);
    first = false;
  }
  if (!is_inexact(t.dtype)) t.dtype = DType::f32;
  // The formulas' constants are C++ doubles (weak f64): they leave a strong type or a weak f64
  // as it is, but would widen a weak f32 (all arguments C++ floats) — so that one turns strong.
  if (t.weak && t.dtype != DType::f64) t.weak = false;
  std::vector<Array> out;
  for (const Array& a : args) out.push_back(api::convert(a, t, src));
  return out;
}

Shape common_shape(const char* op, const std::vector<Array>& args) {
  Shape shape;
  for (const Array& a : args) {
    const AbstractValue& av = api::aval(a, op);
    shape_rules::Result r = shape_rules::broadcast_shapes(shape, av.shape);
    if (!r.ok()) throw ShapeError(std::string(op) + ": arguments of shapes " + type_string(av.dtype, shape) + " and " + av.str() + " cannot be broadcast");
    shape = r.shape;
  }
  return shape;
}

Array full(const char* op, const Array& r, const std::vector<Array>& args, const Src& src) {
  std::vector<Array> all = args;
  all.push_back(r);
  return api::broadcast_to_shape(r, common_shape(op, all), src);
}

}  // namespace strata::stats::detail
