// tracer/primitives/conv_general_dilated.cpp — `conv_general_dilated[window_strides,
// padding_low, padding_high, lhs_dilation, rhs_dilation, lhs_spec, rhs_spec, out_spec,
// feature_group_count, batch_group_count]`: jax.lax.conv_general_dilated (StableHLO's
// convolution). The specs are JAX's ConvDimensionNumbers; float, complex or integer operands
// (integers wrap, as in XLA). Eager: kernels/conv.h, which compiled code calls too for floats. The
// derivative and batching rules are JAX's, binding the same primitive, so grad of grad, jit of
// grad and vmap of grad compose.
#include "ad_rules.h"
#include "batch_rules.h"
#include "common.h"
#include "conv_params.h"
#include "../array_impl.h"
#include "../kernels/conv.h"

namespace strata {
namespace {

using shape_rules::ConvParams;
using shape_rules::dilated_size;

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("conv_general_dilated", in, 2);
  if (in[0].dtype != in[1].dtype)
    throw DTypeError("conv_general_dilated: expects operands of one dtype, but got " + in[0].str() + " and " +
                     in[1].str());
  if (in[0].dtype == DType::bool_)
    throw DTypeError("conv_general_dilated: expects numeric operands (float, complex or integer), but got " + in[0].str() +
                     " and " + in[1].str());
  Shape out = primitives::check("conv_general_dilated",
                                shape_rules::conv_general_dilated(in[0].shape, in[1].shape, conv_prim::from_params(p)));
  return {AbstractValue{out, in[0].dtype, in[0].weak && in[1].weak}};
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  kernels::conv_general_dilated(in[0].dtype(), in[0].data, in[1].data, out[0].data, in[0].shape(), in[1].shape(),
                                out[0].shape(), conv_prim::from_params(p));
}

// ---- JAX's reshaping helpers (lax/convolution.py, lax/lax.py) ----

// Moves dimension `src` to just before dimension `dst` (numbered after src's removal) and
// merges the two, src the major part.
Array reshape_axis_into(int64_t src, int64_t dst, const Array& x) {
  const Shape& s = x.shape();
  IntList perm;
  for (int64_t i = 0; i < static_cast<int64_t>(s.size()); ++i)
    if (i != src) perm.push_back(i);
  perm.insert(perm.begin() + dst, src);
  Shape merged;
  for (int64_t i = 0; i < static_cast<int64_t>(s.size()); ++i)
    if (i != src) merged.push_back(s[static_cast<size_t>(i)]);
  merged[static_cast<size_t>(dst)] *= s[static_cast<size_t>(src)];
  return lax::reshape(lax::transpose(x, perm), merged);
}
// Splits dimension `src` into (size1, rest).
Array reshape_axis_out_of(int64_t src, int64_t size1, const Array& x) {
  Shape s = x.shape();
  int64_t size2 = s[static_cast<size_t>(src)] / size1;
  s[static_cast<size_t>(src)] = size1;
  s.insert(s.begin() + src + 1, size2);
  return lax::reshape(x, s);
}

IntList spatial(const IntList& spec) { return IntList(spec.begin() + 2, spec.end()); }
IntList swap_first_two(IntList spec) {
  std::swap(spec[0], spec[1]);
  return spec;
}
IntList sizes_at(const Shape& s, const IntList& dims) {
  IntList r;
  for (int64_t d : dims) r.push_back(s[static_cast<size_t>(d)]);
  return r;
}

// ---- Derivatives ----

// JAX's _conv_general_dilated_transpose_lhs: a convolution of the cotangent with the flipped
// kernel, the forward strides becoming lhs dilation.
Array transpose_lhs(const Array& ct, const Array& lhs, const Array& rhs_in, const ConvParams& c) {
  Array rhs = rhs_in;
  const IntList &ls = c.lhs_spec, &rs = c.rhs_spec, &os = c.out_spec;
  int64_t groups = 1;
  if (c.feature_group_count > 1 || c.batch_group_count > 1) {
    groups = std::max(c.feature_group_count, c.batch_group_count);
    rhs = reshape_axis_out_of(rs[0], groups, rhs);
    rhs = reshape_axis_into(rs[0], rs[1], rhs);
  }
  IntList in = sizes_at(lhs.shape(), spatial(ls)), win = sizes_at(rhs.shape(), spatial(rs)),
          out = sizes_at(ct.shape(), spatial(os));
  ConvParams t;
  for (size_t i = 0; i < in.size(); ++i) {
    int64_t ld = dilated_size(in[i], c.lhs_dilation[i]), rd = dilated_size(win[i], c.rhs_dilation[i]);
    int64_t od = dilated_size(out[i], c.window_strides[i]);
    int64_t before = rd - c.padding_low[i] - 1;
    t.padding_low.push_back(before);
    t.padding_high.push_back(ld + rd - 1 - od - before);
  }
  t.window_strides = c.lhs_dilation;
  t.lhs_dilation = c.window_strides;
  t.rhs_dilation = c.rhs_dilation;
  t.lhs_spec = os;
  t.rhs_spec = swap_first_two(rs);
  t.out_spec = ls;
  t.feature_group_count = groups;
  Array flipped = lax::bind1(prim::kRev, {rhs}, Params{{"dimensions", spatial(rs)}});
  Array r = conv_prim::bind(ct, flipped, t);
  if (c.batch_group_count > 1) {
    r = reshape_axis_out_of(ls[1], c.batch_group_count, r);
    r = reshape_axis_into(ls[1], ls[0], r);
  }
  return r;
}

// JAX's _conv_general_dilated_transpose_rhs: a convolution of lhs with the cotangent as its
// kernel, feature groups becoming batch groups (and back).
Array transpose_rhs(const Array& ct, const Array& lhs, const Array& rhs, const ConvParams& c) {
  if (ct.size() == 0) return lax::zeros(detail::aval_of(rhs));
  IntList in = sizes_at(lhs.shape(), spatial(c.lhs_spec)), win = sizes_at(rhs.shape(), spatial(c.rhs_spec)),
          out = sizes_at(ct.shape(), spatial(c.out_spec));
  ConvParams t;
  for (size_t i = 0; i < in.size(); ++i) {
    int64_t ld = dilated_size(in[i], c.lhs_dilation[i]), rd = dilated_size(win[i], c.rhs_dilation[i]);
    int64_t od = dilated_size(out[i], c.window_strides[i]);
    t.padding_low.push_back(c.padding_low[i]);
    t.padding_high.push_back((od - ld) + (rd - c.padding_low[i] - 1));
  }
  t.window_strides = c.rhs_dilation;
  t.lhs_dilation = c.lhs_dilation;
  t.rhs_dilation = c.window_strides;
  t.lhs_spec = swap_first_two(c.lhs_spec);
  t.rhs_spec = swap_first_two(c.out_spec);
  t.out_spec = swap_first_two(c.rhs_spec);
  t.feature_group_count = c.batch_group_count;
  t.batch_group_count = c.feature_group_count;
  return conv_prim::bind(lhs, ct, t);
}

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>, const Params& p) {
  Array a = t[0].valid() ? lax::bind1(prim::kConvGeneralDilated, {t[0], x[1]}, p) : Array();
  Array b = t[1].valid() ? lax::bind1(prim::kConvGeneralDilated, {x[0], t[1]}, p) : Array();
  return {ad::add_cotangent(a, b)};
}
// Reads both inputs.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  ConvParams c = conv_prim::from_params(p);
  return {transpose_lhs(ct[0], x[0], x[1], c), transpose_rhs(ct[0], x[0], x[1], c)};
}

