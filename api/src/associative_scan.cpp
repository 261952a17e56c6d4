// The non-template half of strata/associative_scan.h: slicing, interleaving, checks.
#include "strata/associative_scan.h"

#include "lax.h"
#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/indexing.h"
#include "strata/ops.h"

namespace strata::detail {

Array slice_along(const Array& x, int axis, int64_t start, std::optional<int64_t> stop, int64_t stride) {
  return api::slice_along(x, axis, start, stop, stride, SourceLocation::current());
}

Array interleave(const Array& a, const Array& b, int axis) { return lax::interleave(a, b, axis); }

Array reverse_along(const Array& x, int axis) { return flip(x, {axis}); }
Array concat_along(const Array& a, const Array& b, int axis) { return concatenate({a, b}, axis); }

int scan_axis(const std::vector<Array>& leaves, int axis, int64_t& length) {
  const AbstractValue& first = api::aval(leaves[0], "associative_scan");
  int ax = api::normalize_axis("associative_scan", axis, first);
  length = first.shape[static_cast<size_t>(ax)];
  for (const Array& x : leaves) {
    const AbstractValue& v = api::aval(x, "associative_scan");
    if (v.shape.size() != first.shape.size() || v.shape[static_cast<size_t>(ax)] != length)
      throw ShapeError("associative_scan: expects every element of elems to have length " + std::to_string(length) +
                       " along axis " + std::to_string(axis) + ", but got " + first.str() + " and " + v.str());
  }
  return ax;
}

}  // namespace strata::detail
