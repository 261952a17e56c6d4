// The non-template half of strata/reduce.h.
#include "strata/reduce.h"

#include <algorithm>
#include <set>

#include "op_helpers.h"
#include "strata/ops.h"
#include "strata/shape.h"

namespace strata::detail {

std::vector<Array> reduce_prepare(const std::vector<Array>& leaves, const std::vector<int>& dims, Shape& kept) {
  if (leaves.empty()) throw ValueError("reduce: expects at least one operand");
  const AbstractValue& first = api::aval(leaves[0], "reduce");
  const int rank = static_cast<int>(first.shape.size());
  for (size_t i = 1; i < leaves.size(); ++i) {
    const AbstractValue& av = api::aval(leaves[i], "reduce");
    if (av.shape != first.shape)
      throw ShapeError("reduce: the operands must share a shape, but operand 0 is " + first.str() + " and operand " +
                       std::to_string(i) + " is " + av.str());
  }
  std::set<int> reduced;
  for (int d : dims) {
    if (d < 0 || d >= rank)
      throw ValueError("reduce: dimension " + std::to_string(d) + " is out of range for operands of rank " +
                       std::to_string(rank));
    if (!reduced.insert(d).second) throw ValueError("reduce: dimension " + std::to_string(d) + " appears twice");
  }
  std::vector<int> perm;
  kept.clear();
  int64_t n = 1;
  for (int d = 0; d < rank; ++d)
    if (!reduced.count(d)) {
      perm.push_back(d);
      kept.push_back(first.shape[static_cast<size_t>(d)]);
    }
  for (int d : reduced) {
    perm.push_back(d);
    n *= first.shape[static_cast<size_t>(d)];
  }
  Shape flat = kept;
  flat.push_back(n);
  std::vector<Array> out;
  for (const Array& x : leaves) out.push_back(reshape(transpose(x, perm), flat));
  return out;
}

Array last_axis_slice(const Array& x, int64_t start, std::optional<int64_t> stop, int64_t stride) {
  return api::slice_along(x, static_cast<int>(x.ndim()) - 1, start, stop, stride, SourceLocation::current());
}

Array last_axis_concat(const Array& a, const Array& b) { return concatenate({a, b}, static_cast<int>(a.ndim()) - 1); }

std::vector<Array> reduce_inits(const std::vector<Array>& inits, const std::vector<Array>& leaves, const Shape& kept) {
  if (inits.size() != leaves.size())
    throw ValueError("reduce: expects one init value per operand (" + std::to_string(leaves.size()) + "), but got " +
                     std::to_string(inits.size()));
  std::vector<Array> out;
  for (size_t i = 0; i < inits.size(); ++i) {
    const AbstractValue& av = api::aval(inits[i], "reduce");
    DType want = leaves[i].dtype();
    if (!av.shape.empty())
      throw ShapeError("reduce: init value " + std::to_string(i) + " must be 0-d, but got " + av.str());
    if (av.dtype != want && !av.weak)
      throw DTypeError("reduce: init value " + std::to_string(i) + " is " + av.str() + ", but operand " +
                       std::to_string(i) + " is " + std::string(short_name(want)));
    out.push_back(broadcast_to(astype(inits[i], want), kept));
  }
  return out;
}

}  // namespace strata::detail
