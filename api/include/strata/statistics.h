// strata/statistics.h — order statistics and NaN-ignoring reductions, as jax.numpy's:
// quantile, percentile, median (and their nan- forms), nansum, nanprod, nanmean, nanmax,
// nanmin, nanvar, nanstd; isnan, isinf, isposinf, isneginf, isclose, allclose. Composites of
// the other public ops (sort, take_along_axis, where), so they trace, compile, vmap and
// differentiate like them (quantiles through the sort's gradient).
#pragma once

#include <optional>
#include <string>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata {

// jnp.quantile: the q-th quantiles (q in [0, 1]: a 0-d or 1-d array, or a double) of a along
// `axis` (of the flattened a when none). The result has q's shape in front of the reduced
// shape (keepdims keeps the axis as 1). `method` as NumPy's: "linear" (the default), "lower",
// "higher", "nearest" (the lower one at exactly half), "midpoint". A slice with a NaN gives NaN.
// Integers become floats.
Array quantile(const Array& a, const Array& q, std::optional<int> axis = std::nullopt,
               const std::string& method = "linear", bool keepdims = false,
               SourceLocation loc = SourceLocation::current());
// jnp.percentile: quantile at q / 100.
Array percentile(const Array& a, const Array& q, std::optional<int> axis = std::nullopt,
                 const std::string& method = "linear", bool keepdims = false,
                 SourceLocation loc = SourceLocation::current());
// jnp.median: quantile 0.5.
Array median(const Array& a, std::optional<int> axis = std::nullopt, bool keepdims = false,
             SourceLocation loc = SourceLocation::current());
// The same ignoring NaNs (a slice of NaNs only gives NaN): jnp.nanquantile, nanpercentile,
// nanmedian.
Array nanquantile(const Array& a, const Array& q, std::optional<int> axis = std::nullopt,
                  const std::string& method = "linear", bool keepdims = false,
                  SourceLocation loc = SourceLocation::current());
Array nanpercentile(const Array& a, const Array& q, std::optional<int> axis = std::nullopt,
                    const std::string& method = "linear", bool keepdims = false,
                    SourceLocation loc = SourceLocation::current());
Array nanmedian(const Array& a, std::optional<int> axis = std::nullopt, bool keepdims = false,
                SourceLocation loc = SourceLocation::current());

// Reductions that skip NaNs (jnp.nansum, ...): NaNs count as 0 in nansum, 1 in nanprod, are left
// out of nanmean / nanvar / nanstd (a slice of NaNs only gives NaN), and of nanmax / nanmin (NaN
// when all are). Integer arrays have none: the plain reductions.
Array nansum(const Array& x, Axes axes = {}, bool keepdims = false, SourceLocation loc = SourceLocation::current());
Array nanprod(const Array& x, Axes axes = {}, bool keepdims = false, SourceLocation loc = SourceLocation::current());
Array nanmean(const Array& x, Axes axes = {}, bool keepdims = false, SourceLocation loc = SourceLocation::current());
Array nanmax(const Array& x, Axes axes = {}, bool keepdims = false, SourceLocation loc = SourceLocation::current());
Array nanmin(const Array& x, Axes axes = {}, bool keepdims = false, SourceLocation loc = SourceLocation::current());
Array nanvar(const Array& x, Axes axes = {}, int ddof = 0, bool keepdims = false,
             SourceLocation loc = SourceLocation::current());
Array nanstd(const Array& x, Axes axes = {}, int ddof = 0, bool keepdims = false,
             SourceLocation loc = SourceLocation::current());

// jnp.nancumsum / nancumprod: cumsum / cumprod with NaNs counted as 0 / 1 (over the flattened
// array when no axis is given); jnp.nanargmax / nanargmin: argmax / argmin ignoring NaNs, -1
// for a slice of NaNs only.
Array nancumsum(const Array& x, std::optional<int> axis = std::nullopt, SourceLocation loc = SourceLocation::current());
Array nancumprod(const Array& x, std::optional<int> axis = std::nullopt, SourceLocation loc = SourceLocation::current());
Array nanargmax(const Array& x, std::optional<int> axis = std::nullopt, bool keepdims = false,
                SourceLocation loc = SourceLocation::current());
Array nanargmin(const Array& x, std::optional<int> axis = std::nullopt, bool keepdims = false,
                SourceLocation loc = SourceLocation::current());

// Elementwise tests (bool): NaN (of either part of a complex number), ±inf, +inf, -inf. Integers
// and bools are never either.
Array isnan(const Array& x, SourceLocation loc = SourceLocation::current());
Array isinf(const Array& x, SourceLocation loc = SourceLocation::current());
Array isposinf(const Array& x, SourceLocation loc = SourceLocation::current());
Array isneginf(const Array& x, SourceLocation loc = SourceLocation::current());
// jnp.isclose: |a - b| <= atol + rtol·|b| elementwise (broadcast), infinities close only to
// themselves, NaNs to nothing (to each other with equal_nan). jnp.allclose: all of them.
Array isclose(const Array& a, const Array& b, double rtol = 1e-5, double atol = 1e-8, bool equal_nan = false,
              SourceLocation loc = SourceLocation::current());
Array allclose(const Array& a, const Array& b, double rtol = 1e-5, double atol = 1e-8, bool equal_nan = false,
               SourceLocation loc = SourceLocation::current());

}  // namespace strata
