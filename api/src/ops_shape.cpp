// Shape ops: broadcast_to, reshape, transpose, expand_dims, squeeze, slice, concatenate.
#include <algorithm>

#include "op_helpers.h"
#include "shape_rules.h"

namespace strata {

using lax::bind1;

Array broadcast_to(const Array& x, const Shape& shape, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "broadcast_to");
  for (int64_t d : shape)
    if (d < 0) throw ShapeError("broadcast_to: cannot broadcast " + av.str() + " to shape " + shape_string(shape));
  shape_rules::Result r = shape_rules::broadcast_shapes(av.shape, shape);
  if (!r.ok() || r.shape != shape)
    throw ShapeError("broadcast_to: cannot broadcast " + av.str() + " to shape " + shape_string(shape));
  return api::broadcast_to_shape(x, shape, loc);
}

Array reshape(const Array& x, const Shape& shape, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "reshape");
  Shape s = shape;
  int infer = -1;
  int64_t known = 1;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == -1) {
      if (infer >= 0) throw ValueError("reshape: only one dimension may be -1, but got " + shape_string(shape));
      infer = static_cast<int>(i);
    } else if (s[i] < 0) {
      throw ValueError("reshape: expects non-negative dimensions (or one -1), but got " + shape_string(shape));
    } else {
      known *= s[i];
    }
  }
  if (infer >= 0) {
    if (known == 0 || av.size() % known != 0)
      throw ShapeError("reshape: cannot reshape " + av.str() + " into " + shape_string(shape));
    s[static_cast<size_t>(infer)] = av.size() / known;
  }
  if (num_elements(s) != av.size())
    throw ShapeError("reshape: cannot reshape " + av.str() + " (" + std::to_string(av.size()) +
                     " elements) into " + shape_string(shape));
  return lax::reshape(x, s, loc);
}

Array transpose(const Array& x, const std::vector<int>& axes, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "transpose");
  IntList perm;
  if (axes.empty()) {
    for (int i = av.ndim() - 1; i >= 0; --i) perm.push_back(i);
  } else {
    if (static_cast<int>(axes.size()) != av.ndim())
      throw ValueError("transpose: expects a permutation of " + std::to_string(av.ndim()) +
                       " axes for " + av.str() + ", but got " + std::to_string(axes.size()));
    for (int a : axes) {
      int64_t p = api::normalize_axis("transpose", a, av);
      if (std::find(perm.begin(), perm.end(), p) != perm.end())
        throw ValueError("transpose: axis " + std::to_string(a) + " is repeated in the permutation for " + av.str());
      perm.push_back(p);
    }
  }
  return lax::transpose(x, perm, loc);
}

Array expand_dims(const Array& x, int axis, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "expand_dims");
  int rank = av.ndim() + 1;
  int a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)
    throw ValueError("expand_dims: axis " + std::to_string(axis) + " is out of range for " + av.str());
  Shape s = av.shape;
  s.insert(s.begin() + a, 1);
  return reshape(x, s, loc);
}

Array squeeze(const Array& x, Axes axes, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "squeeze");
  IntList drop;
  if (!axes.list) {
    for (int i = 0; i < av.ndim(); ++i)
      if (av.shape[static_cast<size_t>(i)] == 1) drop.push_back(i);
  } else {
    drop = api::normalize_axes("squeeze", axes, av);
    for (int64_t a : drop)
      if (av.shape[static_cast<size_t>(a)] != 1)
        throw ValueError("squeeze: axis " + std::to_string(a) + " of " + av.str() + " has size " +
                         std::to_string(av.shape[static_cast<size_t>(a)]) + ", not 1");
  }
  Shape s;
  for (int i = 0; i < av.ndim(); ++i)
    if (std::find(drop.begin(), drop.end(), i) == drop.end()) s.push_back(av.shape[static_cast<size_t>(i)]);
  return reshape(x, s, loc);
}

Array slice(const Array& x, const std::vector<int64_t>& start, const std::vector<int64_t>& stop,
            const std::vector<int64_t>& strides, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "slice");
  size_t rank = av.shape.size();
  if (start.size() > rank || stop.size() > rank || strides.size() > rank)
    throw ValueError("slice: got more indices than the " + std::to_string(rank) + " dimensions of " + av.str());
  IntList lo(rank), hi(rank), step(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t d = av.shape[i];
    int64_t s = i < start.size() ? start[i] : 0;
    int64_t e = i < stop.size() ? stop[i] : d;
    int64_t k = i < strides.size() ? strides[i] : 1;
    if (k <= 0) throw ValueError("slice: expects positive strides, but got " + std::to_string(k) + " in dimension " + std::to_string(i));
    // NumPy's rules: negative indices count from the end; out-of-range ones clamp.
    if (s < 0) s += d;
    if (e < 0) e += d;
    s = std::clamp<int64_t>(s, 0, d);
    e = std::clamp<int64_t>(e, 0, d);
    if (e < s) e = s;
    lo[i] = s;
    hi[i] = e;
    step[i] = std::min(k, std::max<int64_t>(d, 1));  // any stride >= d takes one element; no overflow
  }
  return lax::slice(x, lo, hi, step, loc);
}

Array concatenate(const std::vector<Array>& xs, int axis, SourceLocation loc) {
  if (xs.empty()) throw ValueError("concatenate: expects at least one array, but got none");
  TypeSpec t = api::spec(xs[0], "concatenate");
  for (const Array& a : xs) t = promote_types(t, api::spec(a, "concatenate"));
  const AbstractValue& first = api::aval(xs[0], "concatenate");
  if (first.shape.empty()) throw ValueError("concatenate: expects arrays of rank >= 1, but got " + first.str());
  int a = api::normalize_axis("concatenate", axis, first);
  std::vector<Array> ins;
  for (const Array& x : xs) {
    const AbstractValue& av = api::aval(x, "concatenate");
    bool ok = av.ndim() == first.ndim();
    for (int d = 0; ok && d < av.ndim(); ++d)
      if (d != a && av.shape[static_cast<size_t>(d)] != first.shape[static_cast<size_t>(d)]) ok = false;
    if (!ok)
      throw ShapeError("concatenate: shapes " + first.str() + " and " + av.str() +
                       " do not agree outside axis " + std::to_string(a));
    ins.push_back(api::convert(x, t, loc));
  }
  if (ins.size() == 1) return ins[0];
  return lax::bind(prim::kConcatenate, ins, Params{{"dimension", int64_t{a}}}, loc)[0];
}

}  // namespace strata
