// strata/ragged_dot.h: groups as row masks, one batched matmul, a sum over the groups.
#include "strata/ragged_dot.h"

#include "op_helpers.h"
#include "strata/creation.h"
#include "strata/ops.h"
#include "strata/sorting.h"

namespace strata {

Array ragged_dot(const Array& lhs, const Array& rhs, const Array& group_sizes, std::optional<DType> preferred_element_type,
                 SourceLocation loc) {
  const AbstractValue &l = api::aval(lhs, "ragged_dot"), &r = api::aval(rhs, "ragged_dot"),
                      &gs = api::aval(group_sizes, "ragged_dot");
  if (l.shape.size() != 2 || r.shape.size() != 3)
    throw ShapeError("ragged_dot: expects lhs [m, k] and rhs [g, k, n], but got " + l.str() + " and " + r.str());
  if (l.shape[1] != r.shape[1])
    throw ShapeError("ragged_dot: lhs " + l.str() + " and rhs " + r.str() + " differ in the contracted dimension k");
  if (gs.shape.size() != 1 || gs.shape[0] != r.shape[0])
    throw ShapeError("ragged_dot: expects group_sizes [" + std::to_string(r.shape[0]) + "] (one per group of rhs " +
                     r.str() + "), but got " + gs.str());
  if (!is_integer(gs.dtype)) throw DTypeError("ragged_dot: expects integer group_sizes, but got " + gs.str());
  const int64_t m = l.shape[0], g = r.shape[0];
  Array sizes = astype(group_sizes, DType::i32, loc);
  Array ends = cumsum(sizes), starts = ends - sizes;  // [g]
  Array row = reshape(arange(m, DType::i32), {1, m});
  Array mask = logical_and(row >= reshape(starts, {g, 1}), row < reshape(ends, {g, 1}));  // [g, m]
  Array a = lhs, b = rhs;
  if (preferred_element_type) {
    a = astype(a, *preferred_element_type, loc);
    b = astype(b, *preferred_element_type, loc);
  }
  Array masked = where(expand_dims(mask, 2), expand_dims(a, 0), zeros({}, a.dtype()));  // [g, m, k]
  return sum(matmul(masked, b, loc), {0});
}

}  // namespace strata
