// Quantiles, NaN-ignoring reductions, isnan & co, isclose (strata/statistics.h): composites of
// the public ops, as jax.numpy builds them.
#include "strata/statistics.h"

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

Array scalar_of(double v, DType t) { return astype(Array(v), t); }

// The quantiles of x (inexact, reduced over its last axis, sorted there with NaNs last) at the
// flattened q [k]: shape B + [k]. `count` (B + [1]) is the number of values each slice has
// (non-NaN ones when squashing NaNs), or null for all n.
Array quantiles_of_sorted(const Array& sorted, const Array& q, const std::optional<Array>& count,
                          const std::string& method, const SourceLocation& loc) {
  const Shape& s = sorted.shape();
  const size_t rank = s.size();
  const int64_t n = s.back();
  DType t = sorted.dtype();
  Shape qs(rank, 1);
  qs.back() = q.size();
  Array qb = reshape(astype(q, t, loc), qs, loc);
  Array last = count ? *count - scalar_of(1, t) : scalar_of(static_cast<double>(n - 1), t);
  Array pos = qb * last;
  Array low = floor(pos, loc), high = ceil(pos, loc);
  Array high_weight = pos - low, low_weight = scalar_of(1, t) - high_weight;
  Array top = count ? maximum(last, scalar_of(0, t), loc) : scalar_of(static_cast<double>(n - 1), t);
  auto gather = [&](const Array& i) {
    Array at = astype(clip(i, scalar_of(0, t), top, loc), i32, loc);
    Shape full = s;
    full.back() = q.size();
    return take_along_axis(sorted, broadcast_to(at, full, loc), -1, loc);
  };
  Array lo = gather(low), hi = gather(high);
  if (method == "linear") return lo * low_weight + hi * high_weight;
  if (method == "lower") return lo;
  if (method == "higher") return hi;
  if (method == "nearest") return where(less_equal(high_weight, scalar_of(0.5, t), loc), lo, hi, loc);
  if (method == "midpoint") return (lo + hi) * scalar_of(0.5, t);
  throw ValueError("quantile: expects method \"linear\", \"lower\", \"higher\", \"nearest\" or \"midpoint\", but got \"" +
                   method + "\"");
}

Array quantile_impl(const char* op, const Array& a, const Array& q_in, std::optional<int> axis,
                    const std::string& method, bool keepdims, bool squash_nans, const SourceLocation& loc) {
  Array x = api::to_inexact(a, op, loc);
  const AbstractValue& xv = api::aval(x, op);
  if (is_complex(xv.dtype)) throw DTypeError(std::string(op) + ": expects real values, but got " + xv.str());
  const AbstractValue& qv = api::aval(q_in, op);
  if (qv.shape.size() > 1) throw ShapeError(std::string(op) + ": expects a 0-d or 1-d q, but got " + qv.str());
  const size_t rank = xv.shape.size();
  int ax = 0;
  if (axis) {
    ax = api::normalize_axis(op, *axis, xv);
    x = moveaxis(x, ax, -1, loc);
  } else {
    x = reshape(x, {-1}, loc);
  }
  const Shape& ms = x.shape();
  if (ms.back() == 0) throw ValueError(std::string(op) + ": expects a non-empty axis to reduce, but got " + xv.str());
  Array sorted = sort(x, -1);
  std::optional<Array> count;
  if (squash_nans) count = sum(astype(logical_not(isnan(x, loc), loc), xv.dtype, loc), {-1}, true, loc);
  Array r = quantiles_of_sorted(sorted, q_in, count, method, loc);  // B + [k]
  Array nan = scalar_of(NAN, xv.dtype);
  if (squash_nans) r = where(equal(*count, scalar_of(0, xv.dtype), loc), nan, r, loc);
  else r = where(any(isnan(x, loc), {-1}, true, loc), nan, r, loc);
  // [k] + B, then q's shape in front.
  r = moveaxis(r, -1, 0, loc);
  Shape out(qv.shape.begin(), qv.shape.end());
  Shape batch(ms.begin(), ms.end() - 1);
  if (keepdims) {
    if (axis) batch.insert(batch.begin() + ax, 1);
    else batch.assign(rank, 1);
  }
  out.insert(out.end(), batch.begin(), batch.end());
  return reshape(r, out, loc);
}

Array percent(const Array& q, const SourceLocation& loc) { return api::to_inexact(q, "percentile", loc) / 100.0; }

}  // namespace

