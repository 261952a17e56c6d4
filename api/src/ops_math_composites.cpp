// More of jax.numpy's elementwise and small functions (composites.h): square, reciprocal,
// copysign, signbit, fmax/fmin, nan_to_num, frexp/ldexp, gcd/lcm, cov/corrcoef, select,
// unwrap, the stacking helpers, ... Composites of the public ops, as jax.numpy defines them.
#include <cmath>
#include <limits>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/control_flow.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/selection.h"
#include "strata/sorting.h"
#include "strata/statistics.h"

namespace strata {

namespace {

Array c_like(double v, const Array& x) { return astype(Array(v), x.dtype()); }

void expect_real(const Array& x, const char* op) {
  if (is_complex(api::aval(x, op).dtype))
    throw DTypeError(std::string(op) + ": expects real values, but got " + api::aval(x, op).str());
}

}  // namespace

Array square(const Array& x, SourceLocation loc) { return multiply(x, x, loc); }
Array reciprocal(const Array& x, SourceLocation loc) {
  Array y = api::to_inexact(x, "reciprocal", loc);
  return divide(c_like(1, y), y, loc);
}
Array deg2rad(const Array& x, SourceLocation loc) {
  Array y = api::to_inexact(x, "deg2rad", loc);
  return y * c_like(M_PI / 180.0, y);
}
Array rad2deg(const Array& x, SourceLocation loc) {
  Array y = api::to_inexact(x, "rad2deg", loc);
  return y * c_like(180.0 / M_PI, y);
}

Array signbit(const Array& x, SourceLocation loc) {
  DType t = api::aval(x, "signbit").dtype;
  expect_real(x, "signbit");
  if (is_bool(t) || is_unsigned_integer(t)) return zeros(x.shape(), bool_);
  if (is_integer(t)) return less(x, astype(Array(0), t), loc);
  DType bt = api::bits_type(t);
  return less(bitcast_convert_type(x, bt, loc), astype(Array(0), bt), loc);
}
Array copysign(const Array& a, const Array& b, SourceLocation loc) {
  auto [x, y] = api::promote_inexact_dtypes("copysign", a, b, loc);
  expect_real(x, "copysign");
  Array m = abs(x, loc);
  return where(signbit(y, loc), negative(m, loc), m, loc);
}
Array heaviside(const Array& x1, const Array& x2, SourceLocation loc) {
  auto [x, h] = api::promote_inexact_dtypes("heaviside", x1, x2, loc);
  expect_real(x, "heaviside");
  return where(less(x, c_like(0, x), loc), c_like(0, x), where(greater(x, c_like(0, x), loc), c_like(1, x), h, loc), loc);
}
Array fmax(const Array& a, const Array& b, SourceLocation loc) {
  auto [x, y] = api::promote_dtypes("fmax", a, b, loc);
  return where(logical_or(greater(x, y, loc), isnan(y, loc), loc), x, y, loc);
}
Array fmin(const Array& a, const Array& b, SourceLocation loc) {
  auto [x, y] = api::promote_dtypes("fmin", a, b, loc);
  return where(logical_or(less(x, y, loc), isnan(y, loc), loc), x, y, loc);
}
Array logical_xor(const Array& a, const Array& b, SourceLocation loc) {
  return not_equal(astype(a, bool_, loc), astype(b, bool_, loc), loc);
}
Array trunc(const Array& x, SourceLocation loc) {
  if (!is_floating(api::aval(x, "trunc").dtype)) {
    expect_real(x, "trunc");
    return x;
  }
  return where(less(x, c_like(0, x), loc), ceil(x, loc), floor(x, loc), loc);
}
Array rint(const Array& x, SourceLocation loc) {
  if (!is_floating(api::aval(x, "rint").dtype)) {
    expect_real(x, "rint");
    return api::to_inexact(x, "rint", loc);
  }
  return round(x, RoundingMethod::to_nearest_even, loc);
}

Array nan_to_num(const Array& x, double nan, std::optional<double> posinf, std::optional<double> neginf,
                 SourceLocation loc) {
  DType t = api::aval(x, "nan_to_num").dtype;
  if (is_complex(t))
    return complex(nan_to_num(real(x, loc), nan, posinf, neginf, loc), nan_to_num(imag(x, loc), nan, posinf, neginf, loc), loc);
  if (!is_floating(t)) return x;
  double big = finfo(t).max;
  Array y = where(isnan(x, loc), c_like(nan, x), x, loc);
  y = where(isposinf(x, loc), c_like(posinf.value_or(big), x), y, loc);
  return where(isneginf(x, loc), c_like(neginf.value_or(-big), x), y, loc);
}

Array float_power(const Array& x, const Array& y, SourceLocation loc) {
  auto [a, b] = api::promote_inexact_dtypes("float_power", x, y, loc);
  DType t = is_complex(a.dtype()) ? c128 : f64;
  return power(astype(a, t, loc), astype(b, t, loc), loc);
}

Array ldexp(const Array& x, const Array& e, SourceLocation loc) {
  Array m = api::to_inexact(x, "ldexp", loc);
  expect_real(m, "ldexp");
  if (!is_integer(api::aval(e, "ldexp").dtype))
    throw DTypeError("ldexp: expects integer exponents, but got " + api::aval(e, "ldexp").str());
  Array r = m * exp2(astype(e, m.dtype(), loc), loc);
  return where(logical_or(isinf(m, loc), equal(m, c_like(0, m), loc), loc), m, r, loc);
}

// The exponent and mantissa fields of the bits, subnormals first scaled into normal range
// (JAX's frexp).
std::pair<Array, Array> frexp(const Array& x_in, SourceLocation loc) {
  Array x = api::to_inexact(x_in, "frexp", loc);
  expect_real(x, "frexp");
  DType t = x.dtype(), bt = api::bits_type(t);
  const int nmant = finfo(t).nmant, nexp = finfo(t).nexp;
  const int64_t mask = (int64_t{1} << nexp) - 1, bias = (int64_t{1} << (nexp - 1)) - 1;
  double smallest_normal = std::ldexp(1.0, static_cast<int>(1 - bias));
  Array sub = less(abs(x, loc), c_like(smallest_normal, x), loc);
  Array scaled = where(sub, x * c_like(std::ldexp(1.0, nmant), x), x, loc);
  Array e = where(sub, astype(Array(-nmant), bt), astype(Array(0), bt), loc);
  Array bits = bitcast_convert_type(scaled, bt, loc);
  auto ci = [&](int64_t v) { return astype(Array(v), bt); };
  Array nm = ci(nmant);
  e = e + ((shift_right_arithmetic(bits, nm, loc) & ci(mask)) - ci(bias) + ci(1));
  bits = bits & ~shift_left(ci(mask), nm, loc);
  bits = bits | shift_left(ci(bias - 1), nm, loc);
  Array mant = bitcast_convert_type(bits, t, loc);
  Array special = logical_or(logical_or(isinf(x, loc), isnan(x, loc), loc), equal(x, c_like(0, x), loc), loc);
  return {where(special, x, mant, loc), astype(where(special, ci(0), e, loc), i32, loc)};
}

std::pair<Array, Array> modf(const Array& x, SourceLocation loc) {
  Array y = api::to_inexact(x, "modf", loc);
  Array whole = trunc(y, loc);
  return {y - whole, whole};
}
std::pair<Array, Array> divmod(const Array& a, const Array& b, SourceLocation loc) {
  return {floor_divide(a, b, loc), remainder(a, b, loc)};
}

Array gcd(const Array& a, const Array& b, SourceLocation loc) {
  auto [x, y] = api::promote_dtypes("gcd", a, b, loc);
  if (!is_integer(x.dtype()))
    throw DTypeError("gcd: expects integers, but got " + api::aval(a, "gcd").str() + " and " + api::aval(b, "gcd").str());
  std::vector<Array> both = broadcast_arrays({abs(x, loc), abs(y, loc)}, loc);
  auto out = while_loop(
      [](const std::pair<Array, Array>& c) { return any(c.second != 0); },
      [](const std::pair<Array, Array>& c) {
        Array nz = c.second != 0;
        Array p = where(nz, c.second, c.first), q = where(nz, fmod(c.first, c.second), zeros_like(c.second));
        Array swap = p < q;
        return std::make_pair(where(swap, q, p), where(swap, p, q));
      },
      std::make_pair(both[0], both[1]));
  return out.first;
}
Array lcm(const Array& a, const Array& b, SourceLocation loc) {
  auto [x, y] = api::promote_dtypes("lcm", a, b, loc);
  Array d = gcd(x, y, loc);
  Array zero = zeros_like(d);
  Array safe = where(equal(d, zero, loc), ones_like(d), d, loc);
  return where(equal(d, zero, loc), zero, abs(x * floor_divide(y, safe, loc), loc), loc);
}

Array logaddexp2(const Array& a, const Array& b, SourceLocation loc) {
  auto [x, y] = api::promote_inexact_dtypes("logaddexp2", a, b, loc);
  expect_real(x, "logaddexp2");
  Array hi = maximum(x, y, loc), d = x - y;
  Array r = hi + log1p(exp2(negative(abs(d, loc), loc), loc), loc) / c_like(M_LN2, x);
  return where(isnan(d, loc), x + y, r, loc);
}

Array count_nonzero(const Array& x, Axes axes, bool keepdims, SourceLocation loc) {
  return sum(astype(astype(x, bool_, loc), i32, loc), axes, keepdims, loc);
}
Array ptp(const Array& x, Axes axes, bool keepdims, SourceLocation loc) {
  return max(x, axes, keepdims, loc) - min(x, axes, keepdims, loc);
}

Array average(const Array& x, std::optional<int> axis, const std::optional<Array>& weights, SourceLocation loc) {
  Axes axes = axis ? Axes(*axis) : Axes();
  if (!weights) return mean(x, axes, false, loc);
  auto [v, w] = api::promote_inexact_dtypes("average", x, *weights, loc);
  const AbstractValue &xv = api::aval(x, "average"), &wv = api::aval(*weights, "average");
  if (wv.shape != xv.shape) {
    if (!axis || wv.shape.size() != 1)
      throw ShapeError("average: expects weights of x's shape " + xv.str() + ", or 1-d ones with an axis, but got " +
                       wv.str());
    int ax = api::normalize_axis("average", *axis, xv);
    if (wv.shape[0] != xv.shape[static_cast<size_t>(ax)])
      throw ShapeError("average: expects 1-d weights of the length of axis " + std::to_string(*axis) + " of " + xv.str() +
                       ", but got " + wv.str());
    Shape s(xv.shape.size(), 1);
    s[static_cast<size_t>(ax)] = wv.shape[0];
    w = reshape(w, s, loc);
  }
  return sum(v * w, axes, false, loc) / sum(broadcast_to(w, v.shape(), loc), axes, false, loc);
}

Array cov(const Array& x_in, bool rowvar, bool bias, std::optional<int> ddof, SourceLocation loc) {
  const AbstractValue& xv = api::aval(x_in, "cov");
  if (xv.shape.size() > 2) throw ShapeError("cov: expects a 1-d or 2-d array, but got " + xv.str());
  Array x = api::to_inexact(x_in, "cov", loc);
  if (xv.shape.size() < 2) x = reshape(x, {1, -1}, loc);
  else if (!rowvar) x = transpose(x, {}, loc);
  const int64_t n = x.shape()[1];
  const double fact = static_cast<double>(n - ddof.value_or(bias ? 0 : 1));
  Array d = x - mean(x, {1}, true, loc);
  Array c = matmul(d, transpose(conj(d, loc), {}, loc), loc) / c_like(fact, x);
  return xv.shape.size() < 2 || c.shape()[0] == 1 ? reshape(c, {}, loc) : c;
}

Array corrcoef(const Array& x, bool rowvar, SourceLocation loc) {
  Array c = cov(x, rowvar, false, std::nullopt, loc);
  if (c.shape().empty()) return c / c;
  Array d = diag(c, 0, loc);
  Array s = sqrt(real(d, loc), loc);
  Array r = c / reshape(s, {-1, 1}, loc) / reshape(s, {1, -1}, loc);
  if (is_complex(r.dtype())) return r;
  return clip(r, c_like(-1, r), c_like(1, r), loc);
}

Array select(const std::vector<Array>& conditions, const std::vector<Array>& choices, const Array& default_value,
             SourceLocation loc) {
  if (conditions.size() != choices.size())
    throw ValueError("select: expects one choice per condition, but got " + std::to_string(conditions.size()) +
                     " conditions and " + std::to_string(choices.size()) + " choices");
  Array r = default_value;
  for (size_t i = conditions.size(); i-- > 0;) r = where(astype(conditions[i], bool_, loc), choices[i], r, loc);
  return r;
}

Array unwrap(const Array& p_in, std::optional<double> discont, int axis, double period, SourceLocation loc) {
  Array p = api::to_inexact(p_in, "unwrap", loc);
  expect_real(p, "unwrap");
  const AbstractValue& pv = api::aval(p, "unwrap");
  if (pv.shape.empty()) return p;
  int ax = api::normalize_axis("unwrap", axis, pv);
  if (pv.shape[static_cast<size_t>(ax)] < 2) return p;
  const double half = period / 2, d = std::max(discont.value_or(half), half);
  Array dd = diff(p, 1, ax, std::nullopt, std::nullopt, loc);
  Array ddmod = remainder(dd + c_like(half, p), c_like(period, p), loc) - c_like(half, p);
  ddmod = where(logical_and(equal(ddmod, c_like(-half, p), loc), greater(dd, c_like(0, p), loc), loc), c_like(half, p), ddmod,
                loc);
  Array correct = where(less(abs(dd, loc), c_like(d, p), loc), c_like(0, p), ddmod - dd, loc);
  Shape first = pv.shape;
  first[static_cast<size_t>(ax)] = 1;
  return p + concatenate({zeros(first, p.dtype()), cumsum(correct, ax, false, loc)}, ax, loc);
}

namespace {

// jnp.cumulative_sum / cumulative_prod: `scan` along the axis (required unless x is 1-d), with
// the identity `initial` in front when include_initial.
template <class Scan>
Array cumulative(std::string_view op, Scan scan, double initial, const Array& x, std::optional<int> axis,
                 bool include_initial, const SourceLocation& loc) {
  const AbstractValue& xv = api::aval(x, op);
  if (!axis && xv.shape.size() != 1)
    throw ValueError(std::string(op) + ": expects an axis for an array of rank other than 1, but got " + xv.str());
  int ax = api::normalize_axis(op, axis.value_or(0), xv);
  Array c = scan(x, ax, false, loc);
  if (!include_initial) return c;
  Shape first = api::aval(c, op).shape;
  first[static_cast<size_t>(ax)] = 1;
  return concatenate({full(first, initial, c.dtype()), c}, ax, loc);
}

}  // namespace

Array cumulative_sum(const Array& x, std::optional<int> axis, bool include_initial, SourceLocation loc) {
  return cumulative("cumulative_sum", cumsum, 0, x, axis, include_initial, loc);
}

Array cumulative_prod(const Array& x, std::optional<int> axis, bool include_initial, SourceLocation loc) {
  return cumulative("cumulative_prod", cumprod, 1, x, axis, include_initial, loc);
}

Array atleast_1d(const Array& x, SourceLocation loc) {
  return api::aval(x, "atleast_1d").shape.empty() ? reshape(x, {1}, loc) : x;
}
Array atleast_2d(const Array& x, SourceLocation loc) {
  const Shape& s = api::aval(x, "atleast_2d").shape;
  if (s.size() >= 2) return x;
  return reshape(x, {1, s.empty() ? 1 : s[0]}, loc);
}
Array atleast_3d(const Array& x, SourceLocation loc) {
  const Shape& s = api::aval(x, "atleast_3d").shape;
  if (s.size() >= 3) return x;
  if (s.empty()) return reshape(x, {1, 1, 1}, loc);
  if (s.size() == 1) return reshape(x, {1, s[0], 1}, loc);
  return reshape(x, {s[0], s[1], 1}, loc);
}
Array hstack(const std::vector<Array>& xs, SourceLocation loc) {
  std::vector<Array> ys;
  for (const Array& x : xs) ys.push_back(atleast_1d(x, loc));
  if (ys.empty()) throw ValueError("hstack: expects at least one array");
  return concatenate(ys, ys[0].shape().size() == 1 ? 0 : 1, loc);
}
Array vstack(const std::vector<Array>& xs, SourceLocation loc) {
  std::vector<Array> ys;
  for (const Array& x : xs) ys.push_back(atleast_2d(x, loc));
  return concatenate(ys, 0, loc);
}
Array dstack(const std::vector<Array>& xs, SourceLocation loc) {
  std::vector<Array> ys;
  for (const Array& x : xs) ys.push_back(atleast_3d(x, loc));
  return concatenate(ys, 2, loc);
}
Array column_stack(const std::vector<Array>& xs, SourceLocation loc) {
  std::vector<Array> ys;
  for (const Array& x : xs) {
    const Shape& s = api::aval(x, "column_stack").shape;
    ys.push_back(s.size() < 2 ? reshape(x, {s.empty() ? 1 : s[0], 1}, loc) : x);
  }
  return concatenate(ys, 1, loc);
}
Array append(const Array& x, const Array& values, std::optional<int> axis, SourceLocation loc) {
  if (!axis) return concatenate({ravel(x, loc), ravel(values, loc)}, 0, loc);
  return concatenate({x, values}, *axis, loc);
}
Array array_equal(const Array& a, const Array& b, bool equal_nan, SourceLocation loc) {
  if (api::aval(a, "array_equal").shape != api::aval(b, "array_equal").shape) return astype(Array(false), bool_);
  Array eq = equal(a, b, loc);
  if (equal_nan) eq = logical_or(eq, logical_and(isnan(a, loc), isnan(b, loc), loc), loc);
  return all(eq, {}, false, loc);
}
std::vector<Array> broadcast_arrays(const std::vector<Array>& xs, SourceLocation loc) {
  Shape s;
  for (const Array& x : xs) {
    const Shape& t = api::aval(x, "broadcast_arrays").shape;
    Shape r(std::max(s.size(), t.size()), 1);
    for (size_t i = 0; i < r.size(); ++i) {
      int64_t a = i < r.size() - s.size() ? 1 : s[i - (r.size() - s.size())];
      int64_t b = i < r.size() - t.size() ? 1 : t[i - (r.size() - t.size())];
      if (a != b && a != 1 && b != 1)
        throw ShapeError("broadcast_arrays: shapes " + shape_string(s) + " and " + shape_string(t) + " cannot be broadcast");
      r[i] = a == 1 ? b : a;
    }
    s = r;
  }
  std::vector<Array> out;
  for (const Array& x : xs) out.push_back(broadcast_to(x, s, loc));
  return out;
}

}  // namespace strata
