// Creating arrays. Creation makes concrete arrays at once (inside a trace they are captured as
// constants when used).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "array_impl.h"
#include "bessel_i.h"
#include "device_eager.h"
#include "kernels/types.h"
#include "strata/creation.h"

namespace strata {

namespace {

void check_shape(const char* op, const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) throw ValueError(std::string(op) + ": expects non-negative dimensions, but got " + shape_string(shape));
    // The byte count must fit too (8-byte elements at most).
    if (__builtin_mul_overflow(n, d, &n) || n > (int64_t{1} << 59))
      throw ValueError(std::string(op) + ": shape " + shape_string(shape) + " has too many elements");
  }
}

// A concrete array of `dtype` filled from f64 values produced by gen(i).
template <class Gen>
Array generate(const Shape& shape, DType dtype, Gen gen) {
  detail::apply_default_device_environment();
  Array out = detail::make_concrete(AbstractValue{shape, dtype, false});
  std::vector<double> tmp(static_cast<size_t>(out.size()));
  for (size_t i = 0; i < tmp.size(); ++i) tmp[i] = gen(static_cast<int64_t>(i));
  kernels::convert_elements(tmp.data(), DType::f64, detail::mutable_data(out), dtype, out.size());
  return out;
}

}  // namespace

Array array_from_data(const void* data, std::size_t count, DType src, const Shape& shape, DType dtype) {
  check_shape("array", shape);
  if (static_cast<int64_t>(count) != num_elements(shape))
    throw ShapeError("array: got " + std::to_string(count) + " values for shape " + shape_string(shape) +
                     " (" + std::to_string(num_elements(shape)) + " elements)");
  detail::apply_default_device_environment();
  Array out = detail::make_concrete(AbstractValue{shape, dtype, false});
  kernels::convert_elements(data, src, detail::mutable_data(out), dtype, out.size());
  return out;
}

Array from_buffer(const void* ptr, const Shape& shape, DType dtype) {
  check_shape("from_buffer", shape);
  if (!ptr && num_elements(shape) > 0) throw ValueError("from_buffer: got a null pointer for " + type_string(dtype, shape));
  detail::apply_default_device_environment();
  Array out = detail::make_concrete(AbstractValue{shape, dtype, false});
  if (out.nbytes()) std::memcpy(detail::mutable_data(out), ptr, out.nbytes());
  return out;
}

Array full(const Shape& shape, double value, DType dtype) {
  check_shape("full", shape);
  return generate(shape, dtype, [&](int64_t) { return value; });
}
Array zeros(const Shape& shape, DType dtype) { return full(shape, 0.0, dtype); }
Array ones(const Shape& shape, DType dtype) { return full(shape, 1.0, dtype); }
Array zeros_like(const Array& x) { return zeros(x.shape(), x.dtype()); }
Array ones_like(const Array& x) { return ones(x.shape(), x.dtype()); }

Array arange(double start, double stop, double step, DType dtype) {
  if (step == 0 || !std::isfinite(step) || !std::isfinite(start) || !std::isfinite(stop))
    throw ValueError("arange: expects finite start, stop and a non-zero step");
  double count = std::ceil((stop - start) / step);
  if (count > static_cast<double>(int64_t{1} << 53))
    throw ValueError("arange: the range from " + std::to_string(start) + " to " + std::to_string(stop) + " by " +
                     std::to_string(step) + " has too many elements");
  int64_t n = std::max<int64_t>(0, static_cast<int64_t>(count));
  return generate({n}, dtype, [&](int64_t i) { return start + static_cast<double>(i) * step; });
}
Array arange(int64_t stop, DType dtype) { return arange(0.0, static_cast<double>(stop), 1.0, dtype); }

Array linspace(double start, double stop, int64_t num, DType dtype) {
  if (num < 0) throw ValueError("linspace: expects num >= 0, but got " + std::to_string(num));
  double step = num > 1 ? (stop - start) / static_cast<double>(num - 1) : 0.0;
  return generate({num}, dtype, [&](int64_t i) { return i == num - 1 && num > 1 ? stop : start + static_cast<double>(i) * step; });
}

Array eye(int64_t n, int64_t m, int64_t k, DType dtype) {
  if (m < 0) m = n;
  if (n < 0) throw ValueError("eye: expects n >= 0, but got " + std::to_string(n));
  return generate({n, m}, dtype, [&](int64_t i) { return (i % m) - (i / m) == k ? 1.0 : 0.0; });
}

