// jnp functions built from the other public ops (composites.h); no primitives of their own.
#include <algorithm>
#include <numeric>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/sorting.h"

namespace strata {

namespace {

Shape shape_of(const Array& x, std::string_view op) { return api::aval(x, op).shape; }

int64_t dim(const Shape& s, int axis) { return s[static_cast<size_t>(axis)]; }

// x[start:stop] along `axis`.
Array take_range(const Array& x, int axis, int64_t start, int64_t stop, const SourceLocation& loc) {
  Shape s = x.shape();
  std::vector<int64_t> lo(s.size(), 0), hi(s.begin(), s.end());
  lo[static_cast<size_t>(axis)] = start;
  hi[static_cast<size_t>(axis)] = stop;
  return slice(x, lo, hi, {}, loc);
}

// i32 indices 0..n-1 laid along dimension `axis` of a rank-`rank` shape (1 elsewhere).
Array index_along(int64_t n, size_t rank, size_t axis) {
  Shape s(rank, 1);
  s[axis] = n;
  return reshape(arange(n, i32), s);
}

// A weak 0-d zero of x's dtype (where keeps x's dtype).
Array zero_of(const Array& x, const SourceLocation& loc) {
  return api::convert(Array(0), {api::aval(x, "composite").dtype, true}, loc);
}

Array triangle(const Array& x, int64_t k, bool lower, std::string_view op, const SourceLocation& loc) {
  Shape s = shape_of(x, op);
  if (s.size() < 2) throw ValueError(std::string(op) + ": expects an array of rank 2 or more, but got " + api::aval(x, "composite").str());
  size_t r = s.size();
  Array diff = subtract(index_along(s[r - 1], r, r - 1), index_along(s[r - 2], r, r - 2), loc);
  Array k32 = astype(Array(static_cast<int32_t>(k)), i32, loc);
  Array keep = lower ? less_equal(diff, k32, loc) : greater_equal(diff, k32, loc);
  return where(keep, x, zero_of(x, loc), loc);
}

}  // namespace

Array outer(const Array& a, const Array& b, SourceLocation loc) {
  int64_t n = api::aval(a, "outer").size(), m = api::aval(b, "outer").size();
  return multiply(reshape(a, {n, 1}, loc), reshape(b, {1, m}, loc), loc);
}

Array tensordot(const Array& a, const Array& b, const std::vector<int>& a_axes, const std::vector<int>& b_axes,
                SourceLocation loc) {
  Shape sa = shape_of(a, "tensordot"), sb = shape_of(b, "tensordot");
  if (a_axes.size() != b_axes.size())
    throw ValueError("tensordot: expects as many axes of a as of b, but got " + std::to_string(a_axes.size()) +
                     " and " + std::to_string(b_axes.size()));
  return dot_general(a, b, DotDimensions{a_axes, b_axes}, loc);
}

Array tensordot(const Array& a, const Array& b, int axes, SourceLocation loc) {
  Shape sa = shape_of(a, "tensordot"), sb = shape_of(b, "tensordot");
  if (axes < 0 || static_cast<size_t>(axes) > sa.size() || static_cast<size_t>(axes) > sb.size())
    throw ValueError("tensordot: cannot contract " + std::to_string(axes) + " axes of " + api::aval(a, "composite").str() + " and " +
                     api::aval(b, "composite").str());
  std::vector<int> la, lb;
  for (int i = 0; i < axes; ++i) {
    la.push_back(static_cast<int>(sa.size()) - axes + i);
    lb.push_back(i);
  }
  return tensordot(a, b, la, lb, loc);
}

Array stack(const std::vector<Array>& xs, int axis, SourceLocation loc) {
  if (xs.empty()) throw ValueError("stack: expects at least one array, but got none");
  Shape s = shape_of(xs[0], "stack");
  for (const Array& x : xs)
    if (shape_of(x, "stack") != s)
      throw ShapeError("stack: expects arrays of one shape, but got " + api::aval(xs[0], "composite").str() + " and " + api::aval(x, "composite").str());
  int rank = static_cast<int>(s.size()) + 1;
  if (axis < -rank || axis >= rank)
    throw ValueError("stack: axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  if (axis < 0) axis += rank;
  std::vector<Array> parts;
  for (const Array& x : xs) parts.push_back(expand_dims(x, axis, loc));
  return concatenate(parts, axis, loc);
}

std::vector<Array> split(const Array& x, const std::vector<int64_t>& indices, int axis, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "split");
  int a = api::normalize_axis("split", axis, av);
  int64_t d = dim(av.shape, a), prev = 0;
  std::vector<Array> out;
  for (int64_t i : indices) {
    int64_t at = std::clamp<int64_t>(i < 0 ? i + d : i, 0, d);
    out.push_back(take_range(x, a, prev, std::max(prev, at), loc));
    prev = std::max(prev, at);
  }
  out.push_back(take_range(x, a, prev, d, loc));
  return out;
}

std::vector<Array> split(const Array& x, int64_t sections, int axis, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "split");
  int a = api::normalize_axis("split", axis, av);
  int64_t d = dim(av.shape, a);
  if (sections <= 0 || d % sections != 0)
    throw ValueError("split: " + std::to_string(sections) + " sections do not divide axis " + std::to_string(axis) +
                     " of " + av.str() + " equally");
  std::vector<int64_t> idx;
  for (int64_t i = 1; i < sections; ++i) idx.push_back(i * (d / sections));
  return split(x, idx, a, loc);
}

