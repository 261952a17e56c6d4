// tracer/fft_rules.cpp — see fft_rules.h.
#include "fft_rules.h"

#include <array>
#include <string>

namespace strata::fft_rules {
namespace {

constexpr std::array<std::string_view, 4> kNames = {"FFT", "IFFT", "RFFT", "IRFFT"};

std::string list(const shape_rules::IntList& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

}  // namespace

std::string_view type_name(Type t) { return kNames[static_cast<size_t>(t)]; }

std::optional<Type> type_from_name(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<Type>(i);
  return std::nullopt;
}

std::optional<Type> type_from_int(int64_t v) {
  if (v < 0 || v > 3) return std::nullopt;
  return static_cast<Type>(v);
}

shape_rules::IntList operand_dims(Type t, const shape_rules::IntList& fft_lengths) {
  shape_rules::IntList d = fft_lengths;
  if (t == Type::kIrfft && !d.empty()) d.back() = d.back() / 2 + 1;
  return d;
}

shape_rules::Result shape(Type t, const Shape& operand, const shape_rules::IntList& fft_lengths) {
  const size_t k = fft_lengths.size();
  if (k < 1 || k > 3) return {{}, "expects 1 to 3 fft_lengths, but got " + list(fft_lengths)};
  for (int64_t n : fft_lengths)
    if (n < 0) return {{}, "expects non-negative fft_lengths, but got " + list(fft_lengths)};
  if (operand.size() < k)
    return {{}, "expects an operand of rank >= " + std::to_string(k) + " (the transformed dimensions last), but got " +
                    shape_string(operand)};
  shape_rules::IntList want = operand_dims(t, fft_lengths);
  shape_rules::IntList have(operand.end() - static_cast<std::ptrdiff_t>(k), operand.end());
  if (have != want) {
    std::string what = t == Type::kIrfft ? "(the last one n/2+1 for IRFFT) " : "";
    return {{}, "expects the operand's last " + std::to_string(k) + " dimensions " + what + "to be " + list(want) +
                    " for fft_lengths " + list(fft_lengths) + ", but got " + shape_string(operand)};
  }
  Shape r = operand;
  if (t == Type::kRfft) r.back() = fft_lengths.back() / 2 + 1;
  if (t == Type::kIrfft) r.back() = fft_lengths.back();
  return {r, {}};
}

}  // namespace strata::fft_rules
