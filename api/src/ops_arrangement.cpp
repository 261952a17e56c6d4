// More of jax.numpy's array-arranging functions (composites.h): array_split and the h/v/d
// splits, unstack, permute_dims, diagflat, diag_indices, fill_diagonal, trim_zeros, matvec,
// vecmat, choose, compress, extract, put_along_axis, packbits, unpackbits, spacing, delete_,
// insert, indices, ix_, block.
#include <algorithm>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/selection.h"
#include "strata/sorting.h"

namespace strata {

namespace {

bool all_equal(const Shape& s) {
  for (int64_t d : s)
    if (d != s[0]) return false;
  return true;
}

}  // namespace

std::vector<Array> array_split(const Array& x, int64_t sections, int axis, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "array_split");
  int a = api::normalize_axis("array_split", axis, av);
  if (sections <= 0) throw ValueError("array_split: expects a positive number of sections, but got " + std::to_string(sections));
  // NumPy's: the first (size % sections) parts one longer.
  int64_t n = av.shape[static_cast<size_t>(a)], part = n / sections, extra = n % sections, at = 0;
  std::vector<int64_t> cuts;
  for (int64_t i = 0; i + 1 < sections; ++i) cuts.push_back(at += part + (i < extra ? 1 : 0));
  return split(x, cuts, a, loc);
}

std::vector<Array> hsplit(const Array& x, int64_t sections, SourceLocation loc) {
  return split(x, sections, api::aval(x, "hsplit").shape.size() == 1 ? 0 : 1, loc);
}
std::vector<Array> vsplit(const Array& x, int64_t sections, SourceLocation loc) {
  if (api::aval(x, "vsplit").shape.size() < 2) throw ValueError("vsplit: expects an array of rank >= 2, but got " + api::aval(x, "vsplit").str());
  return split(x, sections, 0, loc);
}
std::vector<Array> dsplit(const Array& x, int64_t sections, SourceLocation loc) {
  if (api::aval(x, "dsplit").shape.size() < 3) throw ValueError("dsplit: expects an array of rank >= 3, but got " + api::aval(x, "dsplit").str());
  return split(x, sections, 2, loc);
}

std::vector<Array> unstack(const Array& x, int axis, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "unstack");
  if (av.shape.empty()) throw ValueError("unstack: expects an array of rank >= 1, but got " + av.str());
  int a = api::normalize_axis("unstack", axis, av);
  std::vector<Array> out;
  for (int64_t i = 0; i < av.shape[static_cast<size_t>(a)]; ++i)
    out.push_back(squeeze(api::slice_along(x, a, i, i + 1, 1, loc), {a}, loc));
  return out;
}

Array permute_dims(const Array& x, const std::vector<int>& axes, SourceLocation loc) { return transpose(x, axes, loc); }

Array diagflat(const Array& v, int64_t k, SourceLocation loc) { return diag(ravel(v, loc), k, loc); }

std::vector<Array> diag_indices(int64_t n, int ndim) {
  if (n < 0 || ndim < 0)
    throw ValueError("diag_indices: expects non-negative n and ndim, but got " + std::to_string(n) + " and " + std::to_string(ndim));
  return std::vector<Array>(static_cast<size_t>(ndim), arange(n, i32));
}

std::vector<Array> diag_indices_from(const Array& x) {
  const AbstractValue& av = api::aval(x, "diag_indices_from");
  if (av.shape.size() < 2 || !all_equal(av.shape))
    throw ValueError("diag_indices_from: expects a square array of rank >= 2, but got " + av.str());
  return diag_indices(av.shape[0], static_cast<int>(av.shape.size()));
}

