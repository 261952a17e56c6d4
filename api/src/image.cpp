// api/src/image.cpp — jax.image.resize / scale_and_translate and
// jax.scipy.ndimage.map_coordinates (strata/image.h), with JAX's kernels and weight matrices.
#include "strata/image.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/selection.h"

namespace strata::image {

namespace {

enum class Method { kNearest, kLinear, kLanczos3, kLanczos5, kCubic, kCubicPytorch, kArea };

Method parse_method(const std::string& s, const char* op) {
  if (s == "nearest") return Method::kNearest;
  if (s == "linear" || s == "bilinear" || s == "trilinear" || s == "triangle") return Method::kLinear;
  if (s == "lanczos3") return Method::kLanczos3;
  if (s == "lanczos5") return Method::kLanczos5;
  if (s == "cubic" || s == "bicubic" || s == "tricubic") return Method::kCubic;
  if (s == "cubic-pytorch" || s == "bicubic-pytorch") return Method::kCubicPytorch;
  if (s == "area") return Method::kArea;
  throw ValueError(std::string(op) + ": unknown method \"" + s +
                   "\" (nearest, linear, lanczos3, lanczos5, cubic, cubic-pytorch or area)");
}

constexpr double kPi = std::numbers::pi;

// The kernels, of x = |distance| / kernel scale >= 0.
Array lanczos(double radius, const Array& x) {
  Array y = radius * sin(kPi * x) * sin(kPi * x / radius);
  Array out = where(x > 0.001, y / where(x != 0.0, kPi * kPi * x * x, 1.0), 1.0);
  return where(x > radius, 0.0, out);
}
Array keys_cubic(const Array& x) {
  Array out = (1.5 * x - 2.5) * x * x + 1.0;
  out = where(x >= 1.0, ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0, out);
  return where(x >= 2.0, 0.0, out);
}
Array opencv_cubic(const Array& x) {
  const double a = -0.75;
  Array out = ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0;
  out = where(x >= 1.0, ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a, out);
  return where(x >= 2.0, 0.0, out);
}
Array triangle(const Array& x) { return maximum(zeros_like(x), 1.0 - abs(x)); }

int radius_of(Method m) {
  switch (m) {
    case Method::kLanczos3: return 3;
    case Method::kLanczos5: return 5;
    case Method::kCubic:
    case Method::kCubicPytorch: return 2;
    default: return 1;
  }
}

Array kernel(Method m, const Array& x) {
  switch (m) {
    case Method::kLanczos3: return lanczos(3.0, x);
    case Method::kLanczos5: return lanczos(5.0, x);
    case Method::kCubic: return keys_cubic(x);
    case Method::kCubicPytorch: return opencv_cubic(x);
    default: return triangle(x);
  }
}

// 0, 1, ..., n-1 in `dt`, offset by `from`.
Array iota(int64_t from, int64_t n, DType dt) { return astype(arange(n), dt) + static_cast<double>(from); }

// JAX's compute_weight_mat: the [m, n] weights by which output sample i of a dimension of m
// input and n output samples combines the inputs, in scale's dtype.
Array weight_matrix(int64_t m, int64_t n, const Array& scale, const Array& translation, Method method, bool antialias,
                    bool edge_padding) {
  const DType dt = scale.dtype();
  Array inv_scale = 1.0 / scale;
  Array kernel_scale = antialias ? maximum(inv_scale, 1.0) : astype(Array(1.0), dt);
  Array sample_f = (iota(0, n, dt) + 0.5) * inv_scale - translation * inv_scale - 0.5;
  const int64_t k = edge_padding ? radius_of(method) : 0;  // edge padding runs without antialias
  Array expanded = iota(-k, m + 2 * k, dt);
  Array weights;
  if (method == Method::kArea) {
    // The overlap of output cell [L_i, L_i + 1/scale) with input cell [j, j + 1).
    Array left_i = iota(0, n, dt) * inv_scale - translation * inv_scale;
    Array right_i = left_i + inv_scale;
    Array left_j = iota(0, m, dt), right_j = left_j + 1.0;
    weights = maximum(zeros({m, n}, dt), minimum(expand_dims(right_i, 0), expand_dims(right_j, 1)) -
                                             maximum(expand_dims(left_i, 0), expand_dims(left_j, 1)));
  } else {
    Array x = abs(expand_dims(sample_f, 0) - expand_dims(expanded, 1)) / kernel_scale;
    weights = kernel(method, x);
  }
  // Columns are normalised to sum 1 (columns summing to about 0 are zeroed).
  auto normalise = [](const Array& w) {
    Array total = sum(w, 0, true);
    return where(abs(total) > 1000.0 * 1.1920928955078125e-07, w / where(total != 0.0, total, 1.0), 0.0);
  };
  if (edge_padding) {
    // Taps beyond the edges read the edge sample: their weights are added onto it.
    Array rows = clip(astype(expanded, DType::i32), 0, static_cast<int>(m - 1));
    Array mat = zeros({m, n}, dt).at(Index(rows)).add(weights);
    return normalise(mat);
  }
  weights = normalise(weights);
  Array inside = (sample_f >= -0.5) & (sample_f <= static_cast<double>(m) - 0.5);
  return where(expand_dims(inside, 0), weights, 0.0);
}

// Contracts each spatial dimension d of x with its weight matrix [in_d, out_d].
Array contract(Array x, const Shape& shape, const std::vector<int>& dims, const std::vector<Array>& scale,
               const std::vector<Array>& translation, Method method, bool antialias, bool edge_padding) {
  for (size_t i = 0; i < dims.size(); ++i) {
    int d = dims[i];
    Array w = astype(weight_matrix(x.shape(d), shape[static_cast<size_t>(d)], scale[i], translation[i], method,
                                   antialias, edge_padding),
                     x.dtype());
    x = moveaxis(tensordot(x, w, {d}, {0}), -1, d);
  }
  return x;
}

void check_rank(const Array& image, const Shape& shape, const char* op) {
  if (static_cast<int>(shape.size()) != image.ndim())
    throw ShapeError(std::string(op) + ": shape " + shape_string(shape) + " must have one entry per dimension of the image " +
                     type_string(image.dtype(), image.shape()));
  for (int64_t s : shape)
    if (s < 0) throw ShapeError(std::string(op) + ": shape " + shape_string(shape) + " has a negative size");
}

// Method after antialias: antialiased cubic-pytorch is cubic (JAX's rule).
Method effective(Method m, bool antialias) { return m == Method::kCubicPytorch && antialias ? Method::kCubic : m; }

}  // namespace

Array resize(const Array& image_in, const Shape& shape, const std::string& method_name, bool antialias, SourceLocation loc) {
  const char* op = "resize";
  api::aval(image_in, op);
  check_rank(image_in, shape, op);
  Method method = parse_method(method_name, op);
  std::vector<int> dims;
  for (int d = 0; d < image_in.ndim(); ++d)
    if (image_in.shape(d) != shape[static_cast<size_t>(d)]) dims.push_back(d);
  if (method == Method::kNearest) {
    // Output i reads input floor((i + 0.5) m / n), computed in f32 as JAX does.
    Array x = image_in;
    for (int d : dims) {
      int64_t m = x.shape(d), n = shape[static_cast<size_t>(d)];
      std::vector<int32_t> offsets(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) {
        float v = (static_cast<float>(i) + 0.5f) * static_cast<float>(m);
        offsets[static_cast<size_t>(i)] = static_cast<int32_t>(std::floor(v / static_cast<float>(n)));
      }
      x = take(x, array(offsets, {n}), d);
    }
    return x;
  }
  Array image = api::to_inexact(image_in, op, loc);
  if (is_complex(image.dtype())) throw DTypeError(std::string(op) + ": complex images are not supported");
  std::vector<Array> scale, translation;
  for (int d : dims) {
    int64_t n = shape[static_cast<size_t>(d)];
    scale.push_back(Array(n == 0 ? 1.0 : static_cast<double>(n) / static_cast<double>(image.shape(d))));
    translation.push_back(Array(0.0));
  }
  method = effective(method, antialias);
  bool edge_padding = method == Method::kCubicPytorch && !antialias;
  return contract(image, shape, dims, scale, translation, method, antialias, edge_padding);
}

Array scale_and_translate(const Array& image_in, const Shape& shape, const std::vector<int>& spatial_dims,
                          const std::vector<Array>& scale_in, const std::vector<Array>& translation_in,
                          const std::string& method_name, bool antialias, SourceLocation loc) {
  const char* op = "scale_and_translate";
  api::aval(image_in, op);
  check_rank(image_in, shape, op);
  if (scale_in.size() != spatial_dims.size() || translation_in.size() != spatial_dims.size())
    throw ValueError(std::string(op) + ": " + std::to_string(spatial_dims.size()) + " spatial dimensions need as many scales and translations, but got " +
                     std::to_string(scale_in.size()) + " and " + std::to_string(translation_in.size()));
  Method method = parse_method(method_name, op);
  if (method == Method::kNearest) throw ValueError(std::string(op) + ": nearest-neighbour resampling is not supported (as in JAX); use resize");
  Array image = api::to_inexact(image_in, op, loc);
  if (is_complex(image.dtype())) throw DTypeError(std::string(op) + ": complex images are not supported");
  std::vector<int> dims;
  std::vector<Array> scale, translation;
  for (size_t i = 0; i < spatial_dims.size(); ++i) {
    dims.push_back(api::normalize_axis(op, spatial_dims[i], api::aval(image, op)));
    // scale and translation in one inexact dtype (JAX's promote_dtypes_inexact).
    auto [s, t] = api::promote_inexact_dtypes(op, scale_in[i], translation_in[i], loc);
    if (s.ndim() != 0 || t.ndim() != 0) throw ShapeError(std::string(op) + ": each scale and translation must be 0-d");
    scale.push_back(s);
    translation.push_back(t);
  }
  for (int d = 0; d < image.ndim(); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end() && image.shape(d) != shape[static_cast<size_t>(d)])
      throw ShapeError(std::string(op) + ": dimension " + std::to_string(d) + " changes size (" + shape_string(image.shape()) +
                       " to " + shape_string(shape) + ") but is not among the spatial dimensions");
  method = effective(method, antialias);
  bool edge_padding = method == Method::kCubicPytorch && !antialias;
  return contract(image, shape, dims, scale, translation, method, antialias, edge_padding);
}

}  // namespace strata::image

