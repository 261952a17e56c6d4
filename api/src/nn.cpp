// Neural-network composites, built only from public ops (so every transform sees primitives).
#include <algorithm>
#include <cmath>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/grad.h"
#include "strata/random.h"
#include "strata/selection.h"

namespace strata {

namespace {

// A weak 0-d constant of x's dtype (so that a weak f32 input stays weak f32).
Array lit_like(const Array& x, double v, const SourceLocation& loc) { return api::weak_scalar_like(v, x, "nn", loc); }

// The number of elements reduced over `axes` of x.
int64_t reduced_count(const Array& x, const Axes& axes, std::string_view op) {
  const AbstractValue& av = api::aval(x, op);
  int64_t n = 1;
  for (int64_t a : api::normalize_axes(op, axes, av)) n *= av.shape[static_cast<size_t>(a)];
  return n;
}

}  // namespace

// clamp(0, x, +inf): one elementwise op (so a GEMM epilogue still takes it), and clamp's
// derivative passes the tangent only strictly inside (0, inf), so relu's derivative at 0 is 0,
// as jax.nn.relu's custom JVP (max would split the tie: 0.5). nan stays nan.
Array relu(const Array& x, SourceLocation loc) {
  DType t = api::aval(x, "relu").dtype;
  if (t == DType::bool_ || is_unsigned_integer(t)) return x;  // never negative
  // The largest value: +inf (e4m3fn has none: 448), or the integer type's maximum.
  Array hi = is_floating(t) ? Array(api::float_top(t)) : Array(static_cast<int64_t>(iinfo(t).max));
  return clamp(api::convert(Array(0), {t, true}, loc), x, api::convert(hi, {t, true}, loc), loc);
}

Array sigmoid(const Array& x, SourceLocation loc) { return logistic(x, loc); }

Array gelu(const Array& x, bool approximate, SourceLocation loc) {
  Array y = api::to_inexact(x, "gelu", loc);
  // Constants as weak scalars of y's dtype: a weak f64 would turn a weak f32 input into f64.
  auto lit = [&](double v) { return lit_like(y, v, loc); };
  if (!approximate) return multiply(multiply(lit(0.5), y, loc), erfc(multiply(negative(y, loc), lit(M_SQRT1_2), loc), loc), loc);
  const double c = std::sqrt(2.0 / M_PI);
  Array inner = multiply(lit(c), add(y, multiply(lit(0.044715), multiply(y, multiply(y, y, loc), loc), loc), loc), loc);
  return multiply(multiply(lit(0.5), y, loc), add(lit(1.0), tanh(inner, loc), loc), loc);
}

Array softmax(const Array& x, Axes axes, SourceLocation loc) {
  Array y = api::to_inexact(x, "softmax", loc);
  Array shifted = subtract(y, max(y, axes, true, loc), loc);
  Array e = exp(shifted, loc);
  return divide(e, sum(e, axes, true, loc), loc);
}

Array logsumexp(const Array& x, Axes axes, bool keepdims, SourceLocation loc) {
  Array y = api::to_inexact(x, "logsumexp", loc);
  Array m = max(y, axes, true, loc);
  // An all -inf (or inf) slice must not produce inf - inf = nan: shift by 0 there instead.
  Array safe = where(equal(abs(m, loc), Array(INFINITY), loc), Array(0.0f), m, loc);
  Array r = add(log(sum(exp(subtract(y, safe, loc), loc), axes, true, loc), loc), safe, loc);
  if (keepdims) return r;
  const AbstractValue& av = api::aval(y, "logsumexp");
  IntList ax = api::normalize_axes("logsumexp", axes, av);
  Shape s;
  for (int64_t d = 0; d < av.ndim(); ++d)
    if (std::find(ax.begin(), ax.end(), d) == ax.end()) s.push_back(av.shape[static_cast<size_t>(d)]);
  return reshape(r, s, loc);
}

Array log_softmax(const Array& x, Axes axes, SourceLocation loc) {
  Array y = api::to_inexact(x, "log_softmax", loc);
  Array shifted = subtract(y, stop_gradient(max(y, axes, true, loc), loc), loc);
  return subtract(shifted, log(sum(exp(shifted, loc), axes, true, loc), loc), loc);
}

Array softplus(const Array& x, SourceLocation loc) {
  Array y = api::to_inexact(x, "softplus", loc);
  return logaddexp(y, lit_like(y, 0, loc), loc);
}

Array silu(const Array& x, SourceLocation loc) {
  Array y = api::to_inexact(x, "silu", loc);
  return multiply(y, sigmoid(y, loc), loc);
}

Array swish(const Array& x, SourceLocation loc) { return silu(x, loc); }

Array elu(const Array& x, double alpha, SourceLocation loc) {
  Array y = api::to_inexact(x, "elu", loc);
  Array pos = greater(y, lit_like(y, 0, loc), loc);
  // expm1 of the negative part only, so that large x cannot overflow into the unused branch.
  Array neg = multiply(lit_like(y, alpha, loc), expm1(where(pos, lit_like(y, 0, loc), y, loc), loc), loc);
  return where(pos, y, neg, loc);
}

Array leaky_relu(const Array& x, double negative_slope, SourceLocation loc) {
  Array y = api::to_inexact(x, "leaky_relu", loc);
  return where(greater_equal(y, lit_like(y, 0, loc), loc), y, multiply(lit_like(y, negative_slope, loc), y, loc), loc);
}

Array celu(const Array& x, double alpha, SourceLocation loc) {
  Array y = api::to_inexact(x, "celu", loc);
  Array zero = lit_like(y, 0, loc);
  return add(maximum(y, zero, loc),
             multiply(lit_like(y, alpha, loc), expm1(divide(minimum(y, zero, loc), lit_like(y, alpha, loc), loc), loc), loc), loc);
}

Array glu(const Array& x, int axis, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "glu");
  int a = api::normalize_axis("glu", axis, av);
  if (av.shape[static_cast<size_t>(a)] % 2 != 0)
    throw ValueError("glu: axis " + std::to_string(axis) + " of " + av.str() + " must have an even size");
  std::vector<Array> halves = split(api::to_inexact(x, "glu", loc), int64_t{2}, a, loc);
  return multiply(halves[0], sigmoid(halves[1], loc), loc);
}