// The flat positions i·(1 + d1 + d1·d2 + ...) of the diagonal, set through a flat view.
Array fill_diagonal(const Array& a, const Array& val, SourceLocation loc) {
  const AbstractValue& av = api::aval(a, "fill_diagonal");
  if (av.shape.size() < 2) throw ValueError("fill_diagonal: expects an array of rank >= 2, but got " + av.str());
  if (av.shape.size() > 2 && !all_equal(av.shape))
    throw ValueError("fill_diagonal: the dimensions of " + av.str() + " must be equal beyond rank 2");
  const int64_t n = *std::min_element(av.shape.begin(), av.shape.end());
  int64_t step = 0, stride = 1;
  for (size_t d = av.shape.size(); d-- > 0;) {
    step += stride;
    stride *= av.shape[d];
  }
  Array pos = arange(n, i32) * api::i32_scalar(step);
  Array v = ravel(val, loc);
  // val is repeated (or cut) to n values, as NumPy's.
  if (v.size() != 1 && v.size() != n) {
    if (v.size() == 0) throw ValueError("fill_diagonal: expects a non-empty val");
    v = take(v, arange(n, i32) % api::i32_scalar(v.size()), 0, loc);
  }
  return reshape(ravel(a, loc).at(pos).set(v, loc), av.shape, loc);
}

Array trim_zeros(const Array& x, const std::string& trim, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "trim_zeros");
  if (av.shape.size() != 1) throw ValueError("trim_zeros: expects a 1-d array, but got " + av.str());
  if (x.is_tracer())
    throw ConcretizationError("trim_zeros: the length of the result depends on the values of " + av.str() +
                              ", which are not known under a trace (jit, grad, vmap); call it on a concrete array");
  std::vector<bool> nz;
  for (double v : astype(not_equal(x, zeros({}, av.dtype), loc), f64).to_vector<double>()) nz.push_back(v != 0);
  const int64_t n = av.size();
  int64_t first = 0, last = n;
  bool front = trim.find_first_of("fF") != std::string::npos, back = trim.find_first_of("bB") != std::string::npos;
  if (front)
    while (first < n && !nz[static_cast<size_t>(first)]) ++first;
  if (back)
    while (last > first && !nz[static_cast<size_t>(last - 1)]) --last;
  if (first >= last) return api::slice_along(x, 0, 0, 0, 1, loc);
  return api::slice_along(x, 0, first, last, 1, loc);
}

// jnp.matvec / vecmat: Σ_j a[..., i, j] v[..., j] and Σ_i conj(v[..., i]) a[..., i, j].
Array matvec(const Array& a, const Array& v, SourceLocation loc) {
  if (a.ndim() < 2 || v.ndim() < 1)
    throw ValueError("matvec: expects a matrix stack and a vector stack, but got " + api::aval(a, "matvec").str() + " and " +
                     api::aval(v, "matvec").str());
  return squeeze(matmul(a, expand_dims(v, -1, loc), loc), {-1}, loc);
}

Array vecmat(const Array& v, const Array& a, SourceLocation loc) {
  if (a.ndim() < 2 || v.ndim() < 1)
    throw ValueError("vecmat: expects a vector stack and a matrix stack, but got " + api::aval(v, "vecmat").str() + " and " +
                     api::aval(a, "vecmat").str());
  return squeeze(matmul(expand_dims(conj(v, loc), -2, loc), a, loc), {-2}, loc);
}

Array choose(const Array& a, const std::vector<Array>& choices, const std::string& mode, SourceLocation loc) {
  const AbstractValue& av = api::aval(a, "choose");
  if (!is_integer(av.dtype)) throw DTypeError("choose: expects an integer index array, but got " + av.str());
  if (choices.empty()) throw ValueError("choose: expects at least one choice");
  const int64_t n = static_cast<int64_t>(choices.size());
  Array idx = astype(a, i32, loc);
  if (mode == "raise") {
    if (a.is_tracer())
      throw ConcretizationError("choose: mode \"raise\" checks the indices of " + av.str() +
                                ", which are not known under a trace; use mode \"wrap\" or \"clip\"");
    if (any(logical_or(less(idx, api::i32_scalar(0), loc), greater_equal(idx, api::i32_scalar(n), loc), loc)).item<bool>())
      throw ValueError("choose: an index is out of range for " + std::to_string(n) + " choices");
  } else if (mode == "wrap") {
    idx = idx % api::i32_scalar(n);
  } else if (mode == "clip") {
    idx = clip(idx, api::i32_scalar(0), api::i32_scalar(n - 1), loc);
  } else {
    throw ValueError("choose: mode must be \"raise\", \"wrap\" or \"clip\", but got \"" + mode + "\"");
  }
  std::vector<Array> all = choices;
  all.push_back(idx);
  all = broadcast_arrays(all, loc);
  idx = all.back();
  all.pop_back();
  // Promote the choices together, then pick with one take_along_axis over the stacked axis.
  Array stacked = stack(all, 0, loc);
  return squeeze(take_along_axis(stacked, expand_dims(idx, 0, loc), 0, loc), {0}, loc);
}

