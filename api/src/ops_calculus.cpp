// Calculus on sampled data, as jax.numpy writes it: trapezoid, gradient, ediff1d (composites.h).
#include <algorithm>

#include "op_helpers.h"
#include "strata/composites.h"

namespace strata {

namespace {

// x[start:stop] along `axis`.
Array part(const Array& x, int axis, int64_t start, std::optional<int64_t> stop, const SourceLocation& loc) {
  return api::slice_along(x, axis, start, stop, 1, loc);
}

}  // namespace

Array trapezoid(const Array& y_in, const std::optional<Array>& x_in, double dx, int axis, SourceLocation loc) {
  Array y;
  Array d;  // the spacing: 0-d, or along the last axis after the move below
  if (x_in) {
    auto [py, px] = api::promote_inexact_dtypes("trapezoid", y_in, *x_in, loc);
    y = py;
    const AbstractValue& xv = api::aval(px, "trapezoid");
    if (xv.shape.size() == 1) {
      d = diff(px, 1, 0, std::nullopt, std::nullopt, loc);
    } else {
      int xa = api::normalize_axis("trapezoid", axis, xv);
      d = moveaxis(diff(px, 1, xa, std::nullopt, std::nullopt, loc), xa, -1, loc);
    }
  } else {
    y = api::to_inexact(y_in, "trapezoid", loc);
    d = api::weak_scalar_like(dx, y, "trapezoid", loc);
  }
  const AbstractValue& yv = api::aval(y, "trapezoid");
  if (yv.shape.empty()) throw ValueError("trapezoid: expects y of rank >= 1, but got " + yv.str());
  int a = api::normalize_axis("trapezoid", axis, yv);
  y = moveaxis(y, a, -1, loc);
  const int last = static_cast<int>(yv.shape.size()) - 1;
  const int64_t n = yv.shape[static_cast<size_t>(a)];
  if (d.ndim() > 0 && d.shape().back() != std::max<int64_t>(n - 1, 0))
    throw ShapeError("trapezoid: sample points " + api::aval(*x_in, "trapezoid").str() + " do not match axis " +
                     std::to_string(axis) + " of " + yv.str());
  if (n == 0) return sum(y, last, false, loc);
  if (d.ndim() == 0) {
    // A constant step: dx · (Σ y - (y_0 + y_last) / 2), JAX's fast path.
    Array ends = add(part(y, last, 0, 1, loc), part(y, last, n - 1, n, loc), loc);
    Array inner = subtract(sum(y, last, false, loc), multiply(api::weak_scalar_like(0.5, y, "trapezoid", loc),
                                                              sum(ends, last, false, loc), loc), loc);
    return multiply(d, inner, loc);
  }
  Array mids = add(part(y, last, 1, std::nullopt, loc), part(y, last, 0, n - 1, loc), loc);
  return multiply(api::weak_scalar_like(0.5, y, "trapezoid", loc), sum(multiply(d, mids, loc), -1, false, loc), loc);
}

std::vector<Array> gradient(const Array& f_in, const std::vector<Array>& spacing, Axes axes, SourceLocation loc) {
  Array f = api::to_inexact(f_in, "gradient", loc);
  const AbstractValue& fv = api::aval(f, "gradient");
  IntList ax = api::normalize_axes("gradient", axes, fv);
  if (ax.empty()) return {};
  for (int64_t a : ax)
    if (fv.shape[static_cast<size_t>(a)] < 2)
      throw ValueError("gradient: axis " + std::to_string(a) + " of " + fv.str() +
                       " is too small for a numerical gradient (2 samples or more)");
  if (!spacing.empty() && spacing.size() != 1 && spacing.size() != ax.size())
    throw ValueError("gradient: expects no spacing, one, or one per axis (" + std::to_string(ax.size()) + "), but got " +
                     std::to_string(spacing.size()));
  std::vector<Array> out;
  for (size_t i = 0; i < ax.size(); ++i) {
    const int a = static_cast<int>(ax[i]);
    const int64_t n = fv.shape[static_cast<size_t>(a)];
    Array h = spacing.empty() ? api::weak_scalar_like(1, f, "gradient", loc) : spacing[spacing.size() == 1 ? 0 : i];
    Array upper = subtract(part(f, a, 1, 2, loc), part(f, a, 0, 1, loc), loc);
    Array lower = subtract(part(f, a, n - 1, n, loc), part(f, a, n - 2, n - 1, loc), loc);
    Array inner;
    const AbstractValue& hv = api::aval(h, "gradient");
    if (hv.shape.empty()) {
      Array two_h = multiply(api::weak_scalar_like(2, f, "gradient", loc), h, loc);
      inner = divide(subtract(part(f, a, 2, std::nullopt, loc), part(f, a, 0, n - 2, loc), loc), two_h, loc);
      upper = divide(upper, h, loc);
      lower = divide(lower, h, loc);
    } else if (hv.shape.size() == 1) {
      if (hv.shape[0] != n)
        throw ShapeError("gradient: the coordinates " + hv.str() + " must have the length of axis " + std::to_string(a) +
                         " of " + fv.str());
      Shape hs(fv.shape.size(), 1);
      hs[static_cast<size_t>(a)] = n;
      Array x = reshape(astype(h, f.dtype(), loc), hs, loc);
      upper = divide(upper, subtract(part(x, a, 1, 2, loc), part(x, a, 0, 1, loc), loc), loc);
      lower = divide(lower, subtract(part(x, a, n - 1, n, loc), part(x, a, n - 2, n - 1, loc), loc), loc);
      // Second-order differences on an uneven grid (NumPy's and JAX's coefficients).
      Array dx1 = subtract(part(x, a, 1, n - 1, loc), part(x, a, 0, n - 2, loc), loc);
      Array dx2 = subtract(part(x, a, 2, std::nullopt, loc), part(x, a, 1, n - 1, loc), loc);
      Array sum12 = add(dx1, dx2, loc);
      Array ca = negative(divide(dx2, multiply(dx1, sum12, loc), loc), loc);
      Array cb = divide(subtract(dx2, dx1, loc), multiply(dx1, dx2, loc), loc);
      Array cc = divide(dx1, multiply(dx2, sum12, loc), loc);
      inner = add(add(multiply(ca, part(f, a, 0, n - 2, loc), loc), multiply(cb, part(f, a, 1, n - 1, loc), loc), loc),
                  multiply(cc, part(f, a, 2, std::nullopt, loc), loc), loc);
    } else {
      throw ValueError("gradient: a spacing is a 0-d step or 1-d coordinates, but got " + hv.str());
    }
    out.push_back(concatenate({upper, inner, lower}, a, loc));
  }
  return out;
}

Array ediff1d(const Array& x, const std::optional<Array>& to_end, const std::optional<Array>& to_begin, SourceLocation loc) {
  const AbstractValue& xv = api::aval(x, "ediff1d");
  Array flat = reshape(x, {xv.size()}, loc);
  const int64_t n = xv.size();
  Array d = n > 0 ? subtract(part(flat, 0, 1, std::nullopt, loc), part(flat, 0, 0, n - 1, loc), loc) : flat;
  std::vector<Array> pieces;
  auto flat_as = [&](const Array& v) { return reshape(astype(v, d.dtype(), loc), {api::aval(v, "ediff1d").size()}, loc); };
  if (to_begin) pieces.push_back(flat_as(*to_begin));
  pieces.push_back(d);
  if (to_end) pieces.push_back(flat_as(*to_end));
  return pieces.size() == 1 ? d : concatenate(pieces, 0, loc);
}

}  // namespace strata
