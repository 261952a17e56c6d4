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

std::vector<Array> no_jvp(std::string_view op) {
  throw ValueError(std::string(op) + ": differentiation is not implemented yet (scatter and scatter_add are differentiable)");
}

}  // namespace strata::gather_scatter
