// strata/signal.h — jax.scipy.signal in namespace st::signal: N-d convolution and correlation
// (direct, through conv_general_dilated, or by FFT), detrending, and the windowed-FFT family
// stft / istft / csd / welch, with JAX's (scipy's) modes, defaults and scaling.
//
//   st::Array y = st::signal::convolve(image, kernel, "same");
//   auto [f, pxx] = st::signal::welch(x, {.fs = 1000.0, .nperseg = 256});
//   auto [f2, t, zxx] = st::signal::stft(x, {.nperseg = 128});
//   auto [t2, x2] = st::signal::istft(zxx, {.nperseg = 128});
//
// Keyword arguments are the fields of an options struct (designated initializers). All are
// composites of the public ops (conv_general_dilated, fft, gathers): they trace, jit, vmap and
// differentiate.
#pragma once

#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata::signal {

// The convolution of two arrays of one rank, "full" (default), "same" (in1's shape, centred) or
// "valid"; method "auto" and "direct" use conv_general_dilated, "fft" fftconvolve.
Array convolve(const Array& in1, const Array& in2, const std::string& mode = "full", const std::string& method = "auto",
               SourceLocation loc = SourceLocation::current());
// convolve(in1, flip(conj(in2))).
Array correlate(const Array& in1, const Array& in2, const std::string& mode = "full", const std::string& method = "auto",
                SourceLocation loc = SourceLocation::current());
// The 2-d forms (boundary "fill" with fillvalue 0 only, as JAX).
Array convolve2d(const Array& in1, const Array& in2, const std::string& mode = "full", const std::string& boundary = "fill",
                 double fillvalue = 0, SourceLocation loc = SourceLocation::current());
Array correlate2d(const Array& in1, const Array& in2, const std::string& mode = "full", const std::string& boundary = "fill",
                  double fillvalue = 0, SourceLocation loc = SourceLocation::current());
// The convolution by FFT, over `axes` (all by default; the other axes must match and are
// batched).
Array fftconvolve(const Array& in1, const Array& in2, const std::string& mode = "full",
                  const std::optional<std::vector<int>>& axes = std::nullopt, SourceLocation loc = SourceLocation::current());

// data minus its least-squares line ("linear", piecewise between the breakpoints bp) or its
// mean ("constant") along `axis`.
Array detrend(const Array& data, int axis = -1, const std::string& type = "linear", const std::vector<int64_t>& bp = {0},
              SourceLocation loc = SourceLocation::current());

// A window: a name ("hann", "hamming", "blackman", "bartlett", "boxcar"; scipy's periodic
// forms, as get_window makes them for spectral analysis) or its values (1-d).
struct Window {
  Window(const char* name) : name(name) {}              // NOLINT: implicit on purpose
  Window(std::string name) : name(std::move(name)) {}   // NOLINT
  Window(Array values) : values(std::move(values)) {}   // NOLINT
  std::string name;
  std::optional<Array> values;
};
// scipy.signal.get_window(name, n) (periodic), in f64.
Array get_window(const std::string& name, int64_t n);

// csd's and welch's options (scipy's keywords). nperseg defaults to the signal's length (JAX's
// default for a named window), noverlap to nperseg / 2, nfft to nperseg; detrend "constant",
// "linear" or "none"; scaling "density" (V²/Hz) or "spectrum" (V²); average "mean" or "median".
struct SpectralOptions {
  double fs = 1.0;
  Window window = "hann";
  std::optional<int64_t> nperseg = std::nullopt, noverlap = std::nullopt, nfft = std::nullopt;
  std::string detrend = "constant";
  bool return_onesided = true;
  std::string scaling = "density";
  int axis = -1;
  std::string average = "mean";
};
// Welch's power spectral density estimate: (frequencies, Pxx), Pxx real with the frequency axis
// in place of `axis`.
std::pair<Array, Array> welch(const Array& x, const SpectralOptions& options = {});
// The cross spectral density of x and y: (frequencies, Pxy), complex.
std::pair<Array, Array> csd(const Array& x, const Array& y, const SpectralOptions& options = {});

// stft's options: boundary "zeros" (default), "even", "odd", "constant" or "none" extends the
// signal by nperseg / 2 at each end; padded zero-pads it to a whole number of segments.
struct StftOptions {
  double fs = 1.0;
  Window window = "hann";
  int64_t nperseg = 256;
  std::optional<int64_t> noverlap = std::nullopt, nfft = std::nullopt;
  std::string detrend = "none";
  bool return_onesided = true;
  std::string boundary = "zeros";
  bool padded = true;
  int axis = -1;
};
// The short-time Fourier transform: (frequencies, segment times, Zxx [..., freqs, segments]).
std::tuple<Array, Array, Array> stft(const Array& x, const StftOptions& options = {});

// istft's options: nperseg defaults to what a one-sided STFT of Zxx's length implies.
struct IstftOptions {
  double fs = 1.0;
  Window window = "hann";
  std::optional<int64_t> nperseg = std::nullopt, noverlap = std::nullopt, nfft = std::nullopt;
  bool input_onesided = true;
  bool boundary = true;
  int time_axis = -1, freq_axis = -2;
};
// The inverse STFT by weighted overlap-add: (times, x).
std::pair<Array, Array> istft(const Array& zxx, const IstftOptions& options = {});

}  // namespace strata::signal
