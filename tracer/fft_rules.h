// tracer/fft_rules.h — jax.lax.fft (StableHLO's fft): the four transform types (JAX's numbering)
// and the shape rule, in plain C++ shared by the primitive (tracer/primitives/fft.cpp), the
// dialect's strata.fft verifier, the lowering and the kernel (kernels/fft.h). Messages follow
// shape_rules.h: "expects X, but got Y", no op name.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "shape_rules.h"

namespace strata::fft_rules {

// FFT and IFFT: complex → complex; RFFT: real → complex, the last transformed dimension n
// becoming n/2+1 (the non-negative frequencies); IRFFT: its inverse, complex → real. The
// inverse transforms include the 1/N scaling (as XLA's and NumPy's).
enum class Type : int64_t { kFft = 0, kIfft = 1, kRfft = 2, kIrfft = 3 };

std::string_view type_name(Type t);  // "FFT", "IFFT", "RFFT", "IRFFT" (StableHLO's spelling)
std::optional<Type> type_from_name(std::string_view name);
std::optional<Type> type_from_int(int64_t v);

inline bool takes_complex(Type t) { return t != Type::kRfft; }
inline bool gives_complex(Type t) { return t != Type::kIrfft; }

// The result shape of a transform over the last fft_lengths.size() (1 to 3) dimensions:
// their sizes must equal fft_lengths (IRFFT: the last one fft_lengths.back()/2+1).
shape_rules::Result shape(Type t, const Shape& operand, const shape_rules::IntList& fft_lengths);

// The operand's transformed dimensions for fft_lengths (IRFFT's last one n/2+1).
shape_rules::IntList operand_dims(Type t, const shape_rules::IntList& fft_lengths);

}  // namespace strata::fft_rules
