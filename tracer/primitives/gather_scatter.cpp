// tracer/primitives/gather_scatter.cpp — helpers of gather and the scatter_* primitives
// (gather_scatter.h): the scatters' shared shape rule and the index rewrites of their batching
// and transpose rules.
#include "gather_scatter.h"

namespace strata::gather_scatter {

std::vector<AbstractValue> scatter_rule(std::string_view op, std::span<const AbstractValue> in, const Params& p,
                                        bool numeric_only) {
  primitives::expect_arity(op, in, 3);
  const AbstractValue &x = in[0], &idx = in[1], &u = in[2];
  if (!is_integer(idx.dtype))
    throw DTypeError(std::string(op) + ": expects integer indices, but got " + idx.str());
  if (u.dtype != x.dtype)
    throw DTypeError(std::string(op) + ": expects updates of the operand's dtype, but got " + u.str() + " for " + x.str());
  if (numeric_only && x.dtype == DType::bool_)
    throw DTypeError(std::string(op) + ": expects a numeric operand, but got " + x.str());
  Shape out = primitives::check(op, shape_rules::scatter(x.shape, idx.shape, u.shape, scatter_dims(p)));
  return {AbstractValue{out, x.dtype, x.weak}};
}

Array vector_dim_last(const Array& indices, int64_t ivd) {
  int64_t rank = indices.ndim();
  if (ivd == rank) {
    Shape s = indices.shape();
    s.push_back(1);
    return lax::reshape(indices, s);
  }
  IntList perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != ivd) perm.push_back(d);
  perm.push_back(ivd);
  return lax::transpose(indices, perm);
}

Array with_example_index(const Array& indices) {
  Shape s = indices.shape();
  s.back() = 1;
  Array example = lax::bind1(prim::kIota, {}, Params{{"dtype", indices.dtype()}, {"shape", IntList(s)}, {"dimension", int64_t{0}}});
  return lax::bind1(prim::kConcatenate, {example, indices}, Params{{"dimension", static_cast<int64_t>(s.size() - 1)}});
}

Array clamp_indices(const Array& indices, int64_t ivd, const Shape& operand, const IntList& map, const IntList& sizes) {
  AbstractValue av{indices.shape(), indices.dtype(), false};
  Array hi = detail::make_concrete(av);
  std::vector<int64_t> strides = kernels::contiguous_strides(av.shape);
  int64_t rank = static_cast<int64_t>(av.shape.size());
  for (int64_t e = 0; e < av.size(); ++e) {
    int64_t j = ivd < rank ? (e / strides[static_cast<size_t>(ivd)]) % av.shape[static_cast<size_t>(ivd)] : 0;
    size_t d = static_cast<size_t>(map[static_cast<size_t>(j)]);
    int64_t v = operand[d] - sizes[d];
    kernels::convert_elements(&v, DType::i64, static_cast<char*>(detail::mutable_data(hi)) + e * static_cast<int64_t>(itemsize(av.dtype)),
                              av.dtype, 1);
  }
  return lax::max(lax::min(indices, hi), lax::zeros(av));
}

}  // namespace strata::gather_scatter

