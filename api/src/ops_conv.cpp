// Convolution: the public conv_general_dilated (JAX's argument forms: padding strings,
// dimension-number strings) over the conv_general_dilated primitive.
#include "strata/conv.h"

#include <algorithm>
#include <cmath>

#include "op_helpers.h"
#include "primitives/conv_params.h"
#include "primitives/window.h"

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
    // As JAX: "SAME"-style padding is defined for the undilated input only.
    for (int64_t d : c.lhs_dilation)
      if (d != 1)
        throw ValueError("conv_general_dilated: string padding (\"" + padding.mode + "\") is not implemented for a "
                         "transposed convolution (lhs_dilation " + shape_rules::list_string(c.lhs_dilation) +
                         "); give the (low, high) padding pairs, or use conv_transpose");
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
  return conv_prim::bind(lhs, rhs, c, loc);
}

// ---- reduce_window (jax.lax.reduce_window with lax.add, lax.max, lax.min) ----

namespace {

Array reduce_window_of(window::Kind k, const char* op, const Array& x, const std::vector<int64_t>& window_dimensions,
                       const std::vector<int64_t>& window_strides, const Padding& padding,
                       const std::vector<int64_t>& base_dilation, const std::vector<int64_t>& window_dilation,
                       SourceLocation loc) {
  const AbstractValue& av = api::aval(x, op);
  const size_t r = static_cast<size_t>(av.ndim());
  auto or_ones = [&](const std::vector<int64_t>& v, const char* what) {
    if (v.empty()) return shape_rules::ones(r);
    if (v.size() != r)
      throw ValueError(std::string(op) + ": expects " + what + " of length " + std::to_string(r) + " for " + av.str() +
                       ", but got " + shape_rules::list_string(v));
    return v;
  };
  if (window_dimensions.size() != r)
    throw ValueError(std::string(op) + ": expects window_dimensions of length " + std::to_string(r) + " for " +
                     av.str() + ", but got " + shape_rules::list_string(window_dimensions));
  shape_rules::WindowParams w{window_dimensions, or_ones(window_strides, "window_strides"), {}, {},
                              or_ones(base_dilation, "base_dilation"), or_ones(window_dilation, "window_dilation")};
  if (padding.mode.empty()) {
    if (padding.pairs.size() != r)
      throw ValueError(std::string(op) + ": expects " + std::to_string(r) + " (low, high) padding pairs, but got " +
                       std::to_string(padding.pairs.size()));
    for (auto [lo, hi] : padding.pairs) {
      w.padding_low.push_back(lo);
      w.padding_high.push_back(hi);
    }
  } else {
    for (size_t d = 0; d < r; ++d) {
      if (window_dimensions[d] < 1 || w.window_strides[d] < 1 || w.base_dilation[d] < 1 || w.window_dilation[d] < 1)
        break;  // the shape rule names the bad value
      auto [lo, hi] = window_padding(op, padding.mode, shape_rules::dilated_size(av.shape[d], w.base_dilation[d]),
                                     shape_rules::dilated_size(window_dimensions[d], w.window_dilation[d]),
                                     w.window_strides[d]);
      w.padding_low.push_back(lo);
      w.padding_high.push_back(hi);
    }
    w.padding_low.resize(r, 0);
    w.padding_high.resize(r, 0);
  }
  return window::reduce(k, x, w, loc);
}

}  // namespace

Array reduce_window_sum(const Array& x, const std::vector<int64_t>& window_dimensions,
                        const std::vector<int64_t>& window_strides, const Padding& padding,
                        const std::vector<int64_t>& base_dilation, const std::vector<int64_t>& window_dilation,
                        SourceLocation loc) {
  return reduce_window_of(window::Kind::kSum, "reduce_window_sum", x, window_dimensions, window_strides, padding,
                          base_dilation, window_dilation, loc);
}
Array reduce_window_max(const Array& x, const std::vector<int64_t>& window_dimensions,
                        const std::vector<int64_t>& window_strides, const Padding& padding,
                        const std::vector<int64_t>& base_dilation, const std::vector<int64_t>& window_dilation,
                        SourceLocation loc) {
  return reduce_window_of(window::Kind::kMax, "reduce_window_max", x, window_dimensions, window_strides, padding,
                          base_dilation, window_dilation, loc);
}
Array reduce_window_min(const Array& x, const std::vector<int64_t>& window_dimensions,
                        const std::vector<int64_t>& window_strides, const Padding& padding,
                        const std::vector<int64_t>& base_dilation, const std::vector<int64_t>& window_dilation,
                        SourceLocation loc) {
  return reduce_window_of(window::Kind::kMin, "reduce_window_min", x, window_dimensions, window_strides, padding,
                          base_dilation, window_dilation, loc);
}

namespace nn {
namespace {

struct Pool {
  std::vector<int64_t> strides;
  std::vector<std::pair<int64_t, int64_t>> pads;
  // The window over (batch, spatial..., features): 1 in batch and features.
  shape_rules::WindowParams geometry(const std::vector<int64_t>& window) const {
    size_t r = window.size() + 2;
    shape_rules::WindowParams w{shape_rules::ones(r), shape_rules::ones(r), shape_rules::zeros(r),
                                shape_rules::zeros(r), shape_rules::ones(r), shape_rules::ones(r)};
    for (size_t i = 0; i < window.size(); ++i) {
      w.window_dimensions[i + 1] = window[i];
      w.window_strides[i + 1] = strides[i];
      w.padding_low[i + 1] = pads[i].first;
      w.padding_high[i + 1] = pads[i].second;
    }
    return w;
  }
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

// reduce_window_max over the spatial dimensions (padding reads -inf, so it never wins).
Array max_pool(const Array& x, const std::vector<int64_t>& window, const std::vector<int64_t>& strides,
               const Padding& padding, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "max_pool");
  if (!is_floating(av.dtype)) throw DTypeError("max_pool: expects a float operand, but got " + av.str());
  Pool g = pool_geometry("max_pool", av, window, strides, padding);
  return window::reduce(window::Kind::kMax, x, g.geometry(window), loc);
}

// The window sums (reduce_window_sum, padding reads 0) over the window's size.
Array avg_pool(const Array& x, const std::vector<int64_t>& window, const std::vector<int64_t>& strides,
               const Padding& padding, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "avg_pool");
  if (!is_inexact(av.dtype)) throw DTypeError("avg_pool: expects a float or complex operand, but got " + av.str());
  Pool g = pool_geometry("avg_pool", av, window, strides, padding);
  int64_t size = 1;
  for (int64_t w : window) size *= w;
  Array sums = window::reduce(window::Kind::kSum, x, g.geometry(window), loc);
  return lax::div(sums, lax::scalar(static_cast<double>(size), av.dtype), loc);
}

}  // namespace nn

}  // namespace strata
