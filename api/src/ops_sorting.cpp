// Cumulative ops: cumsum, cumprod, cummax, cummin, cumlogsumexp; sort, argsort, top_k, lexsort,
// partition, argpartition, sort_complex (sorting.h).
#include "op_helpers.h"
#include "strata/sorting.h"
#include "strata/composites.h"

namespace strata {

using lax::bind1;

namespace {

Array cumulative(const Primitive& p, std::string_view op, const Array& x, std::optional<int> axis, bool reverse,
                 const SourceLocation& loc) {
  Array in = x;
  const AbstractValue& av0 = api::aval(x, op);
  bool was_bool = av0.dtype == DType::bool_;
  if (&p == &prim::kCumLogSumExp) in = api::to_inexact(x, op, loc);
  else if (was_bool) in = api::convert(x, {DType::i32, false}, loc);
  else if (&p == &prim::kCumSum || &p == &prim::kCumProd) in = api::widen_small_ints(x, op, loc);
  int a = 0;
  if (!axis) in = reshape(in, {av0.size()}, loc);
  else a = api::normalize_axis(op, *axis, av0);
  Array r = bind1(p, {in}, Params{{"axis", int64_t{a}}, {"reverse", reverse}}, loc);
  if (was_bool && (&p == &prim::kCumMax || &p == &prim::kCumMin))
    r = api::convert(r, {DType::bool_, false}, loc);
  return r;
}

}  // namespace

Array cumsum(const Array& x, std::optional<int> axis, bool reverse, SourceLocation loc) {
  return cumulative(prim::kCumSum, "cumsum", x, axis, reverse, loc);
}
Array cumprod(const Array& x, std::optional<int> axis, bool reverse, SourceLocation loc) {
  return cumulative(prim::kCumProd, "cumprod", x, axis, reverse, loc);
}
Array cummax(const Array& x, std::optional<int> axis, bool reverse, SourceLocation loc) {
  return cumulative(prim::kCumMax, "cummax", x, axis, reverse, loc);
}
Array cummin(const Array& x, std::optional<int> axis, bool reverse, SourceLocation loc) {
  return cumulative(prim::kCumMin, "cummin", x, axis, reverse, loc);
}
Array cumlogsumexp(const Array& x, std::optional<int> axis, bool reverse, SourceLocation loc) {
  return cumulative(prim::kCumLogSumExp, "cumlogsumexp", x, axis, reverse, loc);
}

namespace {

Array rev(const Array& x, int axis, const SourceLocation& loc) {
  return bind1(prim::kRev, {x}, Params{{"dimensions", IntList{axis}}}, loc);
}

Array iota_like(const Array& x, int axis, const SourceLocation& loc) {
  const Shape& s = x.shape();
  return bind1(prim::kIota, {}, Params{{"dtype", DType::i32}, {"shape", IntList(s.begin(), s.end())}, {"dimension", int64_t{axis}}},
               loc);
}

// x (flattened when no axis) and its axis.
std::pair<Array, int> along(std::string_view op, const Array& x, std::optional<int> axis, const SourceLocation& loc) {
  const AbstractValue& av = api::aval(x, op);
  if (!axis) return {reshape(x, {av.size()}, loc), 0};
  if (av.shape.empty()) throw ValueError(std::string(op) + ": expects an array of rank >= 1, but got " + av.str());
  return {x, api::normalize_axis(op, *axis, av)};
}

// x and `payload` (each along `axis`) sorted ascending and stably by x; complex x
// lexicographically by its real, then imaginary parts (as NumPy and lax.sort: nan parts last),
// as two keys. Returns the sorted x then the payload.
std::vector<Array> sort_by(const Array& x, const std::vector<Array>& payload, int axis, const SourceLocation& loc) {
  std::vector<Array> ops{x};
  int64_t keys = 1;
  if (is_complex(x.dtype())) {
    ops = {real(x, loc), imag(x, loc), x};
    keys = 2;
  }
  ops.insert(ops.end(), payload.begin(), payload.end());
  std::vector<Array> r =
      lax::bind(prim::kSort, ops, Params{{"dimension", int64_t{axis}}, {"is_stable", true}, {"num_keys", keys}}, loc);
  return std::vector<Array>(r.end() - static_cast<std::ptrdiff_t>(payload.size() + 1), r.end());
}

// Descending and stable: an ascending stable sort of the reversed array, reversed back (equal
// keys then keep their input order, as jnp.argsort(descending=True)).
std::vector<Array> sort_with_indices(const Array& x, int axis, bool descending, const SourceLocation& loc) {
  Array idx = iota_like(x, axis, loc);
  if (!descending) return sort_by(x, {idx}, axis, loc);
  std::vector<Array> r = sort_by(rev(x, axis, loc), {rev(idx, axis, loc)}, axis, loc);
  return {rev(r[0], axis, loc), rev(r[1], axis, loc)};
}

}  // namespace

std::vector<Array> sort(const std::vector<Array>& operands, int dimension, bool is_stable, int num_keys, SourceLocation loc) {
  if (operands.empty()) throw ValueError("sort: expects at least one operand");
  const AbstractValue& av = api::aval(operands[0], "sort");
  if (av.shape.empty()) throw ValueError("sort: expects operands of rank >= 1, but got " + av.str());
  int d = api::normalize_axis("sort", dimension, av);
  return lax::bind(prim::kSort, operands, Params{{"dimension", int64_t{d}}, {"is_stable", is_stable}, {"num_keys", int64_t{num_keys}}}, loc);
}

Array sort(const Array& x, std::optional<int> axis, bool descending, SourceLocation loc) {
  auto [in, a] = along("sort", x, axis, loc);
  if (!descending) return sort_by(in, {}, a, loc)[0];
  return rev(sort_by(rev(in, a, loc), {}, a, loc)[0], a, loc);
}

Array argsort(const Array& x, std::optional<int> axis, bool descending, SourceLocation loc) {
  auto [in, a] = along("argsort", x, axis, loc);
  return sort_with_indices(in, a, descending, loc)[1];
}

std::pair<Array, Array> top_k(const Array& x, int64_t k, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "top_k");
  if (av.shape.empty()) throw ValueError("top_k: expects an array of rank >= 1, but got " + av.str());
  int axis = static_cast<int>(av.shape.size()) - 1;
  if (k < 0 || k > av.shape[axis])
    throw ValueError("top_k: k = " + std::to_string(k) + " is out of range for " + av.str() + " (the last axis has " +
                     std::to_string(av.shape[axis]) + " elements)");
  std::vector<Array> r = sort_with_indices(x, axis, true, loc);
  IntList start(av.shape.size(), 0), limit(av.shape.begin(), av.shape.end()), strides(av.shape.size(), 1);
  limit[axis] = k;
  return {lax::slice(r[0], start, limit, strides, loc), lax::slice(r[1], start, limit, strides, loc)};
}