Array compress(const Array& condition, const Array& a, std::optional<int> axis, std::optional<int64_t> size,
               const Array& fill_value, SourceLocation loc) {
  const AbstractValue& cv = api::aval(condition, "compress");
  if (cv.shape.size() != 1) throw ValueError("compress: expects a 1-d condition, but got " + cv.str());
  Array arr = axis ? moveaxis(a, api::normalize_axis("compress", *axis, api::aval(a, "compress")), 0, loc) : ravel(a, loc);
  if (arr.ndim() == 0) arr = reshape(arr, {1}, loc);
  const int64_t n = arr.shape()[0], nc = cv.shape[0];
  Array cond = not_equal(condition, zeros({}, cv.dtype), loc);
  if (nc > n) {
    if (!size && !condition.is_tracer() && any(api::slice_along(cond, 0, n, std::nullopt, 1, loc)).item<bool>())
      throw ValueError("compress: the condition selects entries past the " + std::to_string(n) + " of the axis");
    cond = api::slice_along(cond, 0, 0, n, 1, loc);
  } else if (nc < n) {
    arr = api::slice_along(arr, 0, 0, nc, 1, loc);
  }
  const int64_t m = std::min(n, nc);
  int64_t s;
  if (size) {
    if (*size < 0 || *size > m)
      throw ValueError("compress: size must be between 0 and the axis' length " + std::to_string(m) + ", but got " + std::to_string(*size));
    s = *size;
  } else {
    if (condition.is_tracer())
      throw ConcretizationError("compress: the size of the result depends on the values of the condition " + cv.str() +
                                ", which are not known under a trace; pass a static size (and fill_value)");
    s = sum(astype(cond, i64, loc)).item<int64_t>();
  }
  // The selected rows first (a stable sort of the condition, descending), then the fill rows.
  Shape cs(static_cast<size_t>(arr.ndim()), 1);
  cs[0] = m;
  Array filled = where(reshape(cond, cs, loc), arr, astype(fill_value, arr.dtype(), loc), loc);
  Array order = sort({astype(logical_not(cond, loc), i32, loc), arange(m, i32)}, 0, true, 1, loc)[1];
  Array r = take(filled, api::slice_along(order, 0, 0, s, 1, loc), 0, loc);
  return axis ? moveaxis(r, 0, api::normalize_axis("compress", *axis, api::aval(a, "compress")), loc) : r;
}

Array extract(const Array& condition, const Array& a, std::optional<int64_t> size, const Array& fill_value,
              SourceLocation loc) {
  return compress(ravel(condition, loc), ravel(a, loc), std::nullopt, size, fill_value, loc);
}

