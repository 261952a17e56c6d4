// strata/interpolate.h — jax.scipy.interpolate: RegularGridInterpolator, linear or nearest
// interpolation on a rectilinear grid in any number of dimensions.
//
//   st::interpolate::RegularGridInterpolator f({xs, ys}, values);   // values [len(xs), len(ys), ...]
//   st::Array v = f(points);                                         // points [..., 2]
//
// JAX's algorithm: per dimension the interval by searchsorted (the edge intervals extend past
// the grid), then a weighted sum over the 2^d corners (linear) or the nearer corner (nearest).
// Points outside the grid get `fill_value` (NaN by default; std::nullopt extrapolates). It is a
// pytree (its arrays pass through jit and vmap) and differentiable in the values and points.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "strata/array.h"
#include "strata/pytree.h"

namespace strata::interpolate {

struct RegularGridInterpolator {
  std::vector<Array> grid;  // each dimension's strictly increasing coordinates
  Array values;             // [len(grid[0]), ..., len(grid[d-1]), trailing...]
  std::string method = "linear";
  bool fill = true;         // false: extrapolate (fill_value None)
  double fill_value = NAN;

  RegularGridInterpolator() = default;
  RegularGridInterpolator(std::vector<Array> points, const Array& values, std::string method = "linear",
                          std::optional<double> fill_value = NAN);

  // The interpolated values at xi [..., d] (or a 1-d xi of d-coordinate points, flattened):
  // [..., trailing...]; method overrides the interpolator's ("linear" or "nearest").
  Array operator()(const Array& xi, const std::string& method = "") const;
  // The same at points given as one coordinate array per dimension (broadcast together).
  Array operator()(const std::vector<Array>& coordinates, const std::string& method = "") const;
};
STRATA_PYTREE(RegularGridInterpolator, grid, values, method, fill, fill_value);

}  // namespace strata::interpolate
