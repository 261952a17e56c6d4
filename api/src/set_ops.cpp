// jax.numpy's set operations (strata/set_ops.h) from public ops: one stable sort of the values
// (of the rows, for unique along an axis) finds where each run of equal values starts; the
// results are the run starts compacted to a static size (nonzero with size=), so everything
// traces, and the unsized forms are the sized ones at the count read from a concrete input.
#include "strata/set_ops.h"

#include <string>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/searching.h"
#include "strata/selection.h"
#include "strata/sorting.h"

namespace strata {

namespace {

// The sort keys of a column: complex values by real, then imaginary part (as st::sort).
void push_keys(std::vector<Array>& keys, const Array& col, const SourceLocation& loc) {
  if (is_complex(col.dtype())) {
    keys.push_back(real(col, loc));
    keys.push_back(imag(col, loc));
  } else {
    keys.push_back(col);
  }
}

// The rows of `rows` ([n, m], compared whole) sorted stably, where they came from, and where
// each run of equal rows starts (all true when the caller promises distinct rows).
struct Runs {
  Array sorted, perm, first;
};

Runs sorted_runs(const Array& rows_in, bool equal_nan, bool distinct, const SourceLocation& loc) {
  Array rows = rows_in;
  const int64_t n = rows.shape()[0], m = rows.shape()[1];
  const bool inexact = is_floating(rows.dtype()) || is_complex(rows.dtype());
  // A complex value with a NaN part is one NaN (nan + 0j), as JAX's unique.
  if (is_complex(rows.dtype())) rows = where(not_equal(rows, rows, loc), api::weak_scalar_like(NAN, rows, "unique", loc), rows, loc);
  Array iota = arange(n, i32);
  Array perm = iota;
  if (m > 0 && n > 1) {
    std::vector<Array> ops;
    for (int64_t j = 0; j < m; ++j) push_keys(ops, reshape(api::slice_along(rows, 1, j, j + 1, 1, loc), {n}, loc), loc);
    int num_keys = static_cast<int>(ops.size());
    ops.push_back(iota);
    perm = sort(ops, 0, true, num_keys, loc).back();
  }
  Array sorted = take(rows, perm, 0, loc);
  if (distinct || n <= 1) return {sorted, perm, full({n}, 1, bool_)};
  Array next = api::slice_along(sorted, 0, 1, std::nullopt, 1, loc), prev = api::slice_along(sorted, 0, 0, n - 1, 1, loc);
  Array neq = not_equal(next, prev, loc);
  if (inexact && equal_nan)
    neq = logical_and(neq, logical_not(logical_and(not_equal(next, next, loc), not_equal(prev, prev, loc), loc), loc), loc);
  Array starts = m > 0 ? any(neq, 1, false, loc) : full({n - 1}, 0, bool_);
  return {sorted, perm, concatenate({full({1}, 1, bool_), starts}, 0, loc)};
}

// The number of true entries of `mask` (i32).
Array count_of(const Array& mask, const SourceLocation& loc) { return sum(astype(mask, i32, loc), {}, false, loc); }

// `size`, or the concrete count of `mask` for the unsized forms (which cannot trace).
int64_t static_size(std::optional<int64_t> size, const Array& input, const Array& mask, std::string_view op) {
  if (size) {
    if (*size < 0) throw ValueError(std::string(op) + ": expects a non-negative size, but got " + std::to_string(*size));
    return *size;
  }
  if (input.is_tracer() || mask.is_tracer())
    throw ConcretizationError(std::string(op) + ": the size of the result depends on the values of " + api::aval(input, op).str() +
                              ", which are not known under a trace (jit, grad, vmap); pass a static size (and a "
                              "fill_value), as JAX's size=");
  return static_cast<int64_t>(sum(astype(mask, i64)).item<int64_t>());
}

// The first `size` entries (rows) of `values` where `keep` holds, in order (past the kept ones:
// values[0], nonzero's padding — JAX's default for unique).
Array kept(const Array& values, const Array& keep, int64_t size, const SourceLocation& loc) {
  return take(values, nonzero(keep, size, 0, loc)[0], 0, loc);
}

// `v` (kept's result) with the entries past the kept count set to `fill` (in v's dtype).
Array padded(const Array& v, const Array& keep, int64_t size, const Array& fill, const SourceLocation& loc) {
  Shape valid_shape(static_cast<size_t>(v.ndim()), 1);
  valid_shape[0] = size;
  Array valid = reshape(less(arange(size, i32), count_of(keep, loc), loc), valid_shape, loc);
  return where(valid, v, api::convert(fill, {v.dtype(), false}, loc), loc);
}

Array compact(const Array& values, const Array& keep, int64_t size, const std::optional<Array>& fill,
              const SourceLocation& loc) {
  Array v = kept(values, keep, size, loc);
  return fill ? padded(v, keep, size, *fill, loc) : v;
}

// JAX's default fill of intersect1d and setxor1d: the smallest value of the result (its first,
// being sorted), 0 when it is empty.
Array smallest_or_zero(const Array& result, const Array& count, const SourceLocation& loc) {
  if (result.shape()[0] == 0) return zeros({}, result.dtype());
  return where(greater(count, api::i32_scalar(0), loc), reshape(api::slice_along(result, 0, 0, 1, 1, loc), {}, loc),
               zeros({}, result.dtype()), loc);
}

Array flat(const Array& x, const SourceLocation& loc) { return reshape(x, {x.size()}, loc); }

// The rows view of a 1-d array: [n, 1].
Array as_rows(const Array& x1d, const SourceLocation& loc) { return reshape(x1d, {x1d.size(), 1}, loc); }

// a and b flattened in their common dtype.
std::pair<Array, Array> flat_pair(std::string_view op, const Array& a, const Array& b, const SourceLocation& loc) {
  auto [pa, pb] = api::promote_dtypes(op, a, b, loc);
  return {flat(pa, loc), flat(pb, loc)};
}

Array empty_result(int64_t size, const std::optional<Array>& fill, DType t, std::string_view op, const SourceLocation& loc) {
  if (size > 0 && !fill)
    throw ValueError(std::string(op) + ": the input is empty, so size = " + std::to_string(size) +
                     " needs a fill_value");
  return size > 0 ? api::broadcast_to_shape(api::convert(*fill, {t, false}, loc), {size}, loc) : zeros({0}, t);
}

}  // namespace

Unique unique(const Array& x, const UniqueOptions& o, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "unique");
  int axis = 0;
  Array rows;
  Shape rest;  // the shape of one slice along the axis
  if (o.axis) {
    if (av.shape.empty()) throw ValueError("unique: an axis needs an array of rank >= 1, but got " + av.str());
    axis = api::normalize_axis("unique", *o.axis, av);
    Array moved = moveaxis(x, axis, 0, loc);
    rest.assign(moved.shape().begin() + 1, moved.shape().end());
    int64_t m = 1;
    for (int64_t d : rest) m *= d;
    rows = reshape(moved, {moved.shape()[0], m}, loc);
  } else {
    rows = as_rows(flat(x, loc), loc);
  }
  const int64_t n = rows.shape()[0];
  Unique r;
  if (n == 0) {
    int64_t size = o.size.value_or(0);
    if (size > 0 && !o.fill_value)
      throw ValueError("unique: the input " + av.str() + " is empty, so size = " + std::to_string(size) + " needs a fill_value");
    Shape vs{size};
    vs.insert(vs.end(), rest.begin(), rest.end());
    r.values = size > 0 ? api::broadcast_to_shape(api::convert(*o.fill_value, {av.dtype, false}, loc), vs, loc) : zeros(vs, av.dtype);
    if (o.axis) r.values = moveaxis(r.values, 0, axis, loc);
    if (o.return_index) r.indices = zeros({size}, i32);
    if (o.return_inverse) r.inverse_indices = o.axis ? zeros({0}, i32) : zeros(av.shape, i32);
    if (o.return_counts) r.counts = zeros({size}, i32);
    return r;
  }
  Runs runs = sorted_runs(rows, o.equal_nan, false, loc);
  const int64_t size = static_size(o.size, x, runs.first, "unique");
  Array vals = compact(runs.sorted, runs.first, size, o.fill_value, loc);
  Shape vs{size};
  vs.insert(vs.end(), rest.begin(), rest.end());
  r.values = reshape(vals, vs, loc);
  if (o.axis) r.values = moveaxis(r.values, 0, axis, loc);
  if (o.return_index) r.indices = take(runs.perm, nonzero(runs.first, size, 0, loc)[0], 0, loc);
  if (o.return_inverse) {
    // The run number of each sorted row, sent back to the row's place.
    Array run = cumsum(astype(runs.first, i32, loc), 0, false, loc) - api::i32_scalar(1);
    Array inv = zeros({n}, i32).at(runs.perm).set(run, loc);
    r.inverse_indices = o.axis ? inv : reshape(inv, av.shape, loc);
  }
  if (o.return_counts) {
    // Run lengths: the next run's start minus this one's; the starts past the last run (0 from
    // nonzero's padding; only slot 0 is a real 0) count as n, so padding slots count 0.
    Array starts = nonzero(runs.first, size + 1, 0, loc)[0];
    starts = where(logical_and(equal(starts, api::i32_scalar(0), loc), greater(arange(size + 1, i32), api::i32_scalar(0), loc), loc),
                   api::i32_scalar(n), starts, loc);
    r.counts = api::slice_along(starts, 0, 1, std::nullopt, 1, loc) - api::slice_along(starts, 0, 0, size, 1, loc);
  }
  return r;
}

