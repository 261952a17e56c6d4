#include "ad_rules.h"

#include <algorithm>

#include "../array_impl.h"
#include "../autodiff.h"

namespace strata::ad {

Array instantiate(const Array& t, const AbstractValue& aval) { return t.valid() ? t : lax::zeros(aval); }

Array add_cotangent(const Array& a, const Array& b) {
  if (!a.valid()) return b;
  if (!b.valid()) return a;
  return lax::add(a, b);
}

Array unbroadcast(const Array& ct, const Array& operand) {
  if (!ct.valid()) return ct;
  if (operand.ndim() == 0 && ct.ndim() != 0) return lax::reduce_sum(ct, lax::all_axes(ct));
  return ct;
}

Array broadcast_scalar(const Array& x, const Shape& shape) {
  if (!x.valid() || x.ndim() != 0 || shape.empty()) return x;
  return lax::broadcast_in_dim(x, shape, {});
}

Array unreduce(const Array& r, const Array& x, const Params& params) {
  const IntList& axes = params.get_ints("axes");
  IntList kept;
  for (int64_t d = 0; d < x.ndim(); ++d)
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) kept.push_back(d);
  return lax::broadcast_in_dim(r, x.shape(), kept);
}

namespace {
// 1/count at the positions equal to the extremum y, 0 elsewhere.
Array extremum_weights(const Array& x, const Array& y, const Params& params) {
  Array mask = lax::convert_element_type(lax::eq(x, unreduce(y, x, params)), x.dtype());
  return lax::div(mask, unreduce(lax::bind1(prim::kReduceSum, {mask}, params), x, params));
}
}  // namespace

std::vector<Array> extremum_jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y,
                                const Params& params) {
  return {lax::bind1(prim::kReduceSum, {lax::mul(t[0], extremum_weights(x[0], y[0], params))}, params)};
}
std::vector<Array> extremum_vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct,
                                const Params& params) {
  return {lax::mul(unreduce(ct[0], x[0], params), extremum_weights(x[0], y[0], params))};
}

std::vector<Array> binary_jvp(std::span<const Array> x, std::span<const Array> t,
                              std::span<const Array> y, Partial2 d0, Partial2 d1) {
  const Shape& shape = y[0].shape();
  Array out;
  if (t[0].valid() && d0) out = add_cotangent(out, broadcast_scalar(lax::mul(t[0], d0(x[0], x[1], y[0])), shape));
  if (t[1].valid() && d1) out = add_cotangent(out, broadcast_scalar(lax::mul(t[1], d1(x[0], x[1], y[0])), shape));
  return {out};
}

std::vector<Array> binary_vjp(std::span<const Array> x, std::span<const Array> y,
                              std::span<const Array> ct, Partial2 d0, Partial2 d1) {
  Array g0 = d0 ? unbroadcast(lax::mul(ct[0], d0(x[0], x[1], y[0])), x[0]) : Array();
  Array g1 = d1 ? unbroadcast(lax::mul(ct[0], d1(x[0], x[1], y[0])), x[1]) : Array();
  return {g0, g1};
}

void not_differentiable(std::string_view primitive) {
  throw ValueError(std::string(primitive) + ": is not differentiable (as in JAX); wrap its operands in stop_gradient");
}

namespace {
// 1 where x is the result y, 0.5 where the other operand is too, 0 elsewhere.
Array balanced_eq(const Array& x, const Array& y, const Array& other) {
  return lax::select(lax::eq(x, y), lax::select(lax::eq(other, y), scalar_like(0.5, x), scalar_like(1, x)),
                     scalar_like(0, x));
}
Array extremum_d0(const Array& x0, const Array& x1, const Array& y) { return balanced_eq(x0, y, x1); }
Array extremum_d1(const Array& x0, const Array& x1, const Array& y) { return balanced_eq(x1, y, x0); }
}  // namespace

std::vector<Array> binary_extremum_jvp(std::span<const Array> x, std::span<const Array> t,
                                       std::span<const Array> y, const Params&) {
  return binary_jvp(x, t, y, extremum_d0, extremum_d1);
}
std::vector<Array> binary_extremum_vjp(std::span<const Array> x, std::span<const Array> y,
                                       std::span<const Array> ct, const Params&) {
  return binary_vjp(x, y, ct, extremum_d0, extremum_d1);
}

std::vector<Array> transpose_tangent_map(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct,
                                         const TangentMap& tangent_map) {
  std::vector<Array> result(x.size());
  std::vector<size_t> ins, outs;  // the float operands; the float outputs with a cotangent
  std::vector<AbstractValue> avals;
  for (size_t i = 0; i < x.size(); ++i)
    if (is_inexact(x[i].dtype())) {
      ins.push_back(i);
      avals.push_back(detail::aval_of(x[i]));
    }
  std::vector<Array> cts;
  for (size_t k = 0; k < ct.size(); ++k)
    if (ct[k].valid() && is_inexact(y[k].dtype())) {
      outs.push_back(k);
      cts.push_back(ct[k]);
    }
  if (ins.empty() || outs.empty()) return result;
  auto of_float_tangents = [&](std::span<const Array> t) {
    std::vector<Array> tangents(x.size());
    for (size_t k = 0; k < ins.size(); ++k) tangents[ins[k]] = t[k];
    std::vector<Array> touts = tangent_map(tangents);
    std::vector<Array> r;
    for (size_t k : outs) r.push_back(instantiate(k < touts.size() ? touts[k] : Array(), detail::aval_of(y[k])));
    return r;
  };
  std::vector<Array> g = linear_transpose(of_float_tangents, avals, cts);
  for (size_t k = 0; k < ins.size(); ++k) result[ins[k]] = g[k];
  return result;
}

}  // namespace strata::ad