// The flat position of each index along `axis` (negative ones from the end); indices out of
// range go past the end, so the scatter drops them (as JAX's updates).
Array put_along_axis(const Array& x, const Array& indices, const Array& values, std::optional<int> axis,
                     SourceLocation loc) {
  const AbstractValue& xv = api::aval(x, "put_along_axis");
  Array arr = axis ? x : ravel(x, loc);
  int a = axis ? api::normalize_axis("put_along_axis", *axis, xv) : 0;
  const AbstractValue& iv = api::aval(indices, "put_along_axis");
  if (!is_integer(iv.dtype)) throw DTypeError("put_along_axis: expects integer indices, but got " + iv.str());
  if (iv.shape.size() != arr.shape().size())
    throw ShapeError("put_along_axis: expects indices of the array's rank, but got " + iv.str() + " for " + xv.str());
  const Shape& s = arr.shape();
  const int64_t n = s[static_cast<size_t>(a)], total = api::aval(arr, "put_along_axis").size();
  Array idx = astype(indices, i64, loc);
  idx = where(less(idx, astype(Array(0), i64), loc), idx + astype(Array(n), i64), idx, loc);
  Array inside = logical_and(greater_equal(idx, astype(Array(0), i64), loc), less(idx, astype(Array(n), i64), loc), loc);
  Array flat = zeros(iv.shape, i64);
  int64_t stride = 1;
  for (size_t d = s.size(); d-- > 0;) {
    Array coord;
    if (static_cast<int>(d) == a) {
      coord = idx;
    } else {
      if (iv.shape[d] != s[d] && iv.shape[d] != 1)
        throw ShapeError("put_along_axis: indices " + iv.str() + " do not match " + xv.str() + " off the axis");
      Shape cs(s.size(), 1);
      cs[d] = iv.shape[d];
      coord = broadcast_to(reshape(arange(iv.shape[d], i64), cs, loc), iv.shape, loc);
    }
    flat = flat + coord * astype(Array(stride), i64);
    stride *= s[d];
  }
  flat = where(inside, flat, astype(Array(total), i64), loc);
  Array v = broadcast_to(astype(values, xv.dtype, loc), iv.shape, loc);
  Array r = ravel(arr, loc).at(ravel(flat, loc)).set(ravel(v, loc), loc);
  return reshape(r, xv.shape, loc);
}

Array packbits(const Array& x, std::optional<int> axis, const std::string& bitorder, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "packbits");
  if (!is_integer(av.dtype) && av.dtype != bool_) throw DTypeError("packbits: expects integers or bools, but got " + av.str());
  if (bitorder != "big" && bitorder != "little") throw ValueError("packbits: bitorder must be \"big\" or \"little\", but got \"" + bitorder + "\"");
  Array bits = astype(not_equal(x, zeros({}, av.dtype), loc), u8, loc);
  int a = 0;
  if (axis) a = api::normalize_axis("packbits", *axis, av);
  else bits = ravel(bits, loc);
  bits = moveaxis(bits, a, -1, loc);
  Shape s = bits.shape();
  int64_t n = s.back(), groups = (n + 7) / 8;
  if (n % 8) {
    Shape ps = s;
    ps.back() = groups * 8 - n;
    bits = concatenate({bits, zeros(ps, u8)}, -1, loc);
  }
  Shape gs = s;
  gs.back() = groups;
  gs.push_back(8);
  bits = reshape(bits, gs, loc);
  Array shifts = arange(8, u8);
  if (bitorder == "big") shifts = astype(Array(7), u8) - shifts;
  Array packed = astype(sum(shift_left(bits, shifts, loc), -1, false, loc), u8, loc);
  return moveaxis(packed, -1, a, loc);
}

Array unpackbits(const Array& x, std::optional<int> axis, std::optional<int64_t> count, const std::string& bitorder,
                 SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "unpackbits");
  if (av.dtype != u8) throw DTypeError("unpackbits: expects u8 values, but got " + av.str());
  if (bitorder != "big" && bitorder != "little") throw ValueError("unpackbits: bitorder must be \"big\" or \"little\", but got \"" + bitorder + "\"");
  int a = 0;
  Array arr = x;
  if (axis) a = api::normalize_axis("unpackbits", *axis, av);
  else arr = ravel(arr, loc);
  arr = moveaxis(arr, a, -1, loc);
  Array masks = shift_left(astype(Array(1), u8), arange(8, u8), loc);
  if (bitorder == "big") masks = flip(masks, {}, loc);
  Array un = astype(greater(expand_dims(arr, -1, loc) & masks, astype(Array(0), u8), loc), u8, loc);
  Shape s = arr.shape();
  s.back() *= 8;
  un = reshape(un, s, loc);
  if (count) {
    int64_t have = s.back();
    if (*count > have) {
      Shape ps = s;
      ps.back() = *count - have;
      un = concatenate({un, zeros(ps, u8)}, -1, loc);
    } else {
      un = api::slice_along(un, static_cast<int>(s.size()) - 1, 0, std::max<int64_t>(*count, 0), 1, loc);
    }
  }
  return moveaxis(un, -1, a, loc);
}

