// api/src/signal_spectral.cpp — st::signal's windowed-FFT family (jax.scipy.signal): windows,
// stft, istft, csd, welch. One helper, JAX's _spectral_helper: segments gathered from the
// (extended, padded) signal, detrended, windowed, FFT'd and scaled.
#include <cmath>
#include <numbers>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/fft.h"
#include "strata/indexing.h"
#include "strata/signal.h"
#include "strata/statistics.h"

namespace strata::signal {

namespace {
constexpr double kPi = std::numbers::pi;

std::string shape_of(const Array& a) { return type_string(a.dtype(), a.shape()); }

// The real dtype of the complex results of data of dtype t (f64 and c128: f64; else f32).
DType real_of(DType t) { return real_dtype(complex_dtype(t)); }
}  // namespace

Array get_window(const std::string& name, int64_t n) {
  if (n < 1) throw ValueError("get_window: the length must be positive, but got " + std::to_string(n));
  std::vector<double> w(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    double t = 2 * kPi * static_cast<double>(k) / static_cast<double>(n);  // periodic: period n
    double& v = w[static_cast<size_t>(k)];
    if (name == "hann" || name == "hanning") v = 0.5 - 0.5 * std::cos(t);
    else if (name == "hamming") v = 0.54 - 0.46 * std::cos(t);
    else if (name == "blackman") v = 0.42 - 0.5 * std::cos(t) + 0.08 * std::cos(2 * t);
    else if (name == "bartlett") v = 1 - std::fabs(2.0 * static_cast<double>(k) / static_cast<double>(n) - 1);
    else if (name == "boxcar" || name == "rectangular" || name == "ones") v = 1;
    else
      throw ValueError("get_window: unknown window \"" + name +
                       "\" (hann, hamming, blackman, bartlett or boxcar; or pass the window's values)");
  }
  if (name == "hann" || name == "hanning") {
    // JAX's own hann: sin²(πk/n), [1] for n = 1.
    for (int64_t k = 0; k < n; ++k) {
      double s = std::sin(kPi * static_cast<double>(k) / static_cast<double>(n));
      w[static_cast<size_t>(k)] = n == 1 ? 1.0 : s * s;
    }
  }
  return array(w, {n}, DType::f64);
}

namespace {

// JAX's _triage_segments: the window (of dtype dt) and the segment length.
std::pair<Array, int64_t> triage(const Window& window, std::optional<int64_t> nperseg, int64_t input_length, DType dt,
                                 const char* op) {
  if (!window.values) {
    int64_t n = nperseg.value_or(input_length);
    if (n > input_length) n = input_length;  // JAX warns and shortens
    return {astype(get_window(window.name, n), dt), n};
  }
  Array win = astype(*window.values, dt);
  if (win.ndim() != 1) throw ShapeError(std::string(op) + ": the window must be 1-d, but got " + shape_of(win));
  int64_t n = nperseg.value_or(win.size());
  if (input_length < win.size())
    throw ValueError(std::string(op) + ": the window (" + std::to_string(win.size()) + ") is longer than the signal (" +
                     std::to_string(input_length) + ")");
  if (n != win.size())
    throw ValueError(std::string(op) + ": nperseg " + std::to_string(n) + " differs from the window's length " + std::to_string(win.size()));
  return {win, n};
}

// x extended by n at both ends of its last axis: "even" (reflect), "odd" (2 x_end - reflect),
// "constant" (edge), "zeros".
Array extend(const Array& x, int64_t n, const std::string& boundary, const char* op) {
  if (n < 1) return x;
  std::vector<std::pair<int64_t, int64_t>> widths(static_cast<size_t>(x.ndim()), {0, 0});
  widths.back() = {n, n};
  if (boundary == "even") return pad(x, widths, "reflect");
  if (boundary == "constant") return pad(x, widths, "edge");
  if (boundary == "zeros") return pad(x, widths, "constant");
  // odd: 2·x[0] - x[n:0:-1] before, 2·x[-1] - x[-2:-n-2:-1] after.
  const int64_t len = x.shape(-1);
  if (n > len - 1)
    throw ValueError(std::string(op) + ": the extension length " + std::to_string(n) + " must not exceed the signal's length - 1 (" +
                     std::to_string(len - 1) + ")");
  auto part = [&](int64_t lo, int64_t hi) { return api::slice_along(x, x.ndim() - 1, lo, hi, 1, SourceLocation::current()); };
  Array left = 2.0 * part(0, 1) - flip(part(1, n + 1), -1);
  Array right = 2.0 * part(len - 1, len) - flip(part(len - n - 1, len - 1), -1);
  return concatenate({left, x, right}, -1);
}

Array zeros_at_end(const Array& x, int64_t n) {
  if (n <= 0) return x;
  std::vector<std::pair<int64_t, int64_t>> widths(static_cast<size_t>(x.ndim()), {0, 0});
  widths.back() = {0, n};
  return pad(x, widths, "constant");
}

// The detrend of each segment along its last axis.
Array detrend_segments(const Array& s, const std::string& type, const char* op) {
  if (type == "none" || type.empty()) return s;
  if (type != "constant" && type != "linear")
    throw ValueError(std::string(op) + ": detrend must be \"constant\", \"linear\" or \"none\", but got \"" + type + "\"");
  return detrend(s, -1, type);
}

// JAX's _fft_helper: the segments [..., nseg, nperseg] of x (last axis), detrended, windowed and
// FFT'd along the last axis (rfft one-sided).
Array fft_segments(const Array& x, const Array& win, const std::string& detrend_type, int64_t nperseg, int64_t noverlap,
                   int64_t nfft, bool twosided, const char* op) {
  const int64_t len = x.shape(-1), step = nperseg - noverlap;
  Array segs;
  if (nperseg == 1 && noverlap == 0) {
    segs = expand_dims(x, -1);
  } else {
    int64_t nseg = len >= nperseg ? (len - nperseg) / step + 1 : 0;
    std::vector<int32_t> idx;
    for (int64_t s = 0; s < nseg; ++s)
      for (int64_t k = 0; k < nperseg; ++k) idx.push_back(static_cast<int32_t>(s * step + k));
    segs = take(x, array(idx, {nseg, nperseg}), -1);
  }
  segs = detrend_segments(segs, detrend_type, op);
  segs = segs * win;
  if (twosided) return fft::fft(segs, nfft);
  return fft::rfft(real(segs), nfft);
}

struct Spectral {
  Array freqs, time, result;
};

// JAX's _spectral_helper (mode "psd" with or without y, or "stft").
Spectral spectral(const Array& x_in, const std::optional<Array>& y_in, double fs, const Window& window,
                  std::optional<int64_t> nperseg, std::optional<int64_t> noverlap, std::optional<int64_t> nfft,
                  const std::string& detrend_type, bool return_onesided, const std::string& scaling, int axis_in,
                  bool stft_mode, const std::string& boundary, bool padded, const char* op) {
  SourceLocation loc = SourceLocation::current();
  if (boundary != "none" && boundary != "even" && boundary != "odd" && boundary != "constant" && boundary != "zeros")
    throw ValueError(std::string(op) + ": boundary must be \"even\", \"odd\", \"constant\", \"zeros\" or \"none\", but got \"" + boundary + "\"");
  Array x, y;
  if (y_in) std::tie(x, y) = api::promote_inexact_dtypes(op, x_in, *y_in, loc);
  else x = api::to_inexact(x_in, op, loc);
  if (y_in && x.ndim() != y.ndim())
    throw ShapeError(std::string(op) + ": x " + shape_of(x) + " and y " + shape_of(y) + " must have the same rank");
  const int axis = api::normalize_axis(op, axis_in, api::aval(x, op));
  const DType result_dtype = complex_dtype(x.dtype()), freq_dtype = real_of(x.dtype());
  if (nperseg && *nperseg < 1) throw ValueError(std::string(op) + ": nperseg must be a positive integer, but got " + std::to_string(*nperseg));
  auto [win, n] = triage(window, nperseg, x.shape(axis), freq_dtype, op);
  const int64_t overlap = noverlap.value_or(n / 2), fft_len = nfft.value_or(n);
  x = moveaxis(x, axis, -1);
  if (y_in) {
    if (y.ndim() > 1) y = moveaxis(y, axis, -1);
    // The shorter signal is zero-padded to the longer one's length.
    if (x.shape(-1) < y.shape(-1)) x = zeros_at_end(x, y.shape(-1) - x.shape(-1));
    else if (y.shape(-1) < x.shape(-1)) y = zeros_at_end(y, x.shape(-1) - y.shape(-1));
  }
  if (fft_len < n) throw ValueError(std::string(op) + ": nfft must be at least nperseg");
  if (overlap >= n) throw ValueError(std::string(op) + ": noverlap must be less than nperseg");
  const int64_t step = n - overlap;
  if (boundary != "none") {
    x = extend(x, n / 2, boundary, op);
    if (y_in) y = extend(y, n / 2, boundary, op);
  }
  if (padded) {
    auto mod = [](int64_t a, int64_t m) { return ((a % m) + m) % m; };  // Python's %
    int64_t nadd = mod(mod(-(x.shape(-1) - n), step), n);
    x = zeros_at_end(x, nadd);
    if (y_in) y = zeros_at_end(y, nadd);
  }
  // The window may be traced (a window argument of a jitted function): the scale is an array.
  if (scaling != "density" && scaling != "spectrum")
    throw ValueError(std::string(op) + ": scaling must be \"density\" or \"spectrum\", but got \"" + scaling + "\"");
  Array scale = scaling == "density" ? 1.0 / (fs * sum(win * win)) : 1.0 / square(sum(win));
  if (stft_mode) scale = sqrt(scale);
  const bool twosided = !return_onesided || is_complex(x.dtype()) || (y_in && is_complex(y.dtype()));
  Array freqs = twosided ? fft::fftfreq(fft_len, 1 / fs, freq_dtype) : fft::rfftfreq(fft_len, 1 / fs, freq_dtype);
  Array result = fft_segments(x, win, detrend_type, n, overlap, fft_len, twosided, op);
  if (y_in) result = conj(result) * fft_segments(y, win, detrend_type, n, overlap, fft_len, twosided, op);
  else if (!stft_mode) result = conj(result) * result;
  result = result * astype(scale, result.dtype());
  if (!twosided && !stft_mode) {
    // One-sided densities count the negative frequencies twice (not DC, nor Nyquist for even nfft).
    const int64_t nf = result.shape(-1);
    std::vector<double> factor(static_cast<size_t>(nf), 2.0);
    factor[0] = 1.0;
    if (fft_len % 2 == 0) factor.back() = 1.0;
    result = result * astype(array(factor, {nf}, DType::f64), real_of(result.dtype()));
  }
  // Segment times: the centres nperseg/2, + step, ... (shifted back by the extension).
  std::vector<double> times;
  const double half = static_cast<double>(n) / 2;
  for (double t = half; t < static_cast<double>(x.shape(-1)) - half + 1; t += static_cast<double>(step))
    times.push_back((boundary != "none" ? t - half : t) / fs);
  Array time = astype(array(times, {static_cast<int64_t>(times.size())}, DType::f64), freq_dtype);
  result = astype(result, result_dtype);
  if (!y_in && !stft_mode) result = real(result);
  // [..., segments, freqs] -> the frequencies in the signal axis' place, segments last.
  result = moveaxis(result, -1, axis);
  return {freqs, time, result};
}

// The segments' average along the last axis: mean, or median (real and imaginary parts
// apart) over the median's bias.
Array average_segments(const Array& p, const std::string& average, const char* op) {
  if (p.ndim() < 2 || p.size() == 0) return p;
  if (p.shape(-1) == 1) return squeeze(p, -1);
  if (average == "mean") return mean(p, -1);
  if (average != "median") throw ValueError(std::string(op) + ": average must be \"mean\" or \"median\", but got \"" + average + "\"");
  double bias = 1;
  for (int64_t i = 2; i < p.shape(-1); i += 2) bias += 1.0 / static_cast<double>(i + 1) - 1.0 / static_cast<double>(i);
  Array med = is_complex(p.dtype()) ? complex(median(real(p), -1), median(imag(p), -1)) : median(p, -1);
  return med / astype(Array(bias), real_of(med.dtype()));
}

}  // namespace

std::pair<Array, Array> csd(const Array& x, const Array& y, const SpectralOptions& o) {
  Spectral s = spectral(x, y, o.fs, o.window, o.nperseg, o.noverlap, o.nfft, o.detrend, o.return_onesided, o.scaling, o.axis,
                        false, "none", false, "csd");
  return {s.freqs, average_segments(s.result, o.average, "csd")};
}

std::pair<Array, Array> welch(const Array& x, const SpectralOptions& o) {
  Spectral s = spectral(x, std::nullopt, o.fs, o.window, o.nperseg, o.noverlap, o.nfft, o.detrend, o.return_onesided, o.scaling,
                        o.axis, false, "none", false, "welch");
  return {s.freqs, real(average_segments(s.result, o.average, "welch"))};
}

std::tuple<Array, Array, Array> stft(const Array& x, const StftOptions& o) {
  Spectral s = spectral(x, std::nullopt, o.fs, o.window, o.nperseg, o.noverlap, o.nfft, o.detrend, o.return_onesided, "spectrum",
                        o.axis, true, o.boundary, o.padded, "stft");
  return {s.freqs, s.time, s.result};
}

std::pair<Array, Array> istft(const Array& zxx_in, const IstftOptions& o) {
  const char* op = "istft";
  if (zxx_in.ndim() < 2) throw ShapeError(std::string(op) + ": the STFT must be at least 2-d, but got " + shape_of(zxx_in));
  const AbstractValue& av = api::aval(zxx_in, op);
  const int freq_axis = api::normalize_axis(op, o.freq_axis, av), time_axis = api::normalize_axis(op, o.time_axis, av);
  if (freq_axis == time_axis) throw ValueError(std::string(op) + ": the time and frequency axes must differ");
  Array zxx = astype(zxx_in, complex_dtype(av.dtype));
  const int64_t n_default = o.input_onesided ? 2 * (zxx.shape(freq_axis) - 1) : zxx.shape(freq_axis);
  const int64_t n = o.nperseg.value_or(n_default);
  if (n < 1) throw ValueError(std::string(op) + ": nperseg must be a positive integer");
  int64_t fft_len = o.nfft.value_or(n_default + (o.input_onesided && n == n_default + 1 ? 1 : 0));
  if (fft_len < n) throw ValueError(std::string(op) + ": the FFT length (" + std::to_string(fft_len) + ") must be at least nperseg (" + std::to_string(n) + ")");
  const int64_t overlap = o.noverlap.value_or(n / 2);
  if (overlap >= n) throw ValueError(std::string(op) + ": noverlap must be less than nperseg");
  const int64_t step = n - overlap;
  if (time_axis != zxx.ndim() - 1 || freq_axis != zxx.ndim() - 2) {
    std::vector<int> perm;
    for (int d = 0; d < zxx.ndim(); ++d)
      if (d != time_axis && d != freq_axis) perm.push_back(d);
    perm.push_back(freq_axis);
    perm.push_back(time_axis);
    zxx = transpose(zxx, perm);
  }
  // Each segment back in time: [..., nperseg, segments].
  Array xsubs = o.input_onesided ? fft::irfft(zxx, o.nfft, -2) : fft::ifft(zxx, o.nfft, -2);
  xsubs = api::slice_along(xsubs, xsubs.ndim() - 2, 0, n, 1, SourceLocation::current());
  Array win;
  if (o.window.values) {
    win = astype(*o.window.values, xsubs.dtype());
    if (win.ndim() != 1) throw ShapeError(std::string(op) + ": the window must be 1-d");
    if (win.shape(0) != n) throw ValueError(std::string(op) + ": the window must have length " + std::to_string(n));
  } else {
    win = astype(get_window(o.window.name, n), xsubs.dtype());
  }
  xsubs = xsubs * sum(win);
  const int64_t nseg = xsubs.shape(-1);
  Array w = reshape(win, {n, 1});
  // Weighted overlap-add of the frames [..., segments, nperseg] into [..., length], and of the
  // squared window for the normalisation.
  const int64_t length = step * (nseg - 1) + n;
  std::vector<int32_t> idx;
  for (int64_t s = 0; s < nseg; ++s)
    for (int64_t k = 0; k < n; ++k) idx.push_back(static_cast<int32_t>(s * step + k));
  Array positions = array(idx, {nseg, n});
  auto overlap_add = [&](const Array& frames) {
    Shape out(frames.shape().begin(), frames.shape().end() - 2);
    out.push_back(length);
    std::vector<Index> at(static_cast<size_t>(frames.ndim() - 2), strata::all());
    at.push_back(positions);
    return At(zeros(out, frames.dtype()), at).add(frames);
  };
  Array x = overlap_add(swapaxes(xsubs * w, -2, -1));
  Array norm = overlap_add(swapaxes(repeat(w * w, nseg, -1), -2, -1));
  if (o.boundary) {
    const int64_t cut = n / 2;
    auto trim = [&](const Array& a) {
      return api::slice_along(a, a.ndim() - 1, cut, a.shape(-1) - cut, 1, SourceLocation::current());
    };
    x = trim(x);
    norm = trim(norm);
  }
  x = x / where(norm > 1e-10, norm, 1.0);
  int t_axis = time_axis;
  if (x.ndim() > 1 && time_axis != zxx_in.ndim() - 1) {
    if (freq_axis < t_axis) --t_axis;
    x = moveaxis(x, -1, t_axis);
  }
  // The sample times along the time axis (JAX and scipy count x.shape[0], the same for 1-d x).
  const int64_t samples = x.ndim() > 1 ? x.shape(x.ndim() > 1 && time_axis != zxx_in.ndim() - 1 ? t_axis : -1) : x.shape(0);
  Array time = astype(arange(samples), real_of(x.dtype())) / o.fs;
  return {time, x};
}

}  // namespace strata::signal