namespace strata::gather_scatter {

Array gather_windows(const Array& a, const Array& indices, const ScatterDims& s, const Shape& updates_shape) {
  IntList sizes = window_sizes(a.shape(), updates_shape, s.update_window_dims, s.inserted_window_dims);
  return lax::gather(a, indices, gather_of(s), sizes, kModeFill);
}

Array updates_that_won(const Array& operand, const Array& indices, const Array& updates, const ScatterDims& s) {
  // One id (from 1) per index vector, the same for every element of its window.
  Shape ids_shape = updates.shape();
  for (int64_t d : s.update_window_dims) ids_shape[static_cast<size_t>(d)] = 1;
  int64_t n = 1;
  for (int64_t v : ids_shape) n *= v;
  Array iota = lax::bind1(prim::kIota, {}, Params{{"dtype", DType::i32}, {"shape", IntList{n}}, {"dimension", int64_t{0}}});
  Array ids = lax::add(lax::reshape(iota, ids_shape), lax::scalar(1, DType::i32));
  IntList dims;
  for (int64_t d = 0; d < static_cast<int64_t>(ids_shape.size()); ++d) dims.push_back(d);
  // Size-1 window dims broadcast to the window.
  Shape squeezed;
  IntList kept;
  for (int64_t d = 0; d < static_cast<int64_t>(ids_shape.size()); ++d)
    if (std::find(s.update_window_dims.begin(), s.update_window_dims.end(), d) == s.update_window_dims.end()) {
      squeezed.push_back(ids_shape[static_cast<size_t>(d)]);
      kept.push_back(d);
    }
  Array full_ids = lax::broadcast_in_dim(lax::reshape(ids, squeezed), updates.shape(), kept);
  Array scattered = lax::scatter(prim::kScatter, lax::zeros(AbstractValue{operand.shape(), DType::i32, false}), indices, full_ids, s);
  return lax::eq(gather_windows(scattered, indices, s, updates.shape()), full_ids);
}

namespace {

// The coefficients of extremal_jvp: operand_coef (operand-shaped) and updates_coef
// (updates-shaped), each 1/n for the n values that tie for a result, 0 for the others.
std::pair<Array, Array> extremal_coefficients(const Primitive& p, std::span<const Array> x, const Params& params) {
  ScatterDims s = scatter_dims(params);
  const Array &operand = x[0], &indices = x[1], &updates = x[2];
  AbstractValue av = detail::aval_of(operand);
  av.weak = false;
  Array out = lax::scatter(p, operand, indices, updates, s);
  Array one = ad::scalar_like(1.0, operand), zero = ad::scalar_like(0.0, operand);
  // Updates equal to their result; dropped updates (gathered as 0) never count.
  Array in_bounds = gather_windows(lax::full(av, 1.0), indices, s, updates.shape());
  Array won = lax::and_(lax::eq(updates, gather_windows(out, indices, s, updates.shape())), lax::eq(in_bounds, one));
  Array kept = lax::eq(operand, out);
  Array winners = lax::scatter(prim::kScatterAdd, lax::zeros(av), indices, lax::select(won, lax::full(detail::aval_of(updates), 1.0), lax::zeros(detail::aval_of(updates))), s);
  Array ties = lax::add(winners, lax::select(kept, lax::full(av, 1.0), lax::zeros(av)));
  Array share = lax::div(one, lax::max(ties, one));  // ties >= 1 wherever it is used
  Array operand_coef = lax::select(kept, share, lax::zeros(av));
  Array updates_coef = lax::select(won, gather_windows(share, indices, s, updates.shape()), lax::zeros(detail::aval_of(updates)));
  return {operand_coef, updates_coef};
}

}  // namespace

std::vector<Array> extremal_jvp(const Primitive& p, std::span<const Array> x, std::span<const Array> t, const Params& params) {
  if (!t[0].valid() && !t[2].valid()) return {Array()};
  ScatterDims s = scatter_dims(params);
  auto [operand_coef, updates_coef] = extremal_coefficients(p, x, params);
  Array tx = ad::instantiate(t[0], detail::aval_of(x[0])), ty = ad::instantiate(t[2], detail::aval_of(x[2]));
  return {lax::scatter(prim::kScatterAdd, lax::mul(tx, operand_coef), x[1], lax::mul(ty, updates_coef), s)};
}

std::vector<Array> extremal_vjp(const Primitive& p, std::span<const Array> x, std::span<const Array> ct, const Params& params) {
  ScatterDims s = scatter_dims(params);
  auto [operand_coef, updates_coef] = extremal_coefficients(p, x, params);
  return {lax::mul(ct[0], operand_coef), Array(), lax::mul(gather_windows(ct[0], x[1], s, x[2].shape()), updates_coef)};
}

}  // namespace strata::gather_scatter