Array var(const Array& x, Axes axes, int ddof, bool keepdims, SourceLocation loc) {
  Array y = api::to_inexact(x, "var", loc);
  int64_t n = reduced_count(y, axes, "var");
  Array centered = subtract(y, mean(y, axes, true, loc), loc);
  Array ss = sum(multiply(centered, centered, loc), axes, keepdims, loc);
  // N - ddof <= 0 gives inf or nan, as jnp.var.
  return divide(ss, lit_like(ss, static_cast<double>(n - ddof), loc), loc);
}

Array std(const Array& x, Axes axes, int ddof, bool keepdims, SourceLocation loc) {
  return sqrt(var(x, axes, ddof, keepdims, loc), loc);
}

Array layer_norm(const Array& x, const std::optional<Array>& scale, const std::optional<Array>& bias, Axes axes,
                 double eps, SourceLocation loc) {
  Array y = api::to_inexact(x, "layer_norm", loc);
  Array m = mean(y, axes, true, loc);
  Array centered = subtract(y, m, loc);
  Array v = mean(multiply(centered, centered, loc), axes, true, loc);
  Array out = multiply(centered, rsqrt(add(v, lit_like(v, eps, loc), loc), loc), loc);
  if (scale) out = multiply(out, *scale, loc);
  if (bias) out = add(out, *bias, loc);
  return out;
}

Array rms_norm(const Array& x, const std::optional<Array>& scale, Axes axes, double eps, SourceLocation loc) {
  Array y = api::to_inexact(x, "rms_norm", loc);
  Array ms = mean(multiply(y, y, loc), axes, true, loc);
  Array out = multiply(y, rsqrt(add(ms, lit_like(ms, eps, loc), loc), loc), loc);
  return scale ? multiply(out, *scale, loc) : out;
}