Array linspace(double start, double stop, int64_t num, bool endpoint, DType dtype) {
  if (endpoint) return linspace(start, stop, num, dtype);
  if (num < 0) throw ValueError("linspace: expects num >= 0, but got " + std::to_string(num));
  double step = num > 0 ? (stop - start) / static_cast<double>(num) : 0.0;
  return generate({num}, dtype, [&](int64_t i) { return start + static_cast<double>(i) * step; });
}

// Computed in f64 and rounded once to dtype (JAX computes in dtype: within an ulp or two).
Array logspace(double start, double stop, int64_t num, bool endpoint, double base, DType dtype) {
  if (num < 0) throw ValueError("logspace: expects num >= 0, but got " + std::to_string(num));
  int64_t div = endpoint ? num - 1 : num;
  double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
  return generate({num}, dtype, [&](int64_t i) {
    double e = endpoint && i == num - 1 && num > 1 ? stop : start + static_cast<double>(i) * step;
    return std::pow(base, e);
  });
}

Array geomspace(double start, double stop, int64_t num, bool endpoint, DType dtype) {
  if (start == 0 || stop == 0 || (start < 0) != (stop < 0))
    throw ValueError("geomspace: start and stop must be non-zero and of one sign, but got " + std::to_string(start) +
                     " and " + std::to_string(stop));
  double sign = start < 0 ? -1.0 : 1.0;
  double a = std::log10(start * sign), b = std::log10(stop * sign);
  int64_t div = endpoint ? num - 1 : num;
  if (num < 0) throw ValueError("geomspace: expects num >= 0, but got " + std::to_string(num));
  double step = div > 0 ? (b - a) / static_cast<double>(div) : 0.0;
  return generate({num}, dtype, [&](int64_t i) {
    if (i == 0) return start;
    if (endpoint && i == num - 1) return stop;
    return sign * std::pow(10.0, a + static_cast<double>(i) * step);
  });
}

Array full_like(const Array& x, double value, std::optional<DType> dtype, std::optional<Shape> shape) {
  if (!x.valid()) throw ValueError("full_like: got a null Array");
  Shape s = shape ? *shape : x.shape();
  check_shape("full_like", s);
  return full(s, value, dtype.value_or(x.dtype()));
}

Array tri(int64_t n, std::optional<int64_t> m_opt, int64_t k, DType dtype) {
  int64_t m = m_opt.value_or(n);
  if (n < 0 || m < 0) throw ValueError("tri: expects non-negative sizes, but got " + std::to_string(n) + " × " + std::to_string(m));
  return generate({n, m}, dtype, [&](int64_t i) { return (i % m) - (i / m) <= k ? 1.0 : 0.0; });
}

namespace {

// A symmetric window w(i) of length m (NumPy's conventions: 1 for m = 1, empty below).
template <class W>
Array window(const char* op, int64_t m, DType dtype, W w) {
  if (!is_floating(dtype)) throw DTypeError(std::string(op) + ": expects a floating-point dtype, but got " + std::string(short_name(dtype)));
  if (m <= 0) return generate({0}, dtype, [](int64_t) { return 0.0; });
  if (m == 1) return generate({1}, dtype, [](int64_t) { return 1.0; });
  const double d = static_cast<double>(m - 1);
  return generate({m}, dtype, [&](int64_t i) { return w(static_cast<double>(i), d); });
}

}  // namespace

Array bartlett(int64_t m, DType dtype) {
  return window("bartlett", m, dtype, [](double n, double d) { return 1 - std::fabs(2 * n - d) / d; });
}
Array blackman(int64_t m, DType dtype) {
  return window("blackman", m, dtype, [](double n, double d) {
    return 0.42 - 0.5 * std::cos(2 * M_PI * n / d) + 0.08 * std::cos(4 * M_PI * n / d);
  });
}
Array hamming(int64_t m, DType dtype) {
  return window("hamming", m, dtype, [](double n, double d) { return 0.54 - 0.46 * std::cos(2 * M_PI * n / d); });
}
Array hanning(int64_t m, DType dtype) {
  return window("hanning", m, dtype, [](double n, double d) { return 0.5 * (1 - std::cos(2 * M_PI * n / d)); });
}
Array kaiser(int64_t m, double beta, DType dtype) {
  return window("kaiser", m, dtype, [beta](double n, double d) {
    // I0(x) / I0(b) = i0e(x) / i0e(b) · e^(x - b) for 0 <= x <= b: no overflow at any beta.
    double alpha = d / 2, r = (n - alpha) / alpha, b = std::fabs(beta);
    double x = b * std::sqrt(std::max(0.0, 1 - r * r));
    return bessel_i::i0e(x) / bessel_i::i0e(b) * std::exp(x - b);
  });
}

}  // namespace strata
