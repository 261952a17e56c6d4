// searchsorted, digitize, interp, bincount, histogram (strata/searching.h): composites of the
// public ops, as jax.numpy builds them.
#include "strata/searching.h"

#include <cmath>
#include <limits>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/selection.h"
#include "strata/sorting.h"

namespace strata {

namespace {

// x < y in the order st::sort uses: NaN after every number, equal to itself.
Array sort_less(const Array& x, const Array& y, const SourceLocation& loc) {
  if (!is_floating(api::aval(x, "searchsorted").dtype)) return less(x, y, loc);
  return logical_or(less(x, y, loc), logical_and(equal(x, x, loc), not_equal(y, y, loc), loc), loc);
}

const AbstractValue& expect_1d(const Array& a, const char* op, const char* what) {
  const AbstractValue& av = api::aval(a, op);
  if (av.shape.size() != 1)
    throw ShapeError(std::string(op) + ": expects a 1-d " + what + ", but got " + av.str());
  return av;
}

Array first(const Array& a, const SourceLocation& loc) { return index(a, {int64_t{0}}, loc); }
Array last(const Array& a, const SourceLocation& loc) { return index(a, {int64_t{-1}}, loc); }

}  // namespace

Array searchsorted(const Array& a, const Array& v, const std::string& side, SourceLocation loc) {
  const AbstractValue& av = expect_1d(a, "searchsorted", "sorted array");
  if (side != "left" && side != "right")
    throw ValueError("searchsorted: expects side \"left\" or \"right\", but got \"" + side + "\"");
  auto [sa, sv] = api::promote_dtypes("searchsorted", a, v, loc);
  if (is_complex(api::aval(sa, "searchsorted").dtype))
    throw DTypeError("searchsorted: expects real values (complex ones have no order here), but got " + av.str() +
                     " and " + api::aval(v, "searchsorted").str());
  const int64_t n = av.shape[0];
  const Shape& vs = api::aval(v, "searchsorted").shape;
  // Binary search over [lo, hi), every query at once: ceil(log2(n + 1)) halvings.
  Array lo = zeros(vs, i32), hi = full(vs, static_cast<double>(n), i32);
  int steps = 0;
  while ((int64_t{1} << steps) < n + 1) ++steps;
  for (int s = 0; s < steps; ++s) {
    Array open = less(lo, hi, loc);
    Array mid = shift_right_arithmetic(lo + hi, api::i32_scalar(1), loc);
    Array am = take(sa, minimum(mid, api::i32_scalar(std::max<int64_t>(n - 1, 0)), loc), 0, loc);
    // Go right while a[mid] < v (left) or a[mid] <= v, i.e. !(v < a[mid]) (right).
    Array right = side == "left" ? sort_less(am, sv, loc) : logical_not(sort_less(sv, am, loc), loc);
    lo = where(logical_and(open, right, loc), mid + api::i32_scalar(1), lo, loc);
    hi = where(logical_and(open, logical_not(right, loc), loc), mid, hi, loc);
  }
  return lo;
}

Array digitize(const Array& x, const Array& bins, bool right, SourceLocation loc) {
  const AbstractValue& bv = expect_1d(bins, "digitize", "array of bins");
  const int64_t n = bv.shape[0];
  const std::string side = right ? "left" : "right";
  if (n == 0) return zeros(api::aval(x, "digitize").shape, i32);
  Array increasing = searchsorted(bins, x, side, loc);
  Array decreasing = api::i32_scalar(n) - searchsorted(flip(bins), x, side, loc);
  return where(greater_equal(last(bins, loc), first(bins, loc), loc), increasing, decreasing, loc);
}

Array interp(const Array& x, const Array& xp, const Array& fp, std::optional<double> left, std::optional<double> right,
             std::optional<double> period, SourceLocation loc) {
  const AbstractValue& xv = expect_1d(xp, "interp", "xp");
  const AbstractValue& fv = expect_1d(fp, "interp", "fp");
  if (xv.shape[0] != fv.shape[0] || xv.shape[0] == 0)
    throw ShapeError("interp: expects xp and fp of one non-zero length, but got " + xv.str() + " and " + fv.str());
  // One float dtype for the points (integers become floats), fp's for the values.
  auto [px, pxp] = api::promote_inexact_dtypes("interp", x, xp, loc);
  Array pfp = api::to_inexact(fp, "interp", loc);
  if (is_complex(api::aval(px, "interp").dtype))
    throw DTypeError("interp: expects real x and xp, but got " + api::aval(x, "interp").str() + " and " + xv.str());
  if (period) {
    if (*period == 0) throw ValueError("interp: expects a non-zero period");
    double p = std::fabs(*period);
    px = px - floor(px / p, loc) * p;
    pxp = pxp - floor(pxp / p, loc) * p;
    Array order = argsort(pxp);
    pxp = take(pxp, order, 0, loc);
    pfp = take(pfp, order, 0, loc);
    // One period's wrap-around on both sides.
    pxp = concatenate({reshape(last(pxp, loc), {1}) - p, pxp, reshape(first(pxp, loc), {1}) + p}, 0, loc);
    pfp = concatenate({reshape(last(pfp, loc), {1}), pfp, reshape(first(pfp, loc), {1})}, 0, loc);
  }
  const int64_t n = api::aval(pxp, "interp").shape[0];
  Array i = clip(searchsorted(pxp, px, "right", loc), api::i32_scalar(1), api::i32_scalar(std::max<int64_t>(n - 1, 1)), loc);
  Array im1 = i - api::i32_scalar(1);
  Array f0 = take(pfp, im1, 0, loc), x0 = take(pxp, im1, 0, loc);  // the left end of each step
  Array df = take(pfp, i, 0, loc) - f0;
  Array dx = take(pxp, i, 0, loc) - x0;
  Array delta = px - x0;
  // A zero-width step takes the left value (and keeps the gradient finite), as JAX's.
  DType t = api::aval(pxp, "interp").dtype;
  double eps = t == f64 ? std::numeric_limits<double>::denorm_min() : std::numeric_limits<float>::denorm_min();
  Array dx0 = less_equal(abs(dx), astype(Array(eps), t), loc);
  Array f = where(dx0, f0, f0 + delta / where(dx0, astype(Array(1.0), t), dx, loc) * df, loc);
  if (!period) {
    Array lo = left ? astype(Array(*left), api::aval(f, "interp").dtype) : first(pfp, loc);
    Array hi = right ? astype(Array(*right), api::aval(f, "interp").dtype) : last(pfp, loc);
    f = where(less(px, first(pxp, loc), loc), lo, f, loc);
    f = where(greater(px, last(pxp, loc), loc), hi, f, loc);
  }
  return f;
}

Array bincount(const Array& x, int64_t length, const std::optional<Array>& weights, SourceLocation loc) {
  const AbstractValue& xv = expect_1d(x, "bincount", "array");
  if (!is_integer(xv.dtype) && !is_bool(xv.dtype))
    throw DTypeError("bincount: expects non-negative integers, but got " + xv.str());
  if (length < 0) throw ValueError("bincount: expects a non-negative length, but got " + std::to_string(length));
  Array w = weights ? *weights : ones(xv.shape, i32);
  const AbstractValue& wv = api::aval(w, "bincount");
  if (wv.shape != xv.shape)
    throw ShapeError("bincount: expects weights of x's shape " + xv.str() + ", but got " + wv.str());
  Array idx = maximum(astype(x, i32, loc), api::i32_scalar(0), loc);
  return zeros({length}, wv.dtype).at({idx}).add(w, loc);
}

Array histogram_bin_edges(const Array& a, int64_t bins, std::optional<std::pair<double, double>> range,
                          SourceLocation loc) {
  if (bins < 1) throw ValueError("histogram: expects at least one bin, but got " + std::to_string(bins));
  Array x = api::to_inexact(a, "histogram", loc);
  DType t = api::aval(x, "histogram").dtype;
  if (is_complex(t)) throw DTypeError("histogram: expects real values, but got " + api::aval(a, "histogram").str());
  Array lo, hi;
  if (range) {
    if (!(range->first <= range->second))
      throw ValueError("histogram: expects a range with min <= max, but got (" + std::to_string(range->first) + ", " +
                       std::to_string(range->second) + ")");
    lo = astype(Array(range->first), t);
    hi = astype(Array(range->second), t);
  } else {
    if (api::aval(a, "histogram").size() == 0) {
      lo = astype(Array(0.0), t);
      hi = astype(Array(1.0), t);
    } else {
      lo = min(x, {}, false, loc);
      hi = max(x, {}, false, loc);
    }
  }
  Array same = equal(lo, hi, loc);
  Array half = astype(Array(0.5), t);
  lo = where(same, lo - half, lo, loc);
  hi = where(same, hi + half, hi, loc);
  // lo + (hi - lo) · k / bins, the last edge hi itself.
  Array k = astype(arange(bins + 1), t, loc);
  Array edges = lo + (hi - lo) * (k / astype(Array(static_cast<double>(bins)), t));
  return concatenate({edges[Slice(0, bins)], reshape(hi, {1}, loc)}, 0, loc);
}

std::pair<Array, Array> histogram(const Array& a, const Array& bins, const std::optional<Array>& weights, bool density,
                                  SourceLocation loc) {
  const AbstractValue& bv = expect_1d(bins, "histogram", "array of bin edges");
  if (bv.shape[0] < 2) throw ShapeError("histogram: expects at least two bin edges, but got " + bv.str());
  Array x = reshape(api::to_inexact(a, "histogram", loc), {-1}, loc);
  Array edges = astype(bins, api::aval(x, "histogram").dtype, loc);
  Array w = weights ? reshape(*weights, {-1}, loc) : ones_like(x);
  if (api::aval(w, "histogram").shape != api::aval(x, "histogram").shape)
    throw ShapeError("histogram: expects weights of a's shape " + api::aval(a, "histogram").str() + ", but got " +
                     api::aval(*weights, "histogram").str());
  const int64_t ne = bv.shape[0];
  // Bin i + 1 holds [e_i, e_{i+1}); values equal to the last edge go in the last bin; bin 0
  // (below) and bin ne (above) are dropped.
  Array b = searchsorted(edges, x, "right", loc);
  b = where(equal(x, last(edges, loc), loc), api::i32_scalar(ne - 1), b, loc);
  Array counts = zeros({ne + 1}, api::aval(w, "histogram").dtype).at({b}).add(w, loc)[Slice(1, ne)];
  if (density) {
    Array widths = edges[Slice(1, none)] - edges[Slice(none, -1)];
    counts = counts / widths / sum(counts, {}, false, loc);
  }
  return {counts, edges};
}

std::pair<Array, Array> histogram(const Array& a, int64_t bins, std::optional<std::pair<double, double>> range,
                                  const std::optional<Array>& weights, bool density, SourceLocation loc) {
  return histogram(a, histogram_bin_edges(a, bins, range, loc), weights, density, loc);
}

std::pair<Array, std::vector<Array>> histogramdd(const Array& sample, const std::vector<Array>& edges,
                                                 const std::optional<Array>& weights, bool density, SourceLocation loc) {
  const AbstractValue& sv = api::aval(sample, "histogramdd");
  if (sv.shape.size() != 2) throw ShapeError("histogramdd: expects points [N, D], but got " + sv.str());
  const int64_t n = sv.shape[0], dims = sv.shape[1];
  if (static_cast<int64_t>(edges.size()) != dims)
    throw ValueError("histogramdd: expects one array of edges per dimension (" + std::to_string(dims) + "), but got " +
                     std::to_string(edges.size()));
  Array x = api::to_inexact(sample, "histogramdd", loc);
  if (is_complex(x.dtype())) throw DTypeError("histogramdd: expects real values, but got " + sv.str());
  Array w = weights ? *weights : ones({n}, x.dtype());
  if (api::aval(w, "histogramdd").shape != Shape{n})
    throw ShapeError("histogramdd: expects weights [" + std::to_string(n) + "], but got " + api::aval(w, "histogramdd").str());
  // Each point's bin along each dimension, 0 below and ne above (as histogram's), combined into
  // one flat index of the (ne_d + 1)-sized grid; the scatter-add then drops the outer cells.
  Array flat = zeros({n}, i32);
  Shape grid;
  std::vector<Array> es;
  for (int64_t d = 0; d < dims; ++d) {
    const AbstractValue& ev = expect_1d(edges[static_cast<size_t>(d)], "histogramdd", "array of bin edges");
    if (ev.shape[0] < 2) throw ShapeError("histogramdd: expects at least two bin edges per dimension, but got " + ev.str());
    Array e = astype(edges[static_cast<size_t>(d)], x.dtype(), loc);
    es.push_back(e);
    const int64_t ne = ev.shape[0];
    Array xd = reshape(api::slice_along(x, 1, d, d + 1, 1, loc), {n}, loc);
    Array b = searchsorted(e, xd, "right", loc);
    b = where(equal(xd, last(e, loc), loc), api::i32_scalar(ne - 1), b, loc);
    flat = flat * api::i32_scalar(ne + 1) + b;
    grid.push_back(ne + 1);
  }
  int64_t cells = 1;
  for (int64_t g : grid) cells *= g;
  Array counts = reshape(zeros({cells}, w.dtype()).at(flat).add(w, loc), grid, loc);
  for (int64_t d = 0; d < dims; ++d) counts = api::slice_along(counts, static_cast<int>(d), 1, grid[static_cast<size_t>(d)] - 1, 1, loc);
  if (density) {
    Array total = sum(counts, {}, false, loc);
    counts = counts / total;
    for (int64_t d = 0; d < dims; ++d) {
      const Array& e = es[static_cast<size_t>(d)];
      Shape ws(static_cast<size_t>(dims), 1);
      ws[static_cast<size_t>(d)] = grid[static_cast<size_t>(d)] - 2;
      counts = counts / reshape(e[Slice(1, none)] - e[Slice(none, -1)], ws, loc);
    }
  }
  return {counts, es};
}

std::pair<Array, std::vector<Array>> histogramdd(const Array& sample, const std::vector<int64_t>& bins,
                                                 const std::vector<std::optional<std::pair<double, double>>>& ranges,
                                                 const std::optional<Array>& weights, bool density, SourceLocation loc) {
  const AbstractValue& sv = api::aval(sample, "histogramdd");
  if (sv.shape.size() != 2) throw ShapeError("histogramdd: expects points [N, D], but got " + sv.str());
  const int64_t dims = sv.shape[1];
  if (static_cast<int64_t>(bins.size()) != dims || (!ranges.empty() && static_cast<int64_t>(ranges.size()) != dims))
    throw ValueError("histogramdd: expects a bin count (and a range, when given) per dimension (" + std::to_string(dims) + ")");
  std::vector<Array> edges;
  for (int64_t d = 0; d < dims; ++d) {
    Array col = api::slice_along(sample, 1, d, d + 1, 1, loc);
    edges.push_back(histogram_bin_edges(col, bins[static_cast<size_t>(d)], ranges.empty() ? std::nullopt : ranges[static_cast<size_t>(d)], loc));
  }
  return histogramdd(sample, edges, weights, density, loc);
}

std::tuple<Array, Array, Array> histogram2d(const Array& x, const Array& y, int64_t bins,
                                            std::optional<std::pair<double, double>> x_range,
                                            std::optional<std::pair<double, double>> y_range,
                                            const std::optional<Array>& weights, bool density, SourceLocation loc) {
  const AbstractValue& xv = expect_1d(x, "histogram2d", "array of x coordinates");
  const AbstractValue& yv = expect_1d(y, "histogram2d", "array of y coordinates");
  if (xv.shape != yv.shape) throw ShapeError("histogram2d: x " + xv.str() + " and y " + yv.str() + " must have one length");
  auto [px, py] = api::promote_inexact_dtypes("histogram2d", x, y, loc);
  Array sample = stack({px, py}, 1, loc);
  auto [counts, edges] = histogramdd(sample, {bins, bins}, {x_range, y_range}, weights, density, loc);
  return {counts, edges[0], edges[1]};
}

}  // namespace strata