// ---- Batching: JAX's _conv_general_dilated_batch_rule (the vmapped axis folded into the
// batch, the features or the groups) ----
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  ConvParams c = conv_prim::from_params(p);
  const IntList &ls = c.lhs_spec, &rs = c.rhs_spec, &os = c.out_spec;
  const Array &lhs = args[0], &rhs = args[1];
  const int64_t lb = dims[0], rb = dims[1];
  if (lb != not_mapped && rb != not_mapped) {
    int64_t k = lhs.shape()[static_cast<size_t>(lb)];
    Array new_lhs;
    if (c.batch_group_count > 1) {
      new_lhs = reshape_axis_into(lb, ls[0], lhs);
      c.batch_group_count *= k;
    } else {
      new_lhs = reshape_axis_into(lb, ls[1], lhs);
      c.feature_group_count *= k;
    }
    Array new_rhs = reshape_axis_into(rb, rs[0], rhs);
    Array out = reshape_axis_out_of(os[1], k, conv_prim::bind(new_lhs, new_rhs, c));
    return {{out}, {static_cast<int>(os[1])}};
  }
  if (lb != not_mapped) {
    int64_t k = lhs.shape()[static_cast<size_t>(lb)];
    Array new_lhs;
    if (c.batch_group_count == 1) {
      new_lhs = reshape_axis_into(lb, ls[0], lhs);
    } else {
      new_lhs = reshape_axis_out_of(ls[0] + (lb <= ls[0] ? 1 : 0), c.batch_group_count, lhs);
      new_lhs = reshape_axis_into(lb + (ls[0] < lb ? 1 : 0), ls[0] + 1, new_lhs);
      new_lhs = reshape_axis_into(ls[0], ls[0], new_lhs);
    }
    Array out = reshape_axis_out_of(os[0], k, conv_prim::bind(new_lhs, rhs, c));
    return {{out}, {static_cast<int>(os[0])}};
  }
  int64_t k = rhs.shape()[static_cast<size_t>(rb)];
  if (c.feature_group_count == 1 && c.batch_group_count == 1) {
    Array out = reshape_axis_out_of(os[1], k, conv_prim::bind(lhs, reshape_axis_into(rb, rs[0], rhs), c));
    return {{out}, {static_cast<int>(os[1])}};
  }
  // Groups must stay outermost in the output features: factor them out, fold the batch into
  // what remains, put them back; the same on the output.
  int64_t groups = std::max(c.feature_group_count, c.batch_group_count);
  Array new_rhs = reshape_axis_out_of(rs[0] + (rb <= rs[0] ? 1 : 0), groups, rhs);
  new_rhs = reshape_axis_into(rb + (rs[0] < rb ? 1 : 0), rs[0] + 1, new_rhs);
  new_rhs = reshape_axis_into(rs[0], rs[0], new_rhs);
  Array out = conv_prim::bind(lhs, new_rhs, c);
  out = reshape_axis_out_of(os[1], groups, out);
  out = reshape_axis_out_of(os[1] + 1, k, out);
  out = reshape_axis_into(os[1], os[1] + 1, out);
  return {{out}, {static_cast<int>(os[1])}};
}

}  // namespace

const Primitive prim::kConvGeneralDilated{
    .name = "conv_general_dilated",
    .arity = 2,
    .traits = kTakesComplex,  // as four real convolutions of the parts (kernels/conv.cpp)
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
