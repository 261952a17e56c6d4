// More of jax.random's distributions (strata/random.h), each JAX's transform of its uniform,
// normal, exponential or gamma draws with JAX's key splits (jax/_src/random/core.py), so a key
// draws what it draws in JAX (bit for bit through uniform; to a few ulps through log/erf_inv).
#include <cmath>

#include "op_helpers.h"
#include "random_checks.h"
#include "strata/random.h"
#include "strata/selection.h"

namespace strata::random {

using detail::check_float;
using detail::check_key;
using detail::check_shape;
using detail::fit;
using detail::param_shape;
using detail::tiny;

namespace {

Array c(double v, DType t) { return astype(Array(v), t); }

// The checked shape of a draw: `shape`, or the parameters' broadcast shape.
Shape draw_shape(std::string_view op, const Array& key, DType dtype, const std::optional<Shape>& shape,
                 const std::vector<Array>& params) {
  check_key(key, op);
  check_float(dtype, op);
  Shape s = shape ? *shape : param_shape(op, params);
  check_shape(s, op);
  return s;
}

double eps(DType t) { return finfo(t).eps; }

}  // namespace

Array cauchy(const Array& key, const Shape& shape, DType dtype, SourceLocation loc) {
  Shape s = draw_shape("random::cauchy", key, dtype, shape, {});
  Array u = uniform(key, s, dtype, eps(dtype), 1.0, loc);
  return tan(c(M_PI, dtype) * (u - c(0.5, dtype)), loc);
}

Array laplace(const Array& key, const Shape& shape, DType dtype, SourceLocation loc) {
  Shape s = draw_shape("random::laplace", key, dtype, shape, {});
  Array u = uniform(key, s, dtype, -1.0 + finfo(dtype).epsneg, 1.0, loc);
  return sign(u, loc) * log1p(negative(abs(u, loc), loc), loc);
}

Array logistic(const Array& key, const Shape& shape, DType dtype, SourceLocation loc) {
  Shape s = draw_shape("random::logistic", key, dtype, shape, {});
  Array x = uniform(key, s, dtype, tiny(dtype), 1.0, loc);
  return log(x, loc) - log1p(negative(x, loc), loc);
}

Array lognormal(const Array& key, const Array& sigma, std::optional<Shape> shape, DType dtype, SourceLocation loc) {
  constexpr std::string_view op = "random::lognormal";
  Shape s = draw_shape(op, key, dtype, shape, {sigma});
  return exp(normal(key, s, dtype, loc) * fit(sigma, s, dtype, op, loc), loc);
}

Array pareto(const Array& key, const Array& b, std::optional<Shape> shape, DType dtype, SourceLocation loc) {
  constexpr std::string_view op = "random::pareto";
  Shape s = draw_shape(op, key, dtype, shape, {b});
  return exp(exponential(key, s, dtype, loc) / fit(b, s, dtype, op, loc), loc);
}

Array rademacher(const Array& key, const Shape& shape, DType dtype, SourceLocation loc) {
  constexpr std::string_view op = "random::rademacher";
  check_key(key, op);
  check_shape(shape, op);
  if (dtype == bool_ || is_unsigned_integer(dtype) || is_complex(dtype))
    throw DTypeError(std::string(op) + ": expects a signed integer or float dtype, but got " + std::string(short_name(dtype)));
  Array b = astype(bernoulli(key, Array(0.5), shape, loc), dtype, loc);
  return astype(c(2, dtype) * b - c(1, dtype), dtype, loc);
}

Array rayleigh(const Array& key, const Array& scale, std::optional<Shape> shape, DType dtype, SourceLocation loc) {
  constexpr std::string_view op = "random::rayleigh";
  Shape s = draw_shape(op, key, dtype, shape, {scale});
  Array u = uniform(key, s, dtype, 0.0, 1.0, loc);
  return fit(scale, s, dtype, op, loc) * sqrt(log(u, loc) * c(-2, dtype), loc);
}

Array triangular(const Array& key, const Array& left, const Array& mode, const Array& right, std::optional<Shape> shape,
                 DType dtype, SourceLocation loc) {
  constexpr std::string_view op = "random::triangular";
  Shape s = draw_shape(op, key, dtype, shape, {left, mode, right});
  Array l = fit(left, s, dtype, op, loc), m = fit(mode, s, dtype, op, loc), r = fit(right, s, dtype, op, loc);
  Array fc = (m - l) / (r - l);
  Array u = uniform(key, s, dtype, 0.0, 1.0, loc);
  Array below = l + sqrt(u * (r - l) * (m - l), loc);
  Array above = r - sqrt((c(1, dtype) - u) * (r - l) * (r - m), loc);
  return where(less(u, fc, loc), below, above, loc);
}

Array wald(const Array& key, const Array& mean, std::optional<Shape> shape, DType dtype, SourceLocation loc) {
  constexpr std::string_view op = "random::wald";
  Shape s = draw_shape(op, key, dtype, shape, {mean});
  Array ks = split(key, 2, loc);
  Array mu = fit(mean, s, dtype, op, loc);
  Array v = normal(key_at(ks, 0, loc), s, dtype, loc);
  Array z = uniform(key_at(ks, 1, loc), s, dtype, 0.0, 1.0, loc);
  Array y = v * v, y_sq = y * y, mu_sq = mu * mu;
  Array root = sqrt(c(4, dtype) * mu * y + mu_sq * y_sq, loc);
  Array x = mu + mu_sq * y / c(2, dtype) - mu / c(2, dtype) * root;
  return where(less_equal(z, mu / (mu + x), loc), x, mu_sq / x, loc);
}

Array weibull_min(const Array& key, const Array& scale, const Array& concentration, std::optional<Shape> shape, DType dtype,
                  SourceLocation loc) {
  constexpr std::string_view op = "random::weibull_min";
  Shape s = draw_shape(op, key, dtype, shape, {scale, concentration});
  Array u = uniform(key, s, dtype, 0.0, 1.0, loc);
  return power(negative(log1p(negative(u, loc), loc), loc), c(1, dtype) / fit(concentration, s, dtype, op, loc), loc) *
         fit(scale, s, dtype, op, loc);
}

Array maxwell(const Array& key, const Shape& shape, DType dtype, SourceLocation loc) {
  Shape s = draw_shape("random::maxwell", key, dtype, shape, {});
  Shape s3 = s;
  s3.push_back(3);
  Array n = normal(key, s3, dtype, loc);
  return sqrt(sum(n * n, -1, false, loc), loc);
}

Array double_sided_maxwell(const Array& key, const Array& loc_, const Array& scale, const Shape& shape, DType dtype,
                           SourceLocation loc) {
  constexpr std::string_view op = "random::double_sided_maxwell";
  check_key(key, op);
  check_float(dtype, op);
  // JAX's: the draw's shape is `shape` followed by the parameters' broadcast shape.
  Shape params = param_shape(op, {loc_, scale});
  Shape s = shape;
  s.insert(s.end(), params.begin(), params.end());
  check_shape(s, op);
  Array ks = split(key, 2, loc);
  Array m = maxwell(key_at(ks, 0, loc), s, dtype, loc);
  Array sgn = rademacher(key_at(ks, 1, loc), s, dtype, loc);
  return sgn * m * fit(scale, s, dtype, op, loc) + fit(loc_, s, dtype, op, loc);
}

Array chisquare(const Array& key, const Array& df, std::optional<Shape> shape, DType dtype, SourceLocation loc) {
  constexpr std::string_view op = "random::chisquare";
  Shape s = draw_shape(op, key, dtype, shape, {df});
  Array half = fit(df, s, dtype, op, loc) / c(2, dtype);
  return exp(loggamma(key, half, s, dtype, loc), loc) * c(2, dtype);
}

Array f(const Array& key, const Array& dfnum, const Array& dfden, std::optional<Shape> shape, DType dtype, SourceLocation loc) {
  constexpr std::string_view op = "random::f";
  Shape s = draw_shape(op, key, dtype, shape, {dfnum, dfden});
  Array ks = split(key, 2, loc);  // JAX: key_dfd, key_dfn = split(key)
  Array n = fit(dfnum, s, dtype, op, loc), d = fit(dfden, s, dtype, op, loc);
  Array chi_n = chisquare(key_at(ks, 1, loc), n, s, dtype, loc);
  Array chi_d = chisquare(key_at(ks, 0, loc), d, s, dtype, loc);
  return (chi_n / n) / (chi_d / d);
}

Array t(const Array& key, const Array& df, std::optional<Shape> shape, DType dtype, SourceLocation loc) {
  constexpr std::string_view op = "random::t";
  Shape s = draw_shape(op, key, dtype, shape, {df});
  Array ks = split(key, 2, loc);
  Array n = normal(key_at(ks, 0, loc), s, dtype, loc);
  Array half = fit(df, s, dtype, op, loc) / c(2, dtype);
  Array g = gamma(key_at(ks, 1, loc), half, s, dtype, loc);
  return n * sqrt(half / g, loc);
}

Array geometric(const Array& key, const Array& p, std::optional<Shape> shape, DType dtype, SourceLocation loc) {
  constexpr std::string_view op = "random::geometric";
  check_key(key, op);
  if (!is_integer(dtype)) throw DTypeError(std::string(op) + ": expects an integer dtype, but got " + std::string(short_name(dtype)));
  Shape s = shape ? *shape : param_shape(op, {p});
  check_shape(s, op);
  // A weak p (a C++ scalar) draws in f32, as a Python float does in JAX (bernoulli's rule).
  Array pf = api::to_inexact(p, op, loc);
  if (pf.weak_type()) pf = astype(pf, f32, loc);
  DType pt = pf.dtype();
  // u = 0 is mapped to 1 (JAX's, to keep log finite without changing other draws).
  Array u = uniform(key, s, pt, 0.0, 1.0, loc);
  u = where(equal(u, c(0, pt), loc), c(1, pt), u, loc);
  Array log_q = broadcast_to(log1p(negative(pf, loc), loc), s, loc);
  return astype(floor(log(u, loc) / log_q, loc) + c(1, pt), dtype, loc);
}

Array generalized_normal(const Array& key, const Array& p, std::optional<Shape> shape, DType dtype, SourceLocation loc) {
  constexpr std::string_view op = "random::generalized_normal";
  Shape s = draw_shape(op, key, dtype, shape, {p});
  Array ks = split(key, 2, loc);
  Array pp = fit(p, s, dtype, op, loc);
  Array g = gamma(key_at(ks, 0, loc), c(1, dtype) / pp, s, dtype, loc);
  Array r = rademacher(key_at(ks, 1, loc), s, dtype, loc);
  return r * power(g, c(1, dtype) / pp, loc);
}

Array ball(const Array& key, int64_t d, double p, const Shape& shape, DType dtype, SourceLocation loc) {
  constexpr std::string_view op = "random::ball";
  check_key(key, op);
  check_float(dtype, op);
  if (d < 1) throw ValueError(std::string(op) + ": expects a dimension d >= 1, but got " + std::to_string(d));
  check_shape(shape, op);
  Array ks = split(key, 2, loc);
  Shape sd = shape;
  sd.push_back(d);
  Array g = generalized_normal(key_at(ks, 0, loc), Array(p), sd, dtype, loc);
  Array e = exponential(key_at(ks, 1, loc), shape, dtype, loc);
  Array norm = power(sum(power(abs(g, loc), c(p, dtype), loc), -1, false, loc) + e, c(1 / p, dtype), loc);
  return g / expand_dims(norm, -1, loc);
}

}  // namespace strata::random