// The distance to the next float away from zero (NumPy's; +0 and -0 give ± the smallest
// subnormal; f16 towards +inf, as JAX).
Array spacing(const Array& x, SourceLocation loc) {
  Array y = api::to_inexact(x, "spacing", loc);
  if (is_complex(y.dtype())) throw DTypeError("spacing: complex values have no spacing, got " + api::aval(x, "spacing").str());
  Array inf = api::weak_scalar_like(INFINITY, y, "spacing", loc);
  if (y.dtype() == f16) return subtract(nextafter(y, inf, loc), y, loc);
  Array r = subtract(nextafter(y, copysign(inf, y, loc), loc), y, loc);
  Array tiny = copysign(nextafter(zeros({}, y.dtype()), astype(Array(1), y.dtype()), loc), y, loc);
  return where(equal(r, api::weak_scalar_like(0, y, "spacing", loc), loc), tiny, r, loc);
}

namespace {

// x (flattened without an axis) and the normalised axis.
std::pair<Array, int> along_axis(std::string_view op, const Array& x, std::optional<int> axis, const SourceLocation& loc) {
  if (!axis) return {ravel(x, loc), 0};
  const AbstractValue& av = api::aval(x, op);
  if (av.shape.empty()) throw ValueError(std::string(op) + ": an axis needs an array of rank >= 1, but got " + av.str());
  return {x, api::normalize_axis(op, *axis, av)};
}

// The slices of x along `axis` at the concrete positions `take_from`.
Array gather_static(const Array& x, int axis, const std::vector<int32_t>& take_from, const SourceLocation& loc) {
  return take(x, array(take_from, {static_cast<int64_t>(take_from.size())}), axis, loc);
}

}  // namespace

Array delete_(const Array& x, const std::vector<int64_t>& indices, std::optional<int> axis, SourceLocation loc) {
  auto [a, ax] = along_axis("delete", x, axis, loc);
  const int64_t n = a.shape()[static_cast<size_t>(ax)];
  std::vector<bool> keep(static_cast<size_t>(n), true);
  for (int64_t i : indices) {
    int64_t j = i < 0 ? i + n : i;
    if (j < 0 || j >= n)
      throw ValueError("delete: index " + std::to_string(i) + " is out of range for axis " + std::to_string(ax) + " of size " +
                       std::to_string(n));
    keep[static_cast<size_t>(j)] = false;
  }
  std::vector<int32_t> kept;
  for (int64_t j = 0; j < n; ++j)
    if (keep[static_cast<size_t>(j)]) kept.push_back(static_cast<int32_t>(j));
  return gather_static(a, ax, kept, loc);
}

namespace {

// The values placed before positions `at` (normalised, clipped to [0, n], as NumPy) along `axis`:
// a stable order of the positions lays out the result, then one gather from [x, values].
Array insert_at(const Array& a, int ax, std::vector<int64_t> at, const Array& vals, const SourceLocation& loc) {
  const int64_t n = a.shape()[static_cast<size_t>(ax)], k = static_cast<int64_t>(at.size());
  for (int64_t& p : at) p = std::clamp<int64_t>(p < 0 ? p + n : p, 0, n);
  std::vector<int64_t> order(static_cast<size_t>(k));
  for (int64_t j = 0; j < k; ++j) order[static_cast<size_t>(j)] = j;
  // Stable: equal positions keep their order (ties broken by the index itself).
  std::sort(order.begin(), order.end(), [&](int64_t p, int64_t q) {
    return std::pair(at[static_cast<size_t>(p)], p) < std::pair(at[static_cast<size_t>(q)], q);
  });
  // Result slot of inserted value j: its position plus the values inserted before it.
  std::vector<int64_t> slot(static_cast<size_t>(k));
  for (int64_t r = 0; r < k; ++r) slot[static_cast<size_t>(order[static_cast<size_t>(r)])] = at[static_cast<size_t>(order[static_cast<size_t>(r)])] + r;
  std::vector<int32_t> source(static_cast<size_t>(n + k), -1);
  for (int64_t j = 0; j < k; ++j) source[static_cast<size_t>(slot[static_cast<size_t>(j)])] = static_cast<int32_t>(n + j);
  int32_t next = 0;
  for (int32_t& s : source)
    if (s < 0) s = next++;
  return gather_static(concatenate({a, vals}, ax, loc), ax, source, loc);
}

// values as an array of a's rank (leading 1s) in a's dtype.
Array values_like(const Array& a, const Array& values, const SourceLocation& loc) {
  Array v = astype(values, a.dtype(), loc);
  while (v.ndim() < a.ndim()) v = expand_dims(v, 0, loc);
  if (v.ndim() > a.ndim())
    throw ShapeError("insert: values " + api::aval(values, "insert").str() + " have more dimensions than " + api::aval(a, "insert").str());
  return v;
}

Array broadcast_run(const Array& a, int ax, const Array& v, int64_t run, const SourceLocation& loc) {
  Shape s = a.shape();
  s[static_cast<size_t>(ax)] = run;
  return broadcast_to(v, s, loc);
}

}  // namespace