Array quantile(const Array& a, const Array& q, std::optional<int> axis, const std::string& method, bool keepdims,
               SourceLocation loc) {
  return quantile_impl("quantile", a, q, axis, method, keepdims, false, loc);
}
Array percentile(const Array& a, const Array& q, std::optional<int> axis, const std::string& method, bool keepdims,
                 SourceLocation loc) {
  return quantile_impl("percentile", a, percent(q, loc), axis, method, keepdims, false, loc);
}
Array median(const Array& a, std::optional<int> axis, bool keepdims, SourceLocation loc) {
  return quantile_impl("median", a, Array(0.5), axis, "linear", keepdims, false, loc);
}
Array nanquantile(const Array& a, const Array& q, std::optional<int> axis, const std::string& method, bool keepdims,
                  SourceLocation loc) {
  return quantile_impl("nanquantile", a, q, axis, method, keepdims, true, loc);
}
Array nanpercentile(const Array& a, const Array& q, std::optional<int> axis, const std::string& method, bool keepdims,
                    SourceLocation loc) {
  return quantile_impl("nanpercentile", a, percent(q, loc), axis, method, keepdims, true, loc);
}
Array nanmedian(const Array& a, std::optional<int> axis, bool keepdims, SourceLocation loc) {
  return quantile_impl("nanmedian", a, Array(0.5), axis, "linear", keepdims, true, loc);
}

// ---- NaN-ignoring reductions ----

namespace {

bool has_nans(const Array& x, const char* op) { return is_inexact(api::aval(x, op).dtype); }
// x with its NaNs replaced by v (of x's dtype).
Array nan_to(const Array& x, double v, const SourceLocation& loc) {
  return where(isnan(x, loc), astype(Array(v), x.dtype(), loc), x, loc);
}
Array not_nan_count(const Array& x, Axes axes, bool keepdims, DType t, const SourceLocation& loc) {
  return sum(astype(logical_not(isnan(x, loc), loc), t, loc), axes, keepdims, loc);
}

}  // namespace

Array nansum(const Array& x, Axes axes, bool keepdims, SourceLocation loc) {
  return sum(has_nans(x, "nansum") ? nan_to(x, 0, loc) : x, axes, keepdims, loc);
}
Array nanprod(const Array& x, Axes axes, bool keepdims, SourceLocation loc) {
  return prod(has_nans(x, "nanprod") ? nan_to(x, 1, loc) : x, axes, keepdims, loc);
}
Array nanmean(const Array& x, Axes axes, bool keepdims, SourceLocation loc) {
  if (!has_nans(x, "nanmean")) return mean(x, axes, keepdims, loc);
  DType t = real_dtype(x.dtype());
  return nansum(x, axes, keepdims, loc) / not_nan_count(x, axes, keepdims, t, loc);
}
Array nanmax(const Array& x, Axes axes, bool keepdims, SourceLocation loc) {
  if (!has_nans(x, "nanmax")) return max(x, axes, keepdims, loc);
  Array m = max(nan_to(x, -api::float_top(x.dtype()), loc), axes, keepdims, loc);
  return where(all(isnan(x, loc), axes, keepdims, loc), astype(Array(NAN), x.dtype(), loc), m, loc);
}
Array nanmin(const Array& x, Axes axes, bool keepdims, SourceLocation loc) {
  if (!has_nans(x, "nanmin")) return min(x, axes, keepdims, loc);
  Array m = min(nan_to(x, api::float_top(x.dtype()), loc), axes, keepdims, loc);
  return where(all(isnan(x, loc), axes, keepdims, loc), astype(Array(NAN), x.dtype(), loc), m, loc);
}
Array nanvar(const Array& x, Axes axes, int ddof, bool keepdims, SourceLocation loc) {
  if (!has_nans(x, "nanvar")) return var(x, axes, ddof, keepdims, loc);
  DType t = real_dtype(x.dtype());
  Array m = nanmean(x, axes, true, loc);
  Array d = nan_to(x - m, 0, loc);
  Array sq = is_complex(x.dtype()) ? real(d * conj(d)) : d * d;
  Array n = not_nan_count(x, axes, keepdims, t, loc) - astype(Array(static_cast<double>(ddof)), t, loc);
  // n <= 0 (no values, or no more than ddof) gives NaN, as JAX's.
  return where(less_equal(n, astype(Array(0.0), t, loc), loc), astype(Array(NAN), t, loc), sum(sq, axes, keepdims, loc) / n,
               loc);
}
Array nanstd(const Array& x, Axes axes, int ddof, bool keepdims, SourceLocation loc) {
  if (!has_nans(x, "nanstd")) return std(x, axes, ddof, keepdims, loc);
  return sqrt(nanvar(x, axes, ddof, keepdims, loc), loc);
}

// ---- Elementwise tests ----

