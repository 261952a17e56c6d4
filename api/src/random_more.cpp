// More of jax.random's distributions (strata/random.h), each JAX's transform of its uniform,
// normal, exponential or gamma draws with JAX's key splits (jax/_src/random/core.py), so a key
// draws what it draws in JAX (bit for bit through uniform; to a few ulps through log/erf_inv).
#include <cmath>

#include "op_helpers.h"
#include "random_checks.h"
#include "strata/composites.h"
#include "strata/control_flow.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/random.h"
#include "strata/sorting.h"
#include "strata/statistics.h"
#include "strata/selection.h"

namespace strata::random {

using detail::c;
using detail::check_float;
using detail::check_key;
using detail::check_shape;
using detail::fit;
using detail::param_shape;
using detail::tiny;

namespace {

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

namespace {

// log k! - (k + 1/2) log(k + 1) + (k + 1) - log √(2π): a table for k <= 9, the series above
// (JAX's _stirling_approx_tail, from TensorFlow's binomial sampler).
Array stirling_tail(const Array& k, const SourceLocation& loc) {
  static constexpr double kTail[] = {0.0810614667953272,  0.0413406959554092,  0.0276779256849983,  0.02079067210376509,
                                     0.0166446911898211,  0.0138761288230707,  0.0118967099458917,  0.0104112652619720,
                                     0.00925546218271273, 0.00833056343336287};
  DType t = k.dtype();
  Array kc = clip(k, c(0, t), c(9, t), loc);
  Array kp1sq = (kc + c(1, t)) * (kc + c(1, t));
  Array approx = (c(1.0 / 12, t) - (c(1.0 / 360, t) - c(1.0 / 1260, t) / kp1sq) / kp1sq) / (kc + c(1, t));
  Array table = astype(array(std::vector<double>(std::begin(kTail), std::end(kTail)), {10}), t, loc);
  Array from_table = take(table, astype(floor(kc, loc), i32, loc), 0, loc);
  return where(less_equal(k, c(9, t), loc), from_table, approx, loc);
}

}  // namespace

// JAX's (TensorFlow's) sampler: inversion by geometric jumps where count·q <= 10, Kachitvichyanukul
// and Schmeiser's BTRS above, q = min(p, 1 - p), both as whole-array while loops with JAX's
// key schedule; nan for nan p or a nan or negative count, inf for an infinite count.
Array binomial(const Array& key, const Array& n_in, const Array& p_in, std::optional<Shape> shape, DType dtype,
               SourceLocation loc) {
  constexpr std::string_view op = "random::binomial";
  Shape s = draw_shape(op, key, dtype, shape, {n_in, p_in});
  Array pf = api::to_inexact(p_in, op, loc);
  if (pf.weak_type()) pf = astype(pf, f32, loc);
  const DType pt = pf.dtype();
  Array count = fit(n_in, s, pt, op, loc), prob = fit(pf, s, pt, op, loc);
  Array p_lt_half = less(prob, c(0.5, pt), loc);
  Array q = where(p_lt_half, prob, c(1, pt) - prob, loc);
  Array count_bad = logical_or(isnan(count, loc), less(count, c(0, pt), loc), loc);
  Array count_inf = isinf(count, loc);
  Array q_nan = isnan(q, loc), q_neg = less(q, c(0, pt), loc);
  q = where(logical_or(q_nan, q_neg, loc), c(0.01, pt), q, loc);
  Array use_inversion = logical_or(count_bad, less_equal(count * q, c(10, pt), loc), loc);
  count = floor(count, loc);
  Array count_inv = where(use_inversion, count, c(0, pt), loc);
  Array count_btrs = where(use_inversion, c(1e4, pt), count, loc);
  Array q_btrs = where(use_inversion, c(0.5, pt), q, loc);
  const Array max_iters = astype(Array(int64_t{2147483647}), i32, loc);
  const Array one_i = astype(Array(1), i32, loc);

  // Inversion: add geometric(q) jumps until they pass the count; the number of jumps - 1.
  Array log1m_q = log1p(negative(q, loc), loc);
  using Inv = std::tuple<Array, Array, Array, Array>;  // round, jumps, sum, key
  Inv inv = while_loop(
      [&](const Inv& st) {
        return logical_and(any(less_equal(std::get<2>(st), count_inv, loc)), less(std::get<0>(st), max_iters, loc), loc);
      },
      [&](const Inv& st) {
        auto [i, jumps, total, rng] = st;
        std::vector<Array> ks = detail::split_keys(rng, 2, loc);  // subkey, key = split(key)
        Array next_jumps = where(less_equal(total, count_inv, loc), jumps + c(1, pt), jumps, loc);
        Array u = uniform(ks[0], s, pt, 0.0, 1.0, loc);
        Array geom = ceil(log(u, loc) / log1m_q, loc);
        return Inv{i + one_i, next_jumps, total + geom, ks[1]};
      },
      Inv{astype(Array(0), i32, loc), zeros(s, pt), zeros(s, pt), key});
  Array from_inversion = std::get<1>(inv) - c(1, pt);

  // BTRS: a transformed uniform, accepted by the squeeze or the exact log-ratio bound.
  Array stddev = sqrt(count_btrs * q_btrs * (c(1, pt) - q_btrs), loc);
  Array b = c(1.15, pt) + c(2.53, pt) * stddev;
  Array a = c(-0.0873, pt) + c(0.0248, pt) * b + c(0.01, pt) * q_btrs;
  Array cc = count_btrs * q_btrs + c(0.5, pt);
  Array v_r = c(0.92, pt) - c(4.2, pt) / b;
  Array r = q_btrs / (c(1, pt) - q_btrs);
  Array alpha = (c(2.83, pt) + c(5.1, pt) / b) * stddev;
  Array m = floor((count_btrs + c(1, pt)) * q_btrs, loc);
  using Btrs = std::tuple<Array, Array, Array, Array>;  // round, k, accepted, key
  Btrs btrs = while_loop(
      [&](const Btrs& st) {
        return logical_and(any(logical_not(std::get<2>(st), loc)), less(std::get<0>(st), max_iters, loc), loc);
      },
      [&](const Btrs& st) {
        auto [i, k_out, accepted, rng] = st;
        std::vector<Array> ks = detail::split_keys(rng, 3, loc);  // key, subkey_0, subkey_1 = split(key, 3)
        Array u = uniform(ks[1], s, pt, 0.0, 1.0, loc) - c(0.5, pt);
        Array v = uniform(ks[2], s, pt, 0.0, 1.0, loc);
        Array us = c(0.5, pt) - abs(u, loc);
        Array accept1 = logical_and(greater_equal(us, c(0.07, pt), loc), less_equal(v, v_r, loc), loc);
        Array k = floor((c(2, pt) * a / us + b) * u + cc, loc);
        Array reject = logical_or(less(k, c(0, pt), loc), greater(k, count_btrs, loc), loc);
        Array lv = log(v * alpha / (a / (us * us) + b), loc);
        Array one = c(1, pt), half = c(0.5, pt);
        Array ub = (m + half) * log((m + one) / (r * (count_btrs - m + one)), loc) +
                   (count_btrs + one) * log((count_btrs - m + one) / (count_btrs - k + one), loc) +
                   (k + half) * log(r * (count_btrs - k + one) / (k + one), loc) + stirling_tail(m, loc) +
                   stirling_tail(count_btrs - m, loc) - stirling_tail(k, loc) - stirling_tail(count_btrs - k, loc);
        Array accept = logical_or(accept1, logical_and(logical_not(reject, loc), less_equal(lv, ub, loc), loc), loc);
        return Btrs{i + one_i, where(accept, k, k_out, loc), logical_or(accepted, accept, loc), ks[0]};
      },
      Btrs{astype(Array(0), i32, loc), full(s, -1.0, pt), zeros(s, bool_), key});
  Array samples = astype(where(use_inversion, from_inversion, std::get<1>(btrs), loc), dtype, loc);
  Array invalid = logical_or(logical_or(q_neg, q_nan, loc), count_bad, loc);
  samples = where(invalid, c(NAN, dtype), samples, loc);
  samples = where(logical_and(count_inf, logical_not(invalid, loc), loc), c(INFINITY, dtype), samples, loc);
  Array keep = logical_or(logical_or(p_lt_half, count_bad, loc), logical_or(q_nan, count_inf, loc), loc);
  return where(keep, samples, astype(count, dtype, loc) - samples, loc);
}

// JAX's: one binomial per category on what remains, with the category's share of the
// remaining probability, keys split per category (a scan in JAX; unrolled here).
Array multinomial(const Array& key, const Array& n_in, const Array& p_in, std::optional<Shape> shape, DType dtype,
                  SourceLocation loc) {
  constexpr std::string_view op = "random::multinomial";
  check_key(key, op);
  check_float(dtype, op);
  auto [n, p] = api::promote_inexact_dtypes(op, n_in, p_in, loc);
  if (p.weak_type()) p = astype(p, f32, loc);
  if (n.weak_type() || n.dtype() != p.dtype()) n = astype(n, p.dtype(), loc);
  Shape s = shape ? *shape : p.shape();
  if (s.empty()) throw ValueError(std::string(op) + ": expects probabilities with a category axis, but got shape " + shape_string(s));
  check_shape(s, op);
  Shape batch(s.begin(), s.end() - 1);
  Array remainder = fit(n, batch, p.dtype(), op, loc);
  Array probs = moveaxis(fit(p, s, p.dtype(), op, loc), -1, 0, loc);
  const int64_t k = s.back();
  Array remaining = cumsum(probs, 0, true, loc);
  Array ratios = probs / where(equal(remaining, c(0, p.dtype()), loc), c(1, p.dtype()), remaining, loc);
  std::vector<Array> ks = detail::split_keys(key, static_cast<int>(k), loc);
  std::vector<Array> counts;
  for (int64_t i = 0; i < k; ++i) {
    Array ratio = clip(squeeze(api::slice_along(ratios, 0, i, i + 1, 1, loc), {0}, loc), c(0, p.dtype()), c(1, p.dtype()), loc);
    Array count = binomial(ks[static_cast<size_t>(i)], remainder, ratio, std::nullopt, remainder.dtype(), loc);
    remainder = remainder - count;
    counts.push_back(count);
  }
  return astype(stack(counts, -1, loc), dtype, loc);
}

}  // namespace strata::random
