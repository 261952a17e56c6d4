// strata/searching.h — searching sorted arrays and counting into bins, as jax.numpy's:
// searchsorted, digitize, interp, bincount, histogram, histogramdd, histogram2d. Composites of the other public ops (a
// binary search of ceil(log2(n + 1)) gather steps, scatter-adds), so they trace, compile, vmap
// and (interp, histogram's density) differentiate like any other op.
#pragma once

#include <optional>
#include <vector>
#include <tuple>
#include <string>
#include <utility>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata {

// jnp.searchsorted: for each element of v, the index (i32, v's shape) at which it would be
// inserted into the sorted 1-d `a` to keep it sorted: before equal elements with side "left",
// after them with "right". NaNs sort last (as st::sort): a NaN query goes before (after) the
// NaNs of `a`. a and v are promoted to one dtype; complex values are refused.
Array searchsorted(const Array& a, const Array& v, const std::string& side = "left",
                   SourceLocation loc = SourceLocation::current());

// jnp.digitize: the index (i32) of the bin of `bins` (1-d, increasing or decreasing) that holds
// each x: bins[i-1] <= x < bins[i] for increasing bins (bins[i-1] < x <= bins[i] with right).
Array digitize(const Array& x, const Array& bins, bool right = false, SourceLocation loc = SourceLocation::current());

// jnp.interp: the piecewise-linear interpolant through (xp, fp) (xp increasing, 1-d) at x;
// below xp[0] `left` (default fp[0]), above xp[-1] `right` (default fp[-1]). With `period`
// the points are taken modulo the period (xp need not be sorted; left/right are not used).
// Differentiable in x and fp (and xp), as JAX's.
Array interp(const Array& x, const Array& xp, const Array& fp, std::optional<double> left = std::nullopt,
             std::optional<double> right = std::nullopt, std::optional<double> period = std::nullopt,
             SourceLocation loc = SourceLocation::current());

// jnp.bincount with a static `length` (JAX needs it under jit): counts[i] = the number of
// elements of the 1-d non-negative integer x equal to i (i32), or the sum of their `weights`
// (weights' dtype). Negative values count in bin 0 and values >= length are dropped, as JAX's.
Array bincount(const Array& x, int64_t length, const std::optional<Array>& weights = std::nullopt,
               SourceLocation loc = SourceLocation::current());

// jnp.histogram: (counts, bin_edges) of the flattened a over `bins` equal bins spanning `range`
// (default a's minimum and maximum, widened by 0.5 both ways when they are equal). Each bin is
// half-open [e_i, e_{i+1}) but the last includes its right edge; values outside are not counted.
// Counts are of a's float dtype (integers become f32); with weights, their sums; with
// density, counts / (total · bin width).
std::pair<Array, Array> histogram(const Array& a, int64_t bins = 10,
                                  std::optional<std::pair<double, double>> range = std::nullopt,
                                  const std::optional<Array>& weights = std::nullopt, bool density = false,
                                  SourceLocation loc = SourceLocation::current());
// The same with explicit, increasing bin edges (bins.size() - 1 bins).
std::pair<Array, Array> histogram(const Array& a, const Array& bins, const std::optional<Array>& weights = std::nullopt,
                                  bool density = false, SourceLocation loc = SourceLocation::current());
// jnp.histogram_bin_edges: the edges histogram uses.
Array histogram_bin_edges(const Array& a, int64_t bins = 10, std::optional<std::pair<double, double>> range = std::nullopt,
                          SourceLocation loc = SourceLocation::current());

// jnp.histogramdd: counts over the D-dimensional bins of points `sample` [N, D], each dimension
// with its increasing edges (a bin is half-open but the last includes its right edge; points
// outside are not counted) — the counts [n_1, ..., n_D] (float; weights' sums with weights;
// with density, divided by the total and each bin's volume) and the edges. The second form
// makes `bins[d]` equal bins over ranges[d] (default: the data's extent in that dimension).
std::pair<Array, std::vector<Array>> histogramdd(const Array& sample, const std::vector<Array>& edges,
                                                 const std::optional<Array>& weights = std::nullopt, bool density = false,
                                                 SourceLocation loc = SourceLocation::current());
std::pair<Array, std::vector<Array>> histogramdd(const Array& sample, const std::vector<int64_t>& bins,
                                                 const std::vector<std::optional<std::pair<double, double>>>& ranges = {},
                                                 const std::optional<Array>& weights = std::nullopt, bool density = false,
                                                 SourceLocation loc = SourceLocation::current());
// jnp.histogram2d: histogramdd of the points (x[i], y[i]): (counts [bins, bins], x edges, y edges).
std::tuple<Array, Array, Array> histogram2d(const Array& x, const Array& y, int64_t bins = 10,
                                            std::optional<std::pair<double, double>> x_range = std::nullopt,
                                            std::optional<std::pair<double, double>> y_range = std::nullopt,
                                            const std::optional<Array>& weights = std::nullopt, bool density = false,
                                            SourceLocation loc = SourceLocation::current());

}  // namespace strata
