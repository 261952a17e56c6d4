// The non-template half of strata/jacobian.h: dtype checks and the basis/layout helpers.
#include "op_helpers.h"
#include "strata/jacobian.h"

namespace strata::detail {

void check_jacobian_input(const Array& x, int argument, bool forward, bool holomorphic, const char* who) {
  const AbstractValue& av = api::aval(x, who);
  std::string arg = std::string(who) + ": argument " + std::to_string(argument) + " (" + av.str() + ")";
  if (holomorphic) {
    if (!is_complex(av.dtype))
      throw DTypeError(arg + " is not complex, but holomorphic differentiation needs complex inputs");
    return;
  }
  if (!is_inexact(av.dtype))
    throw DTypeError(arg + " cannot be differentiated: only floating-point and complex arguments can (pass integers as "
                     "static arguments, or choose other argnums)");
  // JAX's rule: forward mode over a complex input is only defined for holomorphic functions.
  if (forward && is_complex(av.dtype))
    throw DTypeError(arg + " is complex: jacfwd needs real inputs — pass st::holomorphic for a holomorphic function, "
                     "or use jacrev for a real output");
}

void check_jacobian_output(const Array& y, std::size_t leaf, bool forward, bool holomorphic, const char* who) {
  const AbstractValue& av = api::aval(y, who);
  std::string out = std::string(who) + ": output leaf " + std::to_string(leaf) + " (" + av.str() + ")";
  if (holomorphic && !is_complex(av.dtype))
    throw DTypeError(out + " is not complex, but a holomorphic function returns complex values");
  if (!holomorphic && !forward && is_complex(av.dtype))
    throw DTypeError(out + " is complex: jacrev needs real outputs — pass st::holomorphic for a holomorphic function, "
                     "take st::real / st::imag, or use jacfwd for a real input");
}

Array unit_basis(const Shape& shape, DType dtype) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  Array e = eye(n, n, 0, is_complex(dtype) ? real_dtype(dtype) : dtype);
  if (is_complex(dtype)) e = astype(e, dtype);
  Shape s{n};
  s.insert(s.end(), shape.begin(), shape.end());
  return reshape(e, s);
}

Array columns_to_jacobian(const Array& columns, const Shape& out_shape, const Shape& in_shape) {
  int r = static_cast<int>(columns.ndim());
  std::vector<int> perm;
  for (int d = 1; d < r; ++d) perm.push_back(d);
  perm.push_back(0);
  Shape s = out_shape;
  s.insert(s.end(), in_shape.begin(), in_shape.end());
  return reshape(transpose(columns, perm), s);
}

}  // namespace strata::detail