Array tile(const Array& x, const std::vector<int64_t>& reps, SourceLocation loc) {
  Shape s = shape_of(x, "tile");
  for (int64_t r : reps)
    if (r < 0) throw ValueError("tile: expects non-negative repetitions, but got " + std::to_string(r));
  size_t rank = std::max(s.size(), reps.size());
  Shape xs(rank - s.size(), 1);
  xs.insert(xs.end(), s.begin(), s.end());
  std::vector<int64_t> rp(rank - reps.size(), 1);
  rp.insert(rp.end(), reps.begin(), reps.end());
  // [1, d0, 1, d1, …] broadcast to [r0, d0, r1, d1, …], then merged pairwise.
  Shape inter, big, out;
  for (size_t i = 0; i < rank; ++i) {
    inter.insert(inter.end(), {1, xs[i]});
    big.insert(big.end(), {rp[i], xs[i]});
    out.push_back(rp[i] * xs[i]);
  }
  return reshape(broadcast_to(reshape(x, inter, loc), big, loc), out, loc);
}

Array repeat(const Array& x, int64_t repeats, std::optional<int> axis, SourceLocation loc) {
  if (repeats < 0) throw ValueError("repeat: expects non-negative repeats, but got " + std::to_string(repeats));
  Array in = axis ? x : reshape(x, {api::aval(x, "repeat").size()}, loc);
  const AbstractValue& av = api::aval(in, "repeat");
  int a = api::normalize_axis("repeat", axis.value_or(0), av);
  Shape s = av.shape, wide = s, out = s;
  wide.insert(wide.begin() + a + 1, repeats);
  out[static_cast<size_t>(a)] *= repeats;
  return reshape(broadcast_to(expand_dims(in, a + 1, loc), wide, loc), out, loc);
}

Array roll(const Array& x, int64_t shift, std::optional<int> axis, SourceLocation loc) {
  if (!axis) return reshape(roll(reshape(x, {api::aval(x, "roll").size()}, loc), shift, 0, loc), x.shape(), loc);
  const AbstractValue& av = api::aval(x, "roll");
  int a = api::normalize_axis("roll", *axis, av);
  int64_t d = dim(av.shape, a);
  if (d == 0) return x;
  int64_t s = ((shift % d) + d) % d;
  if (s == 0) return x;
  return concatenate({take_range(x, a, d - s, d, loc), take_range(x, a, 0, d - s, loc)}, a, loc);
}