Array lexsort(const std::vector<Array>& keys, int axis, SourceLocation loc) {
  if (keys.empty()) throw ValueError("lexsort: expects at least one key");
  const AbstractValue& av = api::aval(keys[0], "lexsort");
  for (const Array& k : keys)
    if (api::aval(k, "lexsort").shape != av.shape)
      throw ShapeError("lexsort: the keys must have one shape, but got " + av.str() + " and " + api::aval(k, "lexsort").str());
  if (av.shape.empty()) throw ValueError("lexsort: expects keys of rank >= 1, but got " + av.str());
  int a = api::normalize_axis("lexsort", axis, av);
  std::vector<Array> ops;
  for (auto k = keys.rbegin(); k != keys.rend(); ++k) {
    if (is_complex(k->dtype())) {
      ops.push_back(real(*k, loc));
      ops.push_back(imag(*k, loc));
    } else {
      ops.push_back(*k);
    }
  }
  int64_t num_keys = static_cast<int64_t>(ops.size());
  ops.push_back(iota_like(keys[0], a, loc));
  return lax::bind(prim::kSort, ops, Params{{"dimension", int64_t{a}}, {"is_stable", true}, {"num_keys", num_keys}}, loc).back();
}

namespace {

// x, its axis and kth checked for partition/argpartition (kth negative from the end).
std::pair<int, int64_t> partition_axis(std::string_view op, const Array& x, int64_t kth, int axis) {
  const AbstractValue& av = api::aval(x, op);
  if (av.shape.empty()) throw ValueError(std::string(op) + ": expects an array of rank >= 1, but got " + av.str());
  if (is_complex(av.dtype)) throw DTypeError(std::string(op) + ": complex values are not supported (as in JAX), got " + av.str());
  int a = api::normalize_axis(op, axis, av);
  int64_t n = av.shape[static_cast<size_t>(a)];
  if (kth < -n || kth >= n)
    throw ValueError(std::string(op) + ": kth = " + std::to_string(kth) + " is out of range for axis " + std::to_string(axis) +
                     " of " + av.str());
  return {a, kth < 0 ? kth + n : kth};
}

}  // namespace

Array partition(const Array& x, int64_t kth, int axis, SourceLocation loc) {
  auto [a, k] = partition_axis("partition", x, kth, axis);
  Array s = sort_by(x, {}, a, loc)[0];
  Array bottom = api::slice_along(s, a, 0, k + 1, 1, loc);
  Array top = rev(api::slice_along(s, a, k + 1, std::nullopt, 1, loc), a, loc);
  return concatenate({bottom, top}, a, loc);
}

// The stable ascending rank of each element says whether it is among the kth+1 smallest; a
// second stable sort keyed by (rank for those, n + position for the rest) lays out the bottom
// by value and the rest by position, as JAX's two top_k calls do.
Array argpartition(const Array& x, int64_t kth, int axis, SourceLocation loc) {
  auto [a, k] = partition_axis("argpartition", x, kth, axis);
  const int64_t n = x.shape()[static_cast<size_t>(a)];
  Array idx = iota_like(x, a, loc);
  Array order = sort_with_indices(x, a, false, loc)[1];
  Array rank = sort_by(order, {idx}, a, loc)[1];
  Array key = where(less_equal(rank, astype(Array(k), i32), loc), rank, idx + astype(Array(n), i32), loc);
  return sort_by(key, {idx}, a, loc)[1];
}

Array sort_complex(const Array& x, SourceLocation loc) {
  Array y = api::to_inexact(x, "sort_complex", loc);  // integers as strata's default float (f32)
  return sort(astype(y, complex_dtype(y.dtype()), loc), -1, false, loc);
}

}  // namespace strata
