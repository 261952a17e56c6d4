// strata/shape_dtype.h — ShapeDtypeStruct (jax.ShapeDtypeStruct): a shape and a dtype, what a
// callback declares it returns and what eval_shape takes and gives.
#pragma once

#include <string>
#include <utility>

#include "strata/dtype.h"
#include "strata/shape.h"

namespace strata {

class Array;

struct ShapeDtypeStruct {
  Shape shape;
  DType dtype = DType::f32;
  ShapeDtypeStruct(Shape s, DType t) : shape(std::move(s)), dtype(t) {}
  // Those of `like`.
  explicit ShapeDtypeStruct(const Array& like);
  // "f32[3,4]"
  std::string str() const { return type_string(dtype, shape); }
  friend bool operator==(const ShapeDtypeStruct&, const ShapeDtypeStruct&) = default;
};

}  // namespace strata
