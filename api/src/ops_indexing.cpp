// Indexing: dynamic_slice, dynamic_update_slice (strata/indexing.h).
#include "strata/indexing.h"

#include "op_helpers.h"

namespace strata {
namespace {

// Each start as the 0-d i32 the primitives take, a negative one counted from the end of its
// dimension (JAX's _dynamic_slice_indices); the primitive then clamps.
std::vector<Array> normalized_starts(std::string_view op, const AbstractValue& x, const std::vector<Array>& starts,
                                     const SourceLocation& loc) {
  if (starts.size() != x.shape.size())
    throw ValueError(std::string(op) + ": expects " + std::to_string(x.shape.size()) + " start indices for " + x.str() +
                     " (one a dimension), but got " + std::to_string(starts.size()));
  std::vector<Array> r;
  for (size_t d = 0; d < starts.size(); ++d) {
    const AbstractValue& s = api::aval(starts[d], op);
    if (!s.shape.empty() || !is_integer(s.dtype))
      throw DTypeError(std::string(op) + ": expects integer scalar start indices, but got " + s.str() +
                       " for dimension " + std::to_string(d));
    Array i = api::convert(starts[d], {DType::i32, false}, loc);
    int64_t dim = x.shape[d];
    if (!i.is_tracer()) {  // a concrete start folds now: no equations for constants
      int64_t v = i.item<int32_t>();
      r.push_back(lax::scalar(static_cast<double>(v < 0 ? v + dim : v), DType::i32));
      continue;
    }
    Array wrapped = lax::add(i, lax::scalar(static_cast<double>(dim), DType::i32), loc);
    r.push_back(lax::select(lax::lt(i, lax::scalar(0, DType::i32), loc), wrapped, i, loc));
  }
  return r;
}

}  // namespace

Array dynamic_slice(const Array& x, const std::vector<Array>& starts, const std::vector<int64_t>& sizes,
                    SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "dynamic_slice");
  return lax::dynamic_slice(x, normalized_starts("dynamic_slice", av, starts, loc), IntList(sizes.begin(), sizes.end()), loc);
}

Array dynamic_update_slice(const Array& x, const Array& update, const std::vector<Array>& starts, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "dynamic_update_slice");
  api::aval(update, "dynamic_update_slice");
  Array u = api::convert(update, {av.dtype, av.weak}, loc);
  return lax::dynamic_update_slice(x, u, normalized_starts("dynamic_update_slice", av, starts, loc), loc);
}

}  // namespace strata