namespace strata::ndimage {

Array map_coordinates(const Array& input, const std::vector<Array>& coordinates, int order, const std::string& mode,
                      double cval, SourceLocation loc) {
  const char* op = "map_coordinates";
  const AbstractValue& av = api::aval(input, op);
  if (static_cast<int>(coordinates.size()) != av.ndim())
    throw ValueError(std::string(op) + ": " + std::to_string(coordinates.size()) + " coordinate arrays for an input of rank " +
                     std::to_string(av.ndim()) + " (one per dimension)");
  if (mode != "constant" && mode != "nearest" && mode != "wrap" && mode != "mirror" && mode != "reflect")
    throw ValueError(std::string(op) + ": mode \"" + mode + "\" is not supported (constant, nearest, wrap, mirror or reflect)");
  if (order != 0 && order != 1)
    throw ValueError(std::string(op) + ": order " + std::to_string(order) + " is not supported (0 or 1, as JAX)");
  if (av.ndim() == 0) return input;
  // One entry per dimension: each interpolation node's index into the input (fixed up by the
  // mode), whether it lies inside, and its weight.
  struct Node {
    Array index, valid, weight;
  };
  std::vector<std::vector<Node>> per_dim;
  for (size_t d = 0; d < coordinates.size(); ++d) {
    const Array& c = coordinates[d];
    const int64_t size = av.shape[d];
    std::vector<std::pair<Array, Array>> nodes;  // (index, weight)
    if (order == 0) {
      Array index = is_integer(c.dtype()) ? astype(c, DType::i32) : astype(round(c, RoundingMethod::away_from_zero), DType::i32);
      nodes.push_back({index, is_inexact(c.dtype()) ? ones_like(c) : astype(Array(1.0), DType::f32)});
    } else {
      Array cf = api::to_inexact(c, op, loc);
      Array lower = floor(cf);
      Array upper_weight = cf - lower;
      Array index = astype(lower, DType::i32);
      nodes.push_back({index, 1.0 - upper_weight});
      nodes.push_back({index + 1, upper_weight});
    }
    std::vector<Node> fixed;
    for (auto& [index, weight] : nodes) {
      Array f = index;
      if (mode == "nearest") {
        f = clip(index, 0, static_cast<int>(size - 1));
      } else if (mode == "wrap") {
        f = index % static_cast<int>(size);
      } else if (mode == "mirror" || mode == "reflect") {
        auto mirror = [](const Array& i, int64_t n) {
          int s = static_cast<int>(std::max<int64_t>(n - 1, 1));  // a size-1 axis mirrors onto itself
          return abs((i + s) % (2 * s) - s);
        };
        f = mode == "mirror" ? (size == 1 ? zeros_like(index) : mirror(index, size))
                             : floor_divide(mirror(2 * index + 1, 2 * size + 1) - 1, 2);
      }
      Array valid = mode == "constant" ? (index >= 0) & (index < static_cast<int>(size)) : Array();
      fixed.push_back({f, valid, weight});
    }
    per_dim.push_back(fixed);
  }
  Array fill = astype(Array(cval), av.dtype);
  Array result;
  // Every combination of one node per dimension: the product of weights times the element.
  std::vector<size_t> pick(per_dim.size(), 0);
  while (true) {
    std::vector<Index> idx;
    Array weight, valid;
    for (size_t d = 0; d < per_dim.size(); ++d) {
      const Node& n = per_dim[d][pick[d]];
      idx.push_back(n.index);
      weight = weight.valid() ? weight * n.weight : n.weight;
      if (n.valid.valid()) valid = valid.valid() ? valid & n.valid : n.valid;
    }
    Array element = index(input, idx, loc);
    if (valid.valid()) element = where(valid, element, fill);
    Array term = weight * element;
    result = result.valid() ? result + term : term;
    size_t d = 0;
    while (d < pick.size() && ++pick[d] == per_dim[d].size()) pick[d++] = 0;
    if (d == pick.size()) break;
  }
  if (is_integer(av.dtype) || av.dtype == DType::bool_) result = round(result, RoundingMethod::away_from_zero);
  return astype(result, av.dtype);
}

}  // namespace strata::ndimage
