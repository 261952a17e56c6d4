#include "lax.h"

#include "array_impl.h"
#include "kernels/types.h"
#include "trace.h"

namespace strata::lax {

namespace {
SourceLoc to_loc(const Loc& l) { return SourceLoc{l.file_name(), l.line(), l.column()}; }

bool is_identity(const IntList& perm) {
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != static_cast<int64_t>(i)) return false;
  return true;
}
}  // namespace

std::vector<Array> bind(const Primitive& p, std::span<const Array> inputs, const Params& params, Loc loc) {
  return strata::bind(p, inputs, params, to_loc(loc));
}

Array bind1(const Primitive& p, std::initializer_list<Array> inputs, const Params& params, Loc loc) {
  return strata::bind1(p, std::span<const Array>(inputs.begin(), inputs.size()), params, to_loc(loc));
}

Array scalar(double value, DType dtype) {
  Array a = detail::make_concrete(AbstractValue{{}, dtype, false});
  kernels::convert_elements(&value, DType::f64, detail::mutable_data(a), dtype, 1);
  return a;
}

Array full(const AbstractValue& aval, double value, Loc loc) {
  Array lit = scalar(value, aval.dtype);
  if (aval.shape.empty()) return lit;
  return bind1(prim::kBroadcastInDim, {lit},
               Params{{"shape", IntList(aval.shape)}, {"broadcast_dimensions", IntList{}}}, loc);
}

Array add(const Array& a, const Array& b, Loc loc) { return bind1(prim::kAdd, {a, b}, {}, loc); }
Array sub(const Array& a, const Array& b, Loc loc) { return bind1(prim::kSub, {a, b}, {}, loc); }
Array mul(const Array& a, const Array& b, Loc loc) { return bind1(prim::kMul, {a, b}, {}, loc); }
Array div(const Array& a, const Array& b, Loc loc) { return bind1(prim::kDiv, {a, b}, {}, loc); }
Array pow(const Array& a, const Array& b, Loc loc) { return bind1(prim::kPow, {a, b}, {}, loc); }
Array eq(const Array& a, const Array& b, Loc loc) { return bind1(prim::kEq, {a, b}, {}, loc); }
Array and_(const Array& a, const Array& b, Loc loc) { return bind1(prim::kAnd, {a, b}, {}, loc); }
Array neg(const Array& x, Loc loc) { return bind1(prim::kNeg, {x}, {}, loc); }
Array log(const Array& x, Loc loc) { return bind1(prim::kLog, {x}, {}, loc); }
Array sin(const Array& x, Loc loc) { return bind1(prim::kSin, {x}, {}, loc); }
Array cos(const Array& x, Loc loc) { return bind1(prim::kCos, {x}, {}, loc); }
Array abs(const Array& x, Loc loc) { return bind1(prim::kAbs, {x}, {}, loc); }
Array sign(const Array& x, Loc loc) { return bind1(prim::kSign, {x}, {}, loc); }
Array floor(const Array& x, Loc loc) { return bind1(prim::kFloor, {x}, {}, loc); }

Array select(const Array& pred, const Array& on_true, const Array& on_false, Loc loc) {
  return bind1(prim::kSelect, {pred, on_true, on_false}, {}, loc);
}

Array convert_element_type(const Array& x, DType dtype, bool weak, Loc loc) {
  return bind1(prim::kConvertElementType, {x}, Params{{"new_dtype", dtype}, {"weak_type", weak}}, loc);
}

Array broadcast_in_dim(const Array& x, const Shape& shape, const IntList& broadcast_dimensions, Loc loc) {
  return bind1(prim::kBroadcastInDim, {x}, Params{{"shape", IntList(shape)}, {"broadcast_dimensions", broadcast_dimensions}},
               loc);
}

Array reshape(const Array& x, const Shape& shape, Loc loc) {
  check_usable(x, "reshape");
  if (detail::aval_of(x).shape == shape) return x;
  return bind1(prim::kReshape, {x}, Params{{"new_sizes", IntList(shape)}}, loc);
}

Array transpose(const Array& x, const IntList& permutation, Loc loc) {
  check_usable(x, "transpose");
  if (is_identity(permutation) && static_cast<int>(permutation.size()) == detail::aval_of(x).ndim()) return x;
  return bind1(prim::kTranspose, {x}, Params{{"permutation", permutation}}, loc);
}

Array slice(const Array& x, const IntList& start, const IntList& limit, const IntList& strides, Loc loc) {
  check_usable(x, "slice");
  const Shape& shape = detail::aval_of(x).shape;
  bool whole = start.size() == shape.size();
  for (size_t d = 0; whole && d < shape.size(); ++d)
    whole = start[d] == 0 && limit[d] == shape[d] && strides[d] == 1;
  if (whole) return x;
  return bind1(prim::kSlice, {x}, Params{{"start_indices", start}, {"limit_indices", limit}, {"strides", strides}},
               loc);
}

Array pad(const Array& x, const Array& padding_value, const IntList& low, const IntList& high,
          const IntList& interior, Loc loc) {
  return bind1(prim::kPad, {x, padding_value},
               Params{{"padding_low", low}, {"padding_high", high}, {"padding_interior", interior}}, loc);
}

Array reduce_sum(const Array& x, const IntList& axes, Loc loc) {
  if (axes.empty()) return x;
  return bind1(prim::kReduceSum, {x}, Params{{"axes", axes}}, loc);
}

Array reduce_prod(const Array& x, const IntList& axes, Loc loc) {
  if (axes.empty()) return x;
  return bind1(prim::kReduceProd, {x}, Params{{"axes", axes}}, loc);
}

IntList all_axes(const Array& x) {
  check_usable(x, "reduce");
  IntList axes;
  for (int d = 0; d < detail::aval_of(x).ndim(); ++d) axes.push_back(d);
  return axes;
}

Array dot_general(const Array& a, const Array& b, const IntList& lhs_contract, const IntList& rhs_contract,
                  const IntList& lhs_batch, const IntList& rhs_batch, Loc loc) {
  return bind1(prim::kDotGeneral, {a, b},
               Params{{"lhs_contract", lhs_contract}, {"rhs_contract", rhs_contract}, {"lhs_batch", lhs_batch},
                      {"rhs_batch", rhs_batch}},
               loc);
}

}  // namespace strata::lax
