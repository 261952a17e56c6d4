// api/src/fft.cpp — strata/fft.h: jax.numpy.fft over the one primitive `fft`
// (tracer/primitives/fft.cpp), following jnp.fft's _fft_core: the axes moved last, the input
// cropped or zero-padded to the lengths, the transform, the norm's scale, the axes moved back.
#include "strata/fft.h"

#include <algorithm>
#include <cmath>

#include "fft_rules.h"
#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/creation.h"

namespace strata::fft {
namespace {

using fft_rules::Type;

std::string str(std::string_view v) { return std::string(v); }

std::string list_str(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

// The scale `norm` puts on a transform of `points` points (after the primitive's own 1/N on
// the inverse ones).
double norm_factor(std::string_view name, const std::string& norm, bool inverse, double points) {
  if (norm == "backward") return 1.0;
  if (norm == "ortho") return inverse ? std::sqrt(points) : 1.0 / std::sqrt(points);
  if (norm == "forward") return inverse ? points : 1.0 / points;
  throw ValueError(str(name) + ": expects norm \"backward\", \"ortho\" or \"forward\", but got \"" + norm + "\"");
}

// hfft and ihfft scale as the transform in the other direction (NumPy's _swap_direction).
std::string swap_direction(const std::string& norm) {
  return norm == "backward" ? "forward" : norm == "forward" ? "backward" : norm;
}

// `a` in the dtype the transform takes: real f32/f64 for RFFT, else complex.
Array prepare(std::string_view name, Type t, const Array& a, const SourceLocation& loc) {
  const AbstractValue& av = api::aval(a, name);
  if (t == Type::kRfft) {
    if (is_complex(av.dtype))
      throw DTypeError(str(name) + ": expects a real array (use fft for complex ones), but got " + av.str());
    Array x = api::to_inexact(a, name, loc);
    return x.dtype() == DType::f32 || x.dtype() == DType::f64 ? x : astype(x, DType::f32, loc);
  }
  if (is_complex(av.dtype)) return a;
  Array x = api::to_inexact(a, name, loc);
  return astype(x, x.dtype() == DType::f64 ? DType::c128 : DType::c64, loc);
}

// x's last dimensions cropped or zero-padded to `sizes`.
Array fit(const Array& x, const std::vector<int64_t>& sizes, const SourceLocation& loc) {
  const Shape& s = x.shape();
  const size_t rank = s.size(), k = sizes.size();
  IntList start(rank, 0), limit(s.begin(), s.end()), strides(rank, 1), low(rank, 0), high(rank, 0), interior(rank, 0);
  bool crop = false, grow = false;
  for (size_t i = 0; i < k; ++i) {
    const size_t d = rank - k + i;
    if (s[d] > sizes[i]) limit[d] = sizes[i], crop = true;
    if (s[d] < sizes[i]) high[d] = sizes[i] - s[d], grow = true;
  }
  Array y = crop ? lax::slice(x, start, limit, strides, loc) : x;
  return grow ? lax::pad(y, lax::scalar(0.0, y.dtype()), low, high, interior, loc) : y;
}

struct Options {
  bool conj_input = false, conj_output = false;  // hfft, ihfft
  bool default_axes_all = true;                  // fftn-style defaults (else: axes given)
};

// jnp.fft's _fft_core.
Array core(std::string_view name, Type t, const Array& a, const Lengths& s, const AxisList& axes_in, const std::string& norm,
           const SourceLocation& loc, Options o = {}) {
  const bool inverse = t == Type::kIfft || t == Type::kIrfft;
  norm_factor(name, norm, inverse, 1.0);  // checks the name of the norm first
  const std::string given = api::aval(a, name).str();  // for messages: the user's array
  Array x = prepare(name, t, a, loc);
  if (o.conj_input) x = conj(x, loc);
  const AbstractValue& av = api::aval(x, name);
  const int rank = static_cast<int>(av.shape.size());
  if (s && axes_in && s->size() != axes_in->size())
    throw ValueError(str(name) + ": expects s and axes of one length, but got " + std::to_string(s->size()) + " and " +
                     std::to_string(axes_in->size()));
  std::vector<int> axes;
  if (axes_in) {
    for (int ax : *axes_in) axes.push_back(api::normalize_axis(name, ax, av));
  } else {
    const int k = s ? static_cast<int>(s->size()) : rank;
    if (k > rank)
      throw ValueError(str(name) + ": expects at most " + std::to_string(rank) + " lengths for an array of rank " +
                       std::to_string(rank) + ", but got s=" + list_str(*s));
    for (int d = rank - k; d < rank; ++d) axes.push_back(d);
  }
  for (size_t i = 0; i < axes.size(); ++i)
    if (std::count(axes.begin(), axes.end(), axes[i]) > 1)
      throw ValueError(str(name) + ": expects distinct axes, but got axis " + std::to_string(axes[i]) + " twice");
  if (axes.size() > 3)
    throw ValueError(str(name) + ": transforms 1 to 3 axes at once (as XLA), but got " + std::to_string(axes.size()) +
                     " axes of " + given);
  if (axes.empty()) return o.conj_output ? conj(x, loc) : x;
  if (s)
    for (int64_t v : *s)
      if (v < 1) throw ValueError(str(name) + ": expects lengths >= 1, but got " + list_str(*s));

  // The transformed axes last, in their order.
  std::vector<int> perm;
  for (int d = 0; d < rank; ++d)
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) perm.push_back(d);
  perm.insert(perm.end(), axes.begin(), axes.end());
  bool moved = false;
  for (int d = 0; d < rank; ++d) moved |= perm[static_cast<size_t>(d)] != d;
  if (moved) x = transpose(x, perm, loc);

  const size_t k = axes.size();
  std::vector<int64_t> lengths;
  if (s) {
    lengths = *s;
    std::vector<int64_t> in = fft_rules::operand_dims(t, lengths);
    x = fit(x, in, loc);
  } else {
    for (size_t i = 0; i < k; ++i) lengths.push_back(x.shape()[static_cast<size_t>(rank) - k + i]);
    if (t == Type::kIrfft) lengths.back() = 2 * (lengths.back() - 1);
    for (int64_t v : lengths)
      if (v < 1)
        throw ValueError(str(name) + ": expects transform lengths >= 1, but got " + list_str(lengths) + " from " + given +
                         (t == Type::kIrfft ? " (give n: the output length)" : ""));
  }
  Array y = lax::bind1(prim::kFft, {x}, Params{{"fft_type", static_cast<int64_t>(t)}, {"fft_lengths", IntList(lengths)}}, loc);
  double points = 1.0;
  for (int64_t v : lengths) points *= static_cast<double>(v);
  if (double f = norm_factor(name, norm, inverse, points); f != 1.0) y = lax::mul(y, lax::full({y.shape(), y.dtype()}, f), loc);
  if (o.conj_output) y = conj(y, loc);
  if (moved) {
    std::vector<int> back(static_cast<size_t>(rank));
    for (int d = 0; d < rank; ++d) back[static_cast<size_t>(perm[static_cast<size_t>(d)])] = d;
    y = transpose(y, back, loc);
  }
  return y;
}

Lengths one(std::optional<int64_t> n) { return n ? Lengths(std::vector<int64_t>{*n}) : std::nullopt; }

}  // namespace

Array fft(const Array& a, std::optional<int64_t> n, int axis, const std::string& norm, SourceLocation loc) {
  return core("fft", Type::kFft, a, one(n), std::vector<int>{axis}, norm, loc);
}
Array ifft(const Array& a, std::optional<int64_t> n, int axis, const std::string& norm, SourceLocation loc) {
  return core("ifft", Type::kIfft, a, one(n), std::vector<int>{axis}, norm, loc);
}
Array rfft(const Array& a, std::optional<int64_t> n, int axis, const std::string& norm, SourceLocation loc) {
  return core("rfft", Type::kRfft, a, one(n), std::vector<int>{axis}, norm, loc);
}
Array irfft(const Array& a, std::optional<int64_t> n, int axis, const std::string& norm, SourceLocation loc) {
  return core("irfft", Type::kIrfft, a, one(n), std::vector<int>{axis}, norm, loc);
}
// NumPy's: hfft(a) = irfft(conj(a)) with the norm's direction swapped; ihfft(a) = conj(rfft(a)) likewise.
Array hfft(const Array& a, std::optional<int64_t> n, int axis, const std::string& norm, SourceLocation loc) {
  norm_factor("hfft", norm, false, 1.0);
  return core("hfft", Type::kIrfft, a, one(n), std::vector<int>{axis}, swap_direction(norm), loc, {.conj_input = true});
}
Array ihfft(const Array& a, std::optional<int64_t> n, int axis, const std::string& norm, SourceLocation loc) {
  norm_factor("ihfft", norm, false, 1.0);
  return core("ihfft", Type::kRfft, a, one(n), std::vector<int>{axis}, swap_direction(norm), loc, {.conj_output = true});
}

Array fftn(const Array& a, const Lengths& s, const AxisList& axes, const std::string& norm, SourceLocation loc) {
  return core("fftn", Type::kFft, a, s, axes, norm, loc);
}
Array ifftn(const Array& a, const Lengths& s, const AxisList& axes, const std::string& norm, SourceLocation loc) {
  return core("ifftn", Type::kIfft, a, s, axes, norm, loc);
}
Array rfftn(const Array& a, const Lengths& s, const AxisList& axes, const std::string& norm, SourceLocation loc) {
  return core("rfftn", Type::kRfft, a, s, axes, norm, loc);
}
Array irfftn(const Array& a, const Lengths& s, const AxisList& axes, const std::string& norm, SourceLocation loc) {
  return core("irfftn", Type::kIrfft, a, s, axes, norm, loc);
}

Array fft2(const Array& a, const Lengths& s, const std::vector<int>& axes, const std::string& norm, SourceLocation loc) {
  return core("fft2", Type::kFft, a, s, axes, norm, loc);
}
Array ifft2(const Array& a, const Lengths& s, const std::vector<int>& axes, const std::string& norm, SourceLocation loc) {
  return core("ifft2", Type::kIfft, a, s, axes, norm, loc);
}
Array rfft2(const Array& a, const Lengths& s, const std::vector<int>& axes, const std::string& norm, SourceLocation loc) {
  return core("rfft2", Type::kRfft, a, s, axes, norm, loc);
}
Array irfft2(const Array& a, const Lengths& s, const std::vector<int>& axes, const std::string& norm, SourceLocation loc) {
  return core("irfft2", Type::kIrfft, a, s, axes, norm, loc);
}

namespace {
Array frequencies(std::string_view name, int64_t n, double d, DType dtype, bool half) {
  if (n < 1) throw ValueError(str(name) + ": expects n >= 1, but got " + std::to_string(n));
  if (!is_inexact(dtype)) throw DTypeError(str(name) + ": expects a float or complex dtype, but got " + std::string(short_name(dtype)));
  std::vector<double> v;
  const double scale = 1.0 / (static_cast<double>(n) * d);
  const int64_t count = half ? n / 2 + 1 : n;
  for (int64_t i = 0; i < count; ++i) v.push_back(static_cast<double>(half || i < (n + 1) / 2 ? i : i - n) * scale);
  return array(v, {count}, dtype);
}

Array shift(std::string_view name, const Array& x, const AxisList& axes, bool inverse, const SourceLocation& loc) {
  const AbstractValue& av = api::aval(x, name);
  std::vector<int> list;
  if (axes)
    for (int a : *axes) list.push_back(api::normalize_axis(name, a, av));
  else
    for (int d = 0; d < static_cast<int>(av.shape.size()); ++d) list.push_back(d);
  Array y = x;
  for (int a : list) {
    const int64_t half = av.shape[static_cast<size_t>(a)] / 2;
    y = roll(y, inverse ? -half : half, a, loc);
  }
  return y;
}
}  // namespace

Array fftfreq(int64_t n, double d, DType dtype) { return frequencies("fftfreq", n, d, dtype, false); }
Array rfftfreq(int64_t n, double d, DType dtype) { return frequencies("rfftfreq", n, d, dtype, true); }
Array fftshift(const Array& x, const AxisList& axes, SourceLocation loc) { return shift("fftshift", x, axes, false, loc); }
Array ifftshift(const Array& x, const AxisList& axes, SourceLocation loc) { return shift("ifftshift", x, axes, true, loc); }

}  // namespace strata::fft
