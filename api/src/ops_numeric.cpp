// Differences, products, polynomials, 1-d convolutions and index conversions (composites.h):
// jax.numpy's definitions over the public ops.
#include <algorithm>
#include <numeric>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/conv.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/linalg.h"
#include "strata/selection.h"

namespace strata {

Array diff(const Array& x, int n, int axis, const std::optional<Array>& prepend, const std::optional<Array>& append,
           SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "diff");
  if (av.shape.empty()) throw ValueError("diff: expects an array of rank 1 or more, but got " + av.str());
  if (n < 0) throw ValueError("diff: expects a non-negative order n, but got " + std::to_string(n));
  int ax = api::normalize_axis("diff", axis, av);
  Array a = x;
  auto edge = [&](const Array& e) {
    Shape s = av.shape;
    s[static_cast<size_t>(ax)] = 1;
    return api::aval(e, "diff").shape.empty() ? broadcast_to(e, s, loc) : e;
  };
  if (prepend || append) {
    std::vector<Array> parts;
    if (prepend) parts.push_back(edge(*prepend));
    parts.push_back(a);
    if (append) parts.push_back(edge(*append));
    a = concatenate(parts, ax, loc);
  }
  for (int i = 0; i < n; ++i) {
    int64_t len = a.shape()[static_cast<size_t>(ax)];
    if (len == 0) break;
    Array hi = api::slice_along(a, ax, 1, len, 1, loc), lo = api::slice_along(a, ax, 0, len - 1, 1, loc);
    a = is_bool(a.dtype()) ? not_equal(hi, lo, loc) : subtract(hi, lo, loc);
  }
  return a;
}

Array cross(const Array& a, const Array& b, SourceLocation loc) {
  const AbstractValue &av = api::aval(a, "cross"), &bv = api::aval(b, "cross");
  auto dim = [](const AbstractValue& v) { return v.shape.empty() ? int64_t{0} : v.shape.back(); };
  if ((dim(av) != 2 && dim(av) != 3) || (dim(bv) != 2 && dim(bv) != 3))
    throw ShapeError("cross: expects vectors of 2 or 3 components along the last axis, but got " + av.str() + " and " +
                     bv.str());
  auto part = [&](const Array& v, int64_t i) {
    if (i >= v.shape().back()) return zeros_like(api::slice_along(v, static_cast<int>(v.shape().size()) - 1, 0, 1, 1, loc));
    return api::slice_along(v, static_cast<int>(v.shape().size()) - 1, i, i + 1, 1, loc);
  };
  Array a0 = part(a, 0), a1 = part(a, 1), a2 = part(a, 2), b0 = part(b, 0), b1 = part(b, 1), b2 = part(b, 2);
  Array z = a0 * b1 - a1 * b0;
  if (dim(av) == 2 && dim(bv) == 2) return squeeze(z, {-1}, loc);
  return concatenate({a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, z}, -1, loc);
}

Array kron(const Array& a, const Array& b, SourceLocation loc) {
  Shape sa = api::aval(a, "kron").shape, sb = api::aval(b, "kron").shape;
  size_t r = std::max(sa.size(), sb.size());
  sa.insert(sa.begin(), r - sa.size(), 1);
  sb.insert(sb.begin(), r - sb.size(), 1);
  Shape ia, ib, out;
  for (size_t d = 0; d < r; ++d) {
    ia.insert(ia.end(), {sa[d], 1});
    ib.insert(ib.end(), {1, sb[d]});
    out.push_back(sa[d] * sb[d]);
  }
  return reshape(multiply(reshape(a, ia, loc), reshape(b, ib, loc), loc), out, loc);
}

Array inner(const Array& a, const Array& b, SourceLocation loc) {
  const AbstractValue &av = api::aval(a, "inner"), &bv = api::aval(b, "inner");
  if (av.shape.empty() || bv.shape.empty()) return multiply(a, b, loc);
  return tensordot(a, b, {static_cast<int>(av.shape.size()) - 1}, {static_cast<int>(bv.shape.size()) - 1}, loc);
}

Array vdot(const Array& a, const Array& b, SourceLocation loc) {
  const AbstractValue &av = api::aval(a, "vdot"), &bv = api::aval(b, "vdot");
  if (av.size() != bv.size())
    throw ShapeError("vdot: expects arrays of one size, but got " + av.str() + " and " + bv.str());
  return tensordot(conj(ravel(a, loc), loc), ravel(b, loc), 1, loc);
}

