// strata/creation.h — making arrays: from values, from buffers, and the usual constructors.
#pragma once

#include <initializer_list>
#include <optional>
#include <vector>

#include "strata/array.h"

namespace strata {

// An array of `dtype` from `count` raw row-major elements of type `src` (copied and
// converted); `count` must equal the shape's number of elements.
Array array_from_data(const void* data, std::size_t count, DType src, const Shape& shape, DType dtype);

// array({1.f, 2.f, 3.f, 4.f}, {2, 2}) — values in row-major order, converted to `dtype`
// (by default the values' own type). A missing shape means a 1-d array.
template <class T>
Array array(const std::vector<T>& values, const Shape& shape, DType dtype = dtype_of<T>()) {
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<uint8_t> bytes(values.begin(), values.end());
    return array_from_data(bytes.data(), bytes.size(), DType::bool_, shape, dtype);
  } else {
    return array_from_data(values.data(), values.size(), dtype_of<T>(), shape, dtype);
  }
}
template <class T>
Array array(std::initializer_list<T> values, const Shape& shape, DType dtype = dtype_of<T>()) {
  return array(std::vector<T>(values), shape, dtype);
}
template <class T>
Array array(std::initializer_list<T> values) {
  return array(std::vector<T>(values), Shape{static_cast<int64_t>(values.size())});
}

// Copies `shape`'s worth of elements of `dtype` from `ptr` (the caller keeps its buffer).
Array from_buffer(const void* ptr, const Shape& shape, DType dtype);

Array zeros(const Shape& shape, DType dtype = f32);
Array ones(const Shape& shape, DType dtype = f32);
// Every element equal to `value` (converted to `dtype`).
Array full(const Shape& shape, double value, DType dtype = f32);
Array zeros_like(const Array& x);
Array ones_like(const Array& x);
// start, start + step, ... below stop.
Array arange(double start, double stop, double step = 1.0, DType dtype = f32);
Array arange(int64_t stop, DType dtype = i32);
// `num` evenly spaced values from start to stop inclusive.
Array linspace(double start, double stop, int64_t num, DType dtype = f32);
// An n×m matrix with ones on diagonal k (m defaults to n).
Array eye(int64_t n, int64_t m = -1, int64_t k = 0, DType dtype = f32);
// jnp.linspace with endpoint: without it, num values from start up to (not including) stop.
Array linspace(double start, double stop, int64_t num, bool endpoint, DType dtype = f32);
// jnp.logspace: base^linspace(start, stop, num, endpoint); jnp.geomspace: num values from start
// to stop in geometric progression (both of one sign, neither 0: ValueError otherwise).
Array logspace(double start, double stop, int64_t num = 50, bool endpoint = true, double base = 10.0, DType dtype = f32);
Array geomspace(double start, double stop, int64_t num = 50, bool endpoint = true, DType dtype = f32);
// x's shape (or `shape`) filled with `value`, of x's dtype unless one is given (jnp.full_like).
Array full_like(const Array& x, double value, std::optional<DType> dtype = std::nullopt,
                std::optional<Shape> shape = std::nullopt);
// jnp.tri: an n×m matrix (m defaults to n) of ones on and below diagonal k, zeros above.
Array tri(int64_t n, std::optional<int64_t> m = std::nullopt, int64_t k = 0, DType dtype = f32);
// Window functions of length m (jnp.bartlett, blackman, hamming, hanning, kaiser with shape
// parameter beta), symmetric, as NumPy defines them; [1] for m = 1, empty for m <= 0.
Array bartlett(int64_t m, DType dtype = f32);
Array blackman(int64_t m, DType dtype = f32);
Array hamming(int64_t m, DType dtype = f32);
Array hanning(int64_t m, DType dtype = f32);
Array kaiser(int64_t m, double beta, DType dtype = f32);

}  // namespace strata
