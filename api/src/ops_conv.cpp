// Convolution: the public conv_general_dilated (JAX's argument forms: padding strings,
// dimension-number strings) over the conv_general_dilated primitive.
#include "strata/conv.h"

#include <algorithm>
#include <cmath>

#include "op_helpers.h"
#include "primitives/conv_params.h"

namespace strata {
namespace {

// The spec of one operand from its string: `first`/`second` name its two non-spatial dims,
// the spatial ones follow in the order the rhs string lists them (jax.lax's
// conv_general_permutations).
std::vector<int64_t> spec_of(const std::string& s, char first, char second, const std::string& spatial,
                             const std::string& all) {
  auto at = [&](char c) -> int64_t {
    size_t i = s.find(c);
    if (i == std::string::npos || s.find(c, i + 1) != std::string::npos)
      throw ValueError("conv_general_dilated: dimension numbers " + all + " must name '" + std::string(1, c) +
                       "' exactly once in \"" + s + "\"");
    return static_cast<int64_t>(i);
  };
  std::vector<int64_t> spec{at(first), at(second)};
  for (char c : spatial) spec.push_back(at(c));
  if (spec.size() != s.size())
    throw ValueError("conv_general_dilated: dimension numbers " + all + " name different spatial dimensions in \"" +
                     s + "\"");
  return spec;
}

// (low, high) padding of one spatial dimension of size `in` for a window of (dilated) size
// `window` at `stride`, by JAX's padtype_to_pads.
std::pair<int64_t, int64_t> window_padding(const char* op, const std::string& mode, int64_t in, int64_t window,
                                           int64_t stride) {
  if (mode == "VALID") return {0, 0};
  if (mode != "SAME" && mode != "SAME_LOWER")
    throw ValueError(std::string(op) + ": expects padding \"SAME\", \"SAME_LOWER\", \"VALID\" or (low, high) pairs, but got \"" +
                     mode + "\"");
  int64_t out = (in + stride - 1) / stride;
  int64_t total = std::max<int64_t>((out - 1) * stride + window - in, 0);
  return mode == "SAME" ? std::pair{total / 2, total - total / 2} : std::pair{total - total / 2, total / 2};
}

}  // namespace

ConvDimensionNumbers::ConvDimensionNumbers(std::string lhs, std::string rhs, std::string out) {
  std::string all = "(\"" + lhs + "\", \"" + rhs + "\", \"" + out + "\")";
  if (lhs.size() != rhs.size() || lhs.size() != out.size())
    throw ValueError("conv_general_dilated: dimension numbers " + all + " must have one length");
  std::string spatial;
  for (char c : rhs)
    if (c != 'O' && c != 'I') spatial.push_back(c);
  lhs_spec = spec_of(lhs, 'N', 'C', spatial, all);
  rhs_spec = spec_of(rhs, 'O', 'I', spatial, all);
  out_spec = spec_of(out, 'N', 'C', spatial, all);
}

Array conv_general_dilated(const Array& lhs, const Array& rhs, const std::vector<int64_t>& window_strides,
                           const Padding& padding, const std::vector<int64_t>& lhs_dilation,
                           const std::vector<int64_t>& rhs_dilation, const ConvDimensionNumbers& dn,
                           int64_t feature_group_count, int64_t batch_group_count, SourceLocation loc) {
  const AbstractValue& l = api::aval(lhs, "conv_general_dilated");
  const AbstractValue& r = api::aval(rhs, "conv_general_dilated");
  if (l.ndim() != r.ndim() || l.ndim() < 2)
    throw ShapeError("conv_general_dilated: expects lhs and rhs of one rank (2 or more), but got " + l.str() +
                     " and " + r.str());
  const size_t rank = static_cast<size_t>(l.ndim()), nsp = rank - 2;
  shape_rules::ConvParams c;
  if (dn.lhs_spec.empty() && dn.rhs_spec.empty() && dn.out_spec.empty()) {
    for (size_t i = 0; i < rank; ++i) c.lhs_spec.push_back(static_cast<int64_t>(i));
    c.rhs_spec = c.out_spec = c.lhs_spec;
  } else {
    c.lhs_spec = dn.lhs_spec;
    c.rhs_spec = dn.rhs_spec;
    c.out_spec = dn.out_spec;
    for (const auto* s : {&c.lhs_spec, &c.rhs_spec, &c.out_spec})
      if (s->size() != rank)
        throw ValueError("conv_general_dilated: expects dimension numbers of length " + std::to_string(rank) +
                         " for " + l.str() + ", but got " + shape_rules::list_string(*s));
  }
  c.window_strides = window_strides;
  c.lhs_dilation = lhs_dilation.empty() ? std::vector<int64_t>(nsp, 1) : lhs_dilation;
  c.rhs_dilation = rhs_dilation.empty() ? std::vector<int64_t>(nsp, 1) : rhs_dilation;
  c.feature_group_count = feature_group_count;
  c.batch_group_count = batch_group_count;
  if (window_strides.size() != nsp || c.lhs_dilation.size() != nsp || c.rhs_dilation.size() != nsp)
    throw ValueError("conv_general_dilated: expects window strides and dilations of length " + std::to_string(nsp) +
                     " for " + l.str() + ", but got " + shape_rules::list_string(window_strides) + ", " +
                     shape_rules::list_string(c.lhs_dilation) + " and " + shape_rules::list_string(c.rhs_dilation));
  for (int64_t s : window_strides)
    if (s < 1)
      throw ValueError("conv_general_dilated: expects positive window strides, but got " +
                       shape_rules::list_string(window_strides));
  if (padding.mode.empty()) {
    if (padding.pairs.size() != nsp)
      throw ValueError("conv_general_dilated: expects " + std::to_string(nsp) + " (low, high) padding pairs for " +
                       l.str() + ", but got " + std::to_string(padding.pairs.size()));
    for (auto [lo, hi] : padding.pairs) {
      c.padding_low.push_back(lo);
      c.padding_high.push_back(hi);
    }
  } else {
    for (size_t i = 0; i < nsp; ++i) {
      int64_t in = l.shape[static_cast<size_t>(c.lhs_spec.at(i + 2))];
      int64_t k = r.shape[static_cast<size_t>(c.rhs_spec.at(i + 2))];
      int64_t window = shape_rules::dilated_size(k, std::max<int64_t>(c.rhs_dilation[i], 1));
      std::pair<int64_t, int64_t> pads = window_padding("conv_general_dilated", padding.mode, in, window,
                                                             window_strides[i]);
      c.padding_low.push_back(pads.first);
      c.padding_high.push_back(pads.second);
    }
  }
  return conv::bind(lhs, rhs, c, loc);
}

namespace nn {
namespace {

struct Pool {
  std::vector<int64_t> strides;
  std::vector<std::pair<int64_t, int64_t>> pads;
};

// The strides and (low, high) padding of a pooling window over x's spatial dimensions.
Pool pool_geometry(const char* op, const AbstractValue& av, const std::vector<int64_t>& window,
                   const std::vector<int64_t>& strides, const Padding& padding) {
  const size_t nsp = window.size();
  if (av.ndim() != static_cast<int64_t>(nsp) + 2)
    throw ShapeError(std::string(op) + ": expects (batch, spatial..., features) of rank " + std::to_string(nsp + 2) +
                     " for a window of " + shape_rules::list_string(window) + ", but got " + av.str());
  Pool p;
  p.strides = strides.empty() ? std::vector<int64_t>(nsp, 1) : strides;
  if (p.strides.size() != nsp)
    throw ValueError(std::string(op) + ": expects " + std::to_string(nsp) + " strides, but got " +
                     shape_rules::list_string(strides));
  for (size_t i = 0; i < nsp; ++i)
    if (window[i] < 1 || p.strides[i] < 1)
      throw ValueError(std::string(op) + ": expects positive window sizes and strides, but got " +
                       shape_rules::list_string(window) + " and " + shape_rules::list_string(p.strides));
  if (padding.mode.empty()) {
    if (padding.pairs.size() != nsp)
      throw ValueError(std::string(op) + ": expects " + std::to_string(nsp) + " (low, high) padding pairs, but got " +
                       std::to_string(padding.pairs.size()));
    for (auto [lo, hi] : padding.pairs)
      if (lo < 0 || hi < 0) throw ValueError(std::string(op) + ": expects non-negative padding");
    p.pads = padding.pairs;
  } else {
    for (size_t i = 0; i < nsp; ++i)
      p.pads.push_back(window_padding(op, padding.mode, av.shape[i + 1], window[i], p.strides[i]));
  }
  return p;
}

}  // namespace

// The maximum over the window's taps, each a strided slice of x padded with -inf.
Array max_pool(const Array& x, const std::vector<int64_t>& window, const std::vector<int64_t>& strides,
               const Padding& padding, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "max_pool");
  if (!is_floating(av.dtype)) throw DTypeError("max_pool: expects a float operand, but got " + av.str());
  Pool g = pool_geometry("max_pool", av, window, strides, padding);
  const size_t nsp = window.size(), rank = nsp + 2;
  IntList lo(rank, 0), hi(rank, 0), interior(rank, 0);
  for (size_t i = 0; i < nsp; ++i) {
    lo[i + 1] = g.pads[i].first;
    hi[i + 1] = g.pads[i].second;
  }
  Array xp = lax::pad(x, lax::scalar(-INFINITY, av.dtype), lo, hi, interior, loc);
  const Shape& ps = api::aval(xp, "max_pool").shape;
  std::vector<int64_t> out(nsp);
  int64_t taps = 1;
  for (size_t i = 0; i < nsp; ++i) {
    out[i] = ps[i + 1] < window[i] ? 0 : (ps[i + 1] - window[i]) / g.strides[i] + 1;
    taps *= window[i];
  }
  Array result;
  for (int64_t t = 0; t < taps; ++t) {
    IntList start(rank, 0), limit(ps.begin(), ps.end()), step(rank, 1);
    for (size_t i = nsp, r = static_cast<size_t>(t); i-- > 0;) {
      int64_t k = static_cast<int64_t>(r % static_cast<size_t>(window[i]));
      r /= static_cast<size_t>(window[i]);
      start[i + 1] = k;
      limit[i + 1] = out[i] == 0 ? k : k + (out[i] - 1) * g.strides[i] + 1;
      step[i + 1] = g.strides[i];
    }
    Array tap = lax::slice(xp, start, limit, step, loc);
    result = t == 0 ? tap : lax::max(result, tap, loc);
  }
  return result;
}

// The window sums as a depthwise convolution with a kernel of ones, over the window's size.
Array avg_pool(const Array& x, const std::vector<int64_t>& window, const std::vector<int64_t>& strides,
               const Padding& padding, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "avg_pool");
  if (!is_floating(av.dtype)) throw DTypeError("avg_pool: expects a float operand, but got " + av.str());
  Pool g = pool_geometry("avg_pool", av, window, strides, padding);
  const size_t nsp = window.size(), rank = nsp + 2;
  const int64_t features = av.shape[rank - 1];
  Shape kshape(window.begin(), window.end());
  kshape.push_back(1);
  kshape.push_back(features);
  int64_t size = 1;
  for (int64_t w : window) size *= w;
  Array ones = lax::full(AbstractValue{kshape, av.dtype, false}, 1.0, loc);
  shape_rules::ConvParams c;
  c.window_strides = g.strides;
  for (auto [lo, hi] : g.pads) {
    c.padding_low.push_back(lo);
    c.padding_high.push_back(hi);
  }
  c.lhs_dilation = c.rhs_dilation = std::vector<int64_t>(nsp, 1);
  c.lhs_spec = {0, static_cast<int64_t>(rank) - 1};
  c.rhs_spec = {static_cast<int64_t>(rank) - 1, static_cast<int64_t>(rank) - 2};
  for (size_t i = 0; i < nsp; ++i) {
    c.lhs_spec.push_back(static_cast<int64_t>(i) + 1);
    c.rhs_spec.push_back(static_cast<int64_t>(i));
  }
  c.out_spec = c.lhs_spec;
  c.feature_group_count = features;
  Array sums = conv::bind(x, ones, c, loc);
  return lax::div(sums, lax::scalar(static_cast<double>(size), av.dtype), loc);
}

}  // namespace nn

}  // namespace strata