Array polyval(const Array& p, const Array& x, SourceLocation loc) {
  const AbstractValue& pv = api::aval(p, "polyval");
  if (pv.shape.size() != 1) throw ShapeError("polyval: expects 1-d coefficients, but got " + pv.str());
  Array xs = api::to_inexact(x, "polyval", loc), ps = api::to_inexact(p, "polyval", loc);
  TypeSpec t = promote_types(api::spec(xs, "polyval"), api::spec(ps, "polyval"));
  xs = api::convert(xs, t, loc);
  ps = api::convert(ps, t, loc);
  Array y = zeros_like(xs);
  for (int64_t i = 0; i < pv.shape[0]; ++i) y = y * xs + index(ps, {i}, loc);
  return y;
}

namespace {

// The correlation sum_n x[n + k] y[n] of 1-d x (the longer) and y, StableHLO's convolution
// (no kernel flip) with NumPy's mode padding.
Array correlate_1d(const Array& x, const Array& y, const std::string& mode, const char* op, const SourceLocation& loc) {
  const int64_t m = y.shape()[0];
  std::pair<int64_t, int64_t> pad;
  if (mode == "valid") pad = {0, 0};
  else if (mode == "same") pad = {m / 2, m - m / 2 - 1};
  else if (mode == "full") pad = {m - 1, m - 1};
  else throw ValueError(std::string(op) + ": expects mode \"full\", \"same\" or \"valid\", but got \"" + mode + "\"");
  Array r = conv_general_dilated(reshape(x, {1, 1, x.shape()[0]}, loc), reshape(y, {1, 1, m}, loc), {1}, {pad}, {}, {},
                                 {}, 1, 1, loc);
  return reshape(r, {r.shape()[2]}, loc);
}

std::pair<Array, Array> conv_operands(const Array& a, const Array& v, const char* op, const SourceLocation& loc) {
  const AbstractValue &av = api::aval(a, op), &vv = api::aval(v, op);
  if (av.shape.size() != 1 || vv.shape.size() != 1)
    throw ShapeError(std::string(op) + ": expects 1-d arrays, but got " + av.str() + " and " + vv.str());
  if (av.size() == 0 || vv.size() == 0)
    throw ValueError(std::string(op) + ": expects non-empty arrays, but got " + av.str() + " and " + vv.str());
  TypeSpec t = promote_types(api::spec(a, op), api::spec(v, op));
  if (is_bool(t.dtype)) t = {i32, false};
  return {api::convert(a, t, loc), api::convert(v, t, loc)};
}

}  // namespace

Array convolve(const Array& a, const Array& v, const std::string& mode, SourceLocation loc) {
  auto [x, y] = conv_operands(a, v, "convolve", loc);
  if (x.shape()[0] < y.shape()[0]) std::swap(x, y);  // commutative; NumPy's modes follow the longer
  return correlate_1d(x, flip(y, {}, loc), mode, "convolve", loc);
}

Array correlate(const Array& a, const Array& v, const std::string& mode, SourceLocation loc) {
  auto [x, y] = conv_operands(a, v, "correlate", loc);
  if (x.shape()[0] >= y.shape()[0]) return correlate_1d(x, conj(y, loc), mode, "correlate", loc);
  // The shorter first: NumPy's reversed, conjugated correlation of the swapped pair.
  return conj(flip(correlate_1d(y, conj(x, loc), mode, "correlate", loc), {}, loc), loc);
}

std::vector<Array> unravel_index(const Array& indices, const Shape& shape, SourceLocation loc) {
  const AbstractValue& iv = api::aval(indices, "unravel_index");
  if (!is_integer(iv.dtype)) throw DTypeError("unravel_index: expects integer indices, but got " + iv.str());
  int64_t total = 1;
  for (int64_t d : shape) {
    if (d < 0) throw ValueError("unravel_index: expects non-negative dimensions, but got " + shape_string(shape));
    total *= d;
  }
  if (total == 0 && iv.size() > 0) throw ValueError("unravel_index: cannot index into an empty shape " + shape_string(shape));
  Array i = astype(indices, i64, loc);
  if (total > 0) {
    i = clip(i, astype(Array(-total), i64), astype(Array(total - 1), i64), loc);
    i = where(less(i, astype(Array(int64_t{0}), i64), loc), i + astype(Array(total), i64), i, loc);
  }
  std::vector<Array> out(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    Array s = astype(Array(std::max<int64_t>(shape[d], 1)), i64);
    out[d] = astype(i % s, i32, loc);
    i = floor_divide(i, s, loc);
  }
  return out;
}

