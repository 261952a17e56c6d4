// api/src/signal_convolve.cpp — st::signal's convolutions and detrend (jax.scipy.signal), with
// JAX's swaps, paddings and slices.
#include <algorithm>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/conv.h"
#include "strata/creation.h"
#include "strata/fft.h"
#include "strata/linalg.h"
#include "strata/signal.h"

namespace strata::signal {

namespace {

void check_mode(const std::string& mode, const char* op) {
  if (mode != "full" && mode != "same" && mode != "valid")
    throw ValueError(std::string(op) + ": mode must be \"full\", \"same\" or \"valid\", but got \"" + mode + "\"");
}

std::string shape_of(const Array& a) { return type_string(a.dtype(), a.shape()); }

// JAX's _convolve_nd: the smaller operand flipped and slid over the larger by
// conv_general_dilated, padded for the mode (for "same", centred on the original in1).
Array convolve_nd(const Array& a, const Array& b, const std::string& mode, const char* op, const SourceLocation& loc) {
  check_mode(mode, op);
  if (a.ndim() != b.ndim())
    throw ShapeError(std::string(op) + ": in1 " + shape_of(a) + " and in2 " + shape_of(b) + " must have the same rank");
  if (a.size() == 0 || b.size() == 0)
    throw ValueError(std::string(op) + ": zero-size arrays are not supported, got " + shape_of(a) + " and " + shape_of(b));
  auto [in1, in2] = api::promote_inexact_dtypes(op, a, b, loc);
  bool no_swap = true, swap = true;
  for (int d = 0; d < in1.ndim(); ++d) {
    no_swap = no_swap && in1.shape(d) >= in2.shape(d);
    swap = swap && in1.shape(d) <= in2.shape(d);
  }
  if (!no_swap && !swap)
    throw ValueError(std::string(op) + ": one input must be smaller than the other in every dimension, but got " + shape_of(a) +
                     " and " + shape_of(b));
  Shape shape_o = in2.shape();
  if (swap) std::swap(in1, in2);
  Shape s = in2.shape();
  Array kernel = flip(in2, {}, loc);
  std::vector<std::pair<int64_t, int64_t>> padding;
  std::vector<int64_t> strides(s.size(), 1);
  for (size_t d = 0; d < s.size(); ++d) {
    if (mode == "valid") padding.push_back({0, 0});
    else if (mode == "same") padding.push_back({s[d] - 1 - (shape_o[d] - 1) / 2, s[d] - shape_o[d] + (shape_o[d] - 1) / 2});
    else padding.push_back({s[d] - 1, s[d] - 1});
  }
  Shape l = in1.shape(), k = kernel.shape();
  l.insert(l.begin(), {1, 1});
  k.insert(k.begin(), {1, 1});
  Array r = conv_general_dilated(reshape(in1, l, loc), reshape(kernel, k, loc), strides, padding, {}, {}, {}, 1, 1, loc);
  Shape out(r.shape().begin() + 2, r.shape().end());
  return reshape(r, out, loc);
}

void check_2d(const Array& a, const Array& b, const std::string& boundary, double fillvalue, const char* op) {
  if (boundary != "fill" || fillvalue != 0)
    throw ValueError(std::string(op) + ": only boundary \"fill\" with fillvalue 0 is supported (as JAX)");
  if (a.ndim() != 2 || b.ndim() != 2)
    throw ShapeError(std::string(op) + ": expects 2-d inputs, but got " + shape_of(a) + " and " + shape_of(b));
}

}  // namespace

Array convolve(const Array& in1, const Array& in2, const std::string& mode, const std::string& method, SourceLocation loc) {
  if (method == "fft") return fftconvolve(in1, in2, mode, std::nullopt, loc);
  if (method != "direct" && method != "auto")
    throw ValueError("convolve: method must be \"auto\", \"fft\" or \"direct\", but got \"" + method + "\"");
  return convolve_nd(in1, in2, mode, "convolve", loc);
}

Array correlate(const Array& in1, const Array& in2, const std::string& mode, const std::string& method, SourceLocation loc) {
  return convolve(in1, flip(conj(in2, loc), {}, loc), mode, method, loc);
}

Array convolve2d(const Array& in1, const Array& in2, const std::string& mode, const std::string& boundary, double fillvalue,
                 SourceLocation loc) {
  check_2d(in1, in2, boundary, fillvalue, "convolve2d");
  return convolve_nd(in1, in2, mode, "convolve2d", loc);
}

// JAX's correlate2d: scipy's results (which for "full" and "valid" depend on which operand is
// larger) through flipped convolutions.
Array correlate2d(const Array& a, const Array& b, const std::string& mode, const std::string& boundary, double fillvalue,
                  SourceLocation loc) {
  const char* op = "correlate2d";
  check_2d(a, b, boundary, fillvalue, op);
  bool swap = a.shape(0) <= b.shape(0) && a.shape(1) <= b.shape(1);
  bool same_shape = a.shape() == b.shape();
  if (mode == "same") return flip(convolve_nd(flip(a, {}, loc), conj(b, loc), mode, op, loc), {}, loc);
  if (mode == "valid") {
    if (swap && !same_shape) return convolve_nd(flip(b, {}, loc), conj(a, loc), mode, op, loc);
    return flip(convolve_nd(flip(a, {}, loc), conj(b, loc), mode, op, loc), {}, loc);
  }
  if (swap) return conj(convolve_nd(flip(b, {}, loc), conj(a, loc), mode, op, loc), loc);
  return flip(convolve_nd(flip(a, {}, loc), conj(b, loc), mode, op, loc), {}, loc);
}

Array fftconvolve(const Array& a, const Array& b, const std::string& mode, const std::optional<std::vector<int>>& axes_in,
                  SourceLocation loc) {
  const char* op = "fftconvolve";
  check_mode(mode, op);
  auto [in1, in2] = api::promote_inexact_dtypes(op, a, b, loc);
  if (in1.ndim() != in2.ndim())
    throw ShapeError(std::string(op) + ": in1 " + shape_of(a) + " and in2 " + shape_of(b) + " must have the same rank");
  std::vector<int> axes;
  if (axes_in) {
    for (int ax : *axes_in) axes.push_back(api::normalize_axis(op, ax, api::aval(in1, op)));
  } else {
    for (int d = 0; d < in1.ndim(); ++d) axes.push_back(d);
  }
  auto is_axis = [&](int d) { return std::find(axes.begin(), axes.end(), d) != axes.end(); };
  // The other axes are batch axes: they must match (JAX vmaps over them).
  for (int d = 0; d < in1.ndim(); ++d)
    if (!is_axis(d) && in1.shape(d) != in2.shape(d))
      throw ShapeError(std::string(op) + ": the axes not convolved must match, but got " + shape_of(a) + " and " + shape_of(b));
  if (mode == "valid") {
    bool no_swap = true, swap = true;
    for (int d : axes) {
      no_swap = no_swap && in1.shape(d) >= in2.shape(d);
      swap = swap && in1.shape(d) <= in2.shape(d);
    }
    if (!no_swap && !swap)
      throw ValueError(std::string(op) + ": for \"valid\" mode one input must be at least as large as the other in every dimension");
    if (swap) std::swap(in1, in2);
  }
  std::vector<int64_t> full_shape;
  bool trivial = true;  // every convolved axis has a length-1 operand: the product is the convolution
  for (int d : axes) {
    full_shape.push_back(in1.shape(d) + in2.shape(d) - 1);
    trivial = trivial && (in1.shape(d) == 1 || in2.shape(d) == 1);
  }
  Array conv;
  if (trivial) {
    conv = in1 * in2;
  } else if (is_complex(in1.dtype())) {
    conv = fft::ifftn(fft::fftn(in1, full_shape, axes, "backward", loc) * fft::fftn(in2, full_shape, axes, "backward", loc),
                      full_shape, axes, "backward", loc);
  } else {
    conv = fft::irfftn(fft::rfftn(in1, full_shape, axes, "backward", loc) * fft::rfftn(in2, full_shape, axes, "backward", loc),
                       full_shape, axes, "backward", loc);
  }
  // The mode's part of the full convolution, centred.
  std::vector<int64_t> start(static_cast<size_t>(conv.ndim()), 0), stop(conv.shape().begin(), conv.shape().end());
  for (size_t i = 0; i < axes.size(); ++i) {
    int d = axes[i];
    int64_t out = mode == "full" ? full_shape[i] : mode == "same" ? in1.shape(d) : in1.shape(d) - in2.shape(d) + 1;
    int64_t full = conv.shape(d);
    start[static_cast<size_t>(d)] = (full - out) / 2;
    stop[static_cast<size_t>(d)] = start[static_cast<size_t>(d)] + out;
  }
  return slice(conv, start, stop, {}, loc);
}

Array detrend(const Array& data, int axis, const std::string& type, const std::vector<int64_t>& bp, SourceLocation loc) {
  const char* op = "detrend";
  if (type != "constant" && type != "linear")
    throw ValueError(std::string(op) + ": type must be \"linear\" or \"constant\", but got \"" + type + "\"");
  Array x = api::to_inexact(data, op, loc);
  int a = api::normalize_axis(op, axis, api::aval(x, op));
  if (type == "constant") return x - mean(x, a, true, loc);
  const int64_t n = x.shape(a);
  std::vector<int64_t> points = bp;
  points.push_back(0);
  points.push_back(n);
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  if (points.front() < 0 || points.back() > n)
    throw ValueError(std::string(op) + ": breakpoints must lie in [0, " + std::to_string(n) + "], the length along the axis");
  Array moved = moveaxis(x, a, 0, loc);
  Shape shape = moved.shape();
  Array flat = reshape(moved, {n, -1}, loc);
  // Each piece minus its least-squares line in (1, t/Npts), t = 1..Npts (JAX's and scipy's basis).
  std::vector<Array> pieces;
  for (size_t m = 0; m + 1 < points.size(); ++m) {
    const int64_t lo = points[m], hi = points[m + 1], npts = hi - lo;
    Array t = (astype(arange(npts), x.dtype()) + 1.0) / static_cast<double>(npts);
    Array basis = stack({ones({npts}, x.dtype()), t}, 1);  // [npts, 2]
    Array piece = slice(flat, {lo, 0}, {hi, flat.shape(1)}, {}, loc);
    Array coef = linalg::lstsq(basis, piece).x;
    pieces.push_back(piece - matmul(basis, coef));
  }
  Array out = pieces.size() == 1 ? pieces[0] : concatenate(pieces, 0, loc);
  return moveaxis(reshape(out, shape, loc), 0, a, loc);
}

}  // namespace strata::signal