Array unique(const Array& x, std::optional<int64_t> size, std::optional<Array> fill_value, SourceLocation loc) {
  return unique(x, UniqueOptions{.size = size, .fill_value = std::move(fill_value)}, loc).values;
}

Unique unique_all(const Array& x, std::optional<int64_t> size, std::optional<Array> fill_value, SourceLocation loc) {
  return unique(x,
                UniqueOptions{.return_index = true, .return_inverse = true, .return_counts = true, .equal_nan = false,
                              .size = size, .fill_value = std::move(fill_value)},
                loc);
}

std::pair<Array, Array> unique_counts(const Array& x, std::optional<int64_t> size, std::optional<Array> fill_value,
                                      SourceLocation loc) {
  Unique u = unique(x, UniqueOptions{.return_counts = true, .equal_nan = false, .size = size, .fill_value = std::move(fill_value)}, loc);
  return {u.values, u.counts};
}

std::pair<Array, Array> unique_inverse(const Array& x, std::optional<int64_t> size, std::optional<Array> fill_value,
                                       SourceLocation loc) {
  Unique u = unique(x, UniqueOptions{.return_inverse = true, .equal_nan = false, .size = size, .fill_value = std::move(fill_value)}, loc);
  return {u.values, u.inverse_indices};
}

Array unique_values(const Array& x, std::optional<int64_t> size, std::optional<Array> fill_value, SourceLocation loc) {
  return unique(x, UniqueOptions{.equal_nan = false, .size = size, .fill_value = std::move(fill_value)}, loc).values;
}

