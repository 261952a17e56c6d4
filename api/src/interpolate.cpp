// strata/interpolate.h: jax.scipy.interpolate.RegularGridInterpolator, JAX's algorithm.
#include "strata/interpolate.h"

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/searching.h"
#include "strata/selection.h"

namespace strata::interpolate {
namespace {

void check_method(const std::string& method) {
  if (method != "linear" && method != "nearest")
    throw ValueError("RegularGridInterpolator: expects method \"linear\" or \"nearest\", but got \"" + method + "\"");
}

}  // namespace

RegularGridInterpolator::RegularGridInterpolator(std::vector<Array> points, const Array& values_in, std::string m,
                                                 std::optional<double> fill)
    : grid(std::move(points)), method(std::move(m)), fill(fill.has_value()), fill_value(fill.value_or(0.0)) {
  const char* op = "RegularGridInterpolator";
  check_method(method);
  const AbstractValue& vv = api::aval(values_in, op);
  if (grid.size() > static_cast<size_t>(vv.ndim()))
    throw ValueError(std::string(op) + ": there are " + std::to_string(grid.size()) + " point arrays, but values " +
                     vv.str() + " has " + std::to_string(vv.ndim()) + " dimensions");
  values = api::to_inexact(values_in, op, SourceLocation::current());
  for (size_t d = 0; d < grid.size(); ++d) {
    const AbstractValue& g = api::aval(grid[d], op);
    if (g.ndim() != 1 || g.shape[0] != vv.shape[d])
      throw ValueError(std::string(op) + ": expects the points of dimension " + std::to_string(d) + " to be 1-d with " +
                       std::to_string(vv.shape[d]) + " elements (values " + vv.str() + "), but got " + g.str());
    if (g.shape[0] < 2)
      throw ValueError(std::string(op) + ": expects at least 2 points in dimension " + std::to_string(d) + ", but got " +
                       g.str());
  }
}

Array RegularGridInterpolator::operator()(const std::vector<Array>& coordinates, const std::string& m) const {
  std::vector<Array> c = broadcast_arrays(coordinates);
  for (Array& a : c) a = expand_dims(a, -1);
  return (*this)(concatenate(c, -1), m);
}

Array RegularGridInterpolator::operator()(const Array& xi_in, const std::string& m) const {
  const char* op = "RegularGridInterpolator";
  const std::string how = m.empty() ? method : m;
  check_method(how);
  const int64_t d = static_cast<int64_t>(grid.size());
  Array xi = xi_in;
  if (xi.ndim() == 1 && xi.shape()[0] % d == 0) xi = reshape(xi, {xi.shape()[0] / d, d});
  const AbstractValue& xv = api::aval(xi, op);
  if (xv.ndim() < 1 || xv.shape.back() != d)
    throw ValueError(std::string(op) + ": expects sample points [..., " + std::to_string(d) + "], but got " +
                     api::aval(xi_in, op).str());
  const Shape xi_shape = xv.shape;
  const int64_t n = xv.size() / d;
  xi = reshape(xi, {n, d});
  // Per dimension: the interval i (the edge ones extend past the grid) and the position in it.
  std::vector<Array> idx, dist;
  Array outside = zeros({n}, DType::bool_);
  for (int64_t k = 0; k < d; ++k) {
    const Array& g = grid[static_cast<size_t>(k)];
    Array x = index(xi, {Slice(), k});
    const int64_t size = g.shape()[0];
    Array i = clip(searchsorted(g, x) - 1, Array(int32_t{0}), Array(static_cast<int32_t>(size - 2)));
    Array lo = take(g, i), hi = take(g, i + 1);
    idx.push_back(i);
    dist.push_back((x - lo) / (hi - lo));
    outside = logical_or(outside, logical_or(x < g[0], x > g[size - 1]));
  }
  const Shape trailing(values.shape().begin() + d, values.shape().end());
  Shape wshape{n};
  wshape.insert(wshape.end(), trailing.size(), 1);  // weights broadcast over the trailing dims
  Array result;
  if (how == "linear") {
    // Σ over the 2^d corners (itertools.product's order: the last dimension fastest).
    result = zeros({}, values.dtype());
    for (int64_t corner = 0; corner < (int64_t{1} << d); ++corner) {
      std::vector<Index> at;
      Array weight = ones({}, dist[0].dtype());
      for (int64_t k = 0; k < d; ++k) {
        const bool upper = (corner >> (d - 1 - k)) & 1;
        at.push_back(upper ? idx[static_cast<size_t>(k)] + 1 : idx[static_cast<size_t>(k)]);
        weight = weight * (upper ? dist[static_cast<size_t>(k)] : 1.0 - dist[static_cast<size_t>(k)]);
      }
      result = result + index(values, at) * reshape(weight, wshape);
    }
  } else {
    std::vector<Index> at;
    for (int64_t k = 0; k < d; ++k) {
      const Array& i = idx[static_cast<size_t>(k)];
      at.push_back(where(dist[static_cast<size_t>(k)] <= 0.5, i, i + 1));
    }
    result = index(values, at);
  }
  if (fill) result = where(reshape(outside, wshape), astype(Array(fill_value), result.dtype()), result);
  Shape out(xi_shape.begin(), xi_shape.end() - 1);
  out.insert(out.end(), trailing.begin(), trailing.end());
  return reshape(result, out);
}

}  // namespace strata::interpolate