Array dropout(const Array& key, double rate, const Array& x, bool deterministic, SourceLocation loc) {
  if (!(rate >= 0 && rate <= 1)) throw ValueError("dropout: expects a rate in [0, 1], but got " + std::to_string(rate));
  if (deterministic || rate == 0) return x;
  Array y = api::to_inexact(x, "dropout", loc);
  Array zero = lit_like(y, 0, loc);
  if (rate == 1) return multiply(y, zero, loc);  // zeros, keeping x's dependence for tracing
  double keep = 1 - rate;
  Array mask = random::bernoulli(key, Array(static_cast<float>(keep)), api::aval(y, "dropout").shape, loc);
  return where(mask, divide(y, lit_like(y, keep, loc), loc), zero, loc);
}

Array dot_product_attention(const Array& q, const Array& k, const Array& v, const std::optional<Array>& bias,
                            const std::optional<Array>& mask, bool is_causal, std::optional<double> scale,
                            SourceLocation loc) {
  constexpr std::string_view op = "dot_product_attention";
  const AbstractValue &qa = api::aval(q, op), &ka = api::aval(k, op), &va = api::aval(v, op);
  if (qa.ndim() != 4 || ka.ndim() != 4 || va.ndim() != 4)
    throw ShapeError("dot_product_attention: expects q, k, v of rank 4 ([B, T, N, H], [B, S, K, H]), but got " + qa.str() +
                     ", " + ka.str() + ", " + va.str());
  int64_t B = qa.shape[0], T = qa.shape[1], N = qa.shape[2], H = qa.shape[3], S = ka.shape[1], K = ka.shape[2];
  if (ka.shape != va.shape || ka.shape[0] != B || ka.shape[3] != H || K == 0 || N % K != 0)
    throw ShapeError("dot_product_attention: q " + qa.str() + " does not fit k " + ka.str() + " and v " + va.str() +
                     " (k and v [B, S, K, H], N a multiple of K)");
  // Grouped heads: query head n reads key/value head n / (N / K).
  Array kk = N == K ? k : repeat(k, N / K, 2, loc), vv = N == K ? v : repeat(v, N / K, 2, loc);
  TypeSpec logits_t = promote_types(api::spec(q, op), {DType::f32, false});
  Array qf = api::convert(q, {logits_t.dtype, false}, loc), kf = api::convert(kk, {logits_t.dtype, false}, loc);
  Array logits = einsum("BTNH,BSNH->BNTS", {qf, kf}, loc);
  double s = scale ? *scale : 1.0 / std::sqrt(static_cast<double>(H));
  logits = multiply(logits, api::convert(Array(s), {logits_t.dtype, false}, loc), loc);
  if (bias) logits = astype(add(logits, *bias, loc), logits_t.dtype, loc);
  if (mask || is_causal) {
    Array keep = ones({B, N, T, S}, DType::bool_);
    if (mask) {
      if (api::aval(*mask, op).dtype != DType::bool_)
        throw DTypeError("dot_product_attention: expects a bool mask, but got " + api::aval(*mask, op).str());
      keep = logical_and(keep, *mask, loc);
    }
    if (is_causal) keep = logical_and(keep, tril(ones({T, S}, DType::bool_)), loc);
    // A large finite negative (not -inf), as JAX: a fully masked row stays finite (uniform).
    double big = -0.7 * std::min(logits_t.dtype == DType::f64 ? 1.7976931348623157e308 : 3.4028234663852886e38,
                                 3.4028234663852886e38);
    logits = where(keep, logits, api::convert(Array(big), {logits_t.dtype, false}, loc), loc);
  }
  Array probs = astype(softmax(astype(logits, DType::f32, loc), -1, loc), api::aval(k, op).dtype, loc);
  return einsum("BNTS,BSNH->BTNH", {probs, vv}, loc);
}

}  // namespace strata