// Every pair compared when that is small (JAX's "compare_all"), else a binary search in the
// sorted test values (the same answers; complex values always compare all).
Array isin(const Array& element, const Array& test_elements, bool invert, SourceLocation loc) {
  const Shape shape = api::aval(element, "isin").shape;
  auto [e, t] = flat_pair("isin", element, test_elements, loc);
  const int64_t ne = e.size(), nt = t.size();
  Array found;
  if (ne == 0 || nt == 0) {
    found = full({ne}, 0, bool_);
  } else if (is_complex(e.dtype()) || ne * nt <= (int64_t{1} << 20)) {
    found = any(equal(reshape(e, {ne, 1}, loc), reshape(t, {1, nt}, loc), loc), 1, false, loc);
  } else {
    Array ts = sort(t, 0, false, loc);
    Array pos = minimum(searchsorted(ts, e, "left", loc), api::i32_scalar(nt - 1), loc);
    found = equal(take(ts, pos, 0, loc), e, loc);
  }
  if (invert) found = logical_not(found, loc);
  return reshape(found, shape, loc);
}

Array union1d(const Array& a, const Array& b, std::optional<int64_t> size, std::optional<Array> fill_value, SourceLocation loc) {
  auto [fa, fb] = flat_pair("union1d", a, b, loc);
  return unique(concatenate({fa, fb}, 0, loc), UniqueOptions{.size = size, .fill_value = std::move(fill_value)}, loc).values;
}

