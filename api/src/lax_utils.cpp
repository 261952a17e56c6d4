// The non-template half of strata/lax_utils.h.
#include "strata/lax_utils.h"

#include <algorithm>

#include "lax.h"
#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/reduce.h"
#include "strata/selection.h"
#include "strata/sorting.h"

namespace strata {

namespace {
// cases[which] for which in [lo, hi): a binary search over the index, as JAX lowers select_n
// (log2(n) selects).
Array pick_case(const Array& which, const std::vector<Array>& cases, size_t lo, size_t hi, const SourceLocation& loc) {
  if (hi - lo == 1) return cases[lo];
  size_t mid = (lo + hi) / 2;
  Array upper = which >= astype(Array(static_cast<double>(mid)), which.dtype());
  return where(upper, pick_case(which, cases, mid, hi, loc), pick_case(which, cases, lo, mid, loc), loc);
}
}  // namespace

Array select_n(const Array& which, const std::vector<Array>& cases, SourceLocation loc) {
  if (cases.empty()) throw ValueError("select_n: expects at least one case");
  const AbstractValue& w = api::aval(which, "select_n");
  const AbstractValue& c0 = api::aval(cases[0], "select_n");
  for (size_t i = 1; i < cases.size(); ++i) {
    const AbstractValue& ci = api::aval(cases[i], "select_n");
    if (ci.shape != c0.shape || ci.dtype != c0.dtype)
      throw ShapeError("select_n: the cases must share a shape and dtype, but case 0 is " + c0.str() + " and case " +
                       std::to_string(i) + " is " + ci.str());
  }
  if (!w.shape.empty() && w.shape != c0.shape)
    throw ShapeError("select_n: which must be 0-d or of the cases' shape " + c0.str() + ", but got " + w.str());
  if (w.dtype == DType::bool_) {
    if (cases.size() > 2) throw ValueError("select_n: a bool which selects between at most 2 cases, but got " + std::to_string(cases.size()));
    return cases.size() == 1 ? cases[0] : where(which, cases[1], cases[0], loc);
  }
  if (!is_integer(w.dtype)) throw DTypeError("select_n: which must be bool or an integer, but got " + w.str());
  return pick_case(which, cases, 0, cases.size(), loc);
}

Array slice_in_dim(const Array& x, int64_t start, std::optional<int64_t> limit, int64_t stride, int axis,
                   SourceLocation loc) {
  int a = api::normalize_axis("slice_in_dim", axis, api::aval(x, "slice_in_dim"));
  return api::slice_along(x, a, start, limit, stride, loc);
}

Array index_in_dim(const Array& x, int64_t index, int axis, bool keepdims, SourceLocation loc) {
  int a = api::normalize_axis("index_in_dim", axis, api::aval(x, "index_in_dim"));
  const int64_t n = x.shape()[static_cast<size_t>(a)];
  if (index < -n || index >= n)
    throw ValueError("index_in_dim: index " + std::to_string(index) + " is out of bounds for axis " + std::to_string(a) +
                     " of size " + std::to_string(n));
  if (index < 0) index += n;
  Array s = api::slice_along(x, a, index, index + 1, 1, loc);
  return keepdims ? s : squeeze(s, {a}, loc);
}

Array dynamic_slice_in_dim(const Array& x, const Array& start, int64_t size, int axis, SourceLocation loc) {
  int a = api::normalize_axis("dynamic_slice_in_dim", axis, api::aval(x, "dynamic_slice_in_dim"));
  std::vector<Array> starts(static_cast<size_t>(x.ndim()), zeros({}, DType::i32));
  starts[static_cast<size_t>(a)] = start;
  std::vector<int64_t> sizes = x.shape();
  sizes[static_cast<size_t>(a)] = size;
  return dynamic_slice(x, starts, sizes, loc);
}

Array dynamic_index_in_dim(const Array& x, const Array& index, int axis, bool keepdims, SourceLocation loc) {
  int a = api::normalize_axis("dynamic_index_in_dim", axis, api::aval(x, "dynamic_index_in_dim"));
  Array s = dynamic_slice_in_dim(x, index, 1, a, loc);
  return keepdims ? s : squeeze(s, {a}, loc);
}

Array dynamic_update_slice_in_dim(const Array& x, const Array& update, const Array& start, int axis, SourceLocation loc) {
  int a = api::normalize_axis("dynamic_update_slice_in_dim", axis, api::aval(x, "dynamic_update_slice_in_dim"));
  std::vector<Array> starts(static_cast<size_t>(x.ndim()), zeros({}, DType::i32));
  starts[static_cast<size_t>(a)] = start;
  return dynamic_update_slice(x, update, starts, loc);
}

Array dynamic_update_index_in_dim(const Array& x, const Array& update, const Array& index, int axis, SourceLocation loc) {
  int a = api::normalize_axis("dynamic_update_index_in_dim", axis, api::aval(x, "dynamic_update_index_in_dim"));
  Array u = update.ndim() == x.ndim() ? update : expand_dims(update, a, loc);
  return dynamic_update_slice_in_dim(x, u, index, a, loc);
}

Array collapse(const Array& x, int start, std::optional<int> stop, SourceLocation loc) {
  const int rank = static_cast<int>(x.ndim());
  int s = start < 0 ? start + rank : start, e = stop ? (*stop < 0 ? *stop + rank : *stop) : rank;
  if (s < 0 || e > rank || s > e)
    throw ValueError("collapse: dimensions [" + std::to_string(start) + ", " + (stop ? std::to_string(*stop) : "end") +
                     ") are not a range of rank " + std::to_string(rank));
  Shape sh;
  int64_t merged = 1;
  for (int d = 0; d < rank; ++d) {
    if (d >= s && d < e) {
      merged *= x.shape()[static_cast<size_t>(d)];
      if (d == e - 1) sh.push_back(merged);
    } else {
      sh.push_back(x.shape()[static_cast<size_t>(d)]);
    }
  }
  if (s == e) sh.insert(sh.begin() + s, 1);
  return reshape(x, sh, loc);
}

Array broadcasted_iota(DType dtype, const Shape& shape, int dimension, SourceLocation loc) {
  int d = api::normalize_axis("broadcasted_iota", dimension, AbstractValue{shape, dtype});
  Array line = arange(shape[static_cast<size_t>(d)], dtype);
  Shape view(shape.size(), 1);
  view[static_cast<size_t>(d)] = shape[static_cast<size_t>(d)];
  return broadcast_to(reshape(line, view, loc), shape, loc);
}

Array pad(const Array& x, const Array& padding_value, const std::vector<std::array<int64_t, 3>>& config,
          SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "pad");
  const AbstractValue& pv = api::aval(padding_value, "pad");
  if (config.size() != av.shape.size())
    throw ValueError("pad: expects one (low, high, interior) per dimension of " + av.str() + ", but got " +
                     std::to_string(config.size()));
  if (!pv.shape.empty()) throw ShapeError("pad: the padding value must be 0-d, but got " + pv.str());
  IntList lo, hi, interior;
  for (const auto& c : config) {
    if (c[2] < 0) throw ValueError("pad: interior padding must be non-negative, but got " + std::to_string(c[2]));
    lo.push_back(c[0]);
    hi.push_back(c[1]);
    interior.push_back(c[2]);
  }
  return lax::pad(x, api::convert(padding_value, {av.dtype, false}, loc), lo, hi, interior, loc);
}