Array tril(const Array& x, int64_t k, SourceLocation loc) { return triangle(x, k, true, "tril", loc); }
Array triu(const Array& x, int64_t k, SourceLocation loc) { return triangle(x, k, false, "triu", loc); }

Array diag(const Array& x, int64_t k, SourceLocation loc) {
  Shape s = shape_of(x, "diag");
  if (s.size() == 1) {
    int64_t n = s[0], m = n + std::abs(k);
    // Row i holds v[i] (k >= 0) or v[i + k] (k < 0) at column i + k.
    Array col = reshape(pad(x, {{k < 0 ? -k : 0, k < 0 ? 0 : k}}, "constant", 0, loc), {m, 1}, loc);
    Array on = equal(subtract(index_along(m, 2, 1), index_along(m, 2, 0), loc),
                     astype(Array(static_cast<int32_t>(k)), i32, loc), loc);
    return where(on, col, zero_of(x, loc), loc);
  }
  if (s.size() != 2) throw ValueError("diag: expects a 1-d or 2-d array, but got " + api::aval(x, "composite").str());
  int64_t r0 = std::max<int64_t>(0, -k), c0 = std::max<int64_t>(0, k);
  int64_t len = std::max<int64_t>(0, std::min(s[0] - r0, s[1] - c0));
  if (len == 0) return reshape(slice(x, {0, 0}, {0, 0}, {}, loc), {0}, loc);
  Array sub = slice(x, {r0, c0}, {r0 + len, c0 + len}, {}, loc);
  return slice(reshape(sub, {len * len}, loc), {0}, {len * len}, {len + 1}, loc);
}

Array trace(const Array& x, int64_t k, SourceLocation loc) {
  if (shape_of(x, "trace").size() != 2) throw ValueError("trace: expects a 2-d array, but got " + api::aval(x, "composite").str());
  return sum(diag(x, k, loc), {}, false, loc);
}

std::vector<Array> meshgrid(const std::vector<Array>& xs, const std::string& indexing, SourceLocation loc) {
  if (indexing != "xy" && indexing != "ij")
    throw ValueError("meshgrid: expects indexing \"xy\" or \"ij\", but got \"" + indexing + "\"");
  Shape out;
  for (const Array& x : xs) {
    if (shape_of(x, "meshgrid").size() != 1) throw ValueError("meshgrid: expects 1-d arrays, but got " + api::aval(x, "composite").str());
    out.push_back(x.shape()[0]);
  }
  bool xy = indexing == "xy" && xs.size() >= 2;
  if (xy) std::swap(out[0], out[1]);
  std::vector<Array> r;
  for (size_t i = 0; i < xs.size(); ++i) {
    size_t at = xy && i < 2 ? 1 - i : i;
    Shape s(xs.size(), 1);
    s[at] = out[at];
    r.push_back(broadcast_to(reshape(xs[i], s, loc), out, loc));
  }
  return r;
}

Array one_hot(const Array& x, int64_t num_classes, DType dtype, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "one_hot");
  if (num_classes < 0) throw ValueError("one_hot: expects a non-negative number of classes, but got " + std::to_string(num_classes));
  Array classes = astype(arange(num_classes, i32), av.dtype == DType::bool_ ? i32 : av.dtype, loc);
  return astype(equal(expand_dims(x, static_cast<int>(av.shape.size()), loc), classes, loc), dtype, loc);
}