Array setdiff1d(const Array& a, const Array& b, bool assume_unique, std::optional<int64_t> size,
                std::optional<Array> fill_value, SourceLocation loc) {
  auto [fa, fb] = flat_pair("setdiff1d", a, b, loc);
  Array fill = fill_value ? *fill_value : Array(0);
  if (fa.size() == 0) return empty_result(size.value_or(0), fill, fa.dtype(), "setdiff1d", loc);
  Runs ra = sorted_runs(as_rows(fa, loc), true, assume_unique, loc);
  Array sorted = reshape(ra.sorted, {fa.size()}, loc);
  Array keep = logical_and(ra.first, isin(sorted, fb, true, loc), loc);
  return compact(sorted, keep, static_size(size, fa, keep, "setdiff1d"), fill, loc);
}

Intersection intersect1d_indices(const Array& a, const Array& b, bool assume_unique, std::optional<int64_t> size,
                                 std::optional<Array> fill_value, SourceLocation loc) {
  auto [fa, fb] = flat_pair("intersect1d", a, b, loc);
  const int64_t na = fa.size(), nb = fb.size();
  if (na == 0 || nb == 0) {
    int64_t s = size.value_or(0);
    Array fill = fill_value ? *fill_value : Array(0);
    return {empty_result(s, fill, fa.dtype(), "intersect1d", loc), full({s}, static_cast<double>(na), i32),
            full({s}, static_cast<double>(nb), i32)};
  }
  Runs ra = sorted_runs(as_rows(fa, loc), true, assume_unique, loc), rb = sorted_runs(as_rows(fb, loc), true, assume_unique, loc);
  Array sa = reshape(ra.sorted, {na}, loc), sb = reshape(rb.sorted, {nb}, loc);
  // The distinct values of a found in b, and those of b found in a: the same sorted list.
  Array keep_a = logical_and(ra.first, isin(sa, fb, false, loc), loc);
  Array keep_b = logical_and(rb.first, isin(sb, fa, false, loc), loc);
  const int64_t s = static_size(size, fa, keep_a, "intersect1d");
  Array count = count_of(keep_a, loc);
  Array values = kept(sa, keep_a, s, loc);
  values = padded(values, keep_a, s, fill_value ? *fill_value : smallest_or_zero(values, count, loc), loc);
  return {values, compact(ra.perm, keep_a, s, api::i32_scalar(na), loc), compact(rb.perm, keep_b, s, api::i32_scalar(nb), loc)};
}

Array intersect1d(const Array& a, const Array& b, bool assume_unique, std::optional<int64_t> size,
                  std::optional<Array> fill_value, SourceLocation loc) {
  return intersect1d_indices(a, b, assume_unique, size, std::move(fill_value), loc).values;
}

Array setxor1d(const Array& a, const Array& b, bool assume_unique, std::optional<int64_t> size,
               std::optional<Array> fill_value, SourceLocation loc) {
  auto [fa, fb] = flat_pair("setxor1d", a, b, loc);
  const int64_t na = fa.size(), nb = fb.size();
  // The distinct values of each not found in the other, merged in order: a stable sort of both
  // with the kept ones first.
  std::vector<Array> vals, keeps;
  for (auto [x, other] : {std::pair{fa, fb}, std::pair{fb, fa}}) {
    if (x.size() == 0) continue;
    Runs r = sorted_runs(as_rows(x, loc), true, assume_unique, loc);
    Array sorted = reshape(r.sorted, {x.size()}, loc);
    vals.push_back(sorted);
    keeps.push_back(logical_and(r.first, isin(sorted, other, true, loc), loc));
  }
  if (vals.empty()) return empty_result(size.value_or(0), fill_value ? *fill_value : Array(0), fa.dtype(), "setxor1d", loc);
  Array all = concatenate(vals, 0, loc), keep = concatenate(keeps, 0, loc);
  std::vector<Array> ops{astype(logical_not(keep, loc), i32, loc)};
  push_keys(ops, all, loc);
  int num_keys = static_cast<int>(ops.size());
  ops.push_back(arange(na + nb, i32));
  Array merged = take(all, sort(ops, 0, true, num_keys, loc).back(), 0, loc);
  Array kept_first = less(arange(na + nb, i32), count_of(keep, loc), loc);
  const int64_t s = static_size(size, fa, keep, "setxor1d");
  Array values = kept(merged, kept_first, s, loc);
  return padded(values, kept_first, s, fill_value ? *fill_value : smallest_or_zero(values, count_of(keep, loc), loc), loc);
}

}  // namespace strata