Array insert(const Array& x, int64_t index, const Array& values, std::optional<int> axis, SourceLocation loc) {
  auto [a, ax] = along_axis("insert", x, axis, loc);
  Array v = values_like(a, values, loc);
  // NumPy's scalar-obj rule: values' leading axis runs along the insertion axis.
  if (api::aval(values, "insert").shape.size() > 0 || a.ndim() > 1) v = moveaxis(v, 0, ax, loc);
  const int64_t run = v.shape()[static_cast<size_t>(ax)];
  return insert_at(a, ax, std::vector<int64_t>(static_cast<size_t>(run), index), broadcast_run(a, ax, v, run, loc), loc);
}

Array insert(const Array& x, const std::vector<int64_t>& indices, const Array& values, std::optional<int> axis,
             SourceLocation loc) {
  auto [a, ax] = along_axis("insert", x, axis, loc);
  Array v = values_like(a, values, loc);
  const int64_t k = static_cast<int64_t>(indices.size()), vk = v.shape()[static_cast<size_t>(ax)];
  if (vk != k && vk != 1)
    throw ShapeError("insert: " + std::to_string(k) + " positions and values " + api::aval(values, "insert").str() +
                     " do not match along axis " + std::to_string(ax));
  return insert_at(a, ax, indices, broadcast_run(a, ax, v, k, loc), loc);
}

Array indices(const Shape& dimensions, DType dtype) {
  std::vector<Array> grids;
  const size_t d = dimensions.size();
  for (size_t i = 0; i < d; ++i) {
    Shape s(d, 1);
    s[i] = dimensions[i];
    grids.push_back(broadcast_to(reshape(arange(dimensions[i], dtype), s), dimensions));
  }
  if (grids.empty()) return zeros({0}, dtype);
  return stack(grids, 0);
}

std::vector<Array> ix_(const std::vector<Array>& xs, SourceLocation loc) {
  std::vector<Array> out;
  const size_t n = xs.size();
  for (size_t i = 0; i < n; ++i) {
    const AbstractValue& av = api::aval(xs[i], "ix_");
    if (av.shape.size() != 1) throw ValueError("ix_: expects 1-d arrays, but got " + av.str());
    if (av.dtype == bool_) throw DTypeError("ix_: boolean arguments are not supported (as in JAX)");
    Shape s(n, 1);
    s[i] = av.shape[0];
    out.push_back(reshape(xs[i], s, loc));
  }
  return out;
}

namespace {
Array with_rank(const Array& x, int64_t rank, const SourceLocation& loc) {
  Array y = x;
  while (y.ndim() < rank) y = expand_dims(y, 0, loc);
  return y;
}
}  // namespace

Array block(const std::vector<std::vector<Array>>& rows, SourceLocation loc) {
  if (rows.empty()) throw ValueError("block: expects at least one row of blocks");
  int64_t rank = 2;
  for (const auto& r : rows) {
    if (r.empty()) throw ValueError("block: expects non-empty rows of blocks");
    for (const Array& b : r) rank = std::max<int64_t>(rank, api::aval(b, "block").shape.size());
  }
  std::vector<Array> joined;
  for (const auto& r : rows) {
    std::vector<Array> bs;
    for (const Array& b : r) bs.push_back(with_rank(b, rank, loc));
    joined.push_back(concatenate(bs, -1, loc));
  }
  return concatenate(joined, -2, loc);
}

}  // namespace strata
