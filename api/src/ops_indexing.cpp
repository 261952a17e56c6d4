// Indexing: dynamic_slice, dynamic_update_slice, take, take_along_axis (strata/indexing.h).
#include "strata/indexing.h"

#include "op_helpers.h"

namespace strata {
namespace {

// Each start as the 0-d i32 the primitives take, a negative one counted from the end of its
// dimension (JAX's _dynamic_slice_indices); the primitive then clamps.
std::vector<Array> normalized_starts(std::string_view op, const AbstractValue& x, const std::vector<Array>& starts,
                                     const SourceLocation& loc) {
  if (starts.size() != x.shape.size())
    throw ValueError(std::string(op) + ": expects " + std::to_string(x.shape.size()) + " start indices for " + x.str() +
                     " (one a dimension), but got " + std::to_string(starts.size()));
  std::vector<Array> r;
  for (size_t d = 0; d < starts.size(); ++d) {
    const AbstractValue& s = api::aval(starts[d], op);
    if (!s.shape.empty() || !is_integer(s.dtype))
      throw DTypeError(std::string(op) + ": expects integer scalar start indices, but got " + s.str() +
                       " for dimension " + std::to_string(d));
    Array i = api::convert(starts[d], {DType::i32, false}, loc);
    int64_t dim = x.shape[d];
    if (!i.is_tracer()) {  // a concrete start folds now: no equations for constants
      int64_t v = i.item<int32_t>();
      r.push_back(lax::scalar(static_cast<double>(v < 0 ? v + dim : v), DType::i32));
      continue;
    }
    Array wrapped = lax::add(i, lax::scalar(static_cast<double>(dim), DType::i32), loc);
    r.push_back(lax::select(lax::lt(i, lax::scalar(0, DType::i32), loc), wrapped, i, loc));
  }
  return r;
}

// Integer indices with negative ones counted from the end of a dimension of `size`.
Array wrapped_indices(std::string_view op, const Array& indices, int64_t size, const SourceLocation& loc) {
  const AbstractValue& av = api::aval(indices, op);
  if (!is_integer(av.dtype)) throw DTypeError(std::string(op) + ": expects integer indices, but got " + av.str());
  Array i = api::convert(indices, {av.dtype, false}, loc);
  AbstractValue strong{av.shape, av.dtype, false};
  Array zero = lax::zeros(strong, loc), n = lax::full(strong, static_cast<double>(size), loc);
  return lax::select(lax::lt(i, zero, loc), lax::add(i, n, loc), i, loc);
}

}  // namespace

Array take(const Array& x, const Array& indices, int axis, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "take");
  int64_t a = api::normalize_axis("take", axis, av);
  Array idx = wrapped_indices("take", indices, av.shape[static_cast<size_t>(a)], loc);
  int64_t q = idx.ndim(), rank = av.ndim();
  IntList offset, sizes(av.shape.begin(), av.shape.end());
  sizes[static_cast<size_t>(a)] = 1;
  for (int64_t d = 0; d < rank; ++d)
    if (d != a) offset.push_back(d < a ? d : d + q - 1);
  return lax::gather(x, idx, shape_rules::GatherDims{offset, {a}, {a}, q}, sizes, 0, loc);
}

Array take_along_axis(const Array& x, const Array& indices, int axis, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "take_along_axis");
  const AbstractValue& iv = api::aval(indices, "take_along_axis");
  int64_t a = api::normalize_axis("take_along_axis", axis, av);
  bool ok = iv.shape.size() == av.shape.size();
  for (size_t d = 0; ok && d < av.shape.size(); ++d) ok = static_cast<int64_t>(d) == a || iv.shape[d] == av.shape[d];
  if (!ok)
    throw ShapeError("take_along_axis: expects indices of the operand's rank and sizes off the axis, but got " + iv.str() +
                     " for " + av.str() + " along axis " + std::to_string(a));
  Array idx = wrapped_indices("take_along_axis", indices, av.shape[static_cast<size_t>(a)], loc);
  // One full index vector per result element: the element's own position off the axis, the
  // index along it.
  Shape col = iv.shape;
  col.push_back(1);
  std::vector<Array> parts;
  IntList all, ones(av.shape.size(), 1);
  for (int64_t d = 0; d < av.ndim(); ++d) {
    all.push_back(d);
    if (d == a) parts.push_back(lax::reshape(idx, col, loc));
    else
      parts.push_back(lax::bind1(prim::kIota, {}, Params{{"dtype", iv.dtype}, {"shape", IntList(col)}, {"dimension", d}}, loc));
  }
  Array vectors = parts.size() == 1 ? parts[0] : lax::bind(prim::kConcatenate, parts, Params{{"dimension", av.ndim()}}, loc)[0];
  return lax::gather(x, vectors, shape_rules::GatherDims{{}, all, all, av.ndim()}, ones, 0, loc);
}

Array dynamic_slice(const Array& x, const std::vector<Array>& starts, const std::vector<int64_t>& sizes,
                    SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "dynamic_slice");
  return lax::dynamic_slice(x, normalized_starts("dynamic_slice", av, starts, loc), IntList(sizes.begin(), sizes.end()), loc);
}

Array dynamic_update_slice(const Array& x, const Array& update, const std::vector<Array>& starts, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "dynamic_update_slice");
  api::aval(update, "dynamic_update_slice");
  Array u = api::convert(update, {av.dtype, av.weak}, loc);
  return lax::dynamic_update_slice(x, u, normalized_starts("dynamic_update_slice", av, starts, loc), loc);
}

}  // namespace strata