Array isnan(const Array& x, SourceLocation loc) {
  DType t = api::aval(x, "isnan").dtype;
  if (is_complex(t)) return logical_or(isnan(real(x, loc), loc), isnan(imag(x, loc), loc), loc);
  if (!is_floating(t)) return zeros(x.shape(), bool_);
  return not_equal(x, x, loc);
}
Array isinf(const Array& x, SourceLocation loc) {
  DType t = api::aval(x, "isinf").dtype;
  if (is_complex(t)) return logical_or(isinf(real(x, loc), loc), isinf(imag(x, loc), loc), loc);
  if (!is_floating(t)) return zeros(x.shape(), bool_);
  return equal(abs(x, loc), astype(Array(INFINITY), t, loc), loc);
}
Array isposinf(const Array& x, SourceLocation loc) {
  DType t = api::aval(x, "isposinf").dtype;
  if (is_complex(t)) throw DTypeError("isposinf: expects real values, but got " + api::aval(x, "isposinf").str());
  if (!is_floating(t)) return zeros(x.shape(), bool_);
  return equal(x, astype(Array(INFINITY), t, loc), loc);
}
Array isneginf(const Array& x, SourceLocation loc) {
  DType t = api::aval(x, "isneginf").dtype;
  if (is_complex(t)) throw DTypeError("isneginf: expects real values, but got " + api::aval(x, "isneginf").str());
  if (!is_floating(t)) return zeros(x.shape(), bool_);
  return equal(x, astype(Array(-INFINITY), t, loc), loc);
}

Array isclose(const Array& a, const Array& b, double rtol, double atol, bool equal_nan, SourceLocation loc) {
  Array x = api::to_inexact(a, "isclose", loc), y = api::to_inexact(b, "isclose", loc);
  TypeSpec t = promote_types(api::spec(x, "isclose"), api::spec(y, "isclose"));
  x = api::convert(x, t, loc);
  y = api::convert(y, t, loc);
  DType r = real_dtype(t.dtype);
  Array out = less_equal(abs(x - y, loc), astype(Array(atol), r, loc) + astype(Array(rtol), r, loc) * abs(y, loc), loc);
  Array xi = isinf(x, loc), yi = isinf(y, loc);
  out = logical_and(out, logical_not(logical_or(xi, yi, loc), loc), loc);
  out = logical_or(out, logical_and(logical_and(xi, yi, loc), equal(x, y, loc), loc), loc);
  Array xn = isnan(x, loc), yn = isnan(y, loc);
  out = logical_and(out, logical_not(logical_or(xn, yn, loc), loc), loc);
  if (equal_nan) out = logical_or(out, logical_and(xn, yn, loc), loc);
  return out;
}
Array allclose(const Array& a, const Array& b, double rtol, double atol, bool equal_nan, SourceLocation loc) {
  return all(isclose(a, b, rtol, atol, equal_nan, loc), {}, false, loc);
}

namespace {

// x with its NaNs replaced by `v` (integers and bools have none).
Array nan_to(const Array& x, double v, std::string_view op, const SourceLocation& loc) {
  DType t = api::aval(x, op).dtype;
  if (!is_floating(t) && !is_complex(t)) return x;
  return where(isnan(x, loc), api::weak_scalar_like(v, x, op, loc), x, loc);
}

Array nanarg(bool largest, const Array& x, std::optional<int> axis, bool keepdims, const SourceLocation& loc) {
  const char* op = largest ? "nanargmax" : "nanargmin";
  DType t = api::aval(x, op).dtype;
  if (!is_floating(t)) return largest ? argmax(x, axis, keepdims, loc) : argmin(x, axis, keepdims, loc);
  Array nan = isnan(x, loc);
  Array filled = where(nan, api::weak_scalar_like(largest ? -api::float_top(t) : api::float_top(t), x, op, loc), x, loc);
  Array r = largest ? argmax(filled, axis, keepdims, loc) : argmin(filled, axis, keepdims, loc);
  Array none = axis ? all(nan, *axis, keepdims, loc) : all(nan, {}, false, loc);
  if (!axis && keepdims) none = reshape(none, r.shape(), loc);
  return where(none, astype(Array(-1), r.dtype(), loc), r, loc);
}

}  // namespace

Array nancumsum(const Array& x, std::optional<int> axis, SourceLocation loc) {
  return cumsum(nan_to(x, 0, "nancumsum", loc), axis, false, loc);
}
Array nancumprod(const Array& x, std::optional<int> axis, SourceLocation loc) {
  return cumprod(nan_to(x, 1, "nancumprod", loc), axis, false, loc);
}
Array nanargmax(const Array& x, std::optional<int> axis, bool keepdims, SourceLocation loc) {
  return nanarg(true, x, axis, keepdims, loc);
}
Array nanargmin(const Array& x, std::optional<int> axis, bool keepdims, SourceLocation loc) {
  return nanarg(false, x, axis, keepdims, loc);
}

}  // namespace strata
