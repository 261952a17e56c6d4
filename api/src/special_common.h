// api/src/special_common.h — what the st::special files share: constants of an array's dtype,
// the real-float promotion of their arguments, Horner's rule over a coefficient table, and
// whole-array loops in which each element steps until it converges.
#pragma once

#include <cstddef>
#include <string>

#include "op_helpers.h"
#include "strata/control_flow.h"
#include "strata/creation.h"
#include "strata/pytree.h"
#include "strata/selection.h"

namespace strata::special::detail {

// v as a 0-d array of x's dtype.
inline Array c_like(double v, const Array& x) { return astype(Array(v), x.dtype()); }

// x as a float (integers promote); complex values are refused, naming the op.
inline Array real_inexact(const Array& x, const char* op, const SourceLocation& loc) {
  Array y = api::to_inexact(x, op, loc);
  if (is_complex(y.dtype())) throw DTypeError(std::string(op) + ": expects real values, but got " + api::aval(x, op).str());
  return y;
}

// c[0] w^(N-1) + ... + c[N-1] (highest power first, as polyval), of w's shape.
template <std::size_t N> Array horner(const double (&c)[N], const Array& w) {
  Array acc = c_like(c[0], w) + zeros_like(w);
  for (std::size_t i = 1; i < N; ++i) acc = acc * w + c_like(c[i], w);
  return acc;
}

// A whole-array while loop of `step` over `carry`, stepping elements while `active(carry)`
// holds; at most `cap` rounds (a guard: JAX's loops have none).
template <class Carry, class Active, class Step>
Carry loop_until(Carry init, Active active, Step step, int64_t cap) {
  auto state = std::make_pair(init, astype(Array(0), i32));
  auto out = while_loop(
      [active, cap](const auto& s) {
        return logical_and(any(active(s.first)), less(s.second, astype(Array(cap), i32)));
      },
      [active, step](const auto& s) {
        Array on = active(s.first);
        Carry next = step(s.first);
        std::vector<Array> nl = tree_flatten(next), ol = tree_flatten(s.first);
        for (size_t i = 0; i < nl.size(); ++i) nl[i] = where(on, nl[i], ol[i]);
        return std::make_pair(tree_unflatten(next, nl), s.second + astype(Array(1), i32));
      },
      state);
  return out.first;
}

}  // namespace strata::special::detail
