// api/src/random_checks.h — what the random samplers share (random.cpp, random_more.cpp): the
// argument checks, the parameters' broadcast to the draw's shape, finfo.tiny, constants of a
// dtype, a key split into its subkeys.
#pragma once

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "op_helpers.h"
#include "strata/ops.h"
#include "strata/random.h"

namespace strata::random::detail {

inline void check_key(const Array& key, std::string_view op) {
  const AbstractValue& av = api::aval(key, op);
  if (av.dtype != DType::i32 || av.shape != Shape{2})
    throw ValueError(std::string(op) + ": expects a key (i32[2], from random::key or random::split), but got " + av.str());
}

inline void check_shape(const Shape& shape, std::string_view op) {
  for (int64_t d : shape)
    if (d < 0) throw ValueError(std::string(op) + ": expects non-negative dimensions, but got " + shape_string(shape));
  if (num_elements(shape) >= (int64_t{1} << 31))
    throw ValueError(std::string(op) + ": at most 2^31 - 1 elements are supported, but got " + shape_string(shape));
}

inline void check_float(DType dtype, std::string_view op) {
  if (!is_floating(dtype))
    throw DTypeError(std::string(op) + ": expects a floating-point dtype, but got " + std::string(short_name(dtype)));
  // JAX draws floats from their bits: it refuses the 6- and 4-bit floats, and its e8m0fnu
  // draws are nan (no sign, no mantissa); strata refuses both.
  if (bit_width(dtype) < 8 || dtype == DType::f8_e8m0fnu)
    throw DTypeError(std::string(op) + ": expects a floating-point dtype of 8, 16, 32 or 64 bits with a sign and a mantissa, but got " +
                     std::string(short_name(dtype)) + "; draw in f32 and convert with astype");
}

// The smallest normal number (finfo.tiny; an 8-bit float's own, as JAX's gumbel takes it).
inline double tiny(DType t) { return finfo(t).tiny; }

// NumPy's broadcast of two shapes, or nullopt when they do not broadcast.
inline std::optional<Shape> broadcast_pair(const Shape& a, const Shape& b) {
  Shape r(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < r.size(); ++i) {
    int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1, y = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (x != y && x != 1 && y != 1) return std::nullopt;
    r[r.size() - 1 - i] = x == 1 ? y : x;
  }
  return r;
}

// `x` (dtype t) broadcast to `shape`, which it must broadcast to (JAX's _check_shape).
inline Array fit(const Array& x, const Shape& shape, DType t, std::string_view op, const SourceLocation& loc) {
  Array y = api::convert(x, {t, false}, loc);
  const AbstractValue& av = api::aval(y, op);
  if (av.shape == shape) return y;
  std::optional<Shape> b = broadcast_pair(av.shape, shape);
  if (!b || *b != shape)
    throw ShapeError(std::string(op) + ": a parameter of shape " + shape_string(av.shape) +
                     " does not broadcast to the requested shape " + shape_string(shape));
  return broadcast_to(y, shape, loc);
}

// The broadcast shape of parameters, for a default `shape`.
inline Shape param_shape(std::string_view op, const std::vector<Array>& xs) {
  Shape acc;
  for (const Array& x : xs) {
    std::optional<Shape> b = broadcast_pair(acc, api::aval(x, op).shape);
    if (!b) throw ShapeError(std::string(op) + ": parameters of shapes " + shape_string(acc) + " and " +
                             shape_string(api::aval(x, op).shape) + " do not broadcast");
    acc = *b;
  }
  return acc;
}

// v as a 0-d array of dtype t.
inline Array c(double v, DType t) { return lax::scalar(v, t); }

// split(key, n) as n separate keys (JAX's `a, b = split(key)`).
inline std::vector<Array> split_keys(const Array& key, int n, const SourceLocation& loc) {
  Array ks = split(key, n, loc);
  std::vector<Array> out;
  for (int i = 0; i < n; ++i) out.push_back(key_at(ks, i, loc));
  return out;
}

}  // namespace strata::random::detail
