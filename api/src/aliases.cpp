// The non-inline half of strata/aliases.h.
#include "strata/aliases.h"

#include "op_helpers.h"
#include "strata/array_utils.h"

namespace strata {

Array fabs(const Array& x, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "fabs");
  if (is_complex(av.dtype)) throw DTypeError("fabs: expects a real operand, but got " + av.str() + " (use abs for the modulus)");
  return abs(api::to_inexact(x, "fabs", loc), loc);
}

Array positive(const Array& x, SourceLocation) {
  const AbstractValue& av = api::aval(x, "positive");
  if (av.dtype == DType::bool_) throw DTypeError("positive: expects a numeric operand, but got " + av.str());
  return x;
}

Array right_shift(const Array& x, const Array& y, SourceLocation loc) {
  DType t = result_type({x, y});
  return is_unsigned_integer(t) ? shift_right_logical(x, y, loc) : shift_right_arithmetic(x, y, loc);
}

Array dot(const Array& a, const Array& b, SourceLocation loc) {
  const AbstractValue &av = api::aval(a, "dot"), &bv = api::aval(b, "dot");
  if (av.shape.empty() || bv.shape.empty()) return multiply(a, b, loc);
  const int an = static_cast<int>(av.shape.size()), bn = static_cast<int>(bv.shape.size());
  const int b_axis = bn == 1 ? 0 : bn - 2;
  if (av.shape.back() != bv.shape[static_cast<size_t>(b_axis)])
    throw ShapeError("dot: a " + av.str() + " and b " + bv.str() + " differ in the contracted dimension (a's last, b's " +
                     (bn == 1 ? std::string("only") : std::string("second-to-last")) + ")");
  if (an <= 2 && bn <= 2) return matmul(a, b, loc);
  Array r = tensordot(a, b, std::vector<int>{an - 1}, std::vector<int>{b_axis}, loc);
  return r;
}

}  // namespace strata