Array ravel_multi_index(const std::vector<Array>& multi_index, const Shape& dims, const std::string& mode,
                        SourceLocation loc) {
  if (multi_index.size() != dims.size())
    throw ValueError("ravel_multi_index: expects one index array per dimension of " + shape_string(dims) + ", but got " +
                     std::to_string(multi_index.size()));
  if (mode != "clip" && mode != "wrap")
    throw ValueError("ravel_multi_index: expects mode \"clip\" or \"wrap\" (\"raise\" needs values known before the "
                     "trace), but got \"" + mode + "\"");
  Array flat = astype(Array(int64_t{0}), i64);
  for (size_t d = 0; d < dims.size(); ++d) {
    const AbstractValue& v = api::aval(multi_index[d], "ravel_multi_index");
    if (!is_integer(v.dtype)) throw DTypeError("ravel_multi_index: expects integer indices, but got " + v.str());
    Array i = astype(multi_index[d], i64, loc);
    Array n = astype(Array(std::max<int64_t>(dims[d], 1)), i64);
    i = mode == "clip" ? clip(i, astype(Array(int64_t{0}), i64), n - astype(Array(int64_t{1}), i64), loc) : i % n;
    flat = flat * astype(Array(dims[d]), i64) + i;
  }
  return astype(flat, i32, loc);
}

namespace {
std::pair<Array, Array> triangle_indices(int64_t n, int64_t k, std::optional<int64_t> m, bool upper) {
  int64_t cols = m.value_or(n);
  if (n < 0 || cols < 0) throw ValueError("triu_indices/tril_indices: expects non-negative sizes");
  std::vector<int32_t> r, c;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < cols; ++j)
      if (upper ? j - i >= k : j - i <= k) {
        r.push_back(static_cast<int32_t>(i));
        c.push_back(static_cast<int32_t>(j));
      }
  int64_t len = static_cast<int64_t>(r.size());
  return {array(r, {len}), array(c, {len})};
}
}  // namespace

std::pair<Array, Array> triu_indices(int64_t n, int64_t k, std::optional<int64_t> m) {
  return triangle_indices(n, k, m, true);
}
std::pair<Array, Array> tril_indices(int64_t n, int64_t k, std::optional<int64_t> m) {
  return triangle_indices(n, k, m, false);
}

}  // namespace strata

namespace strata {

Array diagonal(const Array& x, int64_t offset, int axis1, int axis2, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "diagonal");
  if (av.shape.size() < 2) throw ValueError("diagonal: expects an array of rank 2 or more, but got " + av.str());
  int a = api::normalize_axis("diagonal", axis1, av), b = api::normalize_axis("diagonal", axis2, av);
  if (a == b) throw ValueError("diagonal: expects two different axes, but got " + std::to_string(axis1) + " twice");
  // The two axes last (a, then b), the others in order.
  std::vector<int> perm;
  for (int i = 0; i < static_cast<int>(av.shape.size()); ++i)
    if (i != a && i != b) perm.push_back(i);
  perm.push_back(a);
  perm.push_back(b);
  Array m = transpose(x, perm, loc);
  const Shape& s = m.shape();
  const int64_t n = s[s.size() - 2], w = s.back();
  const int64_t r0 = std::max<int64_t>(0, -offset), c0 = std::max<int64_t>(0, offset);
  const int64_t len = std::max<int64_t>(0, std::min(n - r0, w - c0));
  Shape out(s.begin(), s.end() - 2);
  out.push_back(len);
  if (len == 0) return zeros(out, m.dtype());
  Array rows = take(m, arange(len) + static_cast<int32_t>(r0), static_cast<int>(s.size()) - 2, loc);  // [..., len, w]
  Shape is(s.size() - 2, 1);
  is.insert(is.end(), {len, 1});
  Array cols = broadcast_to(reshape(arange(len) + static_cast<int32_t>(c0), is, loc), [&] {
    Shape t = rows.shape();
    t.back() = 1;
    return t;
  }(), loc);
  return reshape(take_along_axis(rows, cols, -1, loc), out, loc);
}

