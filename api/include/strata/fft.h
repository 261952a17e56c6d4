// strata/fft.h — discrete Fourier transforms (jax.numpy.fft, NumPy's conventions), over any
// 1 to 3 axes of an array: fft/ifft, rfft/irfft (real signals: n reals ↔ n/2+1 non-negative
// frequencies), hfft/ihfft (Hermitian signals), their 2-D and N-D forms, and the helpers
// fftfreq, rfftfreq, fftshift, ifftshift.
//
// All are built on one primitive, jax.lax.fft (`fft` in jaxprs, StableHLO's fft): eager, jitted
// (a call into the same code), differentiable and batchable. Real inputs of the complex
// transforms become complex (f32, f16, bf16 and integers → c64; f64 → c128); the real
// transforms take real arrays (integers and half floats promoted to f32) and refuse complex ones.
//
// `n` (or `s`) crops or zero-pads the input along the axis (axes) first; irfft's is the length
// of the output (default 2·(m-1) for m input frequencies). `norm` is NumPy's: "backward" (the
// inverse scaled by 1/n, the default), "ortho" (both by 1/sqrt(n)) or "forward" (the forward
// one by 1/n). Bad axes, lengths or norms raise ValueError naming the function.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata::fft {

using Lengths = std::optional<std::vector<int64_t>>;
using AxisList = std::optional<std::vector<int>>;

// One axis.
Array fft(const Array& a, std::optional<int64_t> n = std::nullopt, int axis = -1, const std::string& norm = "backward",
          SourceLocation loc = SourceLocation::current());
Array ifft(const Array& a, std::optional<int64_t> n = std::nullopt, int axis = -1, const std::string& norm = "backward",
           SourceLocation loc = SourceLocation::current());
Array rfft(const Array& a, std::optional<int64_t> n = std::nullopt, int axis = -1, const std::string& norm = "backward",
           SourceLocation loc = SourceLocation::current());
Array irfft(const Array& a, std::optional<int64_t> n = std::nullopt, int axis = -1, const std::string& norm = "backward",
            SourceLocation loc = SourceLocation::current());
// The transform of a signal with Hermitian symmetry given by its first half (a real spectrum),
// and its inverse (NumPy's hfft/ihfft).
Array hfft(const Array& a, std::optional<int64_t> n = std::nullopt, int axis = -1, const std::string& norm = "backward",
           SourceLocation loc = SourceLocation::current());
Array ihfft(const Array& a, std::optional<int64_t> n = std::nullopt, int axis = -1, const std::string& norm = "backward",
            SourceLocation loc = SourceLocation::current());

// Several axes (unset: every axis, or the last s.size() when s is given; at most 3).
Array fftn(const Array& a, const Lengths& s = std::nullopt, const AxisList& axes = std::nullopt,
           const std::string& norm = "backward", SourceLocation loc = SourceLocation::current());
Array ifftn(const Array& a, const Lengths& s = std::nullopt, const AxisList& axes = std::nullopt,
            const std::string& norm = "backward", SourceLocation loc = SourceLocation::current());
Array rfftn(const Array& a, const Lengths& s = std::nullopt, const AxisList& axes = std::nullopt,
            const std::string& norm = "backward", SourceLocation loc = SourceLocation::current());
Array irfftn(const Array& a, const Lengths& s = std::nullopt, const AxisList& axes = std::nullopt,
             const std::string& norm = "backward", SourceLocation loc = SourceLocation::current());

// The last two axes by default.
Array fft2(const Array& a, const Lengths& s = std::nullopt, const std::vector<int>& axes = {-2, -1},
           const std::string& norm = "backward", SourceLocation loc = SourceLocation::current());
Array ifft2(const Array& a, const Lengths& s = std::nullopt, const std::vector<int>& axes = {-2, -1},
            const std::string& norm = "backward", SourceLocation loc = SourceLocation::current());
Array rfft2(const Array& a, const Lengths& s = std::nullopt, const std::vector<int>& axes = {-2, -1},
            const std::string& norm = "backward", SourceLocation loc = SourceLocation::current());
Array irfft2(const Array& a, const Lengths& s = std::nullopt, const std::vector<int>& axes = {-2, -1},
             const std::string& norm = "backward", SourceLocation loc = SourceLocation::current());

// The sample frequencies of fft (n entries: 0, 1, …, then the negative ones) and of rfft
// (n/2+1 entries), in cycles per unit of the sample spacing d.
Array fftfreq(int64_t n, double d = 1.0, DType dtype = f32);
Array rfftfreq(int64_t n, double d = 1.0, DType dtype = f32);
// The zero frequency moved to the centre of the axes (every axis when unset), and back.
Array fftshift(const Array& x, const AxisList& axes = std::nullopt, SourceLocation loc = SourceLocation::current());
Array ifftshift(const Array& x, const AxisList& axes = std::nullopt, SourceLocation loc = SourceLocation::current());

// jax.scipy.fft's discrete cosine transforms, type 2 only (as JAX): dct along `axis` (n pads
// with zeros or truncates first), X_k = 2 Σ x_n cos(πk(2n + 1) / 2N), through one FFT of the
// even/odd-interleaved signal; norm "backward" (none) or "ortho". idct inverts it; dctn/idctn
// over several axes (all by default, or the last len(s)). Complex inputs transform their real
// and imaginary parts.
Array dct(const Array& x, int type = 2, std::optional<int64_t> n = std::nullopt, int axis = -1,
          const std::string& norm = "backward", SourceLocation loc = SourceLocation::current());
Array idct(const Array& x, int type = 2, std::optional<int64_t> n = std::nullopt, int axis = -1,
           const std::string& norm = "backward", SourceLocation loc = SourceLocation::current());
Array dctn(const Array& x, int type = 2, const Lengths& s = std::nullopt, const AxisList& axes = std::nullopt,
           const std::string& norm = "backward", SourceLocation loc = SourceLocation::current());
Array idctn(const Array& x, int type = 2, const Lengths& s = std::nullopt, const AxisList& axes = std::nullopt,
            const std::string& norm = "backward", SourceLocation loc = SourceLocation::current());

}  // namespace strata::fft
