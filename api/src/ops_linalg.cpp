// Linear algebra: matmul (NumPy semantics) and dot_general.
#include <algorithm>

#include "op_helpers.h"
#include "shape_rules.h"

namespace strata {

using lax::bind1;

Array dot_general(const Array& a, const Array& b, const DotDimensions& dims, SourceLocation loc) {
  TypeSpec t = promote_types(api::spec(a, "dot_general"), api::spec(b, "dot_general"));
  if (t.dtype == DType::bool_)
    throw DTypeError("dot_general: expects numeric operands, but got " + api::aval(a, "dot_general").str() +
                     " and " + api::aval(b, "dot_general").str());
  Array x = api::convert(a, t, loc), y = api::convert(b, t, loc);
  const AbstractValue &xa = api::aval(x, "dot_general"), &ya = api::aval(y, "dot_general");
  // Negative dimension numbers count from the end, as axes do elsewhere.
  auto norm = [&](const std::vector<int>& v, const AbstractValue& av) {
    IntList r;
    for (int d : v) r.push_back(api::normalize_axis("dot_general", d, av));
    return r;
  };
  Params p{{"lhs_contract", norm(dims.lhs_contract, xa)}, {"rhs_contract", norm(dims.rhs_contract, ya)},
           {"lhs_batch", norm(dims.lhs_batch, xa)}, {"rhs_batch", norm(dims.rhs_batch, ya)}};
  return bind1(prim::kDotGeneral, {x, y}, p, loc);
}

Array matmul(const Array& a, const Array& b, SourceLocation loc) {
  const AbstractValue &av = api::aval(a, "matmul"), &bv = api::aval(b, "matmul");
  if (av.shape.empty() || bv.shape.empty())
    throw ShapeError("matmul: expects operands of rank >= 1, but got " + av.str() + " and " + bv.str());
  // 1-d operands become matrices (a row on the left, a column on the right), removed after.
  Array x = av.ndim() == 1 ? reshape(a, {1, av.shape[0]}, loc) : a;
  Array y = bv.ndim() == 1 ? reshape(b, {bv.shape[0], 1}, loc) : b;
  const AbstractValue &xv = api::aval(x, "matmul"), &yv = api::aval(y, "matmul");
  int64_t k1 = xv.shape.back(), k2 = yv.shape[yv.shape.size() - 2];
  if (k1 != k2)
    throw ShapeError("matmul: shapes " + av.str() + " and " + bv.str() +
                     " do not match: contracting dimension " + std::to_string(k1) + " != " + std::to_string(k2));
  // Batch dimensions broadcast as in NumPy.
  Shape xb(xv.shape.begin(), xv.shape.end() - 2), yb(yv.shape.begin(), yv.shape.end() - 2);
  shape_rules::Result r = shape_rules::broadcast_shapes(xb, yb);
  if (!r.ok())
    throw ShapeError("matmul: batch dimensions of " + av.str() + " and " + bv.str() + " cannot be broadcast");
  Shape batch = r.shape;
  Array result;
  if (batch.empty()) {
    result = dot_general(x, y, {.lhs_contract = {1}, .rhs_contract = {0}}, loc);
  } else {
    auto full = [&](const Array& m, const AbstractValue& mv) {
      Shape s = batch;
      s.push_back(mv.shape[mv.shape.size() - 2]);
      s.push_back(mv.shape.back());
      return api::broadcast_to_shape(m, s, loc);
    };
    int nb = static_cast<int>(batch.size());
    std::vector<int> bd(static_cast<size_t>(nb));
    for (int i = 0; i < nb; ++i) bd[static_cast<size_t>(i)] = i;
    result = dot_general(full(x, xv), full(y, yv),
                         {.lhs_contract = {nb + 1}, .rhs_contract = {nb}, .lhs_batch = bd, .rhs_batch = bd}, loc);
  }
  if (av.ndim() == 1 || bv.ndim() == 1) {
    Shape s = api::aval(result, "matmul").shape;
    if (bv.ndim() == 1) s.pop_back();
    if (av.ndim() == 1) s.erase(s.end() - (bv.ndim() == 1 ? 1 : 2));
    result = reshape(result, s, loc);
  }
  return result;
}

}  // namespace strata
