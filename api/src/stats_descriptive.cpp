// api/src/stats_descriptive.cpp — st::stats::mode, rankdata and sem (jax.scipy.stats), as JAX
// computes them: mode through sized unique counts per slice, rankdata through one stable sort.
#include <cmath>

#include "stats_common.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/selection.h"
#include "strata/set_ops.h"
#include "strata/sorting.h"
#include "strata/statistics.h"
#include "strata/vmap.h"

namespace strata::stats {

ModeResult mode(const Array& a, std::optional<int> axis_in, bool keepdims, Src src) {
  const char* op = "mode";
  Array x = atleast_1d(a);
  std::optional<int> axis;
  if (axis_in) axis = api::normalize_axis(op, *axis_in, api::aval(x, op));
  Shape out;
  for (int i = 0; i < x.ndim(); ++i) {
    if (!axis || i == *axis) {
      if (keepdims) out.push_back(1);
    } else {
      out.push_back(x.shape(i));
    }
  }
  if (!axis) {
    x = ravel(x);
    axis = 0;
  }
  x = moveaxis(x, *axis, 0);
  int64_t len = x.shape(0);
  if (len == 0) return {full(out, NAN, f64), zeros(out, f64)};
  Array columns = reshape(x, {len, -1});
  // The most frequent of each column's distinct values (argmax: the first, i.e. smallest, of ties).
  auto most = [len](const Array& column) {
    auto [values, counts] = unique_counts(column, len);
    return std::make_pair(take(values, argmax(counts)), max(counts));
  };
  auto [values, counts] = vmap(most, {1})(columns);
  return {reshape(values, out), reshape(counts, out)};
}

namespace {
// The ranks of a 1-d array by `method`, JAX's _rankdata.
Array ranks_1d(const Array& a, const std::string& method, DType out) {
  int64_t n = a.shape(0);
  Array order = argsort(a);  // stable: ties keep their order ("ordinal")
  Array sorted = take(a, order);
  Array inv = zeros_like(order).at(order).set(arange(n));
  if (method == "ordinal") return astype(inv + 1, out);
  if (n == 0) return zeros({0}, out);
  // obs marks the first of each run of equal sorted values; dense numbers the runs from 1.
  Array obs = concatenate({ones({1}, bool_), slice(sorted, {1}, {n}) != slice(sorted, {0}, {n - 1})});
  Array dense = take(cumsum(astype(obs, i32)), inv);
  if (method == "dense") return astype(dense, out);
  // count[j]: where run j starts (n after the last run).
  Array count = astype(nonzero(obs, n + 1, n)[0], out);
  if (method == "max") return take(count, dense);
  if (method == "min") return take(count, dense - 1) + 1.0;
  return 0.5 * (take(count, dense) + take(count, dense - 1) + 1.0);  // average
}
}  // namespace

Array rankdata(const Array& a, const std::string& method, std::optional<int> axis, Src src) {
  const char* op = "rankdata";
  if (method != "average" && method != "min" && method != "max" && method != "dense" && method != "ordinal")
    throw ValueError(std::string(op) + ": unknown method \"" + method + "\" (average, min, max, dense or ordinal)");
  const AbstractValue& av = api::aval(a, op);
  if (is_complex(av.dtype)) throw DTypeError(std::string(op) + ": expects real values, but got " + av.str());
  // Ranks are floats: f64 for f64 data (JAX's default float with x64), f32 otherwise.
  DType out = av.dtype == DType::f64 ? DType::f64 : DType::f32;
  auto ranks = [&](const Array& v) {
    Array r = ranks_1d(v, method, out);
    if (!is_inexact(v.dtype())) return r;
    return where(any(isnan(v)), full_like(r, NAN), r);  // a NaN makes every rank nan
  };
  if (axis) {
    api::normalize_axis(op, *axis, av);
    return apply_along_axis(ranks, *axis, a);
  }
  return ranks(ravel(a));
}

Array sem(const Array& a, std::optional<int> axis, int ddof, const std::string& nan_policy, bool keepdims, Src src) {
  const char* op = "sem";
  Array b = detail::promote(op, {a}, src)[0];
  Axes axes = axis ? Axes(*axis) : Axes();
  if (nan_policy == "propagate") {
    int64_t size = axis ? b.shape(api::normalize_axis(op, *axis, api::aval(b, op))) : b.size();
    return std(b, axes, ddof, keepdims) / std::sqrt(static_cast<double>(size));
  }
  if (nan_policy == "omit") {
    Array count = astype(sum(astype(~isnan(b), i32), axes, keepdims), b.dtype());
    return nanstd(b, axes, ddof, keepdims) / sqrt(count);
  }
  throw ValueError(std::string(op) + ": nan_policy \"" + nan_policy + "\" is not supported (propagate or omit)");
}

}  // namespace strata::stats