Array pad(const Array& x, const std::vector<std::pair<int64_t, int64_t>>& widths, const std::string& mode, double value,
          SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "pad");
  size_t rank = av.shape.size();
  if (widths.size() != rank)
    throw ValueError("pad: expects " + std::to_string(rank) + " (before, after) widths for " + av.str() + ", but got " +
                     std::to_string(widths.size()));
  for (auto [b, a] : widths)
    if (b < 0 || a < 0) throw ValueError("pad: expects non-negative widths, but got (" + std::to_string(b) + ", " + std::to_string(a) + ")");
  if (mode == "constant") {
    IntList lo, hi, interior(rank, 0);
    for (auto [b, a] : widths) {
      lo.push_back(b);
      hi.push_back(a);
    }
    return lax::pad(x, api::convert(Array(value), {av.dtype, false}, loc), lo, hi, interior, loc);
  }
  if (mode != "edge" && mode != "wrap" && mode != "reflect" && mode != "symmetric")
    throw ValueError("pad: expects mode \"constant\", \"edge\", \"wrap\", \"reflect\" or \"symmetric\", but got \"" +
                     mode + "\"");
  Array r = x;
  for (size_t i = 0; i < rank; ++i) {
    auto [b, a] = widths[i];
    if (b == 0 && a == 0) continue;
    int ax = static_cast<int>(i);
    int64_t d = r.shape()[i];
    if (d == 0) throw ValueError("pad: cannot pad the empty axis " + std::to_string(i) + " of " + av.str() + " in mode " + mode);
    if (mode == "reflect" || mode == "symmetric") {
      // Source index of each padded position p in [-b, d + a): the periodic mirror image
      // (period 2(d-1) about the edge elements, or 2d including them), as np.pad repeats it.
      bool sym = mode == "symmetric";
      int64_t period = sym ? 2 * d : 2 * (d - 1);
      std::vector<int32_t> idx;
      for (int64_t p = -b; p < d + a; ++p) {
        if (period == 0) {
          idx.push_back(0);
          continue;
        }
        int64_t q = ((p % period) + period) % period;
        idx.push_back(static_cast<int32_t>(q < d ? q : (sym ? period - 1 - q : period - q)));
      }
      r = take(r, array(idx, Shape{static_cast<int64_t>(idx.size())}, i32), ax, loc);
      continue;
    }
    if (mode == "edge") {
      Shape sb = r.shape(), sa = r.shape();
      sb[i] = b;
      sa[i] = a;
      r = concatenate({broadcast_to(take_range(r, ax, 0, 1, loc), sb, loc), r,
                       broadcast_to(take_range(r, ax, d - 1, d, loc), sa, loc)}, ax, loc);
    } else {
      int64_t before = (b + d - 1) / d, after = (a + d - 1) / d;
      std::vector<int64_t> reps(rank, 1);
      reps[i] = before + 1 + after;
      r = take_range(tile(r, reps, loc), ax, before * d - b, before * d + d + a, loc);
    }
  }
  return r;
}

std::vector<Array> nonzero(const Array& x, SourceLocation) {
  const AbstractValue& av = api::aval(x, "nonzero");
  if (x.is_tracer())
    throw ConcretizationError("nonzero: the number of non-zero elements of " + av.str() +
                              " depends on its values, which are not known under a trace (jit, grad, vmap); call it "
                              "on a concrete array");
  std::vector<double> v = x.to_vector<double>();
  size_t rank = av.shape.size();
  std::vector<std::vector<int32_t>> idx(std::max<size_t>(rank, 1));
  for (size_t f = 0; f < v.size(); ++f) {
    if (v[f] == 0) continue;
    size_t rest = f;
    for (size_t d = rank; d-- > 0;) {
      idx[d].push_back(static_cast<int32_t>(rest % static_cast<size_t>(av.shape[d])));
      rest /= static_cast<size_t>(av.shape[d]);
    }
    if (rank == 0) idx[0].push_back(0);
  }
  std::vector<Array> r;
  for (const std::vector<int32_t>& i : idx) r.push_back(array(i, {static_cast<int64_t>(i.size())}));
  return r;
}

std::vector<Array> where(const Array& cond, SourceLocation loc) { return nonzero(cond, loc); }

