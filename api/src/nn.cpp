// Neural-network composites, built only from public ops (so every transform sees primitives).
#include <algorithm>
#include <cmath>

#include "op_helpers.h"

namespace strata {

Array relu(const Array& x, SourceLocation loc) { return maximum(x, Array(0), loc); }

Array sigmoid(const Array& x, SourceLocation loc) { return logistic(x, loc); }

Array gelu(const Array& x, SourceLocation loc) {
  Array y = api::to_inexact(x, "gelu", loc);
  // Constants as weak scalars of y's dtype: a weak f64 would turn a weak f32 input into f64.
  auto lit = [&](double v) { return api::convert(Array(v), {api::aval(y, "gelu").dtype, true}, loc); };
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

}  // namespace strata
