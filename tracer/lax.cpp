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

#define STRATA_LAX_BINARY(fn, p) \
  Array fn(const Array& a, const Array& b, Loc loc) { return bind1(p, {a, b}, {}, loc); }
#define STRATA_LAX_UNARY(fn, p) \
  Array fn(const Array& x, Loc loc) { return bind1(p, {x}, {}, loc); }
STRATA_LAX_BINARY(add, prim::kAdd)
STRATA_LAX_BINARY(sub, prim::kSub)
STRATA_LAX_BINARY(mul, prim::kMul)
STRATA_LAX_BINARY(div, prim::kDiv)
STRATA_LAX_BINARY(rem, prim::kRem)
STRATA_LAX_BINARY(max, prim::kMax)
STRATA_LAX_BINARY(min, prim::kMin)
STRATA_LAX_BINARY(pow, prim::kPow)
STRATA_LAX_BINARY(atan2, prim::kAtan2)
STRATA_LAX_BINARY(and_, prim::kAnd)
STRATA_LAX_BINARY(or_, prim::kOr)
STRATA_LAX_BINARY(eq, prim::kEq)
STRATA_LAX_BINARY(ne, prim::kNe)
STRATA_LAX_BINARY(lt, prim::kLt)
STRATA_LAX_BINARY(le, prim::kLe)
STRATA_LAX_BINARY(gt, prim::kGt)
STRATA_LAX_BINARY(ge, prim::kGe)
STRATA_LAX_UNARY(neg, prim::kNeg)
STRATA_LAX_UNARY(exp, prim::kExp)
STRATA_LAX_UNARY(log, prim::kLog)
STRATA_LAX_UNARY(log1p, prim::kLog1p)
STRATA_LAX_UNARY(expm1, prim::kExpm1)
STRATA_LAX_UNARY(tanh, prim::kTanh)
STRATA_LAX_UNARY(logistic, prim::kLogistic)
STRATA_LAX_UNARY(sin, prim::kSin)
STRATA_LAX_UNARY(cos, prim::kCos)
STRATA_LAX_UNARY(sqrt, prim::kSqrt)
STRATA_LAX_UNARY(rsqrt, prim::kRsqrt)
STRATA_LAX_UNARY(abs, prim::kAbs)
STRATA_LAX_UNARY(real, prim::kReal)
STRATA_LAX_UNARY(imag, prim::kImag)
STRATA_LAX_UNARY(conj, prim::kConj)
STRATA_LAX_BINARY(complex, prim::kComplex)
STRATA_LAX_UNARY(sign, prim::kSign)
STRATA_LAX_UNARY(floor, prim::kFloor)
STRATA_LAX_UNARY(ceil, prim::kCeil)
STRATA_LAX_UNARY(not_, prim::kNot)
STRATA_LAX_UNARY(erf_inv, prim::kErfInv)
#undef STRATA_LAX_BINARY
#undef STRATA_LAX_UNARY

Array integer_pow(const Array& x, int64_t y, Loc loc) { return bind1(prim::kIntegerPow, {x}, Params{{"y", y}}, loc); }

Array reduce_precision(const Array& x, int64_t exponent_bits, int64_t mantissa_bits, Loc loc) {
  return bind1(prim::kReducePrecision, {x}, Params{{"exponent_bits", exponent_bits}, {"mantissa_bits", mantissa_bits}}, loc);
}

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

Array interleave(const Array& a, const Array& b, int64_t axis, Loc loc) {
  const AbstractValue& av = detail::aval_of(a);
  const size_t r = av.shape.size(), ax = static_cast<size_t>(axis);
  const bool same = av.shape[ax] == detail::aval_of(b).shape[ax];
  IntList zero(r, 0), one = zero, lo_b = zero, hi_a = zero, hi_b = zero;
  one[ax] = 1;
  lo_b[ax] = 1;
  hi_a[ax] = same ? 1 : 0;
  hi_b[ax] = same ? 0 : 1;
  Array z = scalar(0, av.dtype);
  Array pa = pad(a, z, zero, hi_a, one, loc), pb = pad(b, scalar(0, detail::aval_of(b).dtype), lo_b, hi_b, one, loc);
  return av.dtype == DType::bool_ ? or_(pa, pb, loc) : add(pa, pb, loc);
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

// ---- Indexing ----
Array dynamic_slice(const Array& x, std::span<const Array> starts, const IntList& sizes, Loc loc) {
  std::vector<Array> args{x};
  args.insert(args.end(), starts.begin(), starts.end());
  return lax::bind(prim::kDynamicSlice, args, Params{{"slice_sizes", sizes}}, loc)[0];
}

Array dynamic_update_slice(const Array& x, const Array& update, std::span<const Array> starts, Loc loc) {
  std::vector<Array> args{x, update};
  args.insert(args.end(), starts.begin(), starts.end());
  return lax::bind(prim::kDynamicUpdateSlice, args, {}, loc)[0];
}

Array gather(const Array& x, const Array& indices, const shape_rules::GatherDims& d, const IntList& slice_sizes,
             int64_t mode, Loc loc) {
  return bind1(prim::kGather, {x, indices},
               Params{{"offset_dims", d.offset_dims},
                      {"collapsed_slice_dims", d.collapsed_slice_dims},
                      {"start_index_map", d.start_index_map},
                      {"index_vector_dim", d.index_vector_dim},
                      {"slice_sizes", slice_sizes},
                      {"mode", mode}},
               loc);
}

Array scatter(const Primitive& p, const Array& x, const Array& indices, const Array& updates,
              const shape_rules::ScatterDims& d, Loc loc) {
  return bind1(p, {x, indices, updates},
               Params{{"update_window_dims", d.update_window_dims},
                      {"inserted_window_dims", d.inserted_window_dims},
                      {"scatter_dims_to_operand_dims", d.scatter_dims_to_operand_dims},
                      {"index_vector_dim", d.index_vector_dim}},
               loc);
}

}  // namespace strata::lax
