// More of jax.nn's activations, each as JAX writes it (jax/_src/nn/functions.py), from public
// ops only, so jit, grad and vmap see primitives.
#include <cmath>

#include "op_helpers.h"
#include "strata/grad.h"
#include "strata/selection.h"

namespace strata {

namespace {

// x as a float (integers promote) and a maker of weak constants of its dtype.
struct Inexact {
  Array y;
  std::string_view op;
  SourceLocation loc;
  Inexact(const Array& x, std::string_view op, SourceLocation loc) : y(api::to_inexact(x, op, loc)), op(op), loc(loc) {}
  Array c(double v) const { return api::weak_scalar_like(v, y, op, loc); }
};

}  // namespace

// clamp passes the tangent only strictly inside (0, 6): jax.nn.relu6's custom JVP.
Array relu6(const Array& x, SourceLocation loc) {
  Inexact v(x, "relu6", loc);
  return clamp(v.c(0), v.y, v.c(6), loc);
}

Array hard_sigmoid(const Array& x, SourceLocation loc) {
  Inexact v(x, "hard_sigmoid", loc);
  return divide(relu6(add(v.y, v.c(3), loc), loc), v.c(6), loc);
}

Array hard_silu(const Array& x, SourceLocation loc) {
  Inexact v(x, "hard_silu", loc);
  return multiply(v.y, hard_sigmoid(v.y, loc), loc);
}

Array hard_swish(const Array& x, SourceLocation loc) { return hard_silu(x, loc); }

// JAX's nested where, not clamp: the derivative at ±1 is 1.
Array hard_tanh(const Array& x, SourceLocation loc) {
  Inexact v(x, "hard_tanh", loc);
  return where(greater(v.y, v.c(1), loc), v.c(1), where(less(v.y, v.c(-1), loc), v.c(-1), v.y, loc), loc);
}

Array log_sigmoid(const Array& x, SourceLocation loc) {
  Inexact v(x, "log_sigmoid", loc);
  return negative(softplus(negative(v.y, loc), loc), loc);
}

Array selu(const Array& x, SourceLocation loc) {
  Inexact v(x, "selu", loc);
  const double alpha = 1.6732632423543772848170429916717, scale = 1.0507009873554804934193349852946;
  return multiply(v.c(scale), elu(v.y, alpha, loc), loc);
}

Array mish(const Array& x, SourceLocation loc) {
  Inexact v(x, "mish", loc);
  return multiply(v.y, tanh(softplus(v.y, loc), loc), loc);
}

Array soft_sign(const Array& x, SourceLocation loc) {
  Inexact v(x, "soft_sign", loc);
  return divide(v.y, add(abs(v.y, loc), v.c(1), loc), loc);
}

Array squareplus(const Array& x, double b, SourceLocation loc) {
  Inexact v(x, "squareplus", loc);
  return divide(add(v.y, sqrt(add(multiply(v.y, v.y, loc), v.c(b), loc), loc), loc), v.c(2), loc);
}

Array sparse_plus(const Array& x, SourceLocation loc) {
  Inexact v(x, "sparse_plus", loc);
  Array p = add(v.y, v.c(1), loc);
  Array mid = divide(multiply(p, p, loc), v.c(4), loc);
  return where(less_equal(v.y, v.c(-1), loc), v.c(0), where(greater_equal(v.y, v.c(1), loc), v.y, mid, loc), loc);
}

Array sparse_sigmoid(const Array& x, SourceLocation loc) {
  Inexact v(x, "sparse_sigmoid", loc);
  return multiply(v.c(0.5), clip(add(v.y, v.c(1), loc), v.c(0), v.c(2), loc), loc);
}

// Mächler's switch at log 2; JAX's custom JVP g / expm1(x) (differentiating the where would
// send 0 · inf from the branch not taken into the gradient at x = 0).
Array log1mexp(const Array& x, SourceLocation loc) {
  Inexact v(x, "log1mexp", loc);
  auto f = [loc](const Array& y) {
    Array c = api::weak_scalar_like(M_LN2, y, "log1mexp", loc);
    Array small = log(negative(expm1(negative(y, loc), loc), loc), loc);
    Array large = log1p(negative(exp(negative(y, loc), loc), loc), loc);
    return where(less(y, c, loc), small, large, loc);
  };
  auto rule = custom_jvp(f, [f, loc](const Array& y, const Array& t) {
    return std::make_pair(f(y), divide(t, expm1(y, loc), loc));
  });
  return rule(v.y);
}

Array logmeanexp(const Array& x, Axes axes, bool keepdims, SourceLocation loc) {
  Inexact v(x, "logmeanexp", loc);
  const AbstractValue& av = api::aval(v.y, "logmeanexp");
  int64_t n = 1;
  for (int64_t a : api::normalize_axes("logmeanexp", axes, av)) n *= av.shape[static_cast<size_t>(a)];
  Array lse = logsumexp(v.y, axes, keepdims, loc);
  return subtract(lse, log(v.c(static_cast<double>(n)), loc), loc);
}

Array standardize(const Array& x, Axes axes, const std::optional<Array>& mean_in, const std::optional<Array>& variance_in,
                  double epsilon, const std::string& algorithm, SourceLocation loc) {
  if (algorithm != "fast" && algorithm != "stable")
    throw ValueError("standardize: unknown algorithm '" + algorithm + "'; expected 'fast' or 'stable'");
  Inexact v(x, "standardize", loc);
  Array m = mean_in ? *mean_in : mean(v.y, axes, true, loc);
  Array var;
  if (variance_in) {
    var = *variance_in;
  } else if (algorithm == "stable") {
    Array d = subtract(v.y, m, loc);
    var = mean(multiply(d, d, loc), axes, true, loc);
  } else {
    // mean(x²) - mean² can come out slightly negative: clipped at 0 before the rsqrt, as JAX.
    var = maximum(subtract(mean(multiply(v.y, v.y, loc), axes, true, loc), multiply(m, m, loc), loc), v.c(0), loc);
  }
  return multiply(subtract(v.y, m, loc), rsqrt(add(var, v.c(epsilon), loc), loc), loc);
}

}  // namespace strata
