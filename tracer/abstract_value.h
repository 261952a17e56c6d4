// tracer/abstract_value.h — what a tracer knows of an array: shape, dtype and weak type.
#pragma once

#include <string>

#include "strata/dtype.h"
#include "strata/shape.h"

namespace strata {

struct AbstractValue {
  Shape shape;
  DType dtype = DType::f32;
  bool weak = false;

  int ndim() const { return static_cast<int>(shape.size()); }
  int64_t size() const { return num_elements(shape); }
  std::size_t nbytes() const { return static_cast<std::size_t>(size()) * itemsize(dtype); }
  // "f32[3,4]"
  std::string str() const { return type_string(dtype, shape); }
  friend bool operator==(const AbstractValue&, const AbstractValue&) = default;
};

}  // namespace strata
