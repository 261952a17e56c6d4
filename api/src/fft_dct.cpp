// api/src/fft_dct.cpp — jax.scipy.fft's DCT-II and its inverse (strata/fft.h), as JAX computes
// them: one complex FFT of the interleaved signal (x[0], x[2], …, then the odd samples
// reversed) and a quarter-wave twiddle.
#include <cmath>
#include <numbers>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/fft.h"
#include "strata/indexing.h"

namespace strata::fft {

namespace {

void check(int type, const std::string& norm, const char* op) {
  if (type != 2) throw ValueError(std::string(op) + ": only DCT type 2 is implemented (as JAX), but got type " + std::to_string(type));
  if (norm != "backward" && norm != "ortho")
    throw ValueError(std::string(op) + ": norm must be \"backward\" or \"ortho\", but got \"" + norm + "\"");
}

// x with its length along `axis` made n: zeros appended, or the end cut off.
Array resized(const Array& x, int axis, int64_t n) {
  int64_t len = x.shape(axis);
  if (n == len) return x;
  if (n < 1) throw ValueError("dct: the length must be positive, but got " + std::to_string(n));
  if (n < len) return api::slice_along(x, axis, 0, n, 1, SourceLocation::current());
  std::vector<std::pair<int64_t, int64_t>> widths(static_cast<size_t>(x.ndim()), {0, 0});
  widths[static_cast<size_t>(axis)] = {0, n - len};
  return pad(x, widths);
}

// v along axis 0..n-1 as a vector broadcasting against x along `axis`.
Array along(const Array& v, int axis, int ndim) {
  Shape shape(static_cast<size_t>(ndim), 1);
  shape[static_cast<size_t>(axis)] = v.shape(0);
  return reshape(v, shape);
}

// The orthonormal scaling 1 / sqrt(f_k N), f_0 = 4, f_k = 2.
Array ortho_scale(int64_t n, int axis, int ndim, DType dt) {
  std::vector<double> f(static_cast<size_t>(n), 0);
  for (int64_t k = 0; k < n; ++k) f[static_cast<size_t>(k)] = 1.0 / std::sqrt((k == 0 ? 4.0 : 2.0) * static_cast<double>(n));
  return along(astype(array(f, {n}, DType::f64), dt), axis, ndim);
}

// exp(-iπk / 2N), k = 0..N-1.
Array quarter_twiddle(int64_t n, int axis, int ndim, DType complex_dt, double sign) {
  std::vector<double> re(static_cast<size_t>(n)), im(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    double a = -0.5 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(n) * sign;
    re[static_cast<size_t>(k)] = std::cos(a);
    im[static_cast<size_t>(k)] = std::sin(a);
  }
  Array w = complex(array(re, {n}, DType::f64), array(im, {n}, DType::f64));
  return along(astype(w, complex_dt), axis, ndim);
}

// Applies f to the real and imaginary parts of complex x.
template <class F>
Array per_part(const Array& x, F f) {
  return complex(f(real(x)), f(imag(x)));
}

}  // namespace

Array dct(const Array& x_in, int type, std::optional<int64_t> n, int axis_in, const std::string& norm, SourceLocation loc) {
  const char* op = "dct";
  check(type, norm, op);
  if (is_complex(api::aval(x_in, op).dtype))
    return per_part(x_in, [&](const Array& p) { return dct(p, type, n, axis_in, norm, loc); });
  Array x = api::to_inexact(x_in, op, loc);
  const int axis = api::normalize_axis(op, axis_in, api::aval(x, op));
  if (n) x = resized(x, axis, *n);
  const int64_t len = x.shape(axis);
  // v = x[0], x[2], …, x[odd…] reversed.
  std::vector<int32_t> perm;
  for (int64_t i = 0; i < len; i += 2) perm.push_back(static_cast<int32_t>(i));
  for (int64_t i = len % 2 == 0 ? len - 1 : len - 2; i >= 1; i -= 2) perm.push_back(static_cast<int32_t>(i));
  Array v = take(x, array(perm, {len}), axis);
  Array spectrum = fft(astype(v, complex_dtype(x.dtype())), std::nullopt, axis);
  Array out = 2.0 * real(spectrum * quarter_twiddle(len, axis, x.ndim(), spectrum.dtype(), 1.0));
  if (norm == "ortho") out = out * ortho_scale(len, axis, x.ndim(), out.dtype());
  return out;
}

Array idct(const Array& x_in, int type, std::optional<int64_t> n, int axis_in, const std::string& norm, SourceLocation loc) {
  const char* op = "idct";
  check(type, norm, op);
  if (is_complex(api::aval(x_in, op).dtype))
    return per_part(x_in, [&](const Array& p) { return idct(p, type, n, axis_in, norm, loc); });
  Array x = api::to_inexact(x_in, op, loc);
  const int axis = api::normalize_axis(op, axis_in, api::aval(x, op));
  if (n) x = resized(x, axis, *n);
  const int64_t len = x.shape(axis);
  Array scale = ortho_scale(len, axis, x.ndim(), x.dtype());
  x = norm == "ortho" ? x * scale : x * scale * scale;
  Array w = quarter_twiddle(len, axis, x.ndim(), complex_dtype(x.dtype()), 1.0);
  Array z = ifft(astype(x, w.dtype()) / w * (2.0 * static_cast<double>(len)), std::nullopt, axis);
  // Undo the interleave: even outputs from the first half, odd ones from the second reversed.
  std::vector<int32_t> perm(static_cast<size_t>(len));
  for (int64_t i = 0; i < len; ++i)
    perm[static_cast<size_t>(i)] = static_cast<int32_t>(i % 2 == 0 ? i / 2 : len - 1 - (i - 1) / 2);
  return take(real(z), array(perm, {len}), axis);
}

namespace {
// The axes of dctn/idctn: given, or the last len(s), or all.
std::vector<int> dct_axes(const Array& x, const Lengths& s, const AxisList& axes, const char* op) {
  if (s && static_cast<int>(s->size()) > x.ndim())
    throw ValueError(std::string(op) + ": s has " + std::to_string(s->size()) + " entries for an array of rank " + std::to_string(x.ndim()));
  std::vector<int> out;
  if (axes) {
    for (int a : *axes) out.push_back(api::normalize_axis(op, a, api::aval(x, op)));
  } else {
    int first = s ? x.ndim() - static_cast<int>(s->size()) : 0;
    for (int a = first; a < x.ndim(); ++a) out.push_back(a);
  }
  if (s && s->size() != out.size())
    throw ValueError(std::string(op) + ": s and axes must have the same length");
  return out;
}
}  // namespace

Array dctn(const Array& x, int type, const Lengths& s, const AxisList& axes, const std::string& norm, SourceLocation loc) {
  check(type, norm, "dctn");
  std::vector<int> ax = dct_axes(x, s, axes, "dctn");
  Array y = x;
  for (size_t i = 0; i < ax.size(); ++i) y = dct(y, type, s ? std::optional<int64_t>((*s)[i]) : std::nullopt, ax[i], norm, loc);
  return y;
}

Array idctn(const Array& x, int type, const Lengths& s, const AxisList& axes, const std::string& norm, SourceLocation loc) {
  check(type, norm, "idctn");
  std::vector<int> ax = dct_axes(x, s, axes, "idctn");
  Array y = x;
  for (size_t i = 0; i < ax.size(); ++i) y = idct(y, type, s ? std::optional<int64_t>((*s)[i]) : std::nullopt, ax[i], norm, loc);
  return y;
}

}  // namespace strata::fft