Array matrix_transpose(const Array& x, SourceLocation loc) {
  if (api::aval(x, "matrix_transpose").shape.size() < 2)
    throw ValueError("matrix_transpose: expects an array of rank 2 or more, but got " + api::aval(x, "matrix_transpose").str());
  return swapaxes(x, -1, -2, loc);
}

Array vecdot(const Array& a, const Array& b, int axis, SourceLocation loc) {
  return sum(multiply(conj(a, loc), b, loc), axis, false, loc);
}

Array vander(const Array& x, std::optional<int64_t> n, bool increasing, SourceLocation loc) {
  const AbstractValue& xv = api::aval(x, "vander");
  if (xv.shape.size() != 1) throw ShapeError("vander: expects a 1-d array, but got " + xv.str());
  const int64_t cols = n.value_or(xv.shape[0]);
  if (cols < 0) throw ValueError("vander: expects a non-negative number of columns, but got " + std::to_string(cols));
  std::vector<Array> powers;
  Array col = ones_like(x);
  for (int64_t j = 0; j < cols; ++j) {
    powers.push_back(reshape(col, {xv.shape[0], 1}, loc));
    col = col * x;
  }
  if (!increasing) std::reverse(powers.begin(), powers.end());
  if (powers.empty()) return zeros({xv.shape[0], 0}, xv.dtype);
  return concatenate(powers, 1, loc);
}

namespace {
const AbstractValue& poly_1d(const Array& p, const char* op) {
  const AbstractValue& pv = api::aval(p, op);
  if (pv.shape.size() != 1) throw ShapeError(std::string(op) + ": expects 1-d coefficients, but got " + pv.str());
  return pv;
}
}  // namespace

Array polyder(const Array& p, int m, SourceLocation loc) {
  poly_1d(p, "polyder");
  if (m < 0) throw ValueError("polyder: expects a non-negative order m, but got " + std::to_string(m));
  Array c = p;
  for (int i = 0; i < m; ++i) {
    const int64_t n = c.shape()[0];
    if (n <= 1) return zeros({0}, c.dtype());
    // c[k] · (n - 1 - k) for k < n - 1.
    Array powers = astype(arange(n - 1, 0, -1, f64), c.dtype(), loc);
    c = index(c, {Slice(0, n - 1)}, loc) * powers;
  }
  return c;
}

Array polyint(const Array& p, int m, double k, SourceLocation loc) {
  poly_1d(p, "polyint");
  if (m < 0) throw ValueError("polyint: expects a non-negative order m, but got " + std::to_string(m));
  Array c = api::to_inexact(p, "polyint", loc);
  for (int i = 0; i < m; ++i) {
    const int64_t n = c.shape()[0];
    Array powers = astype(arange(static_cast<double>(n), 0, -1, f64), c.dtype(), loc);
    c = concatenate({c / powers, reshape(astype(Array(k), c.dtype(), loc), {1}, loc)}, 0, loc);
  }
  return c;
}

Array polyfit(const Array& x, const Array& y, int deg, SourceLocation loc) {
  poly_1d(x, "polyfit");
  if (deg < 0) throw ValueError("polyfit: expects a non-negative degree, but got " + std::to_string(deg));
  const AbstractValue& yv = api::aval(y, "polyfit");
  if (yv.shape.empty() || yv.shape[0] != api::aval(x, "polyfit").shape[0])
    throw ShapeError("polyfit: expects y with x's length first, but got " + api::aval(x, "polyfit").str() + " and " +
                     yv.str());
  Array xf = api::to_inexact(x, "polyfit", loc), yf = api::to_inexact(y, "polyfit", loc);
  Array v = vander(xf, deg + 1, false, loc);
  // Columns scaled to unit norm first (NumPy's conditioning), then unscaled.
  Array scale = sqrt(sum(v * v, {0}, false, loc), loc);
  Array sol = linalg::lstsq(v / scale, yf).x;
  return yv.shape.size() == 1 ? sol / scale : sol / reshape(scale, {-1, 1}, loc);
}

}  // namespace strata