std::pair<Array, Array> sort_key_val(const Array& keys, const Array& values, int dimension, bool is_stable,
                                     SourceLocation loc) {
  std::vector<Array> r = sort({keys, values}, dimension, is_stable, 1, loc);
  return {r[0], r[1]};
}

Array batch_matmul(const Array& lhs, const Array& rhs, SourceLocation loc) {
  const AbstractValue &l = api::aval(lhs, "batch_matmul"), &r = api::aval(rhs, "batch_matmul");
  if (l.shape.size() < 2 || l.shape.size() != r.shape.size() ||
      !std::equal(l.shape.begin(), l.shape.end() - 2, r.shape.begin()))
    throw ShapeError("batch_matmul: expects operands of equal rank >= 2 with equal batch dimensions, but got " +
                     l.str() + " and " + r.str());
  return matmul(lhs, rhs, loc);
}

namespace {
Array reduce_bits(const Array& x, const std::vector<int>& axes, const char* op, int kind) {
  const AbstractValue& av = api::aval(x, op);
  if (av.dtype != DType::bool_ && !is_integer(av.dtype))
    throw DTypeError(std::string(op) + ": expects a bool or integer array, but got " + av.str());
  std::vector<int> dims;
  for (int a : axes) dims.push_back(api::normalize_axis(op, a, av));
  // The identity of each: all ones (and), zeros (or, xor).
  Array init = kind == 0 ? ~zeros({}, av.dtype) : zeros({}, av.dtype);
  auto fn = [kind](const Array& a, const Array& b) { return kind == 0 ? (a & b) : kind == 1 ? (a | b) : (a ^ b); };
  return reduce(x, init, fn, dims);
}
}  // namespace

Array reduce_and(const Array& x, const std::vector<int>& axes, SourceLocation) { return reduce_bits(x, axes, "reduce_and", 0); }
Array reduce_or(const Array& x, const std::vector<int>& axes, SourceLocation) { return reduce_bits(x, axes, "reduce_or", 1); }
Array reduce_xor(const Array& x, const std::vector<int>& axes, SourceLocation) { return reduce_bits(x, axes, "reduce_xor", 2); }

namespace {
std::pair<Array, Array> exact_k(const Array& x, int64_t k, int dim, bool largest, const char* op, SourceLocation loc) {
  int d = api::normalize_axis(op, dim, api::aval(x, op));
  const int last = static_cast<int>(x.ndim()) - 1;
  Array moved = d == last ? x : moveaxis(x, d, last, loc);
  auto [v, i] = top_k(largest ? moved : -moved, k, loc);
  if (!largest) v = -v;
  if (d != last) {
    v = moveaxis(v, last, d, loc);
    i = moveaxis(i, last, d, loc);
  }
  return {v, i};
}
}  // namespace

std::pair<Array, Array> approx_max_k(const Array& x, int64_t k, int reduction_dimension, SourceLocation loc) {
  return exact_k(x, k, reduction_dimension, true, "approx_max_k", loc);
}
std::pair<Array, Array> approx_min_k(const Array& x, int64_t k, int reduction_dimension, SourceLocation loc) {
  return exact_k(x, k, reduction_dimension, false, "approx_min_k", loc);
}

}  // namespace strata
