// strata/image.h — jax.image and jax.scipy.ndimage: resampling an array on a grid.
//
//   st::Array small = st::image::resize(img, {1, 112, 112, 3}, "linear");   // antialiased
//   st::Array moved = st::image::scale_and_translate(img, {64, 64}, {0, 1}, {2.0, 2.0}, {0.5, -1.0}, "cubic");
//   st::Array v = st::ndimage::map_coordinates(volume, {zs, ys, xs}, 1, "nearest");
//
// JAX's algorithms: resize and scale_and_translate contract each resized dimension with a
// [in, out] matrix of kernel weights (normalised per output sample; widened by the scale when
// antialiasing a downscale), so they are linear in the image and differentiable in it and in
// scale and translation; "nearest" gathers. map_coordinates interpolates (order 0: nearest,
// 1: linear) at arbitrary coordinates, with scipy's boundary modes. All trace, jit and vmap.
#pragma once

#include <string>
#include <vector>

#include "strata/array.h"
#include "strata/ops.h"
#include "strata/shape.h"

namespace strata::image {

// `image` resampled to `shape` (same rank; the dimensions whose size changes are resized).
// method: "nearest", "linear" (also "bilinear", "trilinear", "triangle"), "lanczos3",
// "lanczos5", "cubic" (Keys, a = -0.5; also "bicubic", "tricubic"), "cubic-pytorch" (a =
// -0.75 with edge padding, as PyTorch's bicubic without antialias) or "area". With antialias
// (the default) a downscale widens the kernel by the scale (except for "nearest"). Integer
// images become floats (except for "nearest").
Array resize(const Array& image, const Shape& shape, const std::string& method, bool antialias = true,
             SourceLocation loc = SourceLocation::current());

// Resamples the `spatial_dims` of `image` into `shape`: output sample i of dimension d reads the
// input at (i + 0.5 - translation[d]) / scale[d] - 0.5. scale and translation are 0-d arrays
// (or C++ numbers), one per spatial dimension, and may be traced (differentiable). method as
// resize's, except "nearest".
Array scale_and_translate(const Array& image, const Shape& shape, const std::vector<int>& spatial_dims,
                          const std::vector<Array>& scale, const std::vector<Array>& translation,
                          const std::string& method, bool antialias = true, SourceLocation loc = SourceLocation::current());

}  // namespace strata::image

namespace strata::ndimage {

// scipy.ndimage.map_coordinates as jax.scipy.ndimage's: `input` sampled at the points whose
// coordinates along each dimension are `coordinates[d]` (one array per dimension of input, all
// of one shape, which the result has). order 0 takes the nearest element (rounding half away
// from zero), 1 interpolates linearly; mode "constant" (cval outside), "nearest", "wrap",
// "mirror" or "reflect" says how coordinates outside the array read it. Integer inputs round
// the result.
Array map_coordinates(const Array& input, const std::vector<Array>& coordinates, int order,
                      const std::string& mode = "constant", double cval = 0.0,
                      SourceLocation loc = SourceLocation::current());

}  // namespace strata::ndimage
