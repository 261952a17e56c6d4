#include "op_helpers.h"

#include "strata/indexing.h"

#include <algorithm>

#include "shape_rules.h"

namespace strata::api {

const AbstractValue& aval(const Array& a, std::string_view op) {
  check_usable(a, op);
  return a.impl()->aval;
}

Array convert(const Array& x, TypeSpec to, const SourceLocation& loc) {
  const AbstractValue& av = aval(x, "convert_element_type");
  if (av.dtype == to.dtype && av.weak == to.weak) return x;
  // complex -> bool is `x != 0` (either part nonzero), as jnp's astype; the primitive, as
  // jax.lax and StableHLO's convert, looks at the real part only.
  if (is_complex(av.dtype) && to.dtype == DType::bool_) return lax::ne(x, lax::scalar(0.0, av.dtype), loc);
  Params params{{"new_dtype", to.dtype}, {"weak_type", to.weak}};
  if (av.dtype == to.dtype && !x.is_tracer()) {
    // Only the weak flag changes: share the data.
    auto impl = std::make_shared<detail::ArrayImpl>();
    impl->aval = x.impl()->aval;
    impl->buffer = x.impl()->buffer;
    impl->aval.weak = to.weak;
    return Array(std::move(impl));
  }
  if (!x.is_tracer() && av.shape.empty()) {
    std::vector<AbstractValue> out{AbstractValue{{}, to.dtype, to.weak}};
    Array in[] = {x};
    return eval_eager(prim::kConvertElementType, in, out, params)[0];
  }
  return lax::convert_element_type(x, to.dtype, to.weak, loc);
}

Shape broadcast_shapes(std::string_view op, const Array& a, const Array& b) {
  const AbstractValue& x = aval(a, op);
  const AbstractValue& y = aval(b, op);
  shape_rules::Result r = shape_rules::broadcast_shapes(x.shape, y.shape);
  if (!r.ok())
    throw ShapeError(std::string(op) + ": shapes " + x.str() + " and " + y.str() +
                     " cannot be broadcast");
  return r.shape;
}

Array broadcast_to_shape(const Array& x, const Shape& shape, const SourceLocation& loc) {
  const AbstractValue& av = aval(x, "broadcast_to");
  if (av.shape == shape) return x;
  IntList dims;
  size_t lead = shape.size() - av.shape.size();
  for (size_t i = 0; i < av.shape.size(); ++i) dims.push_back(static_cast<int64_t>(lead + i));
  return lax::broadcast_in_dim(x, shape, dims, loc);
}

Array match_shape(const Array& x, const Shape& shape, const SourceLocation& loc) {
  if (aval(x, "broadcast").shape.empty()) return x;
  return broadcast_to_shape(x, shape, loc);
}

std::pair<Array, Array> promote_binary(std::string_view op, const Array& a, const Array& b,
                                       const SourceLocation& loc) {
  Shape shape = broadcast_shapes(op, a, b);
  TypeSpec t = promote_types(spec(a, op), spec(b, op));
  Array x = convert(a, t, loc), y = convert(b, t, loc);
  // Both 0-d, or shapes already equal: nothing to broadcast.
  return {match_shape(x, shape, loc), match_shape(y, shape, loc)};
}

std::pair<Array, Array> promote_dtypes(std::string_view op, const Array& a, const Array& b, const SourceLocation& loc) {
  TypeSpec t = promote_types(spec(a, op), spec(b, op));
  return {convert(a, t, loc), convert(b, t, loc)};
}

std::pair<Array, Array> promote_inexact_dtypes(std::string_view op, const Array& a, const Array& b,
                                               const SourceLocation& loc) {
  return promote_dtypes(op, to_inexact(a, op, loc), to_inexact(b, op, loc), loc);
}

Array slice_along(const Array& x, int axis, int64_t start, std::optional<int64_t> stop, int64_t stride,
                  const SourceLocation& loc) {
  std::vector<Index> idx(aval(x, "slice").shape.size(), Slice());
  idx[static_cast<size_t>(axis)] = Slice(start, stop, stride);
  return index(x, idx, loc);
}

Array to_inexact(const Array& x, std::string_view op, const SourceLocation& loc) {
  TypeSpec s = spec(x, op);
  if (is_inexact(s.dtype)) return x;
  return convert(x, TypeSpec{DType::f32, s.weak}, loc);
}

Array widen_small_ints(const Array& x, std::string_view op, const SourceLocation& loc) {
  TypeSpec s = spec(x, op);
  if (!is_integer(s.dtype) || itemsize(s.dtype) >= 4) return x;
  return convert(x, TypeSpec{is_unsigned_integer(s.dtype) ? DType::u32 : DType::i32, s.weak}, loc);
}

int normalize_axis(std::string_view op, int axis, const AbstractValue& av) {
  int rank = av.ndim();
  int a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)
    throw ValueError(std::string(op) + ": axis " + std::to_string(axis) + " is out of range for " +
                     av.str() + " (rank " + std::to_string(rank) + ")");
  return a;
}

IntList normalize_axes(std::string_view op, const Axes& axes, const AbstractValue& av) {
  IntList out;
  if (!axes.list) {
    for (int i = 0; i < av.ndim(); ++i) out.push_back(i);
    return out;
  }
  for (int a : *axes.list) {
    int n = normalize_axis(op, a, av);
    if (std::find(out.begin(), out.end(), n) != out.end())
      throw ValueError(std::string(op) + ": axis " + std::to_string(a) + " is repeated in the axes for " + av.str());
    out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace strata::api