// The k-th non-zero element's flat position lands at slot k (a cumulative count of the mask);
// the others and the slots past `size` are dropped by the scatter; empty slots keep fill_value.
std::vector<Array> nonzero(const Array& x, int64_t size, int64_t fill_value, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "nonzero");
  if (size < 0) throw ValueError("nonzero: expects a non-negative size, but got " + std::to_string(size));
  Array mask = reshape(not_equal(x, zero_of(x, loc), loc), {av.size()}, loc);
  Array slot = cumsum(astype(mask, i32, loc), 0, false, loc) - astype(Array(1), i32);
  slot = where(mask, slot, full(slot.shape(), static_cast<double>(size), i32), loc);  // non-zeros only
  Array flat = full({size}, -1, i32).at({slot}).set(arange(av.size()), loc);
  Shape shape = av.shape.empty() ? Shape{1} : av.shape;
  std::vector<Array> idx = unravel_index(maximum(flat, astype(Array(0), i32), loc), shape, loc);
  Array empty = less(flat, astype(Array(0), i32), loc);
  for (Array& i : idx) i = where(empty, astype(Array(static_cast<int32_t>(fill_value)), i32), i, loc);
  return idx;
}

Array argwhere(const Array& x, std::optional<int64_t> size, int64_t fill_value, SourceLocation loc) {
  std::vector<Array> idx = size ? nonzero(x, *size, fill_value, loc) : nonzero(x, loc);
  if (api::aval(x, "argwhere").shape.empty()) idx.clear();  // a 0-d x: rows of no columns
  const int64_t n = size ? *size : (idx.empty() ? (api::aval(x, "argwhere").size() && x.item<double>() != 0 ? 1 : 0)
                                                : idx[0].shape()[0]);
  if (idx.empty()) return zeros({n, 0}, i32);
  return stack(idx, 1, loc);
}

Array flatnonzero(const Array& x, std::optional<int64_t> size, int64_t fill_value, SourceLocation loc) {
  Array flat = reshape(x, {api::aval(x, "flatnonzero").size()}, loc);
  return size ? nonzero(flat, *size, fill_value, loc)[0] : nonzero(flat, loc)[0];
}

Array moveaxis(const Array& x, int source, int destination, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "moveaxis");
  int s = api::normalize_axis("moveaxis", source, av), d = api::normalize_axis("moveaxis", destination, av);
  std::vector<int> perm;
  for (int i = 0; i < static_cast<int>(av.shape.size()); ++i)
    if (i != s) perm.push_back(i);
  perm.insert(perm.begin() + d, s);
  return transpose(x, perm, loc);
}

Array swapaxes(const Array& x, int a, int b, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "swapaxes");
  int i = api::normalize_axis("swapaxes", a, av), j = api::normalize_axis("swapaxes", b, av);
  std::vector<int> perm(av.shape.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(j)]);
  return transpose(x, perm, loc);
}

Array ravel(const Array& x, SourceLocation loc) { return reshape(x, {api::aval(x, "ravel").size()}, loc); }

// NumPy's: k = 1 flips along axes.second, then swaps the two axes.
Array rot90(const Array& x, int k, std::pair<int, int> axes, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "rot90");
  if (av.shape.size() < 2) throw ValueError("rot90: expects an array of rank 2 or more, but got " + av.str());
  int a = api::normalize_axis("rot90", axes.first, av), b = api::normalize_axis("rot90", axes.second, av);
  if (a == b) throw ValueError("rot90: expects two different axes, but got " + std::to_string(axes.first) + " and " +
                               std::to_string(axes.second));
  k = ((k % 4) + 4) % 4;
  if (k == 0) return x;
  if (k == 2) return flip(x, {a, b}, loc);
  if (k == 1) return swapaxes(flip(x, {b}, loc), a, b, loc);
  return flip(swapaxes(x, a, b, loc), {b}, loc);
}

}  // namespace strata
