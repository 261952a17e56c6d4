// segment_sum / prod / max / min (strata/segment.h): scatters into the combiner's identity.
#include "strata/segment.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "op_helpers.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/ops.h"
#include "strata/selection.h"

namespace strata {

namespace {

enum class Combine { kSum, kProd, kMax, kMin };

// The identity of `c` in dtype t: 0, 1, the lowest (-inf) or highest (+inf) value (a float
// without infinities: its largest finite values; a complex type: (-inf, 0) or (inf, 0)).
Array identity(Combine c, DType t) {
  if (c == Combine::kSum) return astype(Array(0), t);
  if (c == Combine::kProd) return astype(Array(1), t);
  bool lowest = c == Combine::kMax;
  if (is_complex(t)) return astype(Array(lowest ? -INFINITY : INFINITY), t);  // (∓inf, 0), as JAX
  if (is_floating(t)) return astype(Array(lowest ? -api::float_top(t) : api::float_top(t)), t);
  if (is_bool(t)) return astype(Array(lowest ? 0 : 1), t);
  IInfo limits = iinfo(t);
  return lowest ? astype(Array(limits.min), t) : astype(Array(limits.max), t);
}

Array segment(Combine c, const char* op, const Array& data, const Array& ids, std::optional<int64_t> num_segments,
              const SourceLocation& loc) {
  const AbstractValue &dv = api::aval(data, op), &iv = api::aval(ids, op);
  if (!is_integer(iv.dtype)) throw DTypeError(std::string(op) + ": expects integer segment ids, but got " + iv.str());
  if (iv.shape.size() != 1 || dv.shape.empty() || dv.shape[0] != iv.shape[0])
    throw ShapeError(std::string(op) + ": expects 1-d segment ids, one per row of data, but got " + iv.str() + " for " +
                     dv.str());
  int64_t n;
  if (num_segments) {
    n = *num_segments;
    if (n < 0) throw ValueError(std::string(op) + ": expects a non-negative num_segments, but got " + std::to_string(n));
  } else {
    if (ids.is_tracer())
      throw ConcretizationError(std::string(op) + ": without num_segments the result's size depends on the values of "
                                "segment_ids, which are not known under a trace (jit, grad, vmap); pass num_segments");
    std::vector<int64_t> v = ids.to_vector<int64_t>();
    n = v.empty() ? 0 : std::max<int64_t>(0, *std::max_element(v.begin(), v.end()) + 1);
  }
  Shape out = dv.shape;
  out[0] = n;
  Array init = broadcast_to(identity(c, dv.dtype), out, loc);
  // Negative ids would count from the end in .at[]: sent past it instead, where they are dropped.
  Array idx = astype(ids, i64, loc);
  idx = where(less(idx, astype(Array(int64_t{0}), i64), loc), astype(Array(n), i64), idx, loc);
  At at = init.at({idx});
  switch (c) {
    case Combine::kSum: return at.add(data, loc);
    case Combine::kProd: return at.mul(data, loc);
    case Combine::kMax: return at.max(data, loc);
    case Combine::kMin: return at.min(data, loc);
  }
  return init;
}

}  // namespace

Array segment_sum(const Array& data, const Array& ids, std::optional<int64_t> n, SourceLocation loc) {
  return segment(Combine::kSum, "segment_sum", data, ids, n, loc);
}
Array segment_prod(const Array& data, const Array& ids, std::optional<int64_t> n, SourceLocation loc) {
  return segment(Combine::kProd, "segment_prod", data, ids, n, loc);
}
Array segment_max(const Array& data, const Array& ids, std::optional<int64_t> n, SourceLocation loc) {
  return segment(Combine::kMax, "segment_max", data, ids, n, loc);
}
Array segment_min(const Array& data, const Array& ids, std::optional<int64_t> n, SourceLocation loc) {
  return segment(Combine::kMin, "segment_min", data, ids, n, loc);
}

}  // namespace strata
