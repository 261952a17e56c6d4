// strata/array.h — Array: an immutable n-dimensional value, a cheap handle on shared data.
#pragma once

#include <complex>
#include <concepts>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "strata/device.h"
#include "strata/dtype.h"
#include "strata/shape.h"

namespace strata {

namespace detail {
struct ArrayImpl;
}  // namespace detail

// Indexing (strata/indexing.h): one entry of an index, and the functional-update view x.at(...).
struct Index;
class At;

// The dtype a C++ element type maps to: float → f32, double → f64, bool → bool_,
// std::complex<float> → c64, std::complex<double> → c128, and each integer type to the
// integer dtype of its width and signedness (int8_t → i8, uint32_t → u32).
template <class T>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, bool>) return DType::bool_;
  else if constexpr (std::is_same_v<T, std::complex<float>>) return DType::c64;
  else if constexpr (std::is_same_v<T, std::complex<double>>) return DType::c128;
  else if constexpr (std::is_same_v<T, float>) return DType::f32;
  else if constexpr (std::is_same_v<T, double>) return DType::f64;
  else if constexpr (std::is_integral_v<T>) return integer_dtype(static_cast<int>(8 * sizeof(T)), std::is_signed_v<T>);
  else static_assert(sizeof(T) == 0, "strata: no dtype for this C++ type");
}

// The dtype of a C++ scalar used as an operand (`x * 2`): weakly typed, as a Python scalar in
// JAX, so it takes the other operand's dtype. Integers are i32, or i64 when their values
// need it (64-bit types and uint32_t).
template <class T>
constexpr DType scalar_dtype_of() {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    return sizeof(T) < 4 || (sizeof(T) == 4 && std::is_signed_v<T>) ? DType::i32 : DType::i64;
  else return dtype_of<T>();
}

// An n-dimensional array of one dtype. Arrays are values: copying one copies a handle, and no
// operation ever modifies an Array's data. Inside a trace (make_jaxpr, jit, grad) an Array is a
// tracer: it has a shape and a dtype but no data.
class Array {
 public:
  // A null array (what a default-constructed pytree field holds). Every op rejects it.
  Array() = default;

  // C++ scalars become 0-d weakly typed arrays (bool is strongly typed), so `x * 2.0f` keeps
  // x's dtype. float → weak f32, double → weak f64, int → weak i32, int64_t → weak i64.
  template <class T>
    requires std::is_arithmetic_v<T>
  Array(T value) : Array(from_scalar(static_cast<double>(value), std::is_integral_v<T> ? static_cast<int64_t>(value) : 0,
                                     scalar_dtype_of<T>(), !std::is_same_v<T, bool>)) {}
  // A C++ complex scalar: a 0-d weakly typed c64 (std::complex<float>) or c128 array.
  template <class T>
    requires std::is_floating_point_v<T>
  Array(std::complex<T> value) : Array(from_complex(value.real(), value.imag(), dtype_of<std::complex<T>>())) {}

  const Shape& shape() const;
  int64_t shape(int axis) const;  // negative axes count from the end
  DType dtype() const;
  bool weak_type() const;
  int ndim() const;
  int64_t size() const;
  std::size_t nbytes() const;

  // Where the data lives (st::cpu() for every array made by the creation functions; a jitted
  // function's outputs live on its device, an eager op's where its operands do).
  Device device() const;
  // Waits until the computation producing this array is done (GPU work is asynchronous: a call
  // returns once its work is queued); returns *this. to_vector() and item() wait by themselves.
  const Array& block_until_ready() const;

  bool valid() const { return impl_ != nullptr; }
  // True inside a trace: the array is abstract and has no data.
  bool is_tracer() const;

  // The elements in row-major order, converted to T. Throws ConcretizationError on a tracer.
  template <class T>
  std::vector<T> to_vector() const {
    std::vector<T> out(static_cast<std::size_t>(size()));
    if constexpr (std::is_same_v<T, bool>) {  // std::vector<bool> has no data()
      std::vector<uint8_t> tmp(out.size());
      copy_to(tmp.data(), DType::bool_, "to_vector");
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = tmp[i] != 0;
    } else {
      copy_to(out.data(), dtype_of<T>(), "to_vector");
    }
    return out;
  }

  // The single element of a size-1 array, converted to T. Throws ConcretizationError on a
  // tracer and ValueError when size() != 1.
  template <class T>
  T item() const {
    check_single("item");
    if constexpr (std::is_same_v<T, bool>) {
      uint8_t v;
      copy_to(&v, DType::bool_, "item");
      return v != 0;
    } else {
      T v;
      copy_to(&v, dtype_of<T>(), "item");
      return v;
    }
  }

  // The truth of a size-1 array. On a tracer (a C++ `if` on a traced comparison) this throws
  // ConcretizationError naming the op that produced the value.
  explicit operator bool() const;

  // Raw row-major data of a concrete array (nullptr for a tracer); read-only.
  const void* data() const;

  // The whole array as numpy would print it: "array([1., 2.], dtype=float32)".
  std::string to_string() const;

  // NumPy/JAX indexing (strata/indexing.h): x[2], x[-1], x[{0, st::Slice(1, -1, 2)}],
  // x[idx_array]; and JAX's functional updates x.at({i, j}).set(v) / add / mul / min / max.
  Array operator[](const Index& i) const;
  Array operator[](std::initializer_list<Index> idx) const;
  At at(const Index& i) const;
  At at(std::initializer_list<Index> idx) const;

  // Internal: the shared state behind the handle.
  explicit Array(std::shared_ptr<detail::ArrayImpl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<detail::ArrayImpl>& impl() const { return impl_; }

 private:
  static Array from_scalar(double fvalue, int64_t ivalue, DType dtype, bool weak);
  static Array from_complex(double re, double im, DType dtype);
  void copy_to(void* dst, DType as, const char* what) const;
  void check_single(const char* what) const;

  std::shared_ptr<detail::ArrayImpl> impl_;
};

std::ostream& operator<<(std::ostream& os, const Array& a);

}  // namespace strata
